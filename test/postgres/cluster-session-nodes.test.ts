// The session attached to a crawl that real nodes run: two CLI processes (`--store URL`, `--join ID`) crawling a
// slow fixture site, watched and steered from the session as the app and the web console do.
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

withPg.describe('session attached to a crawl run by real nodes', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let session: CrawlSession;
  const nodes: ReturnType<typeof startCli>[] = [];

  beforeAll(async () => {
    db = await freshDatabase('cluster_nodes');
    // Slow enough (about 7 s of fetching) that the crawl cannot end before it has been watched, paused and resized,
    // even when the second node is slow to join on a loaded machine.
    site = await startFixtureSite({ pages: 120, linksPerPage: 3, delayMs: 250 });
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 3 });
  });

  afterAll(async () => {
    await session?.close();
    for (const n of nodes) if (n.child.exitCode === null) n.child.kill('SIGKILL');
    await site?.close();
    await db?.drop();
  });

  it('shows both nodes and their threads, pauses, resizes and resumes them, and sees the crawl finish', async () => {
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
    nodes.push(startCli(['--store', db.url, '--join', crawlId, '--node-name', 'west', '--quiet']));

    const listed = await session.listStoreCrawls(db.url);
    expect(listed.crawls.map((c) => c.id)).toEqual([crawlId]);
    await session.attachStore(db.url, crawlId);
    const snap = () => session.snapshot() as CrawlSnapshot;

    // Both nodes live, each with its share of the 4 threads, every thread carrying its node.
    const both = await until(
      snap,
      // A node publishes its threads with its heartbeat, so east may still show the 4 it ran alone for a beat.
      (s) =>
        s.nodes?.filter((n) => n.live && n.threads === 2).length === 2 &&
        s.threads.filter((t) => t.node === 'east').length === 2 &&
        s.threads.filter((t) => t.node === 'west').length === 2,
      'two live nodes sharing the 4 threads',
      20_000,
    );
    expect(new Set(both.threads.map((t) => t.node))).toEqual(new Set(['east', 'west']));
    await until(snap, (s) => s.threads.some((t) => t.step === 'fetching' && t.url !== null), 'a thread fetching');

    await session.pause();
    await until(snap, (s) => s.state === 'paused', 'the cluster paused', 20_000);
    const crawledWhilePaused = snap().counters.crawled;
    await session.setThreads(6);
    await until(
      snap,
      (s) => s.threadTarget === 6 && s.nodes!.filter((n) => n.live).every((n) => n.threads === 3),
      'each node at 3 threads',
    );
    await new Promise((r) => setTimeout(r, 600));
    expect(snap().counters.crawled).toBe(crawledWhilePaused);
    await session.resume();
    await until(snap, (s) => s.state === 'running' && s.counters.crawled > crawledWhilePaused, 'the cluster crawling again');

    const done = await until(snap, (s) => s.state === 'finished', 'the crawl to finish', 60_000);
    expect(done.reason).toBe('completed');
    expect(done.counters.crawled).toBe(site.pagePaths().length);
    expect((await session.queryResults({ offset: 0, limit: 1, sort: 'seq', descending: false, text: '', statusClass: null })).total).toBe(
      done.counters.crawled + done.counters.failed,
    );
    for (const n of nodes) expect((await n.done).code).toBe(0);
  });
});
