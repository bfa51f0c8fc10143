// A crawl of the hostile site ends on its own, with the right row for every URL, fetches nothing robots.txt
// forbids and nothing twice, and keeps the worker's memory bounded.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SEO_RESOURCES, startHostileSite } from '../helpers/hostile-site.ts';
import type { HostileSite } from '../helpers/hostile-site.ts';
import { newCrawl } from '../helpers/engine.ts';
import type { ResultRow } from '../../shared/crawler-api.ts';
import type { FinishInfo } from '../../electron/engine/controller/crawl-controller.ts';

/** A row of the crawl_results view: what the CSV and the results table show. */
type Row = ResultRow;

function peakKb(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

describe('crawling the hostile site', () => {
  let site: HostileSite;
  let info: FinishInfo;
  let rows: Map<string, Row>;
  let allRows: Row[];
  let rawHeaders: Map<string, string | null>;
  let urlStates: Map<string, number>;
  let linkKinds: Map<string, string>;
  let unfetchable: { href: string; scheme: string }[];
  let workerPeakKb = 0;
  let elapsedMs = 0;

  beforeAll(async () => {
    site = await startHostileSite();
    // Depth 1 keeps the 20,000 links of /many-links and the infinite calendar recorded but not followed.
    // Resources and out-of-scope links are checked, as an analyst auditing a site would.
    const { controller, dbPath } = newCrawl({
      seeds: [site.url('/')],
      threads: 6,
      maxDepth: 1,
      // Long enough that /slow (1.5 s), /huge and /bomb finish on a loaded machine: a timeout there would retry them
      // and count as a second fetch; /never still times out (three attempts, about 15 s).
      responseTimeoutMs: 5_000,
      retryDelayMs: 200,
      checkResources: ['images', 'scripts', 'stylesheets'],
      checkExternal: true,
    });
    controller.on('snapshot', (s) => {
      for (const t of s.threads) if (t.pid) workerPeakKb = Math.max(workerPeakKb, peakKb(t.pid));
    });
    const started = Date.now();
    controller.start();
    info = await controller.done;
    elapsedMs = Date.now() - started;
    const db = new Database(dbPath, { readonly: true });
    allRows = db.prepare('SELECT * FROM crawl_results').all() as Row[];
    // The site's rows by path (with query); other hosts' rows are looked up in allRows.
    rows = new Map(allRows.filter((r) => r.url.startsWith(`${site.origin}/`)).map((r) => [r.url.slice(site.origin.length), r]));
    urlStates = new Map((db.prepare('SELECT url, state FROM urls').all() as { url: string; state: number }[]).map((r) => [r.url, r.state]));
    rawHeaders = new Map(
      (
        db.prepare('SELECT u.url, r.response_headers AS h FROM results r JOIN urls u ON u.id = r.url_id').all() as {
          url: string;
          h: string | null;
        }[]
      ).map((r) => [r.url.slice(site.origin.length), r.h]),
    );
    const seo = site.url('/seo');
    linkKinds = new Map(
      (
        db
          .prepare('SELECT t.url, l.kind FROM links l JOIN urls f ON f.id = l.from_id JOIN urls t ON t.id = l.to_id WHERE f.url = ?')
          .all(seo) as { url: string; kind: string }[]
      ).map((r) => [r.url, r.kind]),
    );
    unfetchable = db
      .prepare('SELECT href, scheme FROM unfetchable_links x JOIN urls f ON f.id = x.from_id WHERE f.url = ? ORDER BY href')
      .all(seo) as { href: string; scheme: string }[];
    db.close();
  }, 90_000);

  afterAll(() => site?.close());

  it('ends on its own in bounded time', () => {
    expect(info.reason).toBe('completed');
    expect(elapsedMs).toBeLessThan(60_000);
  });

  it('fetches nothing twice except the retries, and nothing robots.txt forbids', () => {
    const counts = new Map<string, number>();
    for (const p of site.log) counts.set(p, (counts.get(p) ?? 0) + 1);
    // Network failures and 5xx get three attempts in all (the default); everything else exactly one.
    const retried: Record<string, number> = {
      '/never': 3,
      '/reset': 3,
      '/truncated': 3,
      '/server-error': 3,
      '/flapping': 3,
      '/rate-limited': 2,
    };
    expect([...counts].filter(([p, n]) => n !== (retried[p] ?? 1))).toEqual([]);
    expect(site.log).not.toContain('/private/secret');
    expect(rows.get('/private/secret')).toMatchObject({ status_code: null, error: 'blocked by robots.txt' });
  });

  it('records each redirect hop, stops a redirect loop and an endless chain', () => {
    expect(rows.get('/redirect/1')).toMatchObject({ status_code: 301, redirect_url: site.url('/redirect/2') });
    expect(rows.get('/redirect/2')).toMatchObject({ status_code: 301, redirect_url: site.url('/redirect/3') });
    expect(rows.get('/redirect/3')).toMatchObject({ status_code: 200, title: 'End of chain' });
    expect(rows.get('/loop/a')).toMatchObject({ status_code: 302, redirect_url: site.url('/loop/b') });
    expect(rows.get('/loop/b')).toMatchObject({ status_code: 302, redirect_url: site.url('/loop/a'), error: 'redirect loop' });
    // An endless chain: the link and ten redirects are followed, the eleventh hop is recorded and not fetched.
    expect(site.log.filter((p) => p.startsWith('/redirect-forever/'))).toHaveLength(11);
    expect(rows.get('/redirect-forever/11')).toMatchObject({ status_code: 302, error: 'too many redirects (over 10)' });
    expect(rows.has('/redirect-forever/12')).toBe(false);
    expect(urlStates.get(site.url('/redirect-forever/12'))).toBe(7); // in the link graph, as a cut chain
  });

  it('retries flapping 503s with backoff and honours a 429 Retry-After, and says how many attempts it took', () => {
    expect(rows.get('/flapping')).toMatchObject({ status_code: 200, title: 'Steady now', attempts: 3, error: null });
    expect(rows.get('/rate-limited')).toMatchObject({ status_code: 200, title: 'Thanks for waiting', attempts: 2 });
    const [first, second] = site.times.get('/rate-limited')!;
    expect(second! - first!).toBeGreaterThanOrEqual(950); // Retry-After: 1
    expect(rows.get('/server-error')).toMatchObject({ status_code: 500, attempts: 3 });
    expect(rows.get('/not-found')).toMatchObject({ status_code: 404, attempts: 1 });
  });

  it('reads every field the fixture page carries, and its indexability', () => {
    expect(rows.get('/seo')).toMatchObject({
      title: 'All the fields',
      h1: 'First heading',
      h1_count: 2,
      h2: 'Sub one',
      h2_count: 2,
      lang: 'en-GB',
      canonical: site.url('/seo-canonical'),
      hreflang: `de=${site.url('/de/seo')}; x-default=${site.url('/seo')}`,
      meta_refresh: site.url('/seo-refreshed'),
      indexability: 'non-indexable',
      indexability_reason: 'canonicalised',
    });
    expect(rows.get('/')).toMatchObject({ indexability: 'indexable', indexability_reason: null });
    expect(JSON.parse(rawHeaders.get('/seo')!)).toMatchObject({ 'content-type': 'text/html; charset=utf-8' });
    expect(rawHeaders.get('/never')).toBeNull(); // no response, no head
    expect(rows.get('/nofollow-page')).toMatchObject({
      meta_robots: 'noindex, nofollow',
      indexability: 'non-indexable',
      indexability_reason: 'noindex',
    });
    expect(rows.get('/not-found')).toMatchObject({ indexability: 'non-indexable', indexability_reason: 'client error' });
    expect(rows.get('/redirect/1')).toMatchObject({ indexability: 'non-indexable', indexability_reason: 'redirected' });
    expect(rows.get('/private/secret')).toMatchObject({ indexability: 'non-indexable', indexability_reason: 'blocked by robots.txt' });
    expect(rows.get('/huge')).toMatchObject({
      status_code: 200,
      indexability: 'non-indexable',
      indexability_reason: 'incomplete response',
    });
    expect(rows.get('/never')).toMatchObject({ indexability: 'non-indexable', indexability_reason: 'no response' });
  });

  it('records link relations and meta refresh as links, and never fetches them past the depth limit', () => {
    expect(linkKinds.get(site.url('/seo-canonical'))).toBe('canonical');
    expect(linkKinds.get(site.url('/de/seo'))).toBe('hreflang');
    expect(linkKinds.get(site.url('/seo?page=2'))).toBe('next');
    expect(linkKinds.get(site.url('/seo-refreshed'))).toBe('refresh');
    for (const p of ['/seo-canonical', '/de/seo', '/seo?page=2', '/seo-refreshed']) expect(urlStates.get(site.url(p)), p).toBe(5);
    expect(urlStates.get(site.url('/nf-target'))).toBe(6); // only linked from a nofollow page
  });

  it('checks images, scripts and stylesheets once each, without parsing them', () => {
    for (const p of SEO_RESOURCES)
      expect(
        site.log.filter((l) => l === p),
        p,
      ).toHaveLength(1);
    expect(rows.get('/img/logo.png')).toMatchObject({ kind: 'image', status_code: 200, content_type: 'image/png', indexability: null });
    expect(rows.get('/img/logo-2x.png')).toMatchObject({ kind: 'image', status_code: 200 });
    expect(rows.get('/img/missing.png')).toMatchObject({ kind: 'image', status_code: 404, indexability: null });
    expect(rows.get('/app.js')).toMatchObject({ kind: 'script', status_code: 200 });
    expect(rows.get('/style.css')).toMatchObject({ kind: 'stylesheet', status_code: 200 });
    expect(linkKinds.get(site.url('/img/logo.png'))).toBe('image');
  });

  it('records mailto:, tel:, javascript:, data: and unparsable links as not crawlable, and fetches none', () => {
    expect(unfetchable).toEqual([
      { href: 'data:text/html,hello', scheme: 'data' },
      { href: 'http://[broken', scheme: 'invalid' },
      { href: 'javascript:void(0)', scheme: 'javascript' },
      { href: 'mailto:someone@example.invalid', scheme: 'mailto' },
      { href: 'tel:+15550100', scheme: 'tel' },
    ]);
  });

  it('gives each failure a category a person understands', () => {
    expect(rows.get('/never')).toMatchObject({ status_code: null, error: 'timeout' });
    expect(rows.get('/slow')).toMatchObject({ status_code: 200, title: 'Slow' });
    expect(rows.get('/huge')?.error).toBe('too large (over 10485760 bytes)');
    expect(rows.get('/bomb')?.error).toBe('too large (over 10485760 bytes)');
    expect(rows.get('/reset')).toMatchObject({ status_code: null, error: 'connection reset' });
    expect(rows.get('/truncated')?.error).toBe('truncated body');
    expect(rows.get('/not-found')).toMatchObject({ status_code: 404, error: null });
    expect(rows.get('/server-error')).toMatchObject({ status_code: 500, error: null });
  });

  it('decodes other encodings and tolerates malformed and binary pages', () => {
    expect(rows.get('/latin1')?.title).toBe('Café crème');
    expect(rows.get('/sjis')?.title).toBe('日本語');
    expect(rows.get('/malformed')).toMatchObject({ status_code: 200, error: null });
    expect(rows.get('/binary')).toMatchObject({ status_code: 200, error: null });
    expect(rows.get('/image.png')).toMatchObject({ status_code: 200, content_type: 'image/png', outlinks: 0 });
  });

  it('keeps 20,000 links of one page in the link graph without following them past the depth limit', () => {
    expect(rows.get('/many-links')?.outlinks).toBe(20_000);
    expect(urlStates.get(site.url('/gen/19999'))).toBe(5);
    expect(site.log.some((p) => p.startsWith('/gen/'))).toBe(false);
    expect(urlStates.get(site.url('/calendar/2026/2'))).toBe(5);
  });

  it('never fetches non-http links, and checks a link to another host once without following it', () => {
    expect([...urlStates.keys()].some((u) => u.startsWith('mailto:') || u.startsWith('javascript:'))).toBe(false);
    // A .invalid host has no address: the check ends with the DNS failure, not with robots.txt retries.
    const external = allRows.filter((r) => r.url === 'http://elsewhere.invalid/');
    expect(external).toHaveLength(1);
    expect(external[0]).toMatchObject({ status_code: null, error: 'DNS lookup failed', indexability: null });
  });

  it('keeps the worker process memory bounded', () => {
    expect(workerPeakKb).toBeGreaterThan(0);
    // A 200 MB gzip bomb and a 30 MB page went through it.
    expect(workerPeakKb / 1024).toBeLessThan(250);
  });
});
