// XML sitemaps (issue 17) over real crawls of loopback sites whose sitemaps disagree with their links
// (test/helpers/sitemap-site.ts). Each sitemap filter's count is checked, then the sitemap generated from the crawl is
// parsed back. A second site's sitemap lists 50,001 URLs: the crawl
// records it over the limit and reads 50,000.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { filterCounts, queryFiltered, type FilterId } from '../../electron/engine/analysis/result-filters.ts';
import { writeSitemap } from '../../electron/engine/sitemaps/write-sitemap.ts';
import { SitemapParser } from '../../electron/worker/sitemap/sitemap-parser.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { FETCHED_ONCE, SITEMAP_FILTER_URLS, SITEMAP_ROWS, page, startSitemapSite } from '../helpers/sitemap-site.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';

let site: FixtureSite;
let db: Db;
let dir: string;

async function crawl(seed: string, settings: Record<string, unknown> = {}): Promise<string> {
  const { controller, dbPath } = newCrawl({ seeds: [seed], threads: 3, maxAttempts: 1, ...settings }, tempDir());
  controller.start();
  const info = await controller.done;
  expect(info.reason).toBe('completed');
  return dbPath;
}

beforeAll(async () => {
  site = await startSitemapSite();
  dir = tempDir();
  db = openCrawlFile(await crawl(site.url('/')), { readonly: true });
}, 60_000);
afterAll(async () => {
  db?.close();
  await site?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const urlsOf = (filter: FilterId) =>
  queryFiltered(db, { filter, sort: 'url', descending: false, offset: 0, limit: 100 })
    .rows.map((r) => r.url.replace(site.origin, ''))
    .sort();

describe('XML sitemaps', () => {
  it('finds the sitemaps through robots.txt and /sitemap.xml, reads indexes, gzip and text, through politeness', () => {
    const sitemaps = db
      .prepare('SELECT url, source, kind, status_code AS status, url_count AS n, error FROM sitemaps ORDER BY id')
      .all() as {
      url: string;
      source: string;
      kind: string | null;
      status: number | null;
      n: number;
      error: string | null;
    }[];
    expect(sitemaps.map((s) => ({ ...s, url: s.url.replace(site.origin, '') }))).toEqual(SITEMAP_ROWS);
    // Each sitemap fetched once, and the URLs found only in sitemaps crawled.
    for (const p of FETCHED_ONCE) expect({ p, n: site.log.filter((e) => e.path === p).length }).toEqual({ p, n: 1 });
    const lastmod = db.prepare("SELECT s.lastmod FROM sitemap_urls s JOIN urls u ON u.id = s.url_id WHERE u.url LIKE '%/orphan'").get() as {
      lastmod: string;
    };
    expect(lastmod.lastmod).toBe('2026-01-08');
  });

  it('counts and lists each sitemap filter', () => {
    const counts = filterCounts(db);
    const expected: Partial<Record<FilterId, readonly string[]>> = SITEMAP_FILTER_URLS;
    for (const [id, urls] of Object.entries(expected) as [FilterId, readonly string[]][]) {
      expect({ id, urls: urlsOf(id) }).toEqual({ id, urls: [...urls].sort() });
      expect({ id, count: counts[id] }).toEqual({ id, count: urls.length });
    }
  });

  it('writes a sitemap of the indexable 200 pages that parses back to them, split past the limit', async () => {
    const indexable = (
      db
        .prepare(
          "SELECT u.url FROM results r JOIN urls u ON u.id = r.url_id WHERE r.indexability = 'indexable' AND r.status_code = 200 ORDER BY u.url",
        )
        .all() as { url: string }[]
    ).map((r) => r.url);
    expect(indexable.map((u) => u.replace(site.origin, ''))).toEqual([
      '/',
      '/a',
      '/b',
      '/de/a',
      '/linked-only',
      '/orphan',
      '/twice',
      '/txt-page',
    ]);
    const readBack = (file: string) => {
      const urls: string[] = [];
      const p = new SitemapParser((e) => urls.push(e.loc));
      p.write(fs.readFileSync(file, 'utf8'));
      return { format: p.end().format, urls };
    };
    const one = path.join(dir, 'sitemap.xml');
    const written = await writeSitemap(db, one);
    expect(written).toEqual({ urls: indexable.length, files: [one] });
    const back = readBack(one);
    expect({ format: back.format, urls: back.urls.sort() }).toEqual({ format: 'urlset', urls: indexable });
    // Split with a small limit: an index naming three sitemaps beside it, whose URLs together are the pages.
    const split = path.join(dir, 'split', 'sitemap.xml');
    const parts = await writeSitemap(db, split, { maxUrls: 3, baseUrl: 'https://cdn.example/maps/' });
    expect(parts.files.map((f) => path.basename(f))).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml']);
    const index = readBack(split);
    expect(index).toEqual({
      format: 'index',
      urls: ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml'].map((f) => `https://cdn.example/maps/${f}`),
    });
    expect(parts.files.slice(1).map((f) => readBack(f).urls.length)).toEqual([3, 3, 2]);
    expect(
      parts.files
        .slice(1)
        .flatMap((f) => readBack(f).urls)
        .sort(),
    ).toEqual(indexable);
  });
});

describe('a sitemap over the protocol limits', () => {
  let big: FixtureSite;
  afterAll(async () => big?.close());

  it('reads 50,000 URLs of a 50,001-URL sitemap, streamed, and records it over the limit', async () => {
    let origin = '';
    big = await startFixtureSite({
      pages: 0,
      routes: {
        '/robots.txt': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: ${origin}/huge.xml\n`),
        '/': page('Home'),
        // Written in pieces as the socket drains: the server never holds the document either.
        '/huge.xml': async (_q, res) => {
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
          for (let i = 0; i < 50_001; i += 1000) {
            let chunk = '';
            for (let j = i; j < Math.min(i + 1000, 50_001); j++) chunk += `<url><loc>http://elsewhere.invalid/p/${j}</loc></url>`;
            if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
          }
          res.end('</urlset>');
        },
      },
    });
    origin = big.origin;
    const file = await crawl(big.url('/'), { crawlSitemapUrls: false });
    const crawled = openCrawlFile(file, { readonly: true });
    try {
      const row = crawled
        .prepare("SELECT url_count AS n, over_url_limit AS overUrls, kind FROM sitemaps WHERE url LIKE '%/huge.xml'")
        .get();
      expect(row).toEqual({ n: 50_000, overUrls: 1, kind: 'urlset' });
      const counts = filterCounts(crawled);
      expect(counts['sitemap-over-limit']).toBe(1);
      expect(counts['sitemap-urls']).toBe(50_000);
      expect(counts['sitemap-outside-scope']).toBe(50_000);
      expect(
        queryFiltered(crawled, { filter: 'sitemap-over-limit', sort: 'url', descending: false, offset: 0, limit: 10 }).rows,
      ).toMatchObject([{ url: `${origin}/huge.xml`, kind: 'sitemap', status_code: 200, error: 'over 50,000 URLs' }]);
    } finally {
      crawled.close();
    }
  }, 120_000);
});
