import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { duplicates, isAlive, newCrawl, tempDir, waitForSnapshot } from '../helpers/engine.ts';
import { CrawlController } from '../../electron/engine/controller/crawl-controller.ts';
import { ChildProcessSpawner } from '../../electron/engine/pool/child-process-spawner.ts';
import { parseSettings } from '../../shared/settings.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** The pid of the worker process whose thread holds `path`, from the controller's own snapshot. */
function pidHolding(controller: CrawlController, path: string): number | null {
  return controller.snapshot().threads.find((t) => t.url?.endsWith(path))?.pid ?? null;
}

describe('monitor', () => {
  it('notices a worker killed with SIGKILL at once, requeues its URLs, replaces it, and loses nothing', async () => {
    site = await startFixtureSite({ pages: 150, linksPerPage: 4, delayMs: 80 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 6 });
    const deaths: { worker: string; reason: string; requeued: number }[] = [];
    controller.on('workerDied', (d) => deaths.push(d));
    controller.start();
    const before = await waitForSnapshot(controller, (s) => s.counters.crawled >= 20 && s.counters.inFlight >= 4);
    const victim = before.threads.find((t) => t.pid && t.url)!;
    const victimThreads = before.threads.filter((t) => t.pid === victim.pid).map((t) => t.id);
    process.kill(victim.pid!, 'SIGKILL');

    // The same threads come back in a fresh process.
    const after = await waitForSnapshot(controller, (s) =>
      victimThreads.every((id) => {
        const t = s.threads.find((x) => x.id === id);
        return t !== undefined && t.pid !== null && t.pid !== victim.pid && t.step !== 'starting' && t.step !== 'dead';
      }),
    );
    expect(after.threads).toHaveLength(6);
    expect(isAlive(victim.pid!)).toBe(false);
    expect(deaths).toHaveLength(1);
    expect(deaths[0]!.reason).toBe('killed by SIGKILL');

    const info = await controller.done;
    expect(info.reason).toBe('completed');
    expect(info.snapshot.counters).toMatchObject({ crawled: 150, failed: 0 });
    expect(
      site
        .fetchedPaths()
        .sort()
        .filter((p, i, a) => a.indexOf(p) === i),
    ).toEqual(site.pagePaths().sort());
    // Only the URLs that were in flight in the dead process may have been fetched twice.
    expect(duplicates(site.fetchedPaths()).length).toBeLessThanOrEqual(deaths[0]!.requeued);
  });

  it('records a URL that kills its worker twice as failed ("worker crashed") instead of looping', async () => {
    let controllerRef: CrawlController | undefined;
    let crashes = 0;
    site = await startFixtureSite({
      routes: {
        '/': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/killer">k</a><a href="/fine">f</a>');
        },
        '/fine': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>fine</title>'),
        // Every fetch of /killer takes its worker down, as a page that crashes the parser would.
        '/killer': () => {
          crashes++;
          setTimeout(() => {
            const pid = pidHolding(controllerRef!, '/killer');
            if (pid) process.kill(pid, 'SIGKILL');
          }, 50);
        },
      },
    });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 2 });
    controllerRef = controller;
    controller.start();
    const info = await controller.done;
    expect(info.reason).toBe('completed');
    expect(crashes).toBe(2);
    expect(info.snapshot.counters).toMatchObject({ crawled: 2, failed: 1 });
    const db = new Database(dbPath, { readonly: true });
    const row = db
      .prepare('SELECT r.error, r.status_code FROM results r JOIN urls u ON u.id = r.url_id WHERE u.url LIKE ?')
      .get('%/killer') as { error: string; status_code: number | null };
    db.close();
    expect(row).toEqual({ error: 'worker crashed', status_code: null });
  });
});

describe('monitor, when workers cannot start at all', () => {
  it('fails the crawl with a clear reason instead of restarting them forever', async () => {
    const dir = tempDir();
    // A "worker" that dies at once, as a broken install or a missing module would.
    const broken = path.join(dir, 'broken-worker.mjs');
    fs.writeFileSync(broken, "process.stderr.write('cannot load\\n'); process.exit(3);\n");
    const controller = CrawlController.create(parseSettings({ seeds: ['http://127.0.0.1:9/'], threads: 2, crawlLinkedSitemaps: false }), {
      dbPath: path.join(dir, 'c.trawl'),
      spawner: new ChildProcessSpawner({ entry: broken, execArgv: [] }),
      cpuCount: 2,
    });
    const states: string[] = [];
    controller.on('state', (s) => states.push(s.to));
    controller.start();
    const info = await controller.done;
    expect(info.reason).toBe('failed');
    expect(info.error).toMatch(/worker processes keep failing to start \(last one exited with code 3\)/);
    expect(states).toEqual(['preparing', 'running', 'stopping', 'finished']);
    // The URL it never got to is still queued in the file, for a resume once the install is fixed.
    expect(info.snapshot.counters.queued).toBe(1);
  });
});
