// Live settings of a crawl run by real nodes (two CLI processes sharing a PostgreSQL store), changed from the session
// attached to the store as the app and the web console do: the URLs/s cap is the whole cluster's (each node runs its
// share), and exclude and deprioritise patterns reach every node and the URLs already queued.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import type { CrawlSnapshot } from '../../shared/snapshot.ts';
import { startCli } from '../helpers/cli.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import { until } from '../helpers/until.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite } from '../helpers/postgres.ts';
import type { FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

withPg.describe('live settings of a crawl run by real nodes', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let session: CrawlSession;
  const nodes: ReturnType<typeof startCli>[] = [];

  beforeAll(async () => {
    db = await freshDatabase('cluster_live');
    site = await startFixtureSite({ pages: 400, linksPerPage: 4, delayMs: 10 });
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 3 });
  });

  afterAll(async () => {
    await session?.close();
    for (const n of nodes) if (n.child.exitCode === null) n.child.kill('SIGKILL');
    await site?.close();
    await db?.drop();
  });

  it('caps the whole cluster, and excludes and deprioritises on every node and in the queue', async () => {
    const first = startCli(['--store', db.url, site.url('/p/0'), '--threads', '4', '--node-name', 'east']);
    nodes.push(first);
    let stderr = '';
    first.child.stderr!.on('data', (d) => (stderr += d));
    const crawlId = await until(
      () => /Crawl (c[a-z0-9_]+) in /.exec(stderr)?.[1] ?? '',
      (id) => id !== '' || first.child.exitCode !== null,
      'the crawl ID',
    );
    expect(crawlId, stderr).not.toBe('');
    await session.attachStore(db.url, crawlId);
    const snap = () => session.snapshot() as CrawlSnapshot;
    // Paused early, with URLs queued for the patterns to find.
    await until(snap, (s) => s.counters.queued >= 40, 'URLs queued');
    await session.pause();
    await until(snap, (s) => s.state === 'paused', 'the cluster paused', 20_000);
    nodes.push(startCli(['--store', db.url, '--join', crawlId, '--node-name', 'west', '--quiet']));
    await until(snap, (s) => s.nodes?.filter((n) => n.live && n.threads === 2).length === 2, 'two live nodes sharing the threads');

    // Pages whose number ends in 7 are excluded, those ending in 3 pushed back.
    const excluded = /\/p\/\d*7$/;
    const queuedBefore = snap().counters.queued;
    const { dropped } = await session.addExclude('/p/\\d*7$');
    expect(dropped).toBeGreaterThan(0);
    const { moved } = await session.deprioritise('/p/\\d*3$');
    expect(moved).toBeGreaterThan(0);
    await session.setMaxRate(20);
    const after = await until(
      snap,
      (s) => s.maxUrlsPerSecond === 20 && s.liveExcludes.includes('/p/\\d*7$'),
      'the cap and the exclude shown',
    );
    expect(after.counters.queued).toBe(queuedBefore - dropped);
    const excludedAt = Date.now();

    // The registry holds them for nodes that join later; the queue holds no URL the exclude matches.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ settings: string; deprioritised: string; live_excludes: string }>(
        'SELECT settings, deprioritised, live_excludes FROM trawl.crawls WHERE id = $1',
        [crawlId],
      );
      const settings = JSON.parse(rows[0]!.settings) as { exclude: string[]; maxUrlsPerSecond: number | null };
      expect(settings.exclude).toContain('/p/\\d*7$');
      expect(settings.maxUrlsPerSecond).toBe(20);
      expect(JSON.parse(rows[0]!.deprioritised)).toEqual(['/p/\\d*3$']);
      expect(JSON.parse(rows[0]!.live_excludes)).toEqual(['/p/\\d*7$']);
      const { rows: queued } = await client.query<{ url: string }>(`SELECT url FROM trawl_${crawlId}.urls WHERE state = 0`);
      expect(queued.filter((r) => excluded.test(r.url))).toEqual([]);
    } finally {
      await client.end();
    }

    // 20 URLs/s for the whole cluster: two nodes with 2 threads each would fetch this site at hundreds a second, and
    // at 40/s if each ran the whole cap. Counted over 3 s once both run, with room for each node's burst.
    await session.resume();
    await sleep(1_000);
    const from = Date.now();
    await sleep(3_000);
    const fetched = site.log.filter((e) => e.at >= from && e.at < from + 3_000 && e.path.startsWith('/p/')).length;
    expect(fetched).toBeGreaterThan(10);
    expect(fetched).toBeLessThanOrEqual(20 * 3 + 10);

    await session.setMaxRate(null);
    const done = await until(snap, (s) => s.state === 'finished', 'the crawl to finish', 90_000);
    expect(done.reason).toBe('completed');
    // No node fetched an excluded page after the exclude, links found later included.
    expect(site.log.filter((e) => e.at > excludedAt && excluded.test(e.path))).toEqual([]);
    for (const n of nodes) expect((await n.done).code).toBe(0);
  });
});
