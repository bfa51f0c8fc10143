// The session attached to a crawl in a PostgreSQL store (real server, crawls written with SQL as nodes write them):
// the cluster's snapshot with every node and its threads, commands that reach trawl.crawls and NOTIFY the nodes,
// refreshes on notifications (coalesced) and on a clock, clear errors, a lost connection shown and recovered, and
// a clean detach.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { crawlChannel } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import type { CrawlSnapshot, StateChange } from '../../shared/snapshot.ts';
import type { StatusDistribution } from '../../shared/analysis.ts';
import { freshDatabase, pgHostPort, pgSuite, scoredCrawlMap } from '../helpers/postgres.ts';
import type { FreshDatabase } from '../helpers/postgres.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import type { TcpProxy } from '../helpers/tcp-proxy.ts';
import { createClusterCrawl, heartbeat, threadStatus, withClient } from '../helpers/cluster-crawl.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';

const withPg = await pgSuite();

/** Resolves with the first event that satisfies `test` (loosely bounded). */
function nextSnapshot(session: CrawlSession, test: (s: CrawlSnapshot) => boolean, timeoutMs = 10_000): Promise<CrawlSnapshot> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      session.off('snapshot', check);
      reject(new Error(`timed out waiting for a snapshot; last: ${JSON.stringify(session.snapshot())}`));
    }, timeoutMs);
    const check = (s: CrawlSnapshot) => {
      if (!test(s)) return;
      clearTimeout(timer);
      session.off('snapshot', check);
      resolve(s);
    };
    session.on('snapshot', check);
  });
}

/** When the observer's connection last started a query (pg_stat_activity.query_start), as text. */
const observerQueryStart = (url: string) =>
  withClient(url, async (c) => {
    const { rows } = await c.query<{ at: string }>(
      `SELECT query_start::text AS at FROM pg_stat_activity WHERE application_name = 'trawl-observer' AND datname = current_database()`,
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.at;
  });

const observers = (url: string) =>
  withClient(url, async (c) => {
    const { rows } = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'trawl-observer' AND datname = current_database()`,
    );
    return rows[0]!.n;
  });

withPg.describe('session attached to a crawl in a PostgreSQL store', () => {
  let db: FreshDatabase;
  let session: CrawlSession;
  let proxy: TcpProxy;

  beforeAll(async () => {
    db = await freshDatabase('cluster_session');
    await createClusterCrawl(db.url, {
      id: 'alpha',
      seeds: ['https://alpha.test/'],
      threads: 5,
      hosts: [
        { origin: 'https://alpha.test', crawled: 7, queued: 4, failed: 1 },
        { origin: 'https://cdn.alpha.test', crawled: 2, queued: 0 },
      ],
      nodes: [
        {
          name: 'node-a',
          hostname: 'box-a',
          pid: 111,
          threads: [threadStatus(1), threadStatus(2, { step: 'waiting', url: null, processor: null }), threadStatus(3)],
          pagesDone: 6,
        },
        { name: 'node-b', hostname: 'box-b', pid: 222, threads: [threadStatus(1, { step: 'processing' }), threadStatus(2)], pagesDone: 3 },
        { name: 'node-gone', hostname: 'box-c', pid: 333, threads: [threadStatus(1)], silentForMs: 120_000, pagesDone: 1 },
      ],
    });
    await createClusterCrawl(db.url, { id: 'beta', threads: 2, state: 'paused', nodes: [] });
    await createClusterCrawl(db.url, { id: 'future', schemaVersion: 99 });
    await createClusterCrawl(db.url, { id: 'gamma', threads: 3, nodes: [{ name: 'solo', threads: [threadStatus(1)] }] });
    // Stopped, and its node has left: finished for now, but a node joining (--join) runs it again.
    await createClusterCrawl(db.url, {
      id: 'delta',
      threads: 2,
      state: 'stopped',
      nodes: [{ name: 'returner', state: 'left', silentForMs: 60_000 }],
    });
    proxy = await startTcpProxy(pgHostPort(db.url).host, pgHostPort(db.url).port);
    session = new CrawlSession({
      crawlsDir: tempDir(),
      spawner: spawner(),
      cpuCount: 3,
      storeObserver: { reconnectMs: 300, refreshTimeoutMs: 3_000 },
    });
  });

  afterAll(async () => {
    await session?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('lists the crawls of the store with their counters, and says which it cannot attach to', async () => {
    const list = await session.listStoreCrawls(db.url);
    expect(list.server).toBe(`127.0.0.1:${pgHostPort(db.url).port}/${db.name}`);
    const byId = Object.fromEntries(list.crawls.map((c) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual(['alpha', 'beta', 'delta', 'future', 'gamma']);
    expect(byId['alpha']).toMatchObject({
      state: 'running',
      threads: 5,
      seeds: ['https://alpha.test/'],
      crawled: 9,
      queued: 4,
      liveNodes: 2,
      problem: null,
    });
    expect(byId['beta']).toMatchObject({ state: 'paused', crawled: 0, queued: 0, liveNodes: 0, problem: null });
    expect(byId['future']!.problem).toMatch(/schema version 99/);
    expect(Number.isNaN(Date.parse(byId['alpha']!.createdAt))).toBe(false);
  });

  it('attaches: the cluster snapshot has every node and its threads, and comes through the session', async () => {
    const states: StateChange[] = [];
    const onState = (c: StateChange) => states.push(c);
    session.on('state', onState);
    const first = nextSnapshot(session, () => true);
    const attached = await session.attachStore(db.url, 'alpha');
    expect(attached).toEqual({ server: `127.0.0.1:${pgHostPort(db.url).port}/${db.name}`, crawlId: 'alpha' });
    const s = await first;
    session.off('state', onState);
    expect(states[0]).toMatchObject({ from: null, to: 'running' });
    expect(s.state).toBe('running');
    expect(s.threadTarget).toBe(5);
    expect(s.store).toEqual({ kind: 'postgres', server: attached.server, crawlId: 'alpha', node: null });
    expect(s.counters).toMatchObject({ crawled: 9, queued: 4, failed: 1 });
    expect(s.nodes!.map((n) => [n.name, n.hostname, n.live, n.threads])).toEqual([
      ['node-a', 'box-a', true, 3],
      ['node-b', 'box-b', true, 2],
      ['node-gone', 'box-c', false, 1],
    ]);
    expect(s.nodes!.find((n) => n.name === 'node-gone')!.state).toBe('left');
    // Threads of live nodes only, each carrying its node; ids repeat across nodes.
    expect(s.threads.map((t) => `${t.node}#${t.id}:${t.step}`).sort()).toEqual(
      ['node-a#1:fetching', 'node-a#2:waiting', 'node-a#3:fetching', 'node-b#1:processing', 'node-b#2:fetching'].sort(),
    );
    expect(session.snapshot()!.nodes).toHaveLength(3);
    expect(session.currentFile()).toBeNull();
    // The password never leaves the session.
    expect(JSON.stringify(s)).not.toContain(':trawl@');
  });

  it('refreshes on a node notification, coalesced, and at least every second without one', async () => {
    // A heartbeat with new thread status and no NOTIFY: seen within about a second.
    await heartbeat(db.url, 'alpha', 'node-b', [
      threadStatus(1, { step: 'returning' }),
      threadStatus(2),
      threadStatus(3, { step: 'claimed' }),
    ]);
    const t0 = Date.now();
    const s = await nextSnapshot(session, (x) => x.threads.some((t) => t.node === 'node-b' && t.id === 3), 5_000);
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(s.nodes!.find((n) => n.name === 'node-b')!.threads).toBe(3);

    // A burst of notifications: far fewer snapshots than notifications (at most ~4 a second, plus the clock's).
    let count = 0;
    const onSnap = () => count++;
    session.on('snapshot', onSnap);
    await withClient(db.url, async (c) => {
      for (let i = 0; i < 40; i++) {
        await c.query('SELECT pg_notify($1, $2)', [crawlChannel('alpha'), 'work']);
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    session.off('snapshot', onSnap);
    // ~1.3 s of notifications: at most 4/s (+1 for the first and the clock).
    expect(count).toBeGreaterThanOrEqual(2);
    expect(count).toBeLessThanOrEqual(8);

    // A notification brings a change at once (well before the 1 s clock).
    await withClient(db.url, async (c) => {
      await c.query(`UPDATE trawl_alpha.nodes SET status = $1, last_seen = $2 WHERE name = 'node-a'`, [
        JSON.stringify([threadStatus(1, { step: 'politeness' })]),
        Date.now(),
      ]);
      await new Promise((r) => setTimeout(r, 300));
      const t1 = Date.now();
      const seen = nextSnapshot(session, (x) => x.threads.some((t) => t.node === 'node-a' && t.step === 'politeness'), 5_000);
      await c.query('SELECT pg_notify($1, $2)', [crawlChannel('alpha'), 'nodes']);
      await seen;
      expect(Date.now() - t1).toBeLessThan(1_000);
    });
  });

  it('sends pause, resume and the thread count to the cluster: trawl.crawls changes and the nodes are notified', async () => {
    const listener = new pg.Client({ connectionString: db.url });
    listener.on('error', () => undefined);
    await listener.connect();
    const notes: string[] = [];
    listener.on('notification', (m) => m.channel === crawlChannel('alpha') && notes.push(m.payload ?? ''));
    await listener.query(`LISTEN ${crawlChannel('alpha')}`);
    const row = async () =>
      (await listener.query<{ state: string; threads: number }>(`SELECT state, threads FROM trawl.crawls WHERE id = 'alpha'`)).rows[0]!;
    try {
      await session.pause();
      expect(await row()).toEqual({ state: 'paused', threads: 5 });
      await session.setThreads(12);
      expect(await row()).toEqual({ state: 'paused', threads: 12 });
      // The cluster's total may exceed a local crawl's 200.
      await session.setThreads(400);
      expect((await row()).threads).toBe(400);
      // The snapshot that follows the resume (nodes still running: the cluster is running), listened for before it.
      const to400 = nextSnapshot(session, (x) => x.threadTarget === 400 && x.state === 'running');
      await session.resume();
      expect((await row()).state).toBe('running');
      await expect.poll(() => notes.filter((n) => n === 'command').length, { timeout: 5_000 }).toBe(4);
      const s = await to400;
      expect(s).toMatchObject({ state: 'running', threadTarget: 400 });
      const pausing = nextSnapshot(session, (x) => x.state !== 'running');
      await session.pause();
      const paused = await pausing;
      // Nodes still say running: the cluster is pausing until they do.
      expect(paused.state).toBe('pausing');
      const allPaused = nextSnapshot(session, (x) => x.state === 'paused');
      await withClient(db.url, (c) =>
        c.query(`UPDATE trawl_alpha.nodes SET state = 'paused', last_seen = $1 WHERE name IN ('node-a', 'node-b')`, [Date.now()]),
      );
      await allPaused;
      await session.resume();
      await withClient(db.url, (c) => c.query(`UPDATE trawl_alpha.nodes SET state = 'running', last_seen = $1`, [Date.now()]));
    } finally {
      await listener.end();
    }
  });

  it('stops the cluster; a finished crawl takes no more commands', async () => {
    await session.attachStore(db.url, 'gamma');
    // Listening before each change: the snapshot it brings may come before the call that made it returns.
    const stopping = nextSnapshot(session, (s) => s.state !== 'running');
    await session.stop();
    const state = async () =>
      withClient(
        db.url,
        async (c) => (await c.query<{ state: string }>(`SELECT state FROM trawl.crawls WHERE id = 'gamma'`)).rows[0]!.state,
      );
    expect(await state()).toBe('stopped');
    // Its node is still live: stopping, until it leaves.
    expect((await stopping).state).toBe('stopping');
    const finished = nextSnapshot(session, (s) => s.state === 'finished');
    await withClient(db.url, async (c) => {
      await c.query(`UPDATE trawl_gamma.nodes SET state = 'left', status = '[]'`);
      await c.query(`UPDATE trawl.crawls SET state = 'finished', finish_reason = 'stopped', finished_at = now() WHERE id = 'gamma'`);
      await c.query('SELECT pg_notify($1, $2)', [crawlChannel('gamma'), 'finished']);
    });
    const done = await finished;
    expect(done).toMatchObject({ reason: 'stopped', threads: [] });
    expect(done.nodes).toEqual([expect.objectContaining({ name: 'solo', live: false, state: 'left' })]);
    await expect(session.resume()).rejects.toThrow(/crawl "gamma" has finished \(stopped\); it takes no more commands/);
    await session.attachStore(db.url, 'alpha');
  });

  it('stops reading a finished crawl on the clock, and still sees a node join a stopped one', async () => {
    /** Snapshots emitted, and whether the observer queried the store, over `ms`. */
    const quietFor = async (ms: number) => {
      let snapshots = 0;
      const count = () => snapshots++;
      const before = await observerQueryStart(db.url);
      session.on('snapshot', count);
      await new Promise((r) => setTimeout(r, ms));
      session.off('snapshot', count);
      return { snapshots, queried: (await observerQueryStart(db.url)) !== before };
    };

    // Stopped with no live node: the snapshot says finished, and the 1 s clock reads nothing more.
    await session.attachStore(db.url, 'delta');
    expect(session.snapshot()).toMatchObject({ state: 'finished', reason: 'stopped' });
    expect(await quietFor(2_500)).toEqual({ snapshots: 0, queried: false });

    // A node joins as --join does (the crawl runs again, the node says so on the channel): seen at once...
    const rejoined = nextSnapshot(session, (s) => s.state === 'running', 3_000);
    await withClient(db.url, async (c) => {
      await c.query(`UPDATE trawl.crawls SET state = 'running' WHERE id = 'delta' AND state = 'stopped'`);
      await c.query(`UPDATE trawl_delta.nodes SET state = 'running', last_seen = $1, status = '[]' WHERE name = 'returner'`, [Date.now()]);
      await c.query('SELECT pg_notify($1, $2)', [crawlChannel('delta'), 'nodes:returner']);
    });
    const running = await rejoined;
    expect(running.nodes).toEqual([expect.objectContaining({ name: 'returner', live: true })]);
    // ...and the clock runs again: a heartbeat without a notification is seen.
    const twoThreads = nextSnapshot(session, (s) => s.threads.length === 2, 3_000);
    await heartbeat(db.url, 'delta', 'returner', [threadStatus(1), threadStatus(2)]);
    await twoThreads;

    // Finished for good (no node can join it): the clock stops again.
    const completed = nextSnapshot(session, (s) => s.state === 'finished' && s.reason === 'completed', 3_000);
    await withClient(db.url, async (c) => {
      await c.query(`UPDATE trawl_delta.nodes SET state = 'finished', status = '[]'`);
      await c.query(`UPDATE trawl.crawls SET state = 'finished', finish_reason = 'completed', finished_at = now() WHERE id = 'delta'`);
      await c.query('SELECT pg_notify($1, $2)', [crawlChannel('delta'), 'finished']);
    });
    await completed;
    expect(await quietFor(2_500)).toEqual({ snapshots: 0, queried: false });
    await session.attachStore(db.url, 'alpha');
  });

  it('draws the charts, the folder tree, the crawl map and the sitemap from the store', async () => {
    // The charts and the site structure read the store (analysis-contract compares them with a crawl file's): the 9
    // results the nodes recorded, 7 on alpha.test and 2 on its CDN.
    const status = (await session.chartData({ kind: 'status', afterSeq: null, fromMs: null, bucketMs: null })) as StatusDistribution;
    expect(status.rows.map((r) => [r.label, r.count])).toEqual([['200', 9]]);
    expect(await session.chartData({ kind: 'depth', afterSeq: status.last_seq, fromMs: null, bucketMs: null })).toMatchObject({
      rows: [],
      total: 0,
      last_seq: status.last_seq,
    });
    const tree = await session.siteStructure({ paths: [], limit: 10 });
    expect(tree.hosts.children.map((h) => [h.path, h.urls, h.own])).toEqual([
      ['https://alpha.test/', 7, 7],
      ['https://cdn.alpha.test/', 2, 2],
    ]);
    expect(session.chartExportProblem()).toBeNull();
    // The crawl map and the bulk reports read the store too: every page with a results row is a node of the map.
    const map = await scoredCrawlMap(session, { maxNodes: 100 });
    // The nine pages (recorded without a finder) hang from the root, in id order.
    expect([map.total, map.folded.urls, map.nodes.kind]).toEqual([9, 0, ['root', ...Array(9).fill('url')]]);
    expect(map.nodes.url.slice(1)).toEqual([
      ...Array.from({ length: 7 }, (_, i) => `https://alpha.test/done-${i}`),
      'https://cdn.alpha.test/done-0',
      'https://cdn.alpha.test/done-1',
    ]);
    expect(map.nodes.parent.slice(1)).toEqual(Array(9).fill(0));
    // Asked again with the crawl unchanged: the map already built, not the store read again.
    expect(await session.crawlMap({ maxNodes: 100 })).toBe(map);
    // Its sitemap too: downloadable as one file, written from the store.
    expect(await session.sitemapDownloadProblem()).toBeNull();
    const sitemap = path.join(tempDir(), 'sitemap.xml');
    const written = await session.exportSitemap(sitemap);
    // None of the nine recorded pages is an indexable HTML page: an empty urlset (the CLI's test writes a full one).
    expect(written).toEqual({ ok: true, rows: 0, file: sitemap });
    expect(fs.readFileSync(sitemap, 'utf8')).toMatch(/<urlset [^>]+>\n<\/urlset>\n$/);
    expect(session.bulkReportProblem()).toBeNull();
  });

  it("lists the cluster crawl's results from the store: counted, filtered and sorted as a crawl file's", async () => {
    const q = { offset: 0, limit: 5, sort: 'seq' as const, descending: false, text: '', statusClass: null };
    const all = await session.queryResults(q);
    expect(all.total).toBe(9);
    expect(all.rows.map((r) => r.url)).toEqual([
      'https://alpha.test/done-0',
      'https://alpha.test/done-1',
      'https://alpha.test/done-2',
      'https://alpha.test/done-3',
      'https://alpha.test/done-4',
    ]);
    expect(all.rows[0]).toMatchObject({ status_code: 200, title: 'Page 0', inlinks: 0, outlinks: 0, extracted: {} });
    expect(typeof all.rows[0]!.seq).toBe('number');
    const cdn = await session.queryResults({ ...q, text: 'CDN.alpha', sort: 'url', descending: true });
    expect(cdn.total).toBe(2);
    expect(cdn.rows.map((r) => r.url)).toEqual(['https://cdn.alpha.test/done-1', 'https://cdn.alpha.test/done-0']);
    expect((await session.queryResults({ ...q, statusClass: '2xx', offset: 7 })).rows).toHaveLength(2);
    expect((await session.queryResults({ ...q, statusClass: 'none' })).total).toBe(0);
    // LIKE's wildcards are plain text.
    expect((await session.queryResults({ ...q, text: '%' })).total).toBe(0);
  });

  it("exports the cluster crawl's results as CSV from the store", async () => {
    expect(session.exportProblem()).toBeNull();
    const file = path.join(tempDir(), 'cluster.csv');
    const result = await session.exportCsv(file);
    expect(result).toEqual({ ok: true, rows: 9, file });
    const csv = fs.readFileSync(file, 'utf8');
    expect(csv).toContain('https://alpha.test/done-0');
    expect(csv).toContain('https://cdn.alpha.test/done-1');
    expect(csv.trim().split('\r\n')).toHaveLength(10);
  });

  it('names a bad URL, a server it cannot reach, a wrong password, an unknown crawl and another schema version', async () => {
    const before = session.attachedStore();
    await expect(session.attachStore('mysql://u:p@127.0.0.1/db', 'alpha')).rejects.toThrow(/postgres:\/\/ or postgresql:\/\//);
    await expect(session.attachStore('postgres://127.0.0.1:5432', 'alpha')).rejects.toThrow(/names no database/);
    await expect(session.listStoreCrawls('postgres://u:p@127.0.0.1:1/nowhere')).rejects.toThrow(
      /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/nowhere/,
    );
    const wrong = new URL(db.url);
    wrong.password = 'sekrit-pw-123';
    const err = await session.attachStore(wrong.toString(), 'alpha').then(
      () => new Error('attached with a wrong password'),
      (e: unknown) => e as Error,
    );
    expect(err.message).toMatch(/password authentication failed/);
    expect(err.message).not.toContain('sekrit-pw-123');
    await expect(session.attachStore(db.url, 'nosuch')).rejects.toThrow(/there is no crawl "nosuch" in this store; the store has .*alpha/);
    await expect(session.attachStore(db.url, 'future')).rejects.toThrow(/schema version 99; this Trawl uses version 1/);
    await expect(session.attachStore(db.url, 'Bad-Id')).rejects.toThrow(/invalid crawl ID/);
    // A failed attach leaves the crawl in view as it was.
    expect(session.attachedStore()).toEqual(before);
    expect(session.snapshot()!.store!.crawlId).toBe('alpha');
  });

  it('shows a lost connection in the snapshot, keeps retrying, and comes back', async () => {
    await session.attachStore(proxy.viaProxy(db.url), 'beta');
    expect(await observers(db.url)).toBe(1); // the previous attachment's connection is closed
    expect(session.snapshot()).toMatchObject({ state: 'paused', store: { crawlId: 'beta', server: `127.0.0.1:${proxy.port}/${db.name}` } });
    const lost = nextSnapshot(session, (s) => s.error !== null);
    proxy.cut();
    const s = await lost;
    expect(s.error).toMatch(
      new RegExp(`lost the connection to the PostgreSQL store at 127\\.0\\.0\\.1:${proxy.port}/${db.name} .*retrying`),
    );
    expect(s.state).toBe('paused'); // the last state known
    await expect(session.resume()).rejects.toThrow(/cannot reach the PostgreSQL store .* try again once it is back/);
    // Still down after a few retries.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(session.snapshot()!.error).toMatch(/retrying/);
    const backSoon = nextSnapshot(session, (x) => x.error === null, 10_000);
    proxy.restore();
    const back = await backSoon;
    expect(back.state).toBe('paused');
    // Live again: commands and notifications work.
    const to3 = nextSnapshot(session, (x) => x.threadTarget === 3);
    await session.setThreads(3);
    await to3;
  });

  it('detaches cleanly: on request, and when a local crawl starts', async () => {
    let cleared = 0;
    const onCleared = () => cleared++;
    session.on('cleared', onCleared);
    await session.detachStore();
    await session.detachStore(); // not attached: nothing happens
    session.off('cleared', onCleared);
    expect(cleared).toBe(1);
    expect(session.attachedStore()).toBeNull();
    expect(session.snapshot()).toBeNull();
    await expect.poll(() => observers(db.url)).toBe(0);
    await expect(session.pause()).rejects.toThrow(/no crawl has been started/);

    await session.attachStore(db.url, 'alpha');
    await expect.poll(() => observers(db.url)).toBe(1);
    const site = await startFixtureSite({ pages: 3, linksPerPage: 1 });
    try {
      const started = await session.start({ seeds: [site.url('/')], threads: 1 });
      expect(started.ok).toBe(true);
      expect(session.attachedStore()).toBeNull();
      await expect.poll(() => observers(db.url)).toBe(0);
      await expect(session.attachStore(db.url, 'alpha')).rejects.toThrow(/a crawl is already running/);
      await session.stop();
    } finally {
      await site.close();
    }
  });
});
