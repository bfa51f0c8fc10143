import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl } from '../helpers/engine.ts';
import { retryDelayMs } from '../../electron/engine/frontier/retry-policy.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const settings = { maxAttempts: 3, retryDelayMs: 1000, maxRetryAfterMs: 60_000 };
const failure = (statusCode: number | null, error: string | null = null, retryAfterMs: number | null = null) => ({
  statusCode,
  error,
  retryAfterMs,
});

describe('retry policy', () => {
  it('retries network errors, 5xx, 408 and 429, with exponential backoff and jitter', () => {
    expect(retryDelayMs(failure(null, 'timeout'), 1, settings, () => 0)).toBe(500);
    expect(retryDelayMs(failure(null, 'connection reset'), 1, settings, () => 0.999)).toBe(1499);
    expect(retryDelayMs(failure(503), 2, settings, () => 0.5)).toBe(2000);
    expect(retryDelayMs(failure(500), 1, settings, () => 0.5)).toBe(1000);
    expect(retryDelayMs(failure(429), 1, settings, () => 0.5)).toBe(1000);
    expect(retryDelayMs(failure(408), 1, settings, () => 0.5)).toBe(1000);
    // A body cut short after a 200 status line is network trouble too.
    expect(retryDelayMs(failure(200, 'truncated body'), 1, settings, () => 0.5)).toBe(1000);
  });

  it('does not retry verdicts, nor past the last attempt', () => {
    for (const status of [200, 301, 404, 410, 501]) expect(retryDelayMs(failure(status), 1, settings)).toBeNull();
    for (const error of ['too large (over 10 bytes)', 'invalid response', 'DNS lookup failed']) {
      expect(retryDelayMs(failure(null, error), 1, settings)).toBeNull();
    }
    expect(retryDelayMs(failure(503), 3, settings)).toBeNull();
  });

  it("honours a server's Retry-After, capped", () => {
    expect(retryDelayMs(failure(503, null, 20_000), 1, settings, () => 0.5)).toBe(20_000);
    expect(retryDelayMs(failure(429, null, 3_600_000), 1, settings, () => 0.5)).toBe(60_000);
    // Only 429 and 503 carry a meaningful Retry-After.
    expect(retryDelayMs(failure(500, null, 20_000), 1, settings, () => 0.5)).toBe(1000);
  });
});

describe('retries in a crawl', () => {
  it('fetches a failing URL again after a backoff, records one row with its attempts, and honours Retry-After', async () => {
    const hits = new Map<string, number>();
    const count = (p: string) => {
      const n = (hits.get(p) ?? 0) + 1;
      hits.set(p, n);
      return n;
    };
    site = await startFixtureSite({
      routes: {
        '/': (_q, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<a href="/flaky">f</a><a href="/always-500">a</a><a href="/slow-down">s</a><a href="/gone">g</a><a href="/reset">r</a>'),
        '/flaky': (_q, res) =>
          void (count('/flaky') < 3
            ? res.writeHead(503).end()
            : res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Up</title>')),
        '/always-500': (_q, res) => void (count('/always-500'), res.writeHead(500).end()),
        '/slow-down': (_q, res) =>
          void (count('/slow-down') === 1
            ? res.writeHead(429, { 'retry-after': '1' }).end()
            : res.writeHead(200, { 'content-type': 'text/html' }).end('<title>OK</title>')),
        '/gone': (_q, res) => void (count('/gone'), res.writeHead(404).end()),
        '/reset': (req) => void (count('/reset'), req.socket.destroy()),
      },
    });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 2, retryDelayMs: 100 });
    controller.start();
    const info = await controller.done;
    expect(info.reason).toBe('completed');
    expect(Object.fromEntries(hits)).toEqual({ '/flaky': 3, '/always-500': 3, '/slow-down': 2, '/gone': 1, '/reset': 3 });

    const db = new Database(dbPath, { readonly: true });
    const row = (p: string) =>
      db
        .prepare('SELECT r.status_code, r.error, r.attempts FROM results r JOIN urls u ON u.id = r.url_id WHERE u.url = ?')
        .get(site!.url(p));
    expect(row('/flaky')).toEqual({ status_code: 200, error: null, attempts: 3 });
    expect(row('/always-500')).toEqual({ status_code: 500, error: null, attempts: 3 });
    expect(row('/slow-down')).toEqual({ status_code: 200, error: null, attempts: 2 });
    expect(row('/gone')).toEqual({ status_code: 404, error: null, attempts: 1 });
    expect(row('/reset')).toEqual({ status_code: null, error: 'connection reset', attempts: 3 });
    expect((db.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n).toBe(6);
    db.close();

    const times = (p: string) => site!.log.filter((e) => e.path === p).map((e) => e.at);
    const [first, second] = times('/slow-down');
    expect(second! - first!).toBeGreaterThanOrEqual(990);
    const flaky = times('/flaky');
    // Backoff with jitter: at least half the base delay, then at least half of twice it.
    expect(flaky[1]! - flaky[0]!).toBeGreaterThanOrEqual(45);
    expect(flaky[2]! - flaky[1]!).toBeGreaterThanOrEqual(95);
  });
});

describe('robots.txt that fails', () => {
  it('is fetched again after a backoff while the host waits, and then honoured', async () => {
    let robotsHits = 0;
    site = await startFixtureSite({
      pages: 5,
      linksPerPage: 2,
      routes: {
        '/robots.txt': (_q, res) =>
          void (++robotsHits < 3
            ? res.writeHead(503).end()
            : res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /p/4\n')),
      },
    });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 2, retryDelayMs: 100 });
    controller.start();
    const info = await controller.done;
    expect(robotsHits).toBe(3);
    expect(info.snapshot.counters).toMatchObject({ crawled: 4, failed: 1 });
    expect(site.fetchedPaths()).not.toContain('/p/4');
    // Nothing of the host was fetched before its robots.txt was known.
    const firstPage = site.log.findIndex((e) => e.path !== '/robots.txt');
    expect(site.log.slice(0, firstPage).map((e) => e.path)).toEqual(['/robots.txt', '/robots.txt', '/robots.txt']);
  });

  it('blocks the host after maxAttempts failures, saying why', async () => {
    let robotsHits = 0;
    site = await startFixtureSite({ pages: 3, routes: { '/robots.txt': (_q, res) => void (robotsHits++, res.writeHead(500).end()) } });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/p/0')], threads: 2, retryDelayMs: 50, maxAttempts: 2 });
    controller.start();
    const info = await controller.done;
    expect(robotsHits).toBe(2);
    expect(info.snapshot.counters).toMatchObject({ crawled: 0, failed: 1 });
    expect(site.fetchedPaths()).toEqual([]);
    const db = new Database(dbPath, { readonly: true });
    expect(db.prepare('SELECT error FROM results').get()).toEqual({ error: 'blocked: robots.txt HTTP 500' });
    db.close();
  });
});
