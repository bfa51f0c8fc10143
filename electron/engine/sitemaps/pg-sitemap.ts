// The sitemap of a crawl in the PostgreSQL store (issue 19), as a crawl file's (write-sitemap.ts): the same pages, in
// the same order, read in one snapshot through a cursor a page of rows at a time on a connection of its own (a slow
// disk holds no read of the live views up), written by the same code.
import { connect, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { cursorPages } from '../analysis/pg-cursor.ts';
import { inCrawl } from '../analysis/pg-explorer.ts';
import { POSTGRES_FILTERS } from '../analysis/result-filters.ts';
import { type SitemapPage, sitemapPagesSql, type WriteSitemapOptions, type WrittenSitemap, writeSitemapPages } from './write-sitemap.ts';

/** The sitemap's pages in PostgreSQL's dialect: the kept response headers are JSON text. */
const PG_PAGES_SQL = sitemapPagesSql(POSTGRES_FILTERS.instr, (name) => `(r.response_headers::json ->> '${name}')`);

/** How many pages the sitemap of crawl `crawlId` lists. */
export function postgresSitemapPageCount(c: PgQuerier, crawlId: string): Promise<number> {
  return inCrawl(c, crawlId, async () => {
    const { rows } = await c.query<{ n: number }>(`SELECT count(*) AS n FROM (${PG_PAGES_SQL}) p`);
    return Number(rows[0]!.n);
  });
}

/** The sitemap of crawl `crawlId` of the store at `storeUrl`, to `outPath`; an unknown crawl is a StoreError. */
export async function writeStoreSitemap(
  storeUrl: string,
  crawlId: string,
  outPath: string,
  options: WriteSitemapOptions = {},
): Promise<WrittenSitemap> {
  const c = await connect(storeUrl, { applicationName: 'trawl sitemap' });
  try {
    const { settings } = await readCrawl(c, crawlId);
    const seeds = (settings as { seeds?: string[] } | null)?.seeds ?? [];
    async function* pages(): AsyncGenerator<SitemapPage> {
      for await (const page of cursorPages<[string, string | null]>(c, PG_PAGES_SQL, 5_000)) {
        for (const [url, lastModified] of page) yield { url, lastModified };
      }
    }
    return await inCrawl(c, crawlId, () => writeSitemapPages(pages(), () => seeds, outPath, options));
  } finally {
    await c.end().catch(() => undefined);
  }
}
