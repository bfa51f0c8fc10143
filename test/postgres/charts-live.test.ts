// The charts and the site structure of a cluster crawl while its nodes write (issue 19): PostgreSQL hands out
// results.seq before commit, so two nodes commit out of seq order. A live update (the rows after the last answer's
// last_seq) must still count every row once: the store's answers count up to the seq settled before their snapshot
// (pg-settled.ts). Real PostgreSQL, real transactions standing in for the nodes' recording batches.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChartData, ChartQuery, OverTime, StatusDistribution } from '../../shared/analysis.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { createClusterCrawl } from '../helpers/cluster-crawl.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { freshDatabase, pgSuite, scoredCrawlMap, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();
const status: ChartQuery = { kind: 'status', afterSeq: null, fromMs: null, bucketMs: null };

withPg.describe('live charts and site structure of a crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  const clients: pg.Client[] = [];
  const sessions: CrawlSession[] = [];

  /** A node's connection: rows it inserts in a transaction are invisible, their seqs taken, until it commits. */
  const writer = async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    clients.push(c);
    return c;
  };
  /** A fetched page of the crawl, as a node records it (its URL row, then its result). */
  let page = 0;
  const record = async (c: pg.Client, status = 200) => {
    const n = page++;
    const { rows } = await c.query<{ id: string }>(
      `INSERT INTO trawl_live.urls (url, host_id, depth, state, discovered_at) VALUES ($1, 1, 2, 2, $2) RETURNING id`,
      [`https://live.test/new/p-${n}`, Date.now()],
    );
    const r = await c.query<{ seq: string }>(
      `INSERT INTO trawl_live.results (url_id, status_code, crawl_depth, fetched_at) VALUES ($1, $2, 2, $3) RETURNING seq`,
      [rows[0]!.id, status, Date.now()],
    );
    return Number(r.rows[0]!.seq);
  };
  const attach = async () => {
    const s = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
    sessions.push(s);
    await s.attachStore(db.url, 'live');
    return s;
  };
  /** What the renderer keeps: the first answer, then each update added (as mergeChart adds a status chart's). */
  const merged = (...answers: StatusDistribution[]) => {
    const by = new Map<number | null, number>();
    for (const a of answers) for (const r of a.rows) by.set(r.status_code, (by.get(r.status_code) ?? 0) + r.count);
    return { total: answers.reduce((n, a) => n + a.total, 0), counts: [...by].sort() };
  };

  beforeAll(async () => {
    db = await freshDatabase('charts_live');
    await createClusterCrawl(db.url, { id: 'live', hosts: [{ origin: 'https://live.test', crawled: 5, queued: 0 }] });
  });

  afterAll(async () => {
    for (const s of sessions) await s.close();
    for (const c of clients) await c.end().catch(() => undefined);
    await db?.drop();
  });

  it('counts the rows a node commits after a later seq was committed, once, when they come', async () => {
    const session = await attach();
    const first = (await session.chartData(status)) as StatusDistribution;
    expect([first.total, first.last_seq]).toEqual([5, 5]);
    const tree = await session.siteStructure({ paths: [], limit: 10 });
    expect(tree.total.urls).toBe(5);

    // Node A draws seq 6 and has not committed; node B draws 7 and commits.
    const a = await writer();
    const b = await writer();
    await a.query('BEGIN');
    expect(await record(a, 404)).toBe(6);
    expect(await record(b)).toBe(7);
    // Row 7 is there, but counting it would move last_seq past 6, which would then never be counted: the update
    // waits at 5 until A is done.
    const during = (await session.chartData({ ...status, afterSeq: first.last_seq })) as StatusDistribution;
    expect([during.total, during.last_seq]).toEqual([0, 5]);
    expect((await session.siteStructure({ paths: [], limit: 10 })).total.urls).toBe(5);
    expect(((await session.chartData({ ...status, kind: 'over-time' })) as OverTime).rows.reduce((n, r) => n + r.pages, 0)).toBe(5);

    await a.query('COMMIT');
    const after = (await session.chartData({ ...status, afterSeq: during.last_seq })) as StatusDistribution;
    expect([after.total, after.last_seq]).toEqual([2, 7]);
    const whole = (await session.chartData(status)) as StatusDistribution;
    expect(whole.total).toBe(7);
    expect(merged(first, during, after)).toEqual({
      total: 7,
      counts: [
        [200, 6],
        [404, 1],
      ],
    });
    const folded = await session.siteStructure({ paths: ['https://live.test/'], limit: 10 });
    expect(folded.total.urls).toBe(7);
    expect(folded.levels[0]!.children.map((f) => [f.path, f.urls, f.status['4xx']])).toEqual([['https://live.test/new/', 2, 1]]);

    // A batch rolled back leaves its seq unused: nothing waits for it once it is gone.
    await a.query('BEGIN');
    await record(a);
    await a.query('ROLLBACK');
    const gap = (await session.chartData({ ...status, afterSeq: after.last_seq })) as StatusDistribution;
    expect([gap.total, gap.last_seq]).toEqual([0, 8]);
    expect((await session.siteStructure({ paths: [], limit: 10 })).lastSeq).toBe(8);
  });

  it("waits, on a connection's first answer, for the nodes that were writing when it was asked", async () => {
    const c = await writer();
    await c.query('BEGIN');
    await record(c, 500);
    const fresh = await attach();
    const started = Date.now();
    const committing = new Promise((resolve) => setTimeout(resolve, 300)).then(() => c.query('COMMIT'));
    const answer = (await fresh.chartData(status)) as StatusDistribution;
    await committing;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(answer.total).toBe(8);
    expect(answer.rows.find((r) => r.status_code === 500)?.count).toBe(1);
  });

  it('answers at once when nobody writes', async () => {
    const s = await attach();
    const started = Date.now();
    const data: ChartData = await s.chartData({ ...status, kind: 'depth' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(data).toMatchObject({
      kind: 'depth',
      total: 8,
      rows: [
        { depth: 1, count: 5 },
        { depth: 2, count: 3 },
      ],
    });
  });

  it('builds the crawl map again while a node holds rows uncommitted, and keeps the map once they are settled', async () => {
    const session = await attach();
    const before = await scoredCrawlMap(session, { maxNodes: 100 });
    // Nothing written since: the map already built.
    expect(await session.crawlMap({ maxNodes: 100 })).toBe(before);
    // Node A draws a seq and holds it; node B draws the next and commits.
    const a = await writer();
    const b = await writer();
    await a.query('BEGIN');
    await record(a);
    await record(b);
    const during = await session.crawlMap({ maxNodes: 100 });
    expect(during.total).toBe(before.total + 1);
    // Unsettled: not kept (a map kept now would miss A's row for good, its seq being below the last one seen).
    const again = await session.crawlMap({ maxNodes: 100 });
    expect(again).not.toBe(during);
    await a.query('COMMIT');
    const after = await session.crawlMap({ maxNodes: 100 });
    expect(after.total).toBe(before.total + 2);
    expect(await session.crawlMap({ maxNodes: 100 })).toBe(after);
  });

  it("counts the explorer's filters again when the crawl changed, and not while it is as it was", async () => {
    const session = await attach();
    const before = await session.filterCounts();
    expect(await session.filterCounts()).toBe(before);
    // The issues overview is made of the same counts.
    const overview = await session.issuesOverview();
    expect(overview.issues.length).toBeGreaterThan(10);
    for (const issue of overview.issues) expect(issue.count, issue.id).toBe(before[issue.filter]);
    const a = await writer();
    await a.query('BEGIN');
    await record(a, 404);
    // A node holds a row: the counts cannot be named by the crawl's state, and are made at each ask.
    const during = await session.filterCounts();
    expect(await session.filterCounts()).not.toBe(during);
    expect(during['status-4xx']).toBe(before['status-4xx']);
    await a.query('COMMIT');
    const after = await session.filterCounts();
    expect([after.all, after['status-4xx']]).toEqual([before.all + 1, before['status-4xx'] + 1]);
    expect(await session.filterCounts()).toBe(after);
  });
});
