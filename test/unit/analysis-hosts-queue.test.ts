// The hosts report and the queue inspector over a real frontier (driven directly, without workers): the per-host
// counters the frontier keeps as it records rows (pages, errors, robots.txt blocks, worker crashes) against an
// aggregate over results, politeness and robots.txt state, the queue grouped by host and by path prefix, searched
// and paged; and a version 1 file upgraded with its counters filled in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile, SCHEMA_VERSION, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { Frontier } from '../../electron/engine/frontier/sqlite/frontier.ts';
import type { Claim } from '../../electron/engine/frontier/model.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { PageFetchResult } from '../../shared/protocol.ts';
import { hostsReport } from '../../electron/engine/analysis/hosts-report.ts';
import { queueHosts, queuePrefixes, queueScreen, queueSearch } from '../../electron/engine/analysis/queue-inspector.ts';
import { downgradeToVersion1 } from '../helpers/old-crawl-file.ts';
import { fetchedPage } from '../helpers/page-result.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-analysis-hosts-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
let n = 0;
const tmp = () => path.join(dir, `${++n}.trawl`);

function page(claim: Extract<Claim, { kind: 'page' }>, extra: Partial<PageFetchResult> = {}): PageFetchResult {
  return fetchedPage(claim.url, [], { inScope: () => true, extra: { sizeBytes: 1000, responseTimeMs: 20, ...extra } });
}

const pages = (claims: Claim[]) => claims.filter((c): c is Extract<Claim, { kind: 'page' }> => c.kind === 'page');

/** The counters as an aggregate over results would give them. */
function truth(db: Db) {
  return db
    .prepare(
      `SELECT h.origin, count(r.status_code) AS crawled, count(r.seq) - count(r.status_code) AS failed,
         coalesce(sum(r.status_code >= 400), 0) AS http_errors, coalesce(sum(r.size_bytes), 0) AS bytes
       FROM hosts h LEFT JOIN urls u ON u.host_id = h.id LEFT JOIN results r ON r.url_id = u.id GROUP BY h.id ORDER BY h.origin`,
    )
    .all();
}

describe('hosts report', () => {
  it('reads the counters the frontier keeps as it records, with politeness and robots.txt state', () => {
    const settings = parseSettings({ seeds: ['http://a.test/'], delayMs: 1000, maxAttempts: 1, crawlLinkedSitemaps: false });
    const db = createCrawlFile(tmp(), settings);
    const f = new Frontier(db, settings);
    const t0 = 1_800_000_000_000;
    f.addSeeds(['http://a.test/private/x', 'http://a.test/', 'http://a.test/two', 'http://a.test/three', 'http://b.test/one'], t0);

    // robots.txt first: a.test disallows /private/, b.test has none.
    const robots = f.claim(10, t0);
    expect(robots.map((c) => c.kind)).toEqual(['robots', 'robots']);
    for (const c of robots) {
      if (c.kind !== 'robots') continue;
      const a = c.url.startsWith('http://a.test');
      f.recordRobots(
        c,
        {
          kind: 'robots',
          jobId: 1,
          threadId: 1,
          url: c.url,
          statusCode: a ? 200 : 404,
          body: a ? 'User-agent: *\nDisallow: /private/\n' : null,
          responseTimeMs: 5,
          error: null,
        },
        t0,
      );
    }

    // One fetch at a time per host (a delay is set): /private/x is blocked on the way, / and /one go out.
    const first = pages(f.claim(10, t0));
    expect(first.map((c) => c.url).sort()).toEqual(['http://a.test/', 'http://b.test/one']);
    const during = hostsReport(db, { now: t0 });
    expect(during.rows.map((r) => [r.origin, r.politeness.state, r.in_flight])).toEqual([
      ['http://a.test', 'busy', 1],
      ['http://b.test', 'busy', 1],
    ]);
    for (const c of first) {
      f.recordPage(
        c,
        c.url.startsWith('http://a.test') ? page(c, { sizeBytes: 1000 }) : page(c, { statusCode: 404, sizeBytes: 200 }),
        t0 + 100,
      );
    }

    // /two: no response. /three: its worker crashes twice, and it is recorded as crashed.
    const [two] = pages(f.claim(10, t0 + 2000));
    f.recordPage(
      two!,
      page(two!, { statusCode: null, contentType: null, sizeBytes: 0, error: 'connection reset', parsed: false }),
      t0 + 2100,
    );
    const [three] = pages(f.claim(10, t0 + 4000));
    expect(f.release(three!, true, t0 + 4000)).toBe('requeued');
    // The crashed fetch may have reached the host: its next one still waits the delay after it.
    expect(pages(f.claim(10, t0 + 4999))).toEqual([]);
    const [again] = pages(f.claim(10, t0 + 5000));
    expect(f.release(again!, true, t0 + 5000)).toBe('failed');

    const report = hostsReport(db, { now: t0 + 6000 });
    expect(
      report.rows.map((r) => ({
        origin: r.origin,
        crawled: r.crawled,
        failed: r.failed,
        http_errors: r.http_errors,
        errors: r.errors,
        bytes: r.bytes,
        queued: r.queued,
      })),
    ).toEqual([
      { origin: 'http://a.test', crawled: 1, failed: 3, http_errors: 0, errors: 3, bytes: 1000, queued: 0 },
      { origin: 'http://b.test', crawled: 1, failed: 0, http_errors: 1, errors: 1, bytes: 200, queued: 0 },
    ]);
    expect(truth(db)).toEqual(
      report.rows.map((r) => ({ origin: r.origin, crawled: r.crawled, failed: r.failed, http_errors: r.http_errors, bytes: r.bytes })),
    );
    expect(report.totals).toEqual({ crawled: 2, failed: 3, errors: 4, bytes: 1200, queued: 0, in_flight: 0 });
    const a = report.rows[0]!;
    expect(a.robots).toEqual({ state: 'known', status: 200, error: null, failures: 0 });
    expect(report.rows[1]!.robots).toMatchObject({ state: 'known', status: 404 });
    expect(a.politeness).toMatchObject({ state: 'idle', crawl_delay_ms: 0, last_fetch_ms: 20 });

    // A host waiting out its delay says how long; sorting and the text filter work on the hosts table.
    f.addSeeds(['http://a.test/four'], t0 + 6000);
    db.prepare('UPDATE hosts SET next_fetch_at = ? WHERE origin = ?').run(t0 + 7500, 'http://a.test');
    const waiting = hostsReport(db, { now: t0 + 7000, text: 'a.test' });
    expect(waiting.total).toBe(1);
    expect(waiting.rows[0]!.politeness).toMatchObject({ state: 'waiting', wait_ms: 500, next_fetch_at: t0 + 7500 });
    expect(hostsReport(db, { sort: 'errors', descending: false }).rows.map((r) => r.origin)).toEqual(['http://b.test', 'http://a.test']);
    expect(() => hostsReport(db, { sort: 'nope' as never })).toThrow(/cannot sort hosts by "nope"/);
    db.close();
  });

  it('lists idle hosts (only linked to, never fetched) only when asked', () => {
    const db = createCrawlFile(tmp(), parseSettings({ seeds: ['http://a.test/'] }));
    db.prepare("INSERT INTO hosts (origin, crawled) VALUES ('http://a.test', 3), ('http://elsewhere.test', 0)").run();
    expect(hostsReport(db).rows.map((r) => r.origin)).toEqual(['http://a.test']);
    expect(hostsReport(db, { includeIdle: true }).rows.map((r) => r.origin)).toEqual(['http://a.test', 'http://elsewhere.test']);
    db.close();
  });
});

describe('queue inspector', () => {
  function queued(): Db {
    const settings = parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false });
    const db = createCrawlFile(tmp(), settings);
    const f = new Frontier(db, settings);
    const urls = [
      ...Array.from({ length: 6 }, (_, i) => `http://a.test/docs/x/${i}`),
      ...Array.from({ length: 3 }, (_, i) => `http://a.test/docs/y/${i}?q=a/b`),
      'http://a.test/docs/leaf',
      'http://a.test/blog/1',
      'http://a.test/blog/2?x=/deep/path',
      'http://a.test/root-file',
      'http://a.test/',
      'http://b.test/docs/x/1',
      'http://b.test/',
    ];
    f.addSeeds(urls, 1000);
    return db;
  }

  it('groups the queue by host, most queued first', () => {
    const db = queued();
    const hosts = queueHosts(db);
    expect({ total: hosts.total, queued: hosts.queued }).toEqual({ total: 2, queued: 16 });
    expect(hosts.rows.map((h) => [h.origin, h.queued, h.in_flight])).toEqual([
      ['http://a.test', 14, 0],
      ['http://b.test', 2, 0],
    ]);
    expect(queueHosts(db, { text: 'b.test' }).rows.map((h) => h.origin)).toEqual(['http://b.test']);
    expect(queueHosts(db, { offset: 1, limit: 1 }).rows.map((h) => h.origin)).toEqual(['http://b.test']);
    db.close();
  });

  it('groups a host by the directory of its first one or two path segments, queries left out', () => {
    const db = queued();
    const a = queueHosts(db).rows[0]!.host_id;
    expect(queuePrefixes(db, { hostId: a })).toEqual({
      host_id: a,
      origin: 'http://a.test',
      queued: 14,
      counted: 14,
      truncated: false,
      groups: [
        { prefix: '/docs/', count: 10 },
        { prefix: '/', count: 2 },
        { prefix: '/blog/', count: 2 },
      ],
    });
    expect(queuePrefixes(db, { hostId: a, segments: 2 })!.groups).toEqual([
      { prefix: '/docs/x/', count: 6 },
      { prefix: '/docs/y/', count: 3 },
      { prefix: '/', count: 2 },
      { prefix: '/blog/', count: 2 },
      { prefix: '/docs/', count: 1 },
    ]);
    expect(queuePrefixes(db, { hostId: a, segments: 2, under: '/docs/' })).toMatchObject({
      counted: 10,
      groups: [
        { prefix: '/docs/x/', count: 6 },
        { prefix: '/docs/y/', count: 3 },
        { prefix: '/docs/', count: 1 },
      ],
    });
    expect(queuePrefixes(db, { hostId: a, limit: 1 })).toMatchObject({
      counted: 14,
      truncated: true,
      groups: [{ prefix: '/docs/', count: 10 }],
    });
    expect(queuePrefixes(db, { hostId: 999 })).toBeNull();
    expect(() => queuePrefixes(db, { hostId: a, segments: 3 as never })).toThrow(/segments must be 1 or 2/);
    db.close();
  });

  it('searches queued URLs in claim order, paged by key, by host and prefix', () => {
    const db = queued();
    const first = queueSearch(db, { text: 'docs/x', limit: 4 });
    expect(first.rows.map((r) => r.url)).toEqual([
      'http://a.test/docs/x/0',
      'http://a.test/docs/x/1',
      'http://a.test/docs/x/2',
      'http://a.test/docs/x/3',
    ]);
    const rest = queueSearch(db, { text: 'docs/x', limit: 4, after: first.next });
    expect(rest.rows.map((r) => r.url)).toEqual(['http://a.test/docs/x/4', 'http://a.test/docs/x/5', 'http://b.test/docs/x/1']);
    expect(rest.next).toBeNull();
    const b = queueHosts(db).rows[1]!.host_id;
    expect(queueSearch(db, { hostId: b }).rows.map((r) => r.url)).toEqual(['http://b.test/docs/x/1', 'http://b.test/']);
    const a = queueHosts(db).rows[0]!.host_id;
    expect(queueSearch(db, { hostId: a, under: '/blog/' }).rows.map((r) => r.url)).toEqual([
      'http://a.test/blog/1',
      'http://a.test/blog/2?x=/deep/path',
    ]);
    expect(queueSearch(db, { text: '%' }).rows).toEqual([]);
    expect(queueSearch(db, { text: 'root' }).rows[0]).toMatchObject({
      url: 'http://a.test/root-file',
      depth: 0,
      kind: 'page',
      check_only: false,
      attempts: 0,
    });
    db.close();
  });
});

describe('a crawl file of schema version 1', () => {
  it('gets the hosts counters, filled in from its rows, and the analysis indexes when upgraded', () => {
    const file = tmp();
    const db = createCrawlFile(file, parseSettings({ seeds: ['http://a.test/'] }));
    db.prepare("INSERT INTO hosts (id, origin) VALUES (1, 'http://a.test'), (2, 'http://b.test')").run();
    const addUrl = db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (?, ?, 0, ?, 0, 2, 0)');
    const addResult = db.prepare('INSERT INTO results (url_id, status_code, size_bytes, crawl_depth, fetched_at) VALUES (?, ?, ?, 0, 0)');
    [
      [1, 'http://a.test/', 1, 200, 100],
      [2, 'http://a.test/x', 1, 404, 10],
      [3, 'http://a.test/y', 1, null, null],
      [4, 'http://b.test/', 2, 500, 5],
    ].forEach(([id, url, host, status, size]) => {
      addUrl.run(id, url, host);
      addResult.run(id, status, size);
    });
    // What version 2 added goes, as in a file written by version 1.
    downgradeToVersion1(db);
    db.close();

    const upgraded = openCrawlFile(file, { readonly: true });
    expect(upgraded.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    expect(hostsReport(upgraded).rows.map((r) => [r.origin, r.crawled, r.failed, r.http_errors, r.bytes])).toEqual([
      ['http://a.test', 2, 1, 1, 110],
      ['http://b.test', 1, 0, 1, 5],
    ]);
    const indexes = (upgraded.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(indexes).toEqual(
      expect.arrayContaining([
        'results_status',
        'results_fetched_at',
        'results_title',
        'results_canonical',
        'urls_external',
        'links_redirect_to',
      ]),
    );
    upgraded.close();
  });
});

describe("the queue inspector's screen", () => {
  it('reads hosts, prefixes and URLs at once: their numbers agree, and pushed back prefixes are marked and last', () => {
    const settings = parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false });
    const db = createCrawlFile(tmp(), settings);
    const f = new Frontier(db, settings);
    f.addSeeds(
      [
        ...Array.from({ length: 5 }, (_, i) => `http://a.test/tag/${i}`),
        ...Array.from({ length: 3 }, (_, i) => `http://a.test/docs/${i}`),
        'http://a.test/',
        'http://b.test/x',
      ],
      1000,
    );
    // Claimed (in flight) URLs are no longer queued anywhere on the screen.
    f.claim(2, 2000);
    expect(f.deprioritise('^http://a\\.test/tag/')).toBeGreaterThan(0);
    const a = queueHosts(db).rows.find((h) => h.origin === 'http://a.test')!.host_id;

    const all = queueScreen(db, { hostId: null, under: null, text: '', limit: 100 });
    expect(all.prefixes).toBeNull();
    expect(all.matching).toBe(all.hosts.queued);
    expect(all.urls.rows).toHaveLength(all.hosts.queued);
    expect(all.hosts.rows.reduce((n, h) => n + h.queued, 0)).toBe(all.hosts.queued);

    const screen = queueScreen(db, { hostId: a, under: null, text: '', limit: 3 });
    const row = screen.hosts.rows.find((h) => h.host_id === a)!;
    expect(screen.prefixes!.groups.reduce((n, g) => n + g.count, 0)).toBe(row.queued);
    expect(screen.matching).toBe(row.queued);
    expect(screen.urls.rows).toHaveLength(3);
    // Every URL listed is under a listed prefix.
    const listed = screen.prefixes!.groups.map((g) => g.prefix);
    for (const u of screen.urls.rows) expect(listed.some((p) => new URL(u.url).pathname.startsWith(p))).toBe(true);
    // "Later": the /tag/ group is marked as pushed back, and comes after the others although it is the largest.
    const groups = screen.prefixes!.groups;
    expect(groups.at(-1)).toMatchObject({ prefix: '/tag/', deprioritised: groups.at(-1)!.count });
    expect(groups.slice(0, -1).every((g) => g.deprioritised === undefined)).toBe(true);
    const tagged = queueScreen(db, { hostId: a, under: '/tag/', text: '', limit: 100 });
    expect(tagged.urls.rows.length).toBeGreaterThan(0);
    expect(tagged.urls.rows.every((u) => u.later === true)).toBe(true);
    expect(tagged.matching).toBe(tagged.urls.rows.length);
    db.close();
  });
});
