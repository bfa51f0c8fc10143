// A loopback site whose XML sitemaps disagree with its links (issue 17), for crawls into a crawl file
// (test/processes/sitemaps.test.ts) and into the PostgreSQL store (test/postgres/sitemaps-store.test.ts): robots.txt
// names a sitemap index, which names a gzipped sitemap (gzip bytes, no Content-Encoding), a plain one served with
// Content-Encoding: gzip, and a text sitemap; they list orphans, a 404, a noindex page, a redirect, a URL twice, a URL
// outside the scope and hreflang alternates, while a linked page is in none.
import zlib from 'node:zlib';
import type http from 'node:http';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export const html = (res: http.ServerResponse, body: string, status = 200) =>
  void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html>${body}</html>`);
export const page =
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

/** What each sitemap filter lists for a crawl of the site (paths on it; the external URL whole). */
export const SITEMAP_FILTER_URLS = {
  'sitemap-urls': ['/', '/a', '/b', '/gone', '/hidden', '/moved', '/orphan', '/twice', '/txt-page', 'http://elsewhere.invalid/x'],
  'sitemap-missing': ['/de/a', '/linked-only'],
  'sitemap-orphans': ['/gone', '/hidden', '/moved', '/orphan', '/txt-page'],
  'sitemap-non-indexable': ['/gone', '/hidden', '/moved'],
  'sitemap-multiple': ['/twice'],
  'sitemap-over-limit': [],
  'sitemap-outside-scope': ['http://elsewhere.invalid/x'],
  'sitemap-hreflang': ['/a'],
} as const;

/** The sitemaps a crawl of the site from / reads, in the order it finds them. */
export const SITEMAP_ROWS = [
  { url: '/sitemap.xml', source: 'guess', kind: null, status: 404, n: 0, error: 'HTTP 404' },
  { url: '/sitemap_index.xml', source: 'robots', kind: 'index', status: 200, n: 3, error: null },
  { url: '/sitemap-pages.xml.gz', source: 'index', kind: 'urlset', status: 200, n: 6, error: null },
  { url: '/sitemap-more.xml', source: 'index', kind: 'urlset', status: 200, n: 4, error: null },
  { url: '/sitemap.txt', source: 'index', kind: 'text', status: 200, n: 1, error: null },
];

/** Paths a complete crawl fetches exactly once: every sitemap, and the pages found only in them. */
export const FETCHED_ONCE = [
  '/sitemap.xml',
  '/sitemap_index.xml',
  '/sitemap-pages.xml.gz',
  '/sitemap-more.xml',
  '/sitemap.txt',
  '/orphan',
  '/txt-page',
  '/gone',
];

/** Starts the site on loopback; `delayMs` before each response (a crawl long enough for a second node to join). */
export async function startSitemapSite(delayMs = 0): Promise<FixtureSite> {
  let origin = '';
  const delayed = Object.entries(routes(() => origin)).map(([path, route]): [string, Route] => [
    path,
    async (q, res) => {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      return route(q, res);
    },
  ]);
  const site = await startFixtureSite({ pages: 0, routes: Object.fromEntries(delayed) });
  origin = site.origin;
  return site;
}
