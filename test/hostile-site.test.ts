// A crawl of the hostile site ends on its own, with the right row for every URL, fetches nothing robots.txt
// forbids and nothing twice, and keeps the worker's memory bounded.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startHostileSite } from './helpers/hostile-site.ts';
import type { HostileSite } from './helpers/hostile-site.ts';
import { newCrawl } from './helpers/engine.ts';
import type { FinishInfo } from '../electron/engine/controller/crawl-controller.ts';

interface Row {
  url: string;
  status_code: number | null;
  content_type: string | null;
  title: string | null;
  outlinks: number;
  redirect_url: string | null;
  error: string | null;
}

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
  let urlStates: Map<string, number>;
  let workerPeakKb = 0;
  let elapsedMs = 0;

  beforeAll(async () => {
    site = await startHostileSite();
    // Depth 1 keeps the 20,000 links of /many-links and the infinite calendar recorded but not followed.
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 6, maxDepth: 1, responseTimeoutMs: 2_000, retryDelayMs: 200 });
    controller.on('snapshot', (s) => {
      for (const t of s.threads) if (t.pid) workerPeakKb = Math.max(workerPeakKb, peakKb(t.pid));
    });
    const started = Date.now();
    controller.start();
    info = await controller.done;
    elapsedMs = Date.now() - started;
    const db = new Database(dbPath, { readonly: true });
    rows = new Map((db.prepare('SELECT * FROM crawl_results').all() as Row[]).map((r) => [new URL(r.url).pathname, r]));
    urlStates = new Map((db.prepare('SELECT url, state FROM urls').all() as { url: string; state: number }[]).map((r) => [r.url, r.state]));
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
    const retried = ['/never', '/reset', '/truncated', '/server-error'];
    expect([...counts].filter(([p, n]) => n !== (retried.includes(p) ? 3 : 1))).toEqual([]);
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

  it('never fetches non-http links or other hosts', () => {
    expect([...urlStates.keys()].some((u) => u.startsWith('mailto:') || u.startsWith('javascript:'))).toBe(false);
    expect(urlStates.get('http://elsewhere.invalid/')).toBe(4);
  });

  it('keeps the worker process memory bounded', () => {
    expect(workerPeakKb).toBeGreaterThan(0);
    // A 200 MB gzip bomb and a 30 MB page went through it.
    expect(workerPeakKb / 1024).toBeLessThan(250);
  });
});
