// XML sitemaps (issue 17), in-process: the streaming parser (urlset, index, text, hreflang, the protocol's limits), the
// worker's sitemap job over a real loopback server (gzip, a sitemap past 50 MB stopped there with the heap bounded), an
// older crawl file (no sitemap tables) read and upgraded, and the generator split at the real 50,000.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile, readMeta, SCHEMA_VERSION } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { Frontier } from '../../electron/engine/frontier/sqlite/frontier.ts';
import { filterCounts, queryFiltered } from '../../electron/engine/analysis/result-filters.ts';
import { writeSitemap, lastmodOf } from '../../electron/engine/sitemaps/write-sitemap.ts';
import { createFetcher } from '../../electron/worker/fetch-url.ts';
import { SitemapParser, type SitemapEntry } from '../../electron/worker/sitemap/sitemap-parser.ts';
import { runSitemap } from '../../electron/worker/sitemap/run-sitemap.ts';
import { makeScope } from '../../shared/scope.ts';
import { parseSettings } from '../../shared/settings.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { exposeGc } from '../helpers/heap-meter.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { downgradeToVersion4 } from '../helpers/old-crawl-file.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-sitemaps-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function parse(text: string | string[], limits?: { maxUrls: number; maxBytes: number }) {
  const list: SitemapEntry[] = [];
  const p = new SitemapParser((e) => list.push(e), limits);
  for (const chunk of Array.isArray(text) ? text : [text]) if (!p.write(chunk)) break;
  return { ...p.end(), list };
}

describe('the sitemap parser', () => {
  it('reads a urlset in any chunking, with lastmod, hreflang alternates and entities', () => {
    const xml = `\uFEFF<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
      <url><loc> https://e.test/a?x=1&amp;y=2 </loc><lastmod>2026-01-02</lastmod>
        <xhtml:link rel="alternate" hreflang="de" href="https://e.test/de/a"/></url>
      <url><loc>https://e.test/b</loc></url></urlset>`;
    const whole = parse(xml);
    expect(whole).toMatchObject({ format: 'urlset', entries: 2, overUrlLimit: false, overSizeLimit: false });
    expect(whole.list).toEqual([
      { loc: 'https://e.test/a?x=1&y=2', lastmod: '2026-01-02', alternates: [{ lang: 'de', url: 'https://e.test/de/a' }] },
      { loc: 'https://e.test/b', lastmod: null, alternates: [] },
    ]);
    // One character at a time: the same entries.
    expect(parse([...xml]).list).toEqual(whole.list);
  });

  it('reads a sitemap index and a text sitemap', () => {
    const index = parse('<sitemapindex><sitemap><loc>https://e.test/s1.xml.gz</loc><lastmod>2026</lastmod></sitemap></sitemapindex>');
    expect(index).toMatchObject({ format: 'index', entries: 1 });
    expect(index.list[0]!.loc).toBe('https://e.test/s1.xml.gz');
    const text = parse(['https://e.test/a\r\nhttps://e', '.test/b\n\n  https://e.test/c  ']);
    expect(text).toMatchObject({ format: 'text', entries: 3 });
    expect(text.list.map((e) => e.loc)).toEqual(['https://e.test/a', 'https://e.test/b', 'https://e.test/c']);
    expect(parse('<html><body>not a sitemap</body></html>').format).toBeNull();
  });

  it('stops past the URL limit and past the size limit, marking which', () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `<url><loc>https://e.test/${i}</loc></url>`);
    const over = parse(['<urlset>', ...urls(6), '</urlset>'], { maxUrls: 5, maxBytes: 1e6 });
    expect(over).toMatchObject({ entries: 5, overUrlLimit: true, overSizeLimit: false });
    const exact = parse(['<urlset>', ...urls(5), '</urlset>'], { maxUrls: 5, maxBytes: 1e6 });
    expect(exact).toMatchObject({ entries: 5, overUrlLimit: false });
    const big = parse(['<urlset>', ...urls(100), '</urlset>'], { maxUrls: 1000, maxBytes: 500 });
    expect(big.overSizeLimit).toBe(true);
    expect(big.chars).toBe(500);
    expect(big.entries).toBeLessThan(20);
  });
});

describe("the worker's sitemap job", () => {
  const deps = (origin: string, settings = parseSettings({ seeds: [`${origin}/`] })) => ({
    fetcher: createFetcher(settings),
    settings,
    scope: makeScope(settings),
    normalise: canonicalUrl,
    chain: [],
    report: () => undefined,
  });

  it('reads gzip (as the file or as Content-Encoding) and text, resolving and scoping each URL', async () => {
    let origin = '';
    const server = http.createServer((req, res) => {
      const body = `<urlset><url><loc>${origin}/a</loc></url><url><loc>http://other.test/b</loc></url><url><loc>/relative</loc></url></urlset>`;
      if (req.url === '/file.xml.gz') return void res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(zlib.gzipSync(body));
      if (req.url === '/encoded.xml') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(body));
      if (req.url === '/moved.xml') return void res.writeHead(301, { location: '/encoded.xml' }).end();
      res.writeHead(404).end('nope');
    });
    const site = await listenOnLoopback(server);
    origin = site.origin;
    const d = deps(origin);
    try {
      for (const p of ['/file.xml.gz', '/encoded.xml', '/moved.xml']) {
        const r = await runSitemap({ kind: 'sitemap', jobId: 1, threadId: 0, url: `${origin}${p}` }, d);
        expect({ p, format: r.format, error: r.error, invalid: r.invalid, urls: r.urls }).toEqual({
          p,
          format: 'urlset',
          error: null,
          invalid: 1,
          urls: [
            { url: `${origin}/a`, inScope: true, lastmod: null, alternates: [] },
            { url: 'http://other.test/b', inScope: false, lastmod: null, alternates: [] },
          ],
        });
      }
      const missing = await runSitemap({ kind: 'sitemap', jobId: 2, threadId: 0, url: `${origin}/sitemap.xml` }, d);
      expect(missing).toMatchObject({ statusCode: 404, format: null, error: 'HTTP 404', urls: [] });
    } finally {
      await d.fetcher.close();
      await site.close();
    }
  });

  it('stops reading a sitemap past 50 MB of text, with the heap bounded, and marks it over the limit', async () => {
    // 80 MB of XML streamed as the socket drains (never built whole), nearly all of it whitespace inside the urlset.
    const pad = ' '.repeat(1024 * 1024);
    let sent = 0;
    const server = http.createServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<urlset><url><loc>http://127.0.0.1/a</loc></url>');
      for (let i = 0; i < 80 && !res.destroyed; i++) {
        sent += pad.length;
        if (!res.write(pad)) await new Promise((r) => res.once('drain', r).once('close', r));
      }
      res.end('<url><loc>http://127.0.0.1/never</loc></url></urlset>');
    });
    const site = await listenOnLoopback(server);
    const d = deps(site.origin);
    const gc = exposeGc();
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    try {
      const r = await runSitemap({ kind: 'sitemap', jobId: 1, threadId: 0, url: `${site.origin}/big.xml` }, d);
      expect(r).toMatchObject({ format: 'urlset', overSizeLimit: true, overUrlLimit: false, error: null });
      expect(r.urls.map((u) => u.url)).toEqual(['http://127.0.0.1/a']);
      // Reading stopped near the limit, not at the end of the body.
      expect(sent).toBeLessThan(75 * 1024 * 1024);
    } finally {
      clearInterval(sampler);
      await d.fetcher.close();
      await site.close();
    }
    // Loose: the document is 80 MB; what is held at once is chunks, never the text.
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
  }, 60_000);
});

describe('crawl files and sitemaps', () => {
  it('reads a version 4 file as stored (sitemap filters count 0) and upgrades it when opened to crawl', () => {
    const file = path.join(dir, 'v4.trawl');
    const db = createCrawlFile(file, parseSettings({ seeds: ['http://a.test/'] }));
    downgradeToVersion4(db);
    db.close();
    const ro = openCrawlFile(file, { readonly: true });
    const counts = filterCounts(ro);
    expect(counts['sitemap-urls']).toBe(0);
    expect(counts['sitemap-over-limit']).toBe(0);
    expect(queryFiltered(ro, { filter: 'sitemap-orphans', sort: 'seq', descending: false, offset: 0, limit: 10 }).total).toBe(0);
    expect(readMeta(ro, 'schema_version')).toBe('4');
    ro.close();
    const rw = openCrawlFile(file);
    expect(readMeta(rw, 'schema_version')).toBe(String(SCHEMA_VERSION));
    // The upgraded file queues /sitemap.xml of the seed's host with its seed.
    const frontier = new Frontier(rw, parseSettings({ seeds: ['http://a.test/'], robots: 'ignore' }));
    frontier.addSeeds(['http://a.test/']);
    expect(frontier.claim(10).map((c) => [c.kind, c.url])).toEqual([
      ['sitemap', 'http://a.test/sitemap.xml'],
      ['page', 'http://a.test/'],
    ]);
    rw.close();
  });

  it('writes 50,001 pages as an index and two sitemaps of 50,000 and 1, with lastmod from Last-Modified', async () => {
    const file = path.join(dir, 'big.trawl');
    const db = createCrawlFile(file, parseSettings({ seeds: ['https://big.test/'] }));
    db.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run('https://big.test');
    const url = db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (?, ?, ?, 1, 1, 2, 0)');
    const result = db.prepare(
      "INSERT INTO results (url_id, status_code, content_type, crawl_depth, fetched_at, indexability, response_headers) VALUES (?, 200, 'text/html', 1, 0, 'indexable', ?)",
    );
    db.transaction(() => {
      for (let i = 1; i <= 50_001; i++) {
        const u = `https://big.test/p/${i}?a=1&b=2`;
        url.run(i, u, urlKey(u));
        result.run(i, i === 7 ? JSON.stringify({ 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' }) : null);
      }
    })();
    const out = path.join(dir, 'out', 'sitemap.xml');
    const written = await writeSitemap(db, out);
    db.close();
    expect(written.urls).toBe(50_001);
    expect(written.files.map((f) => path.basename(f))).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml']);
    expect(parse(fs.readFileSync(out, 'utf8')).list.map((e) => e.loc)).toEqual([
      'https://big.test/sitemap-1.xml',
      'https://big.test/sitemap-2.xml',
    ]);
    const first = parse(fs.readFileSync(written.files[1]!, 'utf8'));
    expect(first).toMatchObject({ format: 'urlset', entries: 50_000, overUrlLimit: false });
    expect(first.list[6]).toEqual({ loc: 'https://big.test/p/7?a=1&b=2', lastmod: '2015-10-21T07:28:00Z', alternates: [] });
    expect(parse(fs.readFileSync(written.files[2]!, 'utf8')).list.map((e) => e.loc)).toEqual(['https://big.test/p/50001?a=1&b=2']);
    expect(lastmodOf('not a date')).toBeNull();
  }, 60_000);
});
