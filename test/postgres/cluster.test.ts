// Several Trawl nodes on one crawl through the PostgreSQL store, as users run them: separate CLI processes
// (`npm run crawl -- --store URL ...`, `--join CRAWL_ID`), a real fixture site on 127.0.0.1 and the real server.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runCli, startCli, type CliRun } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgHostPort, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const withPg = await pgSuite();

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** Waits (loosely bounded, to catch hangs) until `test` holds, polling. */
async function until(test: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Starts a node creating a new crawl and resolves with it and the crawl's ID (from what it prints). */
async function createNode(args: string[]): Promise<{ node: ReturnType<typeof startCli>; crawlId: string; stderr: () => string }> {
  const node = startCli(args);
  let stderr = '';
  node.child.stderr!.on('data', (d) => (stderr += d));
  let crawlId = '';
  await until(() => {
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(stderr)?.[1] ?? '';
    return crawlId !== '' || node.child.exitCode !== null;
  }, 'the crawl ID');
  if (!crawlId) throw new Error(`the first node did not start: ${stderr}`);
  return { node, crawlId, stderr: () => stderr };
}

/** Request paths and start times for the pages (robots.txt left out). */
function pageRequests(site: FixtureSite): { path: string; at: number }[] {
  return site.log.filter((e) => e.path.startsWith('/p/'));
}

withPg.describe('a crawl shared by several nodes through PostgreSQL', () => {
  let db: FreshDatabase;
  let site: FixtureSite | null = null;
  let proxy: TcpProxy | null = null;

  beforeAll(async () => {
    db = await freshDatabase('cluster');
  });
  afterAll(async () => {
    await db?.drop();
  });
  afterEach(async () => {
    await site?.close();
    site = null;
    await proxy?.close();
    proxy = null;
  });

  it('three nodes, one killed with SIGKILL mid-crawl: the same URLs as one node, none fetched twice but those in flight, host spacing kept', async () => {
    // With a per-host delay the cluster fetches one URL at a time; pages answer slowly, so a node holds its URL
    // for most of its turn and the kill below lands while c holds one (waited for as a condition, not a time).
    const pages = 120;
    const delay = 20;
    // The reference: one node, a crawl file.
    site = await startFixtureSite({ pages, linksPerPage: 4, delayMs: 40 });
    const single = await runCli([site.url('/p/0'), '--threads', '4', '--delay', String(delay), '--quiet']);
    expect(single.code, single.stderr).toBe(0);
    const singleSet = new Set(pageRequests(site).map((e) => e.path));
    expect(singleSet.size).toBe(site.pagePaths().length);
    await site.close();

    // Until c is killed, pages answer slowly (250 ms): the crawl cannot run out of URLs before c, however late its
    // process starts on a loaded machine, has recorded some and holds one; and it holds each for long enough to be
    // seen. Back to 40 ms after the kill.
    let slow = true;
    site = await startFixtureSite({ pages, linksPerPage: 4, delayMs: () => (slow ? 250 : 40) });
    const common = ['--threads', '9', '--delay', String(delay), '--quiet'];
    const a = await createNode(['--store', db.url, site.url('/p/0'), '--node-name', 'a', '--lease-seconds', '2', ...common]);
    const b = startCli(['--store', db.url, '--join', a.crawlId, '--node-name', 'b', '--quiet']);
    const c = startCli(['--store', db.url, '--join', a.crawlId, '--node-name', 'c', '--quiet']);
    const schema = `trawl_${a.crawlId}`;
    // Kill c once it holds a URL and has recorded some: it dies with work in hand. c is frozen (SIGSTOP) before its
    // URLs are read, so it cannot record them between that read and the kill; if it recorded them just before, it
    // goes on (SIGCONT) and we wait for its next one.
    let heldByC: string[] = [];
    while (heldByC.length === 0) {
      await until(
        async () => {
          const [row] = await query<{ done: number; held: number }>(
            db.url,
            `SELECT (SELECT count(*)::int FROM ${schema}.results WHERE node = 'c') AS done, (SELECT count(*)::int FROM ${schema}.urls WHERE state = 1 AND lease_node = 'c') AS held`,
          );
          return row!.done >= 3 && row!.held >= 1;
        },
        'node c to hold a URL',
        60_000,
        5,
      );
      c.child.kill('SIGSTOP');
      heldByC = (await query<{ url: string }>(db.url, `SELECT url FROM ${schema}.urls WHERE state = 1 AND lease_node = 'c'`)).map(
        (r) => new URL(r.url).pathname,
      );
      if (heldByC.length === 0) c.child.kill('SIGCONT');
    }
    c.child.kill('SIGKILL');
    slow = false;
    const [ra, rb, rc] = await Promise.all([a.node.done, b.done, c.done]);
    expect(rc.signal).toBe('SIGKILL');
    expect(ra.code, a.stderr()).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(ra.stdout).toMatch(/Finished \(completed\)/);
    expect(rb.stdout).toMatch(/Finished \(completed\)/);

    // The same URLs as the single node's crawl, each recorded once.
    const requests = pageRequests(site);
    expect(new Set(requests.map((e) => e.path))).toEqual(singleSet);
    const results = await query<{ url: string; node: string }>(
      db.url,
      `SELECT u.url, r.node FROM ${schema}.results r JOIN ${schema}.urls u ON u.id = r.url_id`,
    );
    expect(results.length).toBe(singleSet.size);
    // c recorded before it died; the others took the rest. With one fetch at a time for the host, which live node
    // wins each turn is a race, so one of a and b may win them all.
    const byNode = new Set(results.map((r) => r.node));
    expect(byNode).toContain('c');
    expect(byNode.size).toBeGreaterThanOrEqual(2);
    // Fetched twice: only URLs c held when it was killed (another node took them when c's lease ran out).
    const counts = new Map<string, number>();
    for (const e of requests) counts.set(e.path, (counts.get(e.path) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([p]) => p);
    for (const p of twice) expect(heldByC).toContain(p);
    // What c held when it died was taken over (after its lease ran out) and recorded by a or b.
    expect(heldByC.length).toBeGreaterThan(0);
    for (const p of heldByC) expect(['a', 'b']).toContain(results.find((r) => new URL(r.url).pathname === p)?.node);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);

    // Per-host spacing across the cluster: with a delay, one fetch at a time, each at least `delay` after the last
    // response was recorded (so request starts are at least `delay` apart), whichever node made them.
    const starts = requests.map((e) => e.at).sort((x, y) => x - y);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delay - 2);

    // Finished once, by one node, and every node is accounted for.
    const [crawl] = await query<{ state: string; finish_reason: string; finished_by: string }>(
      db.url,
      'SELECT state, finish_reason, finished_by FROM trawl.crawls WHERE id = $1',
      [a.crawlId],
    );
    expect(crawl).toMatchObject({ state: 'finished', finish_reason: 'completed' });
    expect(['a', 'b']).toContain(crawl!.finished_by);
    const [left] = await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM ${schema}.urls WHERE state IN (0, 1)`);
    expect(left!.n).toBe(0);
  }, 180_000);

  it('the store going away mid-crawl: the node waits, says so, and finishes when it is back, losing nothing', async () => {
    site = await startFixtureSite({ pages: 80, linksPerPage: 3, delayMs: 10 });
    const { host, port } = pgHostPort(db.url);
    proxy = await startTcpProxy(host, port);
    const a = await createNode([
      '--store',
      proxy.viaProxy(db.url),
      site.url('/p/0'),
      '--threads',
      '3',
      '--node-name',
      'solo',
      '--lease-seconds',
      '5',
    ]);
    const schema = `trawl_${a.crawlId}`;
    await until(
      async () => (await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM ${schema}.results`))[0]!.n >= 10,
      'ten results',
    );
    proxy.cut();
    await until(() => /store is unreachable/.test(a.stderr()), 'the node to notice', 15_000);
    const during = (await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM ${schema}.results`))[0]!.n;
    await new Promise((r) => setTimeout(r, 1500));
    // Nothing reaches the store while it is away.
    expect((await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM ${schema}.results`))[0]!.n).toBe(during);
    proxy.restore();
    const run: CliRun = await a.node.done;
    expect(run.code, a.stderr()).toBe(0);
    expect(a.stderr()).toMatch(/store is back/);
    expect(run.stdout).toMatch(/Finished \(completed\): \d+ crawled, 0 failed, 0 still queued/);
    const results = await query<{ path: string }>(
      db.url,
      `SELECT u.url AS path FROM ${schema}.results r JOIN ${schema}.urls u ON u.id = r.url_id`,
    );
    expect(new Set(results.map((r) => new URL(r.path).pathname))).toEqual(new Set(site.pagePaths()));
    expect(results.length).toBe(site.pagePaths().length);
  });

  it("pause, resume, the cluster thread count and status work from any machine's CLI; CSV export from the store", async () => {
    site = await startFixtureSite({ pages: 60, linksPerPage: 3, delayMs: 30 });
    const a = await createNode(['--store', db.url, site.url('/p/0'), '--threads', '2', '--node-name', 'one']);
    const b = startCli(['--store', db.url, '--join', a.crawlId, '--node-name', 'two', '--quiet']);
    const schema = `trawl_${a.crawlId}`;
    await until(
      async () => (await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM ${schema}.results`))[0]!.n >= 3,
      'some results',
    );
    const ctl = (...args: string[]) => runCli(['--store', db.url, '--crawl', a.crawlId, ...args]);
    expect((await ctl('--control', 'pause')).code).toBe(0);
    // Every node holds: nothing more is fetched once the URLs in hand are done.
    await until(async () => {
      const nodes = await query<{ state: string }>(db.url, `SELECT state FROM ${schema}.nodes`);
      return nodes.length === 2 && nodes.every((n) => n.state === 'paused');
    }, 'both nodes paused');
    const fetched = site.log.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(site.log.length).toBe(fetched);
    const status = await ctl('--control', 'status');
    expect(status.stdout).toMatch(/paused/);
    expect(status.stdout).toMatch(/one .*paused/);
    expect(status.stdout).toMatch(/two .*paused/);
    // Four threads over two nodes: two each.
    expect((await ctl('--set-threads', '4')).code).toBe(0);
    await until(
      async () => (await query<{ threads: number }>(db.url, `SELECT threads FROM ${schema}.nodes`)).every((n) => n.threads === 2),
      'two threads a node',
    );
    expect((await ctl('--control', 'resume')).code).toBe(0);
    const [ra, rb] = await Promise.all([a.node.done, b.done]);
    expect(ra.code).toBe(0);
    expect(rb.code).toBe(0);
    const out = `${process.env.TMPDIR ?? '/tmp'}/trawl-cluster-${a.crawlId}.csv`;
    const exported = await ctl('--out', out);
    expect(exported.stdout).toMatch(new RegExp(`CSV: .* \\(${site.pagePaths().length} rows\\)`));
    expect((await ctl('--control', 'pause')).stderr).toMatch(/has finished/);
  });

  it('the CSV of a crawl in the store has the same rows as the same crawl in a file', async () => {
    // Redirects, a 404, an error, extraction, a formula-looking title: the columns that differ between two crawls
    // of one site are only the timings.
    site = await startFixtureSite({
      pages: 30,
      linksPerPage: 3,
      routes: {
        '/old': (_req, res) => void res.writeHead(301, { location: '/p/1' }).end(),
        '/odd': (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              '<title>=SUM(A1)</title><h1>x</h1><p class="v">1</p><p class="v">2</p><a href="/old">o</a><a href="/gone">g</a><a href="mailto:a@b.invalid">m</a>',
            ),
      },
    });
    const dir = tempDir('trawl-cluster-csv-');
    // One thread: a URL's depth is the depth of the page that found it first, which with several threads depends on
    // which page finishes first. With one, both crawls go breadth-first and every depth is the shortest path.
    const args = [
      site.url('/p/0'),
      site.url('/odd'),
      '--threads',
      '1',
      '--quiet',
      '--extract',
      '{"name":"v","type":"css","expression":".v","all":true}',
    ];
    const fromFile = await runCli([...args, '--out', path.join(dir, 'file.csv')]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromStore = await runCli(['--store', db.url, ...args, '--out', path.join(dir, 'store.csv')]);
    expect(fromStore.code, fromStore.stderr).toBe(0);
    const read = (name: string) => {
      const [header, ...rows] = parse(fs.readFileSync(path.join(dir, name), 'utf8'), { bom: true }) as string[][];
      const timing = header!.indexOf('response_time_ms');
      return { header, rows: rows.map((r) => r.filter((_, i) => i !== timing).join('\u0001')).sort() };
    };
    const file = read('file.csv');
    const store = read('store.csv');
    expect(store.header).toEqual(file.header);
    expect(file.rows.length).toBe(site.pagePaths().length + 3); // + /odd, /old (a 301 to /p/1) and /gone (404)
    expect(store.rows).toEqual(file.rows);
  });

  it('bad store URLs, unreachable servers, unknown crawls and other schema versions get clear errors', async () => {
    const bad = await runCli(['--store', 'mysql://u:p@127.0.0.1/x', 'http://127.0.0.1:9/']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--store must be a postgres:\/\/ or postgresql:\/\/ URL/);
    const noDb = await runCli(['--store', 'postgres://u:secret@127.0.0.1:5432', 'http://127.0.0.1:9/']);
    expect(noDb.stderr).toMatch(/names no database/);
    const down = await runCli(['--store', 'postgres://trawl:secret@127.0.0.1:1/trawl_test', 'http://127.0.0.1:9/']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot connect to PostgreSQL at 127\.0\.0\.1:1\/trawl_test: .*ECONNREFUSED/);
    expect(down.stderr).not.toMatch(/secret/);
    const unknown = await runCli(['--store', db.url, '--join', 'cnosuchcrawl']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/there is no crawl "cnosuchcrawl" in this store/);
    const usage = await runCli(['--join', 'cx']);
    expect(usage.stderr).toMatch(/--join works on a crawl in a PostgreSQL store/);

    site = await startFixtureSite({ pages: 3 });
    const first = await runCli(['--store', db.url, site.url('/p/0'), '--quiet']);
    expect(first.code).toBe(0);
    const crawlId = /Crawl (c[a-z0-9_]+) in/.exec(first.stderr)![1]!;
    await query(db.url, `UPDATE trawl.crawls SET schema_version = 99, state = 'stopped' WHERE id = $1`, [crawlId]);
    const other = await runCli(['--store', db.url, '--join', crawlId]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(new RegExp(`crawl "${crawlId}" was made with store schema version 99; this Trawl uses version 1`));
  });
});
