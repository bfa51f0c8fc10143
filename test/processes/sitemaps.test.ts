// XML sitemaps (issue 17) over real crawls of loopback sites whose sitemaps disagree with their links: robots.txt names
// a sitemap index, which names a gzipped sitemap (gzip bytes, no Content-Encoding), a plain one served with
// Content-Encoding: gzip, and a text sitemap; they list orphans, a 404, a noindex page, a redirect, a URL twice, a URL
// outside the scope and hreflang alternates, while a linked page is in none. Each sitemap filter's count is checked,
// then the sitemap generated from the crawl is parsed back. A second site's sitemap lists 50,001 URLs: the crawl
// records it over the limit and reads 50,000.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { filterCounts, queryFiltered, type FilterId } from '../../electron/engine/analysis/result-filters.ts';
import { writeSitemap } from '../../electron/engine/sitemaps/write-sitemap.ts';
import { SitemapParser } from '../../electron/worker/sitemap/sitemap-parser.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const html = (res: http.ServerResponse, body: string, status = 200) =>
  void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html>${body}</html>`);
const page =
  (title: string, extra = '') =>
  (_q: http.IncomingMessage, res: http.ServerResponse) =>
    html(res, `<head><title>${title}</title>${extra}</head><body><h1>${title}</h1></body>`);
const urlset = (entries: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${entries.join('')}</urlset>`;

function routes(origin: () => string): Record<string, Route> {
  const at = (p: string) => origin() + p;
  const entry = (p: string, extra = '') => `<url><loc>${at(p)}</loc><lastmod>2026-01-0${(p.length % 9) + 1}</lastmod>${extra}</url>`;
  return {
    '/robots.txt': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: ${at('/sitemap_index.xml')}\n`),
    '/sitemap_index.xml': (_q, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${at('/sitemap-pages.xml.gz')}</loc></sitemap><sitemap><loc>${at('/sitemap-more.xml')}</loc></sitemap><sitemap><loc>${at('/sitemap.txt')}</loc></sitemap></sitemapindex>`,
        ),
    // Gzip bytes as the file's own (a .gz), no Content-Encoding.
    '/sitemap-pages.xml.gz': (_q, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/gzip' })
        .end(
          zlib.gzipSync(
            urlset([
              entry('/'),
              entry(
                '/a',
                `<xhtml:link rel="alternate" hreflang="en" href="${at('/a')}"/><xhtml:link rel="alternate" hreflang="de" href="${at('/de/a')}"/>`,
              ),
              entry('/orphan'),
              entry('/gone'),
              entry('/hidden'),
              entry('/twice'),
            ]),
          ),
        ),
    // Content-Encoding: gzip over plain XML.
    '/sitemap-more.xml': (_q, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' })
        .end(zlib.gzipSync(urlset([entry('/twice'), entry('/b'), '<url><loc>http://elsewhere.invalid/x</loc></url>', entry('/moved')]))),
    '/sitemap.txt': (_q, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${at('/txt-page')}\n\nnot a url\n`),
    '/': (_q, res) =>
      html(
        res,
        '<head><title>Home</title></head><body><h1>Home</h1><a href="/a">a</a> <a href="/b">b</a> <a href="/twice">twice</a> <a href="/linked-only">linked</a></body>',
      ),
    '/a': page('A', '<link rel="alternate" hreflang="de" href="/de/a">'),
    '/b': page('B'),
    '/twice': page('Twice'),
    '/linked-only': page('Linked only'),
    '/orphan': page('Orphan'),
    '/txt-page': page('Text'),
    '/de/a': page('A (de)'),
    '/hidden': page('Hidden', '<meta name="robots" content="noindex">'),
    '/gone': (_q, res) => html(res, '<title>Gone</title>', 404),
    '/moved': (_q, res) => void res.writeHead(301, { location: '/a' }).end(),
  };
}

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
  let origin = '';
  site = await startFixtureSite({ pages: 0, routes: routes(() => origin) });
  origin = site.origin;
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
    expect(sitemaps.map((s) => ({ ...s, url: s.url.replace(site.origin, '') }))).toEqual([
      { url: '/sitemap.xml', source: 'guess', kind: null, status: 404, n: 0, error: 'HTTP 404' },
      { url: '/sitemap_index.xml', source: 'robots', kind: 'index', status: 200, n: 3, error: null },
      { url: '/sitemap-pages.xml.gz', source: 'index', kind: 'urlset', status: 200, n: 6, error: null },
      { url: '/sitemap-more.xml', source: 'index', kind: 'urlset', status: 200, n: 4, error: null },
      { url: '/sitemap.txt', source: 'index', kind: 'text', status: 200, n: 1, error: null },
    ]);
    // Each sitemap fetched once, and the URLs found only in sitemaps crawled.
    for (const p of [
      '/sitemap.xml',
      '/sitemap_index.xml',
      '/sitemap-pages.xml.gz',
      '/sitemap-more.xml',
      '/sitemap.txt',
      '/orphan',
      '/txt-page',
      '/gone',
    ])
      expect({ p, n: site.log.filter((e) => e.path === p).length }).toEqual({ p, n: 1 });
    const lastmod = db.prepare("SELECT s.lastmod FROM sitemap_urls s JOIN urls u ON u.id = s.url_id WHERE u.url LIKE '%/orphan'").get() as {
      lastmod: string;
    };
    expect(lastmod.lastmod).toBe('2026-01-08');
  });

  it('counts and lists each sitemap filter', () => {
    const counts = filterCounts(db);
    const expected: Partial<Record<FilterId, string[]>> = {
      'sitemap-urls': ['/', '/a', '/b', '/gone', '/hidden', '/moved', '/orphan', '/twice', '/txt-page', 'http://elsewhere.invalid/x'],
      'sitemap-missing': ['/de/a', '/linked-only'],
      'sitemap-orphans': ['/gone', '/hidden', '/moved', '/orphan', '/txt-page'],
      'sitemap-non-indexable': ['/gone', '/hidden', '/moved'],
      'sitemap-multiple': ['/twice'],
      'sitemap-over-limit': [],
      'sitemap-outside-scope': ['http://elsewhere.invalid/x'],
      'sitemap-hreflang': ['/a'],
    };
    for (const [id, urls] of Object.entries(expected) as [FilterId, string[]][]) {
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
