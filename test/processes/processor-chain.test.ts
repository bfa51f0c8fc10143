// The candidate rules, indexability, and whole crawls over two loopback sites for what the chain adds: resources
// checked when configured, out-of-scope links checked once and never followed, the thread's processor in the
// live view, and crawl files of schema version 1 upgraded in place.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { linkCandidate, redirectCandidate } from '../../electron/engine/frontier/candidates.ts';
import { indexabilityOf, type IndexabilityInput } from '../../electron/engine/frontier/indexability.ts';
import { createCrawlFile, openCrawlFile, SCHEMA_VERSION } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { exportCsv } from '../../electron/engine/export/csv-export.ts';
import { parseCli } from '../../electron/cli/args.ts';
import { PROCESSOR_NAMES } from '../../shared/processors.ts';
import { RESPONSE_HEADERS_MAX } from '../../shared/protocol.ts';
import { boundedHeaders } from '../../electron/worker/chain/extract-http-headers.ts';
import { parseSettings } from '../../shared/settings.ts';
import { downgradeToVersion1 } from '../helpers/old-crawl-file.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';

const BASE = {
  followNofollow: false,
  checkExternal: false,
  checkResources: [] as ('images' | 'scripts' | 'stylesheets')[],
  maxDepth: null as number | null,
};

describe('candidate rules', () => {
  it('crawls in-scope page links, records the rest with why', () => {
    expect(linkCandidate({ kind: 'a', inScope: true }, 3, BASE)).toEqual({ kind: 'page', fate: 'crawl' });
    expect(linkCandidate({ kind: 'canonical', inScope: true }, 3, BASE)).toEqual({ kind: 'page', fate: 'crawl' });
    expect(linkCandidate({ kind: 'a', inScope: false }, 1, BASE)).toEqual({ kind: 'page', fate: 'out-of-scope' });
    expect(linkCandidate({ kind: 'a', inScope: true, nofollow: true }, 1, BASE)).toEqual({ kind: 'page', fate: 'nofollow' });
    expect(linkCandidate({ kind: 'a', inScope: true, nofollow: true }, 1, { ...BASE, followNofollow: true })).toEqual({
      kind: 'page',
      fate: 'crawl',
    });
    expect(linkCandidate({ kind: 'a', inScope: true }, 3, { ...BASE, maxDepth: 2 })).toEqual({ kind: 'page', fate: 'too-deep' });
  });

  it('checks out-of-scope links only when asked, and never a nofollow one', () => {
    const external = { ...BASE, checkExternal: true };
    expect(linkCandidate({ kind: 'a', inScope: false }, 1, external)).toEqual({ kind: 'page', fate: 'check' });
    expect(linkCandidate({ kind: 'a', inScope: false, nofollow: true }, 1, external)).toEqual({ kind: 'page', fate: 'out-of-scope' });
  });

  it('checks resources of the configured types at any depth, others not at all', () => {
    const images = { ...BASE, checkResources: ['images' as const], maxDepth: 0 };
    expect(linkCandidate({ kind: 'image', inScope: true }, 5, images)).toEqual({ kind: 'image', fate: 'check' });
    expect(linkCandidate({ kind: 'image', inScope: false }, 5, images)).toEqual({ kind: 'image', fate: 'out-of-scope' });
    expect(linkCandidate({ kind: 'script', inScope: true }, 1, images)).toBeNull();
  });

  it('keeps a redirect what its source was, cut or not', () => {
    expect(redirectCandidate('page', true, 1, 'follow', BASE)).toEqual({ kind: 'page', fate: 'crawl' });
    expect(redirectCandidate('page', false, 1, 'follow', BASE)).toEqual({ kind: 'page', fate: 'out-of-scope' });
    expect(redirectCandidate('page', false, 1, 'follow', { ...BASE, checkExternal: true })).toEqual({ kind: 'page', fate: 'check' });
    expect(redirectCandidate('image', true, 9, 'follow', { ...BASE, maxDepth: 1 })).toEqual({ kind: 'image', fate: 'check' });
    expect(redirectCandidate('page', true, 1, 'redirect loop', BASE)).toEqual({ kind: 'page', fate: 'redirect-cut' });
  });
});

describe('indexability', () => {
  const page: IndexabilityInput = {
    url: 'http://a.test/p',
    kind: 'page',
    checkOnly: false,
    statusCode: 200,
    error: null,
    robotsDisallowed: false,
    metaRobots: null,
    xRobotsTag: null,
    canonical: null,
  };
  it('gives the first reason that applies', () => {
    expect(indexabilityOf(page)).toEqual({ status: 'indexable', reason: null });
    expect(indexabilityOf({ ...page, canonical: 'http://a.test/p' })).toEqual({ status: 'indexable', reason: null });
    expect(indexabilityOf({ ...page, canonical: 'http://a.test/q' }).reason).toBe('canonicalised');
    expect(indexabilityOf({ ...page, metaRobots: 'NOINDEX, follow', canonical: 'http://a.test/q' }).reason).toBe('noindex');
    expect(indexabilityOf({ ...page, xRobotsTag: 'googlebot: none' }).reason).toBe('noindex');
    // A valued directive's "none" is not the none directive.
    expect(indexabilityOf({ ...page, metaRobots: 'max-image-preview:none, max-snippet: -1' }).status).toBe('indexable');
    expect(indexabilityOf({ ...page, xRobotsTag: 'googlebot: max-image-preview: none' }).status).toBe('indexable');
    expect(indexabilityOf({ ...page, metaRobots: 'index, follow, max-image-preview:large, noindex' }).reason).toBe('noindex');
    expect(indexabilityOf({ ...page, metaRobots: 'index, follow' }).status).toBe('indexable');
    expect(indexabilityOf({ ...page, statusCode: 301 }).reason).toBe('redirected');
    expect(indexabilityOf({ ...page, statusCode: 410 }).reason).toBe('client error');
    expect(indexabilityOf({ ...page, statusCode: 503 }).reason).toBe('server error');
    expect(indexabilityOf({ ...page, statusCode: null, error: 'timeout' }).reason).toBe('no response');
    expect(indexabilityOf({ ...page, statusCode: null, error: 'blocked by robots.txt' }).reason).toBe('blocked by robots.txt');
    expect(indexabilityOf({ ...page, robotsDisallowed: true }).reason).toBe('blocked by robots.txt');
    expect(indexabilityOf({ ...page, error: 'too large (over 10485760 bytes)' }).reason).toBe('incomplete response');
  });
  it('says nothing of resources and links only checked', () => {
    expect(indexabilityOf({ ...page, kind: 'image' })).toEqual({ status: null, reason: null });
    expect(indexabilityOf({ ...page, checkOnly: true })).toEqual({ status: null, reason: null });
  });
});

// ---- whole crawls ----

type Handler = (path: string, res: http.ServerResponse) => void;
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<{ url(p: string): string; log: string[] }> {
  const log: string[] = [];
  const server = http.createServer((req, res) => {
    log.push(req.url ?? '/');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    handler(req.url ?? '/', res);
  });
  const s = await listenOnLoopback(server);
  servers.push(s);
  return { url: (p) => s.origin + p, log };
}

const page = (res: http.ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);

async function crawl(settings: Record<string, unknown>) {
  const { controller, dbPath } = newCrawl(settings);
  const processors = new Set<string>();
  controller.on('snapshot', (s) => {
    for (const t of s.threads) if (t.processor) processors.add(t.processor);
  });
  controller.start();
  const info = await controller.done;
  const db = new Database(dbPath, { readonly: true });
  const rows = db.prepare('SELECT url, kind, status_code, outlinks, error FROM crawl_results').all() as {
    url: string;
    kind: string;
    status_code: number | null;
    outlinks: number;
    error: string | null;
  }[];
  const states = new Map(
    (db.prepare('SELECT url, state, check_only FROM urls').all() as { url: string; state: number; check_only: number }[]).map((r) => [
      r.url,
      r,
    ]),
  );
  db.close();
  return { info, rows, states, processors, dbPath };
}

describe('crawling with checks', () => {
  it('checks out-of-scope links once, follows none of their links or redirects further out', async () => {
    const other = await serve((p, res) => {
      if (p === '/landing') return page(res, '<title>Other</title><a href="/deeper">deeper</a>');
      if (p === '/moved') return void res.writeHead(301, { location: '/landing' }).end();
      return void res.writeHead(404).end();
    });
    const site = await serve((p, res) => {
      if (p === '/') return page(res, `<a href="/in">in</a><a href="${other.url('/landing')}">x</a><a href="${other.url('/moved')}">y</a>`);
      return page(res, '<title>In</title>');
    });
    const { info, rows, states } = await crawl({ seeds: [site.url('/')], threads: 3, checkExternal: true });
    expect(info.reason).toBe('completed');
    // Each external URL once (robots.txt first); /landing is reached by a link and by /moved, and fetched once.
    expect(other.log.sort()).toEqual(['/landing', '/moved', '/robots.txt']);
    const landing = rows.find((r) => r.url === other.url('/landing'));
    expect(landing).toMatchObject({ status_code: 200, outlinks: 0, kind: 'page' }); // fetched, not parsed
    expect(rows.find((r) => r.url === other.url('/moved'))).toMatchObject({ status_code: 301 });
    expect(states.get(other.url('/landing'))).toMatchObject({ state: 2, check_only: 1 });
    expect(states.has(other.url('/deeper'))).toBe(false);
  });

  it('leaves out-of-scope hosts alone without the option, and fetches no resource unless asked', async () => {
    const other = await serve((_p, res) => page(res, 'x'));
    const site = await serve((p, res) => {
      if (p === '/') return page(res, `<img src="/logo.png"><script src="/a.js"></script><a href="${other.url('/')}">x</a>`);
      return void res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    });
    const { rows, states } = await crawl({ seeds: [site.url('/')], threads: 2 });
    expect(other.log).toEqual([]);
    // /sitemap.xml: the crawl's look-up for a sitemap on the seed's host (issue 17); not a row of results.
    expect(site.log.sort()).toEqual(['/', '/robots.txt', '/sitemap.xml']);
    expect(rows).toHaveLength(1);
    expect(states.get(other.url('/'))).toMatchObject({ state: 4 });
    expect(states.has(site.url('/logo.png'))).toBe(false);
  });

  it('crawls a URL as a page when a page links to it, even if it was first queued as an image', async () => {
    const site = await serve((p, res) => {
      if (p === '/') return page(res, '<img src="/both">');
      if (p === '/later') return page(res, '<a href="/both">both</a>');
      if (p === '/both') return page(res, '<title>Both</title><a href="/from-both">more</a>');
      return page(res, '<title>leaf</title>');
    });
    // One thread, two seeds: / queues /both as an image, then /later links to it while it still waits.
    const { rows } = await crawl({ seeds: [site.url('/'), site.url('/later')], threads: 1, checkResources: ['images'] });
    expect(site.log.filter((p) => p === '/both')).toHaveLength(1);
    expect(rows.find((r) => r.url === site.url('/both'))).toMatchObject({ kind: 'page', outlinks: 1 });
    expect(site.log).toContain('/from-both');
  });

  it('checks a URL only seen as an image without reading it', async () => {
    const site = await serve((p, res) => {
      if (p === '/') return page(res, '<img src="/pic">');
      return page(res, '<title>An HTML "image"</title><a href="/never">x</a>');
    });
    const { rows } = await crawl({ seeds: [site.url('/')], threads: 1, checkResources: ['images'] });
    expect(rows.find((r) => r.url === site.url('/pic'))).toMatchObject({ kind: 'image', status_code: 200, outlinks: 0 });
    expect(site.log).not.toContain('/never');
  });

  it('shows which processor each busy thread is in', async () => {
    const site = await serve((p, res) => {
      if (p === '/') return page(res, Array.from({ length: 6 }, (_, i) => `<a href="/slow/${i}">s</a>`).join(''));
      setTimeout(() => page(res, '<title>slow</title>'), 400);
    });
    const { processors } = await crawl({ seeds: [site.url('/')], threads: 3 });
    expect(processors.has('fetch-http')).toBe(true);
    for (const p of processors) expect(PROCESSOR_NAMES).toContain(p);
  });
});

describe('response headers', () => {
  it('are kept whole when small, and cut at RESPONSE_HEADERS_MAX in all', () => {
    expect(boundedHeaders({ 'content-type': 'text/html', server: 'nginx' })).toEqual({ 'content-type': 'text/html', server: 'nginx' });
    const huge = boundedHeaders({ a: 'x'.repeat(RESPONSE_HEADERS_MAX), b: 'y' });
    expect(Object.keys(huge)).toEqual(['a']);
    expect(huge.a!.length).toBe(RESPONSE_HEADERS_MAX - 1);
  });
});

describe('crawl files of schema version 1', () => {
  it('are upgraded in place when opened, keeping every row, and export with the new columns', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'old.trawl');
    // A version 1 file: today's schema without what version 2 added.
    const db = createCrawlFile(file, parseSettings({ seeds: ['http://a.test/'] }));
    downgradeToVersion1(db);
    db.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run('http://a.test');
    db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (1, ?, 0, 1, 0, 2, 0)').run(
      'http://a.test/',
    );
    db.prepare('INSERT INTO results (url_id, status_code, crawl_depth, title, fetched_at) VALUES (1, 200, 0, ?, 0)').run('Old title');
    db.close();

    const out = path.join(dir, 'old.csv');
    expect(await exportCsv(file, out)).toEqual({ rows: 1 }); // a read-only open reads it upgraded (through a copy)
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv).toContain('http://a.test/,page,200,');
    expect(csv).toContain('Old title');
    const reopened = openCrawlFile(file);
    expect(reopened.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    expect(reopened.prepare('SELECT count(*) AS n FROM unfetchable_links').get()).toEqual({ n: 0 });
    reopened.close();
  });

  it('refuses a newer version with a clear message and leaves it untouched', () => {
    const dir = tempDir();
    const file = path.join(dir, 'new.trawl');
    const db = createCrawlFile(file, parseSettings({ seeds: ['http://a.test/'] }));
    db.exec(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`);
    db.close();
    expect(() => openCrawlFile(file)).toThrow(`has crawl file version 99; this Trawl reads version ${SCHEMA_VERSION}`);
  });
});

describe('CLI options for checks', () => {
  it('reads --check lists and --check-external, and names a wrong type', () => {
    const ok = parseCli(['http://a.test/', '--check', 'images,scripts', '--check', 'stylesheets', '--check-external']);
    expect(ok.mode === 'new' && ok.settings).toMatchObject({ checkResources: ['images', 'scripts', 'stylesheets'], checkExternal: true });
    expect(() => parseCli(['http://a.test/', '--check', 'videos'])).toThrow(/--check.*images, scripts, stylesheets/s);
  });
});
