import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { duplicates, isAlive, tempDir, WORKER } from '../helpers/engine.ts';
import { CrawlController } from '../../electron/engine/controller/crawl-controller.ts';
import { ChildProcessSpawner } from '../../electron/engine/pool/child-process-spawner.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { ThreadStatus } from '../../shared/snapshot.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

/**
 * The real bundled worker, except that once it has fetched and processed a URL ending in /spin, it spins forever
 * instead of sending the result back: a CPU-bound loop in processing, as a pathological page and rule would cause,
 * whatever the regex engine. It lives only in a test's temporary folder, never in the app or its bundles.
 */
function spinningWorker(dir: string): ChildProcessSpawner {
  const entry = path.join(dir, 'spinning-worker.mjs');
  fs.writeFileSync(
    entry,
    `const send = process.send.bind(process);
process.send = (message, ...rest) => {
  // Messages go out in batches (shared/message-batch.ts).
  const batch = Array.isArray(message) ? message : [message];
  if (batch.some((m) => m && m.t === 'result' && String(m.result.url).endsWith('/spin'))) for (;;) {}
  return send(message, ...rest);
};
await import(${JSON.stringify(pathToFileURL(WORKER).href)});
`,
  );
  return new ChildProcessSpawner({ entry, execArgv: [] });
}

describe('watchdog', () => {
  it('kills a worker whose job spins past its deadline, replaces it, records "processing timeout" and loses nothing', async () => {
    site = await startFixtureSite({
      pages: 30,
      linksPerPage: 3,
      // /p/0 is done before /spin (handed out with it) hangs the worker, and the pages /p/0 links to are in hand
      // then, well within their own deadlines: the watchdog blames /spin alone (it cannot tell jobs apart that
      // were handed out at the same moment to a worker that then hung: both would be past their deadline).
      delayMs: 600,
      routes: {
        '/spin': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>spin</title>'), 900),
      },
    });
    const dir = tempDir();
    const dbPath = path.join(dir, 'c.trawl');
    const settings = parseSettings({
      seeds: [site.url('/spin'), site.url('/p/0')],
      threads: 4,
      // One process hosts every thread: the hung loop holds all four.
      processes: 1,
      responseTimeoutMs: 1_000,
      processingBudgetMs: 500,
    });
    const controller = CrawlController.create(settings, { dbPath, spawner: spinningWorker(dir), cpuCount: 3 });
    const deaths: { worker: string; reason: string; requeued: number; failed: number }[] = [];
    controller.on('workerDied', (d) => deaths.push(d));
    let spinning: ThreadStatus | undefined;
    let overdue: ThreadStatus | undefined;
    /** The spinning thread, back at work in another process. */
    let replaced: ThreadStatus | undefined;
    controller.on('snapshot', (s) => {
      const t = s.threads.find((x) => x.url?.endsWith('/spin'));
      if (t?.pid) spinning ??= t;
      if (t?.overdue) overdue ??= t;
      const again = spinning && s.threads.find((x) => x.id === spinning!.id);
      if (again?.pid && again.pid !== spinning!.pid && again.step !== 'starting' && again.step !== 'dead') replaced ??= again;
    });
    controller.start();
    // On the base commit the crawl never ends: the spinning worker holds its threads for good.
    const info = await Promise.race([
      controller.done,
      new Promise<never>((_, reject) =>
        // Stopping kills the worker that still spins, so no process outlives the test.
        setTimeout(() => void controller.stop().finally(() => reject(new Error('the crawl hung'))), 40_000),
      ),
    ]);
    expect(info.reason).toBe('completed');

    // The thread was flagged while it spent its processing budget, before the kill.
    expect(overdue).toBeDefined();
    expect(overdue!.overdue).toBe(true);
    // Its worker was killed by the watchdog (once) and the same threads went on in a fresh process.
    expect(deaths).toHaveLength(1);
    expect(deaths[0]!.reason).toMatch(/killed by the watchdog/);
    expect(deaths[0]!.failed).toBe(0);
    // Links of /p/0 were in hand in that worker: given back, not counted as a crash.
    expect(deaths[0]!.requeued).toBeGreaterThanOrEqual(1);
    expect(spinning?.pid).toBeTruthy();
    expect(isAlive(spinning!.pid!)).toBe(false);
    expect(replaced).toBeDefined();
    expect(replaced!.pid).not.toBe(spinning!.pid);

    // /spin is recorded as failed once, every page is recorded, nothing fetched in a loop.
    expect(info.snapshot.counters).toMatchObject({ crawled: 30, failed: 1, queued: 0 });
    const db = new Database(dbPath, { readonly: true });
    const rows = db
      .prepare('SELECT u.url, r.error, r.status_code AS status FROM results r JOIN urls u ON u.id = r.url_id ORDER BY u.url')
      .all() as { url: string; error: string | null; status: number | null }[];
    db.close();
    expect(rows.filter((r) => r.url.endsWith('/spin'))).toEqual([{ url: site.url('/spin'), error: 'processing timeout', status: null }]);
    const pages = rows.filter((r) => r.url.includes('/p/'));
    expect(pages.map((r) => new URL(r.url).pathname).sort()).toEqual(site.pagePaths().sort());
    expect(pages.every((r) => r.error === null && r.status === 200)).toBe(true);
    expect(site.fetchedPaths().filter((p) => p === '/spin')).toHaveLength(1);
    // Only the URLs the killed worker held may have been fetched twice.
    expect(duplicates(site.fetchedPaths()).length).toBeLessThanOrEqual(deaths[0]!.requeued);
  });
});
