// robots.txt is fetched once per host per crawl unless the fetch failed (issue 13, finding 11), counted on the
// servers of a real crawl. One host's robots.txt takes its worker down every time (the worker exits once it has
// it): it is fetched MAX_WORKER_CRASHES times and then stands as unreachable, where it was fetched for ever. Another's
// hangs its worker: the watchdog kills it, and that robots.txt is a verdict at once, not fetched again.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { CrawlController, type FinishInfo } from '../../electron/engine/controller/crawl-controller.ts';
import { ChildProcessSpawner } from '../../electron/engine/pool/child-process-spawner.ts';
import { MAX_WORKER_CRASHES } from '../../electron/engine/frontier/model.ts';
import { parseSettings } from '../../shared/settings.ts';
import { tempDir, WORKER } from '../helpers/engine.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';

interface Site {
  origin: string;
  log: string[];
  close(): Promise<void>;
}

/** A small site: a home page linking to three pages, and a robots.txt that disallows /private. */
async function startSite(): Promise<Site> {
  const log: string[] = [];
  const server = http.createServer((req, res) => {
    const p = req.url ?? '/';
    log.push(p);
    if (p === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    const links = p === '/' ? ['/a', '/b', '/private/x'].map((l) => `<a href="${l}">x</a>`).join('') : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${p}</title>${links}`);
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, log, close };
}

/**
 * The real bundled worker, except that it exits when it has the robots.txt of `crashOrigin` (every time), and spins
 * for good when it has the robots.txt of `hangOrigin`. Only in the test's temporary folder.
 */
function hostileWorker(dir: string, crashOrigin: string, hangOrigin: string): ChildProcessSpawner {
  const entry = path.join(dir, 'robots-hostile-worker.mjs');
  fs.writeFileSync(
    entry,
    `const send = process.send.bind(process);
process.send = (batch, ...rest) => {
  // Messages go out in batches (shared/message-batch.ts).
  for (const message of Array.isArray(batch) ? batch : [batch]) {
    if (message && message.t === 'result' && message.result.kind === 'robots') {
      if (message.result.url === ${JSON.stringify(`${crashOrigin}/robots.txt`)}) process.exit(3);
      if (message.result.url === ${JSON.stringify(`${hangOrigin}/robots.txt`)}) for (;;) {}
    }
  }
  return send(batch, ...rest);
};
await import(${JSON.stringify(pathToFileURL(WORKER).href)});
`,
  );
  return new ChildProcessSpawner({ entry, execArgv: [] });
}

describe('robots.txt fetched once per host in a real crawl', () => {
  const sites: Site[] = [];
  let info: FinishInfo;
  let rows: { url: string; error: string | null; status: number | null }[];

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) sites.push(await startSite());
    const [, crash, hang] = sites as [Site, Site, Site];
    const dir = tempDir();
    const dbPath = path.join(dir, 'c.trawl');
    const settings = parseSettings({
      seeds: sites.map((s) => `${s.origin}/`),
      // One thread: a worker that dies takes only its own job with it (with more, the jobs of other hosts it held
      // are released as crashed too, as URLs are, and could use up those hosts' MAX_WORKER_CRASHES).
      threads: 1,
      robots: 'respect',
      // The robots.txt fetches alone (no /sitemap.xml look-up on the hosts whose robots.txt crashes or hangs).
      crawlLinkedSitemaps: false,
      responseTimeoutMs: 1_000,
      processingBudgetMs: 500,
    });
    const controller = CrawlController.create(settings, { dbPath, spawner: hostileWorker(dir, crash.origin, hang.origin), cpuCount: 3 });
    controller.start();
    // On the base commit the crawl never ends: the crashing robots.txt is fetched in a loop.
    info = await Promise.race([
      controller.done,
      new Promise<never>((_, reject) =>
        setTimeout(() => void controller.stop().finally(() => reject(new Error('the crawl hung (robots.txt in a loop?)'))), 45_000),
      ),
    ]);
    const db = new Database(dbPath, { readonly: true });
    rows = db
      .prepare('SELECT u.url, r.error, r.status_code AS status FROM results r JOIN urls u ON u.id = r.url_id ORDER BY u.url')
      .all() as typeof rows;
    db.close();
  }, 60_000);

  afterAll(async () => {
    for (const s of sites) await s.close();
  });

  const robotsFetches = (s: Site) => s.log.filter((p) => p === '/robots.txt').length;

  it('fetches a healthy host’s robots.txt exactly once and honours it', () => {
    const ok = sites[0]!;
    expect(info.reason).toBe('completed');
    expect(robotsFetches(ok)).toBe(1);
    expect(ok.log.filter((p) => p !== '/robots.txt').sort()).toEqual(['/', '/a', '/b']);
    expect(rows.find((r) => r.url === `${ok.origin}/private/x`)).toMatchObject({ error: 'blocked by robots.txt' });
  });

  it(`fetches a robots.txt that crashes its worker ${MAX_WORKER_CRASHES} times, then blocks the host as unreachable`, () => {
    const crash = sites[1]!;
    expect(robotsFetches(crash)).toBe(MAX_WORKER_CRASHES);
    expect(crash.log.filter((p) => p !== '/robots.txt')).toEqual([]);
    expect(rows.find((r) => r.url === `${crash.origin}/`)).toMatchObject({
      status: null,
      error: 'blocked: robots.txt unreachable (worker crashed)',
    });
  });

  it('fetches a robots.txt that hangs its worker once, and takes it as unreachable', () => {
    const hang = sites[2]!;
    expect(robotsFetches(hang)).toBe(1);
    expect(hang.log.filter((p) => p !== '/robots.txt')).toEqual([]);
    expect(rows.find((r) => r.url === `${hang.origin}/`)).toMatchObject({
      status: null,
      error: 'blocked: robots.txt unreachable (processing timeout)',
    });
  });
});
