// The FrontierStore contract: one suite of behaviour tests run against both stores, the SQLite crawl file
// (SqliteFrontierStore) and the PostgreSQL store (PgFrontierStore), through the FrontierStore interface only. No HTTP:
// the tests play the controller and its workers, handing the store fabricated fetch results and controlling time with
// the `now` arguments. A few inspection helpers read the store's tables (urls, results) to check what was recorded but
// not queued. Cases only a store shared by several nodes has (leases, concurrent claims, finishing once) are in the
// PostgreSQL-only suite at the end.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import type { Claim, FrontierCounts, FrontierStore } from '../../electron/engine/frontier/frontier-store.ts';
import { MAX_REDIRECT_HOPS, MAX_SITEMAP_DEPTH, MAX_WORKER_CRASHES } from '../../electron/engine/frontier/model.ts';
import { SqliteFrontierStore } from '../../electron/engine/frontier/sqlite/sqlite-store.ts';
import { createPgCrawl, joinPgCrawl, type PgNode } from '../../electron/engine/frontier/postgres/pg-crawl.ts';
import { crawlChannel, crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import type { PgCluster } from '../../electron/engine/frontier/postgres/pg-cluster.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult, SitemapFetchResult } from '../../shared/protocol.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { fetchedPage } from '../helpers/page-result.ts';

const withPg = await pgSuite();

type PageClaim = Extract<Claim, { kind: 'page' }>;
type RobotsClaim = Extract<Claim, { kind: 'robots' }>;
type SitemapClaim = Extract<Claim, { kind: 'sitemap' }>;

/** urls.state (model.ts UrlState), spelt out so a failing expectation reads well. */
const STATE = { queued: 0, claimed: 1, done: 2, failed: 3, outOfScope: 4, tooDeep: 5, redirectCut: 7 } as const;

// ---- fabricated results ----

function pageResult(url: string, links: string[] = [], extra: Partial<PageFetchResult> = {}): PageFetchResult {
  // In scope: a.test to h.test (what the workers' scope rule would have said for these tests' seeds).
  return fetchedPage(url, links, {
    inScope: (u) => /^http:\/\/[a-h]\.test\//.test(u),
    extra: { sizeBytes: 100, responseTimeMs: 10, ...extra },
  });
}

function robotsResult(url: string, statusCode: number | null, body: string | null): RobotsFetchResult {
  return {
    kind: 'robots',
    jobId: 1,
    threadId: 1,
    url,
    statusCode,
    body,
    responseTimeMs: 5,
    error: statusCode === null ? 'connection refused' : null,
  };
}

/** The first claim `store` gets, claiming again for a few seconds while it gets none (loosely bounded). */
async function firstClaim(store: FrontierStore): Promise<Claim | undefined> {
  const end = Date.now() + 10_000;
  for (;;) {
    const [claim] = await store.claim(1);
    if (claim || Date.now() > end) return claim;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function asPage(claim: Claim | undefined): PageClaim {
  if (claim?.kind !== 'page') throw new Error(`expected a page claim, got ${JSON.stringify(claim)}`);
  return claim;
}

function asSitemap(claim: Claim | undefined): SitemapClaim {
  if (claim?.kind !== 'sitemap') throw new Error(`expected a sitemap claim, got ${JSON.stringify(claim)}`);
  return claim;
}

/** A sitemap a worker read: a urlset listing these URLs (in scope), or an index naming these sitemaps. */
function sitemapResult(url: string, urls: string[], format: 'urlset' | 'index' = 'urlset'): SitemapFetchResult {
  return {
    kind: 'sitemap',
    jobId: 1,
    threadId: 1,
    url,
    statusCode: 200,
    responseTimeMs: 5,
    sizeBytes: 100,
    format,
    urls: urls.map((u) => ({ url: u, inScope: true, lastmod: '2026-01-01', alternates: [] })),
    invalid: 0,
    overUrlLimit: false,
    overSizeLimit: false,
    error: null,
  };
}

function asRobots(claim: Claim | undefined): RobotsClaim {
  if (claim?.kind !== 'robots') throw new Error(`expected a robots claim, got ${JSON.stringify(claim)}`);
  return claim;
}

const urlsOf = (claims: Claim[]) => claims.map((c) => c.url);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the two stores behind one harness ----

interface UrlRow {
  state: number;
  depth: number;
}

interface ResultRow {
  status_code: number | null;
  error: string | null;
  attempts: number;
}

interface Harness {
  store: FrontierStore;
  /** Makes counts() current: for a cluster, a heartbeat that starts after every call so far has committed. */
  settle(): Promise<void>;
  /** Stops what updates counts() besides the store's own calls (a cluster's heartbeat); nothing for SQLite. */
  quiesce(): Promise<void>;
  /** The URL's urls row, or undefined when the store does not know it. */
  url(url: string): Promise<UrlRow | undefined>;
  /** The URL's results rows (at most one, by the contract). */
  results(url: string): Promise<ResultRow[]>;
  /** The sitemap's row: its state (model.ts SitemapState), why it was not read, and whether it has a fetch time. */
  sitemap(url: string): Promise<{ state: number; error: string | null; fetched: boolean } | undefined>;
  /** After a crash: the store is closed without giving anything back, and the crawl opened again as the same node. */
  reopen(): Promise<Harness>;
}

interface StoreFactory {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  open(settings: Record<string, unknown>): Promise<Harness>;
}

/** Every harness store opened by a test; closed after it whatever happened. */
const opened: FrontierStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close().catch(() => undefined);
});

function settingsOf(input: Record<string, unknown>): Record<string, unknown> {
  // No /sitemap.xml guessed unless a test asks for it (the sitemaps' own cases below), so the other cases' claims are
  // their pages alone.
  return { seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false, ...input };
}

const sqliteFactory: StoreFactory = {
  name: 'SQLite',
  async setup() {},
  async teardown() {},
  async open(input) {
    const settings = parseSettings(settingsOf(input));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-contract-')), 'crawl.trawl');
    const harness = (db: Db): Harness => {
      const store = new SqliteFrontierStore(db, settings, file);
      opened.push(store);
      return {
        store,
        settle: async () => {},
        quiesce: async () => {},
        url: async (url) => db.prepare('SELECT state, depth FROM urls WHERE url = ?').get(url) as UrlRow | undefined,
        results: async (url) =>
          db
            .prepare('SELECT r.status_code, r.error, r.attempts FROM results r JOIN urls u ON u.id = r.url_id WHERE u.url = ?')
            .all(url) as ResultRow[],
        sitemap: async (url) => {
          const row = db.prepare('SELECT state, error, fetched_at IS NOT NULL AS fetched FROM sitemaps WHERE url = ?').get(url) as
            | { state: number; error: string | null; fetched: number }
            | undefined;
          return row && { ...row, fetched: row.fetched === 1 };
        },
        reopen: async () => {
          // A crash: the file is left as it was (claimed URLs and all) and opened again.
          await store.close();
          return harness(openCrawlFile(file));
        },
      };
    };
    return harness(createCrawlFile(file, settings));
  },
};

let pgDb: FreshDatabase | undefined;
let inspector: pg.Client | undefined;

async function pgQuery<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await inspector!.query<T>(sql, params)).rows;
}

function pgHarness(node: PgNode, name: string): Harness {
  const store = node.store;
  opened.push(store);
  const schema = crawlSchema(node.crawlId);
  const cluster = store.cluster as PgCluster;
  return {
    store,
    settle: async () => {
      // Twice: the first may join a heartbeat that read the counters before this test's last call committed.
      await cluster.refresh();
      await cluster.refresh();
    },
    quiesce: () => cluster.close(),
    url: async (url) => (await pgQuery<UrlRow>(`SELECT state, depth FROM ${schema}.urls WHERE url = $1`, [url]))[0],
    results: (url) =>
      pgQuery<ResultRow>(
        `SELECT r.status_code, r.error, r.attempts FROM ${schema}.results r JOIN ${schema}.urls u ON u.id = r.url_id WHERE u.url = $1`,
        [url],
      ),
    sitemap: async (url) =>
      (
        await pgQuery<{ state: number; error: string | null; fetched: boolean }>(
          `SELECT state, error, fetched_at IS NOT NULL AS fetched FROM ${schema}.sitemaps WHERE url = $1`,
          [url],
        )
      )[0],
    reopen: async () => {
      // A crash: the node's connections go without a word (no leave(), no release), and it joins again under its name.
      await store.close();
      return pgHarness(await joinPgCrawl(pgDb!.url, node.crawlId, { name }), name);
    },
  };
}

const pgFactory: StoreFactory = {
  name: 'PostgreSQL',
  async setup() {
    pgDb = await freshDatabase('frontier_contract');
    inspector = new pg.Client({ connectionString: pgDb.url });
    inspector.on('error', () => undefined);
    await inspector.connect();
  },
  async teardown() {
    await inspector?.end().catch(() => undefined);
    await pgDb?.drop();
  },
  async open(input) {
    return pgHarness(await createPgCrawl(pgDb!.url, parseSettings(settingsOf(input)), { name: 'node-a' }), 'node-a');
  },
};

// ---- the contract ----

function contract(factory: StoreFactory): void {
  beforeAll(() => factory.setup());
  afterAll(() => factory.teardown());

  async function counts(h: Harness): Promise<FrontierCounts> {
    await h.settle();
    return { ...h.store.counts() };
  }

  /** Claims until nothing more is claimable at `now` (bounded); every batch within `max`. */
  async function drain(h: Harness, max: number, now: number): Promise<Claim[]> {
    const all: Claim[] = [];
    for (let i = 0; i < 100; i++) {
      const batch = await h.store.claim(max, now);
      expect(batch.length).toBeLessThanOrEqual(max);
      if (batch.length === 0) return all;
      all.push(...batch);
    }
    throw new Error('claiming never ran dry');
  }

  describe('seeds and claiming', () => {
    it('dedups seeds on their normal form, and counts the queue', async () => {
      const h = await factory.open({ stripQueryParams: ['utm_*'] });
      const t0 = Date.now();
      expect(
        await h.store.addSeeds(
          ['http://a.test/', 'http://a.test/', 'http://A.test:80/#top', 'http://a.test/?utm_source=x', 'http://a.test/x'],
          t0,
        ),
      ).toBe(2);
      expect((await counts(h)).queued).toBe(2);
      expect(await h.store.addSeeds(['http://a.test/x#again', 'HTTP://A.TEST/x'], t0)).toBe(0);
      expect(await counts(h)).toEqual({ queued: 2, crawled: 0, failed: 0 });
      const claimed = await drain(h, 10, t0);
      expect(urlsOf(claimed).sort()).toEqual(['http://a.test/', 'http://a.test/x']);
      expect(claimed[0]).toMatchObject({ kind: 'page', depth: 0, hops: 0, urlKind: 'page', checkOnly: false });
    });

    it('claims nothing when nothing is queued, and nothing for max 0', async () => {
      const h = await factory.open({});
      expect(await h.store.claim(5)).toEqual([]);
      expect(await h.store.nextReadyAt()).toBeNull();
      await h.store.addSeeds(['http://a.test/']);
      expect(await h.store.claim(0)).toEqual([]);
      expect(await h.store.claim(5)).toHaveLength(1);
      expect(await h.store.claim(5)).toEqual([]);
      expect(await counts(h)).toEqual({ queued: 0, crawled: 0, failed: 0 });
    });

    it('hands out each queued URL once, never more than max at a time', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      const seeds = [...[1, 2, 3, 4, 5].map((n) => `http://a.test/${n}`), ...[1, 2, 3].map((n) => `http://b.test/${n}`)];
      expect(await h.store.addSeeds(seeds, t0)).toBe(8);
      const claimed = await drain(h, 3, t0);
      expect(urlsOf(claimed).sort()).toEqual([...seeds].sort());
      expect(new Set(claimed.map((c) => asPage(c).urlId)).size).toBe(8);
      expect((await counts(h)).queued).toBe(0);
    });

    // PostgreSQL claims in one pass over the ready hosts (each host's share computed once), where SQLite goes round
    // again while it made progress: with host a.test holding 5 ready URLs and b.test 1, claim(4) gives 4 on SQLite
    // and 3 on PostgreSQL (2 from a.test + 1 from b.test), though a.test has more ready. Not a hang (the controller
    // asks again when nextReadyAt() says now), but fewer threads busy per pump.
    it('fills a claim up to max when that many URLs are ready (across hosts)', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      await h.store.addSeeds(
        ['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://a.test/4', 'http://a.test/5', 'http://b.test/1'],
        t0,
      );
      expect(await h.store.claim(4, t0)).toHaveLength(4);
    });
  });

  describe('recording pages', () => {
    it('queues new in-scope links once, records known, out-of-scope and too-deep ones without queueing them', async () => {
      const h = await factory.open({ maxDepth: 1 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      const seed = asPage((await h.store.claim(1, t0))[0]);
      const links = ['http://a.test/x', 'http://a.test/y', 'http://a.test/x', 'http://a.test/', 'http://elsewhere.test/'];
      expect(await h.store.recordPage(seed, pageResult(seed.url, links), t0)).toBe('recorded');
      expect(await counts(h)).toEqual({ queued: 2, crawled: 1, failed: 0 });
      expect(await h.url('http://elsewhere.test/')).toEqual({ state: STATE.outOfScope, depth: 1 });
      expect(await h.url('http://a.test/')).toEqual({ state: STATE.done, depth: 0 });
      expect(await h.results('http://a.test/')).toEqual([{ status_code: 200, error: null, attempts: 1 }]);

      const next = await h.store.claim(10, t0);
      expect(urlsOf(next).sort()).toEqual(['http://a.test/x', 'http://a.test/y']);
      expect(next.map((c) => asPage(c).depth)).toEqual([1, 1]);
      const x = asPage(next.find((c) => c.url === 'http://a.test/x'));
      // Depth 2 is past maxDepth 1: recorded as too deep. /y is known (claimed): not queued again.
      expect(await h.store.recordPage(x, pageResult(x.url, ['http://a.test/z', 'http://a.test/y', 'http://a.test/']), t0)).toBe('recorded');
      expect(await counts(h)).toEqual({ queued: 0, crawled: 2, failed: 0 });
      expect(await h.url('http://a.test/z')).toEqual({ state: STATE.tooDeep, depth: 2 });
      expect(await h.store.claim(10, t0)).toEqual([]);
    });

    it('queues a redirect target at the same depth, one hop further', async () => {
      const h = await factory.open({ maxDepth: 0 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/old'], t0);
      const old = asPage((await h.store.claim(1, t0))[0]);
      const moved = pageResult(old.url, [], { statusCode: 301, redirectUrl: 'http://a.test/new', redirectInScope: true, parsed: false });
      expect(await h.store.recordPage(old, moved, t0)).toBe('recorded');
      expect(await counts(h)).toEqual({ queued: 1, crawled: 1, failed: 0 });
      const target = asPage((await h.store.claim(5, t0))[0]);
      expect(target).toMatchObject({ url: 'http://a.test/new', depth: 0, hops: 1 });
      // An out-of-scope target is recorded, not queued.
      const away = pageResult(target.url, [], {
        statusCode: 302,
        redirectUrl: 'http://elsewhere.test/',
        redirectInScope: false,
        parsed: false,
      });
      expect(await h.store.recordPage(target, away, t0)).toBe('recorded');
      expect(await h.url('http://elsewhere.test/')).toEqual({ state: STATE.outOfScope, depth: 0 });
      expect(await counts(h)).toEqual({ queued: 0, crawled: 2, failed: 0 });
    });

    it('cuts a redirect back into its own chain as a redirect loop', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/loop/a'], t0);
      // a -> b -> c -> b: c's redirect goes back to b, two rows up its chain.
      const chain = ['http://a.test/loop/a', 'http://a.test/loop/b', 'http://a.test/loop/c'];
      for (const [i, url] of chain.entries()) {
        const claim = asPage((await h.store.claim(5, t0))[0]);
        expect(claim).toMatchObject({ url, hops: i });
        const to = chain[i + 1] ?? 'http://a.test/loop/b';
        const moved = pageResult(url, [], { statusCode: 302, redirectUrl: to, redirectInScope: true, parsed: false });
        expect(await h.store.recordPage(claim, moved, t0)).toBe('recorded');
      }
      expect(await h.results('http://a.test/loop/b')).toEqual([{ status_code: 302, error: null, attempts: 1 }]);
      expect(await h.results('http://a.test/loop/c')).toEqual([{ status_code: 302, error: 'redirect loop', attempts: 1 }]);
      expect(await h.store.claim(5, t0)).toEqual([]);
      expect(await counts(h)).toEqual({ queued: 0, crawled: 3, failed: 0 });
    });

    it(`follows a chain of ${MAX_REDIRECT_HOPS} redirects and cuts the one after as too many`, async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      const hop = (n: number) => `http://a.test/r/${n}`;
      await h.store.addSeeds([hop(0)], t0);
      for (let i = 0; i <= MAX_REDIRECT_HOPS; i++) {
        const claim = asPage((await h.store.claim(5, t0))[0]);
        expect(claim).toMatchObject({ url: hop(i), hops: i });
        const moved = pageResult(claim.url, [], { statusCode: 301, redirectUrl: hop(i + 1), redirectInScope: true, parsed: false });
        expect(await h.store.recordPage(claim, moved, t0)).toBe('recorded');
        // Every hop up to the limit is followed; the redirect of the URL at the limit is not.
        expect((await h.results(claim.url))[0]!.error, claim.url).toBe(
          i < MAX_REDIRECT_HOPS ? null : `too many redirects (over ${MAX_REDIRECT_HOPS})`,
        );
      }
      expect(await h.url(hop(MAX_REDIRECT_HOPS + 1))).toEqual({ state: STATE.redirectCut, depth: 0 });
      expect(await h.store.claim(5, t0)).toEqual([]);
      expect(await counts(h)).toEqual({ queued: 0, crawled: MAX_REDIRECT_HOPS + 1, failed: 0 });
    });

    it('retries a 503 after the retry delay, and records it as is after the last attempt', async () => {
      // retryDelayMs 1000: the first retry waits 500-1500 ms (jitter), the second 1000-3000 ms.
      const h = await factory.open({ maxAttempts: 3, retryDelayMs: 1000 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/busy'], t0);
      const busy = (url: string) => pageResult(url, [], { statusCode: 503, parsed: false });
      const first = asPage((await h.store.claim(1, t0))[0]);
      expect(await h.store.recordPage(first, busy(first.url), t0)).toBe('retry');
      expect(await counts(h)).toEqual({ queued: 1, crawled: 0, failed: 0 });
      expect(await h.store.claim(1, t0 + 499)).toEqual([]);
      const ready = await h.store.nextReadyAt();
      expect(ready).toBeGreaterThanOrEqual(t0 + 500);
      expect(ready).toBeLessThanOrEqual(t0 + 1500);

      const t1 = t0 + 1500;
      const second = asPage((await h.store.claim(1, t1))[0]);
      expect(second.urlId).toBe(first.urlId);
      expect(await h.store.recordPage(second, busy(second.url), t1)).toBe('retry');
      expect(await h.store.claim(1, t1 + 999)).toEqual([]);

      const t2 = t1 + 3000;
      const third = asPage((await h.store.claim(1, t2))[0]);
      expect(third.url).toBe('http://a.test/busy');
      expect(await h.store.recordPage(third, busy(third.url), t2)).toBe('recorded');
      expect(await counts(h)).toEqual({ queued: 0, crawled: 1, failed: 0 });
      expect(await h.results('http://a.test/busy')).toEqual([{ status_code: 503, error: null, attempts: 3 }]);
      expect(await h.store.claim(1, t2 + 60_000)).toEqual([]);
    });

    it('records a fetch without a response as failed', async () => {
      const h = await factory.open({ maxAttempts: 1 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/ok', 'http://a.test/down', 'http://a.test/later'], t0);
      const [ok, down] = (await h.store.claim(2, t0)).map(asPage);
      expect(await h.store.recordPage(ok!, pageResult(ok!.url), t0)).toBe('recorded');
      expect(
        await h.store.recordPage(down!, pageResult(down!.url, [], { statusCode: null, error: 'connection refused', parsed: false }), t0),
      ).toBe('recorded');
      expect(await counts(h)).toEqual({ queued: 1, crawled: 1, failed: 1 });
      expect(await h.url(down!.url)).toMatchObject({ state: STATE.failed });
      expect(await h.results(down!.url)).toEqual([{ status_code: null, error: 'connection refused', attempts: 1 }]);
    });
  });

  describe('releasing', () => {
    it('puts a released URL back, and records one whose worker crashed twice as failed', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/crashy'], t0);
      const first = asPage((await h.store.claim(1, t0))[0]);
      expect(await h.store.release(first, false, t0)).toBe('requeued');
      expect(await counts(h)).toEqual({ queued: 1, crawled: 0, failed: 0 });
      const second = asPage((await h.store.claim(1, t0))[0]);
      expect(second.urlId).toBe(first.urlId);
      expect(await h.store.release(second, true, t0)).toBe('requeued');
      const third = asPage((await h.store.claim(1, t0))[0]);
      expect(third.urlId).toBe(first.urlId);
      expect(await h.store.release(third, true, t0)).toBe('failed');
      expect(await counts(h)).toEqual({ queued: 0, crawled: 0, failed: 1 });
      expect(await h.store.claim(1, t0)).toEqual([]);
      expect(await h.url(first.url)).toMatchObject({ state: STATE.failed });
      expect(await h.results(first.url)).toEqual([{ status_code: null, error: 'worker crashed', attempts: 0 }]);
    });
  });

  describe('politeness', () => {
    it("holds a host with a delay until its fetch returns, then until the delay has passed; other hosts don't wait", async () => {
      const h = await factory.open({ delayMs: 1000 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/1', 'http://a.test/2', 'http://b.test/1'], t0);
      const first = await h.store.claim(5, t0);
      // One fetch at a time per host with a delay: one from each host.
      expect(urlsOf(first).sort()).toEqual(['http://a.test/1', 'http://b.test/1']);
      expect(await h.store.claim(5, t0 + 60_000)).toEqual([]); // held while in flight
      expect(await h.store.nextReadyAt()).toBeNull();
      const a1 = asPage(first.find((c) => c.url === 'http://a.test/1'));
      expect(await h.store.recordPage(a1, pageResult(a1.url), t0 + 10)).toBe('recorded');
      expect(await h.store.nextReadyAt()).toBe(t0 + 1010);
      expect(await h.store.claim(5, t0 + 1009)).toEqual([]);
      expect(urlsOf(await h.store.claim(5, t0 + 1010))).toEqual(['http://a.test/2']);
    });
  });

  describe('per-host cap', () => {
    it('never has more than maxPerHost fetches of one host in flight, however it is claimed', async () => {
      const h = await factory.open({ maxPerHost: 2 });
      const t0 = Date.now();
      const aUrls = [1, 2, 3, 4, 5, 6].map((n) => `http://a.test/${n}`);
      await h.store.addSeeds([...aUrls, 'http://b.test/1', 'http://b.test/2', 'http://b.test/3'], t0);
      const hostOf = (c: Claim) => new URL(c.url).host;
      // One URL a claim, then many: two of each host either way, and then nothing until a fetch returns.
      const first = [...(await h.store.claim(1, t0)), ...(await h.store.claim(1, t0)), ...(await h.store.claim(1, t0))];
      const rest = await h.store.claim(10, t0);
      const inFlight = [...first, ...rest];
      expect(inFlight.filter((c) => hostOf(c) === 'a.test')).toHaveLength(2);
      expect(inFlight.filter((c) => hostOf(c) === 'b.test')).toHaveLength(2);
      expect(await h.store.claim(10, t0 + 60_000)).toEqual([]);
      // One of a.test's fetches returns: one more of a.test, not two.
      const a = asPage(inFlight.find((c) => hostOf(c) === 'a.test'));
      expect(await h.store.recordPage(a, pageResult(a.url), t0)).toBe('recorded');
      const next = await h.store.claim(10, t0);
      expect(next.map(hostOf)).toEqual(['a.test']);
      expect(await h.store.claim(10, t0)).toEqual([]);
      expect(await counts(h)).toEqual({ queued: 4, crawled: 1, failed: 0 });
    });
  });

  describe('counters', () => {
    it('counts crawled and failed pages and the queue as the crawl goes', async () => {
      const h = await factory.open({ maxAttempts: 1 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/', 'http://b.test/'], t0);
      expect(await counts(h)).toEqual({ queued: 2, crawled: 0, failed: 0 });
      const [a, b] = (await h.store.claim(2, t0)).map(asPage).sort((x, y) => x.url.localeCompare(y.url));
      expect(await counts(h)).toEqual({ queued: 0, crawled: 0, failed: 0 });
      await h.store.recordPage(a!, pageResult(a!.url, ['http://a.test/1', 'http://a.test/2', 'http://a.test/3']), t0);
      expect(await counts(h)).toEqual({ queued: 3, crawled: 1, failed: 0 });
      await h.store.recordPage(b!, pageResult(b!.url, [], { statusCode: null, error: 'timeout', parsed: false }), t0);
      expect(await counts(h)).toEqual({ queued: 3, crawled: 1, failed: 1 });
      const more = await h.store.claim(2, t0);
      expect(await counts(h)).toEqual({ queued: 1, crawled: 1, failed: 1 });
      await h.store.release(more[0]!, false, t0);
      expect(await counts(h)).toEqual({ queued: 2, crawled: 1, failed: 1 });
    });

    // Without a heartbeat racing the calls (a cluster's would replace the counters at any moment): what the store's
    // own bookkeeping says. (addSeeds and addExclude refresh a cluster's counters themselves: not checked here.)
    it('keeps counts() current through its own calls alone (no heartbeat)', async () => {
      const h = await factory.open({ maxAttempts: 1 });
      await h.quiesce();
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/', 'http://b.test/'], t0);
      expect(h.store.counts()).toEqual({ queued: 2, crawled: 0, failed: 0 });
      const [a, b] = (await h.store.claim(2, t0)).map(asPage).sort((x, y) => x.url.localeCompare(y.url));
      expect(h.store.counts()).toEqual({ queued: 0, crawled: 0, failed: 0 });
      await h.store.recordPage(a!, pageResult(a!.url, ['http://a.test/1', 'http://a.test/2']), t0);
      expect(h.store.counts()).toEqual({ queued: 2, crawled: 1, failed: 0 });
      await h.store.recordPage(b!, pageResult(b!.url, [], { statusCode: null, error: 'timeout', parsed: false }), t0);
      expect(h.store.counts()).toEqual({ queued: 2, crawled: 1, failed: 1 });
      await h.store.release((await h.store.claim(1, t0))[0]!, false, t0);
      expect(h.store.counts()).toEqual({ queued: 2, crawled: 1, failed: 1 });
    });
  });

  describe('live patterns', () => {
    it('addExclude drops matching queued URLs (recorded, not crawled) and links found later', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      const seed = asPage((await h.store.claim(1, t0))[0]);
      await h.store.recordPage(
        seed,
        pageResult(seed.url, ['http://a.test/a/1', 'http://a.test/b/1', 'http://a.test/a/2', 'http://a.test/b/2']),
        t0,
      );
      expect(await h.store.addExclude('/a/')).toBe(2);
      expect((await counts(h)).queued).toBe(2);
      expect(await h.url('http://a.test/a/1')).toMatchObject({ state: STATE.outOfScope });
      expect(await h.store.addExclude('/nothing-matches/')).toBe(0);
      const rest = await h.store.claim(10, t0);
      expect(urlsOf(rest)).toEqual(['http://a.test/b/1', 'http://a.test/b/2']);
      await h.store.recordPage(asPage(rest[0]), pageResult(rest[0]!.url, ['http://a.test/a/3', 'http://a.test/b/3']), t0);
      expect(await h.url('http://a.test/a/3')).toMatchObject({ state: STATE.outOfScope });
      expect(urlsOf(await h.store.claim(10, t0))).toEqual(['http://a.test/b/3']);
    });

    it('deprioritise moves matching URLs behind the rest of their host, now and for URLs found later', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      const seed = asPage((await h.store.claim(1, t0))[0]);
      await h.store.recordPage(
        seed,
        pageResult(seed.url, ['http://a.test/tag/1', 'http://a.test/p/1', 'http://a.test/tag/2', 'http://a.test/p/2']),
        t0,
      );
      expect(await h.store.deprioritise('/tag/')).toBe(2);
      expect((await counts(h)).queued).toBe(4); // nothing dropped
      const first = await h.store.claim(2, t0);
      expect(urlsOf(first)).toEqual(['http://a.test/p/1', 'http://a.test/p/2']);
      await h.store.recordPage(asPage(first[0]), pageResult(first[0]!.url, ['http://a.test/tag/3', 'http://a.test/p/3']), t0);
      expect(urlsOf(await h.store.claim(10, t0))).toEqual([
        'http://a.test/p/3',
        'http://a.test/tag/1',
        'http://a.test/tag/2',
        'http://a.test/tag/3',
      ]);
    });
  });

  describe('robots.txt', () => {
    const ROBOTS = 'User-agent: *\nDisallow: /private\n';

    it("claims a new host's robots.txt first; a disallowed URL ends failed, never handed out", async () => {
      const h = await factory.open({ robots: 'respect' });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/', 'http://a.test/private/x', 'http://a.test/ok', 'http://b.test/'], t0);
      const robots = await h.store.claim(10, t0);
      expect(robots.map((c) => [c.kind, c.url]).sort()).toEqual([
        ['robots', 'http://a.test/robots.txt'],
        ['robots', 'http://b.test/robots.txt'],
      ]);
      expect(await h.store.claim(10, t0)).toEqual([]); // hosts wait for their robots.txt
      expect(await h.store.nextReadyAt()).toBeNull();
      const [ra, rb] = robots.map(asRobots).sort((x, y) => x.url.localeCompare(y.url));
      await h.store.recordRobots(ra!, robotsResult(ra!.url, 200, ROBOTS), t0);
      await h.store.recordRobots(rb!, robotsResult(rb!.url, 404, null), t0);
      const pages = await drain(h, 10, t0);
      expect(urlsOf(pages).sort()).toEqual(['http://a.test/', 'http://a.test/ok', 'http://b.test/']);
      expect(await h.url('http://a.test/private/x')).toMatchObject({ state: STATE.failed });
      expect(await h.results('http://a.test/private/x')).toEqual([{ status_code: null, error: 'blocked by robots.txt', attempts: 0 }]);
      expect(await counts(h)).toEqual({ queued: 0, crawled: 0, failed: 1 });
      // Links found later to a disallowed path end the same way.
      const home = asPage(pages.find((c) => c.url === 'http://a.test/'));
      await h.store.recordPage(home, pageResult(home.url, ['http://a.test/private/y', 'http://a.test/public']), t0);
      expect(urlsOf(await drain(h, 10, t0))).toEqual(['http://a.test/public']);
      expect(await h.url('http://a.test/private/y')).toMatchObject({ state: STATE.failed });
    });

    it('gives a released robots.txt fetch back', async () => {
      const h = await factory.open({ robots: 'respect' });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      const robots = asRobots((await h.store.claim(1, t0))[0]);
      expect(await h.store.release(robots, false, t0)).toBe('requeued');
      expect(asRobots((await h.store.claim(1, t0))[0]).url).toBe('http://a.test/robots.txt');
    });

    it(`counts a robots.txt fetch whose worker crashed, and after ${MAX_WORKER_CRASHES} takes it as unreachable (no loop)`, async () => {
      const h = await factory.open({ robots: 'respect' });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/1', 'http://a.test/2'], t0);
      // A release that is not a crash (the crawl stopping, a thread gone) is not counted, however often.
      for (let i = 0; i < MAX_WORKER_CRASHES + 1; i++) {
        expect(await h.store.release(asRobots((await h.store.claim(1, t0))[0]), false, t0)).toBe('requeued');
      }
      for (let crash = 1; crash < MAX_WORKER_CRASHES; crash++) {
        expect(await h.store.release(asRobots((await h.store.claim(1, t0))[0]), true, t0)).toBe('requeued');
      }
      expect(await h.store.release(asRobots((await h.store.claim(1, t0))[0]), true, t0)).toBe('failed');
      // The host's robots.txt stands as unreachable: its URLs are blocked with that reason, never handed out.
      expect(await drain(h, 10, t0)).toEqual([]);
      expect(await h.results('http://a.test/1')).toEqual([
        { status_code: null, error: 'blocked: robots.txt unreachable (worker crashed)', attempts: 0 },
      ]);
      expect(await counts(h)).toEqual({ queued: 0, crawled: 0, failed: 2 });
    });

    it('tries a 2xx robots.txt whose body was cut off again, and blocks the host after the last attempt (never allow all)', async () => {
      const h = await factory.open({ robots: 'respect', maxAttempts: 2, retryDelayMs: 100 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/1'], t0);
      const cut = (claim: RobotsClaim): RobotsFetchResult => ({ ...robotsResult(claim.url, 200, null), error: 'connection reset' });
      const first = asRobots((await h.store.claim(1, t0))[0]);
      await h.store.recordRobots(first, cut(first), t0);
      expect(await h.store.claim(1, t0)).toEqual([]); // waits for the retry delay
      const t1 = t0 + 60_000;
      const second = asRobots((await h.store.claim(1, t1))[0]);
      await h.store.recordRobots(second, cut(second), t1);
      expect(await drain(h, 10, t1)).toEqual([]);
      expect(await h.results('http://a.test/1')).toEqual([
        { status_code: null, error: 'blocked: robots.txt incomplete (HTTP 200, connection reset)', attempts: 0 },
      ]);
    });

    it('takes a robots.txt whose job ran past its deadline as unreachable at once (not fetched again)', async () => {
      const h = await factory.open({ robots: 'respect' });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/1'], t0);
      const robots = asRobots((await h.store.claim(1, t0))[0]);
      await h.store.recordRobots(robots, { ...robotsResult(robots.url, null, null), error: 'processing timeout' }, t0);
      expect(await drain(h, 10, t0 + 600_000)).toEqual([]);
      expect(await h.results('http://a.test/1')).toEqual([
        { status_code: null, error: 'blocked: robots.txt unreachable (processing timeout)', attempts: 0 },
      ]);
    });

    // PostgreSQL's claim makes one pass: when the URLs it picks for a host are all disallowed, it records them as
    // blocked and returns [] although an allowed URL of the same host is ready (SQLite goes round again and hands it
    // out). claim(1) here: PostgreSQL returns [] (the next claim gets /ok).
    it('claims an allowed URL behind disallowed ones in the same call', async () => {
      const h = await factory.open({ robots: 'respect' });
      const t0 = Date.now();
      // Two calls: the disallowed URLs first in the queue (PostgreSQL inserts one call's URLs in URL order).
      await h.store.addSeeds(['http://a.test/private/1', 'http://a.test/private/2'], t0);
      await h.store.addSeeds(['http://a.test/ok'], t0);
      const robots = asRobots((await h.store.claim(1, t0))[0]);
      await h.store.recordRobots(robots, robotsResult(robots.url, 200, ROBOTS), t0);
      expect(urlsOf(await h.store.claim(1, t0))).toEqual(['http://a.test/ok']);
    });

    // PostgreSQL's claim leaves URLs it records as blocked by robots.txt out of its own counters (it subtracts only
    // the pages it hands out, and counts no failure): counts() says queued 2, failed 0 here until the next heartbeat
    // replaces the counters (SQLite: queued 0, failed 2 at once). The controller reads counts() for maxPages, so a
    // page limit can be overshot by URLs blocked since the last heartbeat.
    it('counts URLs blocked by robots.txt as failed at once (no heartbeat)', async () => {
      const h = await factory.open({ robots: 'respect' });
      await h.quiesce();
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/private/1', 'http://a.test/private/2'], t0);
      const robots = asRobots((await h.store.claim(1, t0))[0]);
      await h.store.recordRobots(robots, robotsResult(robots.url, 200, ROBOTS), t0);
      expect(await h.store.claim(5, t0)).toEqual([]);
      expect(h.store.counts()).toEqual({ queued: 0, crawled: 0, failed: 2 });
    });

    it('in report mode hands out a disallowed URL too, marked as disallowed', async () => {
      const h = await factory.open({ robots: 'report' });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/private/x', 'http://a.test/ok'], t0);
      const robots = asRobots((await h.store.claim(1, t0))[0]);
      await h.store.recordRobots(robots, robotsResult(robots.url, 200, ROBOTS), t0);
      const pages = (await drain(h, 10, t0)).map(asPage);
      expect(pages.map((c) => [c.url, c.robotsDisallowed === true]).sort()).toEqual([
        ['http://a.test/ok', false],
        ['http://a.test/private/x', true],
      ]);
    });

    it('tries a robots.txt that failed with a 5xx again after a backoff, and blocks the host after maxAttempts failures', async () => {
      const h = await factory.open({ robots: 'respect', maxAttempts: 2, retryDelayMs: 1_000 });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/page'], t0);
      const first = asRobots((await h.store.claim(1, t0))[0]);
      await h.store.recordRobots(first, robotsResult(first.url, 503, null), t0);
      // Held for the backoff (1 s, times 0.5 to 1.5): nothing now, the robots.txt again once it has passed.
      expect(await h.store.claim(10, t0)).toEqual([]);
      expect(await h.url('http://a.test/page')).toMatchObject({ state: STATE.queued });
      const again = asRobots((await h.store.claim(10, t0 + 1_600))[0]);
      expect(again.url).toBe('http://a.test/robots.txt');
      await h.store.recordRobots(again, robotsResult(again.url, 503, null), t0 + 1_600);
      // The second failure is the verdict: the host's URLs end failed, never handed out.
      expect(await drain(h, 10, t0 + 1_600)).toEqual([]);
      expect(await h.results('http://a.test/page')).toEqual([{ status_code: null, error: 'blocked: robots.txt HTTP 503', attempts: 0 }]);
    });
  });

  describe('sitemaps', () => {
    const kindsOf = (claims: Claim[]) => claims.map((c) => `${c.kind} ${c.url}`).sort();

    it("queues the given sitemaps and /sitemap.xml of a seed's host with the URLs, each handed out once, before its host's pages", async () => {
      const h = await factory.open({ crawlLinkedSitemaps: true, sitemaps: ['http://b.test/map.xml'] });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      // The crawl's queue counts them: it is not complete while one waits.
      expect(await counts(h)).toEqual({ queued: 3, crawled: 0, failed: 0 });
      const claims = await drain(h, 10, t0);
      expect(kindsOf(claims)).toEqual(['page http://a.test/', 'sitemap http://a.test/sitemap.xml', 'sitemap http://b.test/map.xml']);
      expect(claims.findIndex((c) => c.url === 'http://a.test/sitemap.xml')).toBeLessThan(
        claims.findIndex((c) => c.url === 'http://a.test/'),
      );
      // An index names a sitemap (queued), a urlset lists two pages (queued as links from a seed: depth 1), one known.
      const map = asSitemap(claims.find((c) => c.url === 'http://b.test/map.xml'));
      await h.store.recordSitemap!(map, sitemapResult(map.url, ['http://b.test/more.xml'], 'index'), t0);
      const guessed = asSitemap(claims.find((c) => c.url === 'http://a.test/sitemap.xml'));
      await h.store.recordSitemap!(guessed, sitemapResult(guessed.url, ['http://a.test/', 'http://a.test/x', 'http://b.test/y']), t0);
      expect(await h.url('http://a.test/x')).toMatchObject({ state: STATE.queued, depth: 1 });
      expect(await counts(h)).toEqual({ queued: 3, crawled: 0, failed: 0 });
      const t1 = t0 + 10_000;
      const next = await drain(h, 10, t1);
      expect(kindsOf(next)).toEqual(['page http://a.test/x', 'page http://b.test/y', 'sitemap http://b.test/more.xml']);
      // Read once: the sitemaps recorded are never handed out again.
      const more = asSitemap(next.find((c) => c.kind === 'sitemap'));
      await h.store.recordSitemap!(more, sitemapResult(more.url, []), t1);
      for (const c of [...claims, ...next].filter((c) => c.kind === 'page')) await h.store.recordPage(asPage(c), pageResult(c.url), t1);
      expect(await drain(h, 10, t1 + 10_000)).toEqual([]);
      expect(await counts(h)).toEqual({ queued: 0, crawled: 3, failed: 0 });
    });

    it(`reads indexes ${MAX_SITEMAP_DEPTH} deep at most: a sitemap named deeper is recorded as not read, never handed out`, async () => {
      const h = await factory.open({ sitemaps: ['http://a.test/map-0.xml'] });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      let t = t0;
      for (let depth = 0; depth <= MAX_SITEMAP_DEPTH; depth++) {
        const claims = await drain(h, 10, t);
        const map = asSitemap(claims.find((c) => c.kind === 'sitemap'));
        expect(map.url).toBe(`http://a.test/map-${depth}.xml`);
        for (const c of claims.filter((c) => c.kind === 'page')) await h.store.recordPage(asPage(c), pageResult(c.url), t);
        await h.store.recordSitemap!(map, sitemapResult(map.url, [`http://a.test/map-${depth + 1}.xml`], 'index'), t);
        t += 10_000;
      }
      expect(await drain(h, 10, t)).toEqual([]);
      expect(await h.sitemap(`http://a.test/map-${MAX_SITEMAP_DEPTH + 1}.xml`)).toEqual({
        state: 3,
        error: 'not read: sitemap indexes nested too deep',
        fetched: false,
      });
      expect(await h.sitemap('http://a.test/map-0.xml')).toEqual({ state: 2, error: null, fetched: true });
      expect(await counts(h)).toEqual({ queued: 0, crawled: 1, failed: 0 });
    });

    it('puts a released sitemap back, and reads no more one whose worker crashed twice', async () => {
      const h = await factory.open({ sitemaps: ['http://a.test/map.xml'] });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      const first = asSitemap((await h.store.claim(1, t0))[0]);
      expect(first.url).toBe('http://a.test/map.xml');
      expect(await h.store.release(first, false, t0)).toBe('requeued');
      expect(await counts(h)).toEqual({ queued: 2, crawled: 0, failed: 0 });
      const second = asSitemap((await h.store.claim(1, t0))[0]);
      expect(second.sitemapId).toBe(first.sitemapId);
      expect(await h.store.release(second, true, t0)).toBe('requeued');
      const third = asSitemap((await h.store.claim(1, t0))[0]);
      expect(await h.store.release(third, true, t0)).toBe('failed');
      // Out of the queue, not a failed page: what is left is the seed.
      expect(await counts(h)).toEqual({ queued: 1, crawled: 0, failed: 0 });
      expect(kindsOf(await drain(h, 10, t0))).toEqual(['page http://a.test/']);
    });

    it('after a crash, a sitemap being read is read again', async () => {
      const h = await factory.open({ sitemaps: ['http://a.test/map.xml'] });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/'], t0);
      expect(asSitemap((await h.store.claim(1, t0))[0]).url).toBe('http://a.test/map.xml');
      const again = await h.reopen();
      await again.store.recoverLeases();
      expect(await counts(again)).toEqual({ queued: 2, crawled: 0, failed: 0 });
      expect(kindsOf(await drain(again, 10, Date.now()))).toEqual(['page http://a.test/', 'sitemap http://a.test/map.xml']);
    });
  });

  describe('recovering leases', () => {
    it('after a crash, the URLs the crashed node had claimed are queued again', async () => {
      const h = await factory.open({});
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/1', 'http://a.test/2', 'http://a.test/3'], t0);
      const claimed = await h.store.claim(2, t0);
      expect(claimed).toHaveLength(2);
      const again = await h.reopen();
      expect(await again.store.recoverLeases()).toBe(2);
      expect(await counts(again)).toEqual({ queued: 3, crawled: 0, failed: 0 });
      expect(urlsOf(await drain(again, 10, Date.now())).sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
      expect(await again.store.recoverLeases()).toBe(3); // all three claimed again, by this run
    });

    it('after a crash, a robots.txt that was being fetched is fetched again; one that was read is not', async () => {
      const h = await factory.open({ robots: 'respect' });
      const t0 = Date.now();
      await h.store.addSeeds(['http://a.test/1', 'http://b.test/1'], t0);
      const robots = await h.store.claim(5, t0);
      expect(robots.map((c) => asRobots(c).url).sort()).toEqual(['http://a.test/robots.txt', 'http://b.test/robots.txt']);
      // b.test's robots.txt comes back and its page is claimed; a.test's is still being fetched when the crawl stops.
      await h.store.recordRobots(
        asRobots(robots.find((c) => c.url === 'http://b.test/robots.txt')),
        robotsResult('http://b.test/robots.txt', 200, 'User-agent: *\nDisallow: /private\n'),
        t0,
      );
      expect(urlsOf(await h.store.claim(5, t0))).toEqual(['http://b.test/1']);
      const again = await h.reopen();
      expect(await again.store.recoverLeases()).toBe(1);
      const t1 = Date.now();
      const resumed = await drain(again, 10, t1);
      expect(resumed.map((c) => `${c.kind} ${c.url}`).sort()).toEqual(['page http://b.test/1', 'robots http://a.test/robots.txt']);
      const aRobots = asRobots(resumed.find((c) => c.kind === 'robots'));
      await again.store.recordRobots(aRobots, robotsResult(aRobots.url, 404, null), t1);
      expect(urlsOf(await drain(again, 10, t1))).toEqual(['http://a.test/1']);
    });
  });
}

describe('FrontierStore contract: SQLite', () => contract(sqliteFactory));
withPg.describe('FrontierStore contract: PostgreSQL', () => contract(pgFactory));

// ---- what only a store shared by several nodes does ----

withPg.describe('PgFrontierStore as a cluster', () => {
  let db: FreshDatabase;
  let client: pg.Client;
  const nodes: PgNode[] = [];

  beforeAll(async () => {
    db = await freshDatabase('frontier_cluster');
    client = new pg.Client({ connectionString: db.url });
    client.on('error', () => undefined);
    await client.connect();
  });
  afterEach(async () => {
    for (const node of nodes.splice(0)) await node.store.close().catch(() => undefined);
  });
  afterAll(async () => {
    await client?.end().catch(() => undefined);
    await db?.drop();
  });

  async function create(settings: Record<string, unknown>, name: string, leaseMs = 1000): Promise<PgNode> {
    const node = await createPgCrawl(db.url, parseSettings(settingsOf(settings)), { name, leaseMs });
    nodes.push(node);
    return node;
  }

  async function join(crawlId: string, name: string): Promise<PgNode> {
    const node = await joinPgCrawl(db.url, crawlId, { name });
    nodes.push(node);
    return node;
  }

  it('never hands the same URL to two nodes claiming at the same time', async () => {
    const a = await create({}, 'node-a');
    const b = await join(a.crawlId, 'node-b');
    const c = await join(a.crawlId, 'node-c');
    const seeds = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].flatMap((host) =>
      Array.from({ length: 15 }, (_, i) => `http://${host}.test/${i}`),
    );
    expect(await a.store.addSeeds(seeds)).toBe(120);
    let total = 0;
    // Each node claims one call at a time (as its controller does), the three nodes at once, until all is claimed.
    const claimAll = async (node: PgNode): Promise<Claim[]> => {
      const got: Claim[] = [];
      for (let i = 0; total < 120 && i < 500; i++) {
        const batch = await node.store.claim(3);
        expect(batch.length).toBeLessThanOrEqual(3);
        got.push(...batch);
        total += batch.length;
      }
      return got;
    };
    const [byA, byB, byC] = await Promise.all([claimAll(a), claimAll(b), claimAll(c)]);
    const all = [...byA!, ...byB!, ...byC!].map((claim) => asPage(claim).urlId);
    expect(new Set(all).size).toBe(all.length); // no URL twice
    expect(all.length).toBe(120);
    expect([byA!.length, byB!.length, byC!.length].filter((n) => n > 0).length).toBeGreaterThanOrEqual(2); // they did overlap
    expect(await a.store.claim(3)).toEqual([]);
    const schema = crawlSchema(a.crawlId);
    const { rows } = await client.query<{ queued: number; in_flight: number; claimed: number; owners: number }>(
      `SELECT (SELECT sum(queued)::int FROM ${schema}.hosts) AS queued, (SELECT sum(in_flight)::int FROM ${schema}.hosts) AS in_flight,
              (SELECT count(*)::int FROM ${schema}.urls WHERE state = 1) AS claimed,
              (SELECT count(DISTINCT lease_node)::int FROM ${schema}.urls WHERE state = 1) AS owners`,
    );
    expect(rows[0]).toMatchObject({ queued: 0, in_flight: 120, claimed: 120 });
    expect(rows[0]!.owners).toBe([byA!, byB!, byC!].filter((got) => got.length > 0).length);
  });

  it("ends with the cluster's counts as the crawl ends, not its last heartbeat's", async () => {
    // a's figures are its last heartbeat's (every second) plus what it did itself; b's pages, recorded since, are
    // not in them until a reads the cluster's counts again. The crawl's closing line is a's counts once finished.
    const a = await create({}, 'end-a', 30_000);
    const b = await join(a.crawlId, 'end-b');
    const seeds = ['http://a.test/1', 'http://a.test/2', 'http://a.test/3'];
    await a.store.addSeeds(seeds);
    for (let n = 0; n < seeds.length; n++) {
      const claim = asPage(await firstClaim(b.store));
      expect(await b.store.recordPage(claim, pageResult(claim.url))).toBe('recorded');
    }
    await a.store.finish('completed');
    expect(a.store.counts()).toMatchObject({ crawled: 3, failed: 0, queued: 0 });
  });

  it('keeps the page limit for the whole cluster: nodes claiming at once never take more than it allows', async () => {
    const a = await create({ maxPages: 7 }, 'limit-a');
    const b = await join(a.crawlId, 'limit-b');
    const seeds = Array.from({ length: 20 }, (_, i) => `http://a.test/${i}`).concat(
      Array.from({ length: 20 }, (_, i) => `http://b.test/${i}`),
    );
    await a.store.addSeeds(seeds);
    // Both nodes claim at once, again and again, until neither gets anything (a host claimed a moment ago may be
    // ready for the other node only a millisecond later, by its clock).
    const fromA: Claim[] = [];
    const fromB: Claim[] = [];
    for (let round = 0; round < 20; round++) {
      const [ga, gb] = await Promise.all([a.store.claim(5), b.store.claim(5)]);
      fromA.push(...ga!);
      fromB.push(...gb!);
      if (fromA.length + fromB.length >= 7) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const claimed = [...fromA, ...fromB].map(asPage);
    expect(claimed.length).toBe(7);
    expect(await a.store.claim(5)).toEqual([]);
    expect(await b.store.claim(5)).toEqual([]);
    // Recording three and giving the rest back leaves room for exactly those four.
    for (const c of claimed.slice(0, 3)) {
      const node = fromA.some((x) => asPage(x).urlId === c.urlId) ? a : b;
      expect(await node.store.recordPage(c, pageResult(c.url))).toBe('recorded');
    }
    for (const c of claimed.slice(3)) {
      const node = fromA.some((x) => asPage(x).urlId === c.urlId) ? a : b;
      expect(await node.store.release(c, false)).toBe('requeued');
    }
    await new Promise((r) => setTimeout(r, 5));
    expect((await b.store.claim(10)).length).toBe(4);
    expect(await a.store.claim(10)).toEqual([]);
    // The claim that found no room brought the cluster's done count with it, whatever the heartbeat last read.
    expect(a.store.counts().crawled).toBe(3);
  });

  it("gives a silent node's claim to another node once its lease runs out, and drops the silent node's late result", async () => {
    const a = await create({}, 'node-a', 1000);
    const b = await join(a.crawlId, 'node-b');
    await a.store.addSeeds(['http://a.test/slow']);
    const held = asPage((await a.store.claim(1))[0]);
    expect(await b.store.claim(1)).toEqual([]);
    // A live node keeps its lease however long the fetch takes (its heartbeat renews it).
    await sleep(1600);
    expect(await b.store.claim(1)).toEqual([]);

    await a.store.close(); // no leave(), no release: as if the node were killed
    const closedAt = Date.now();
    let taken: Claim[] = [];
    while (taken.length === 0 && Date.now() - closedAt < 8000) {
      await sleep(50);
      taken = await b.store.claim(1);
    }
    const waited = Date.now() - closedAt;
    expect(urlsOf(taken)).toEqual(['http://a.test/slow']);
    // Lease 1000 ms, renewed every 333 ms: it runs out 0.67-1 s after the last renewal, then B's next heartbeat frees it.
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(waited).toBeLessThan(3000);

    // Node A comes back (same name) with the result of its old claim: B owns the URL now, so A's result is dropped.
    const a2 = await join(a.crawlId, 'node-a');
    expect(await a2.store.recordPage(held, pageResult(held.url))).toBe('lost');
    expect(await b.store.recordPage(asPage(taken[0]), pageResult(held.url, [], { title: 'from B' }))).toBe('recorded');
    expect(await a2.store.recordPage(held, pageResult(held.url))).toBe('lost');
    const schema = crawlSchema(a.crawlId);
    const { rows } = await client.query(
      `SELECT r.node, r.title FROM ${schema}.results r JOIN ${schema}.urls u ON u.id = r.url_id WHERE u.url = 'http://a.test/slow'`,
    );
    expect(rows).toEqual([{ node: 'node-b', title: 'from B' }]);
  });

  it("keeps a sitemap leased while its node lives, gives it to another once the node is gone, and drops the first's late read", async () => {
    const a = await create({ sitemaps: ['http://a.test/map.xml'] }, 'node-a', 1000);
    const b = await join(a.crawlId, 'node-b');
    await a.store.addSeeds(['http://a.test/']);
    const held = asSitemap((await a.store.claim(1))[0]);
    // Renewed by A's heartbeat; B gets the seed only (the host's one sitemap is A's).
    await sleep(1600);
    expect(urlsOf(await b.store.claim(5))).toEqual(['http://a.test/']);
    // The crawl is not complete while a sitemap is out.
    expect(await b.store.cluster.completeIfDone()).toBe(false);
    await a.store.close(); // killed
    const closedAt = Date.now();
    let taken: Claim[] = [];
    while (taken.length === 0 && Date.now() - closedAt < 8000) {
      await sleep(50);
      taken = await b.store.claim(1);
    }
    const theirs = asSitemap(taken[0]);
    expect(theirs.sitemapId).toBe(held.sitemapId);
    const a2 = await join(a.crawlId, 'node-a');
    await a2.store.recordSitemap!(held, sitemapResult(held.url, ['http://a.test/from-a']));
    await b.store.recordSitemap!(theirs, sitemapResult(theirs.url, ['http://a.test/from-b']));
    const schema = crawlSchema(a.crawlId);
    const { rows } = await client.query(
      `SELECT u.url FROM ${schema}.sitemap_urls s JOIN ${schema}.urls u ON u.id = s.url_id ORDER BY u.url`,
    );
    expect(rows).toEqual([{ url: 'http://a.test/from-b' }]);
    const { rows: hosts } = await client.query(`SELECT queued, sitemaps_queued, in_flight FROM ${schema}.hosts`);
    // The seed in flight (B's), from-b queued; the sitemap neither.
    expect(hosts).toEqual([{ queued: 1, sitemaps_queued: 0, in_flight: 1 }]);
  });

  it('drops a result for a URL that went back to the queue and another node claimed', async () => {
    const a = await create({}, 'node-a', 30_000);
    const b = await join(a.crawlId, 'node-b');
    await a.store.addSeeds(['http://a.test/']);
    const mine = asPage((await a.store.claim(1))[0]);
    expect(await a.store.release(mine, false)).toBe('requeued');
    const theirs = asPage((await b.store.claim(1))[0]);
    expect(theirs.urlId).toBe(mine.urlId);
    expect(await a.store.recordPage(mine, pageResult(mine.url, ['http://a.test/from-a']))).toBe('lost');
    expect(await a.store.release(mine, true)).toBe('requeued'); // not A's to give back: nothing happens
    expect(await b.store.recordPage(theirs, pageResult(theirs.url))).toBe('recorded');
    const schema = crawlSchema(a.crawlId);
    const { rows } = await client.query(`SELECT url, state, crashes FROM ${schema}.urls ORDER BY id`);
    expect(rows).toEqual([{ url: 'http://a.test/', state: STATE.done, crashes: 0 }]); // A's links were not recorded
    const results = await client.query(`SELECT node FROM ${schema}.results`);
    expect(results.rows).toEqual([{ node: 'node-b' }]);
  });

  it('keeps the images pages use (issue 18.3): one images row per URL whichever node records it, each use with its alt and dimensions', async () => {
    const a = await create({}, 'node-a', 30_000);
    const b = await join(a.crawlId, 'node-b');
    await a.store.addSeeds(['http://a.test/', 'http://b.test/']);
    const first = asPage((await a.store.claim(1))[0]);
    const second = asPage((await b.store.claim(1))[0]);
    const logo = { url: 'http://a.test/logo.png', alt: 'Logo', altLength: 4, width: '10', height: '10' };
    const photo = { url: 'http://a.test/photo.jpg', alt: null, altLength: null, width: null, height: null };
    const spacer = { url: 'http://a.test/s.gif', alt: '', altLength: 0, width: '1', height: null };
    expect(await a.store.recordPage(first!, pageResult(first!.url, [], { images: [logo, photo] }))).toBe('recorded');
    expect(await b.store.recordPage(second!, pageResult(second!.url, [], { images: [logo, spacer] }))).toBe('recorded');
    const schema = crawlSchema(a.crawlId);
    const { rows } = await client.query(
      `SELECT p.url AS page, i.url AS image, iu.alt, iu.alt_len, iu.width, iu.height FROM ${schema}.image_uses iu
       JOIN ${schema}.images i ON i.id = iu.image_id JOIN ${schema}.urls p ON p.id = iu.page_id ORDER BY iu.id`,
    );
    expect(rows).toEqual([
      { page: first!.url, image: logo.url, alt: 'Logo', alt_len: 4, width: '10', height: '10' },
      { page: first!.url, image: photo.url, alt: null, alt_len: null, width: null, height: null },
      { page: second!.url, image: logo.url, alt: 'Logo', alt_len: 4, width: '10', height: '10' },
      { page: second!.url, image: spacer.url, alt: '', alt_len: 0, width: '1', height: null },
    ]);
    expect((await client.query(`SELECT count(*)::int AS n FROM ${schema}.images`)).rows).toEqual([{ n: 3 }]);
  });

  it('queues a URL two nodes find at the same time once, and keeps the per-host queue counters exact', async () => {
    const a = await create({}, 'node-a', 30_000);
    const b = await join(a.crawlId, 'node-b');
    await a.store.addSeeds(['http://a.test/p1', 'http://a.test/p2']);
    const pa = asPage((await a.store.claim(1))[0]);
    // Claims skip a host row another node holds locked for a moment (its heartbeat), so B may find none at first.
    const pb = asPage(await firstClaim(b.store));
    expect(pa.urlId).not.toBe(pb.urlId);
    const found = ['a', 'b', 'c'].flatMap((host) => Array.from({ length: 20 }, (_, i) => `http://${host}.test/n${i}`));
    const outcomes = await Promise.all([
      a.store.recordPage(pa, pageResult(pa.url, found)),
      b.store.recordPage(pb, pageResult(pb.url, [...found].reverse())),
    ]);
    expect(outcomes).toEqual(['recorded', 'recorded']);
    const schema = crawlSchema(a.crawlId);
    const { rows } = await client.query<{ urls: number; queued_urls: number; host_queued: number; links: number }>(
      `SELECT (SELECT count(*)::int FROM ${schema}.urls) AS urls, (SELECT count(*)::int FROM ${schema}.urls WHERE state = 0) AS queued_urls,
              (SELECT sum(queued)::int FROM ${schema}.hosts) AS host_queued, (SELECT count(*)::int FROM ${schema}.links) AS links`,
    );
    expect(rows[0]).toEqual({ urls: 62, queued_urls: 60, host_queued: 60, links: 120 });
    await a.store.cluster.refresh();
    await a.store.cluster.refresh();
    expect(a.store.counts()).toEqual({ queued: 60, crawled: 2, failed: 0 });
  });

  // PgConnection runs a transaction again from the start after a lost connection or a deadlock (which two nodes
  // recording links to the same hosts can hit): what the store counts must come from the run that committed only.
  it('counts the links of a page once when its transaction is run again after a lost connection', async () => {
    const a = await create({}, 'node-a', 30_000);
    await (a.store.cluster as PgCluster).close(); // no heartbeat replacing the counters: what the store's own bookkeeping says
    await a.store.addSeeds(['http://a.test/']);
    const seed = asPage((await a.store.claim(1))[0]);
    expect(a.store.counts()).toEqual({ queued: 0, crawled: 0, failed: 0 });
    const schema = crawlSchema(a.crawlId);
    const locker = new pg.Client({ connectionString: db.url });
    locker.on('error', () => undefined);
    await locker.connect();
    try {
      // Holds the links table so the recording transaction stops after queueing the links, then cuts its connection.
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${schema}.links IN ACCESS EXCLUSIVE MODE`);
      const recording = a.store.recordPage(seed, pageResult(seed.url, ['http://a.test/1', 'http://a.test/2']));
      let pid: number | undefined;
      for (let i = 0; pid === undefined && i < 200; i++) {
        await sleep(10);
        const { rows } = await client.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'trawl node-a frontier' AND wait_event_type = 'Lock'`,
        );
        pid = rows[0]?.pid;
      }
      expect(pid).toBeDefined();
      await client.query('SELECT pg_terminate_backend($1)', [pid]);
      await locker.query('COMMIT');
      expect(await recording).toBe('recorded');
      const { rows } = await client.query<{ queued: number }>(`SELECT sum(queued)::int AS queued FROM ${schema}.hosts`);
      expect(rows[0]!.queued).toBe(2);
      expect(a.store.counts()).toEqual({ queued: 2, crawled: 1, failed: 0 });
      const { rows: recorded } = await client.query(
        `SELECT count(*)::int AS results, (SELECT count(*)::int FROM ${schema}.links) AS links FROM ${schema}.results`,
      );
      expect(recorded).toEqual([{ results: 1, links: 2 }]);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end().catch(() => undefined);
    }
  });

  it('completeIfDone is false while anything is queued or claimed, and finishes the crawl exactly once', async () => {
    const a = await create({ retryDelayMs: 0 }, 'node-a', 30_000);
    const b = await join(a.crawlId, 'node-b');
    const listener = new pg.Client({ connectionString: db.url });
    listener.on('error', () => undefined);
    await listener.connect();
    const finishedNotices: string[] = [];
    listener.on('notification', (n) => {
      if (n.payload === 'finished') finishedNotices.push(n.payload);
    });
    await listener.query(`LISTEN ${crawlChannel(a.crawlId)}`);
    try {
      const done = () => Promise.all([a.store.cluster.completeIfDone(), b.store.cluster.completeIfDone()]);
      await a.store.addSeeds(['http://a.test/1', 'http://b.test/1']);
      expect(await done()).toEqual([false, false]); // queued
      const ca = asPage((await a.store.claim(1))[0]);
      const cb = asPage((await b.store.claim(1))[0]);
      expect(await done()).toEqual([false, false]); // claimed on both nodes
      expect(await a.store.recordPage(ca, pageResult(ca.url, ['http://elsewhere.test/']))).toBe('recorded');
      expect(await done()).toEqual([false, false]); // B still holds one
      expect(await b.store.recordPage(cb, pageResult(cb.url, [], { statusCode: 503, parsed: false }))).toBe('retry');
      expect(await done()).toEqual([false, false]); // queued again for its retry
      const retry = asPage((await b.store.claim(1))[0]);
      expect(await b.store.recordPage(retry, pageResult(retry.url))).toBe('recorded');

      expect(await done()).toEqual([true, true]);
      const crawl = async () =>
        (await client.query('SELECT state, finish_reason, finished_by FROM trawl.crawls WHERE id = $1', [a.crawlId])).rows[0] as {
          state: string;
          finish_reason: string;
          finished_by: string;
        };
      const first = await crawl();
      expect(first).toMatchObject({ state: 'finished', finish_reason: 'completed' });
      expect(['node-a', 'node-b']).toContain(first.finished_by);
      expect(await b.store.cluster.completeIfDone()).toBe(true);
      expect(await crawl()).toEqual(first);
      await sleep(100); // notifications are asynchronous
      expect(finishedNotices).toEqual(['finished']); // decided once for the cluster
    } finally {
      await listener.end().catch(() => undefined);
    }
  });
});
