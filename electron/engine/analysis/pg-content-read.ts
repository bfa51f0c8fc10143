// Reading a crawl's signatures from the PostgreSQL store and computing its duplicate-content analysis from them (the
// crawl file's computation, near-duplicates.ts analyseContent), in the worker thread near-duplicates-thread.ts starts:
// through a connection of its own, the content rows by key pages. A million pages' signatures are half a gigabyte
// and their banding seconds of CPU: none of it on the thread that answers the UI.
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { connect, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { analyseContent, contentRowsSql, type ContentAnalysisResult, type ContentRow } from './near-duplicates.ts';

/** Content rows read at a time (each with its 512-byte signature). */
const PAGE_ROWS = 20_000;

/** The crawl's tables in its schema (a connection's search_path need not name it). */
export const inSchema = (schema: string) => (name: string) => `${schema}.${name}`;

/** Whether the crawl in `schema` has `table` (a crawl made before the store kept its content has no content table). */
export async function hasStoreTable(c: PgQuerier, schema: string, table: string): Promise<boolean> {
  return (await c.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${schema}.${table}`])).rows[0]!.ok;
}

/** The content analysis of crawl `crawlId` of the store at `storeUrl`, for `options`, tagged `stamp`. */
export async function computeStoreContentAnalysis(
  storeUrl: string,
  crawlId: string,
  options: ContentAnalysisOptions,
  stamp: string,
): Promise<ContentAnalysisResult> {
  const started = performance.now();
  const schema = crawlSchema(crawlId);
  const c = await connect(storeUrl, { applicationName: 'trawl duplicate content' });
  try {
    const rows: ContentRow[] = [];
    // A crawl made before the store kept content has no table, and nothing to compare.
    if (await hasStoreTable(c, schema, 'content')) {
      const sql = contentRowsSql(options, inSchema(schema), { after: '$1', limit: PAGE_ROWS });
      for (let after = 0; ; ) {
        const { rows: page } = await c.query<{ url_id: number; main_words: number; text_hash: string | null; minhash: Buffer | null }>(
          sql,
          [after],
        );
        for (const r of page) rows.push([r.url_id, r.main_words, r.text_hash, r.minhash]);
        if (page.length < PAGE_ROWS) break;
        after = page[page.length - 1]!.url_id;
      }
    }
    return analyseContent(rows, options, stamp, started);
  } finally {
    await c.end().catch(() => undefined);
  }
}
