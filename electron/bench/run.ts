// `npm run bench`: crawls a site on 127.0.0.1 with the real CLI (the bundle `npm run crawl` runs) and reports
// throughput overall and per 10% slice, p50/p95 fetch time, CPU seconds, peak memory of the main process and of
// each worker, the crawl file's size, and (when wget is installed) wget's spider time on the same site.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ensureNodeBundles } from '../../scripts/fresh.mjs';
import { HEAP_FLAGS } from '../../scripts/v8-flags.mjs';
import { hostAddresses, writeSite } from './synthetic-site.ts';
import { freePort, serveFolder } from './serve-site.ts';
import type { ServedSite } from './serve-site.ts';
import { sampleTree } from './process-sampler.ts';
import { runFrontierBench } from './frontier-bench.ts';
import { crawlWithUi } from './ui-overhead.ts';
import { runClusterBench, scalingTable } from './cluster-bench.ts';
import { quotaFor } from './cpu-quota.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MB = 1024 * 1024;

/** The PostgreSQL manual as ../shared/sites/serve-pgdocs.sh serves it. */
const PGDOCS = 'http://127.0.0.1:8181/index.html';
/** A generated stand-in of the manual's shape (1,169 pages, 16 MB of HTML, about 21 links a page). */
const QUICK_SHAPE = { pages: 1170, linksPerPage: 20, pageBytes: 14_000 };
const QUICK_ROUNDS = 3;

const USAGE = `Usage: npm run bench -- [--quick [--record]] [--pages N] [--links N] [--page-bytes N] [--threads N] [--site URL] [--no-wget] [--frontier] [--out FILE.json]
  --quick          the guard (well under a minute): the PostgreSQL manual when it is served on ${PGDOCS} (else a
                   generated site of its shape: ${QUICK_SHAPE.pages} pages, ${QUICK_SHAPE.linksPerPage} links/page, ${QUICK_SHAPE.pageBytes / 1000} kB/page), crawled ${QUICK_ROUNDS} times
                   interleaved with wget's spider; prints the best wall time of each, CPU ms per page by process
                   and the summed peak memory (--pages, --links, --page-bytes: generate a site of that shape)
  --record         with --quick: append the result as a row to BENCHMARKS.md's table by commit
  --pages N        synthetic site size [2000]
  --links N        links per page [10]
  --page-bytes N   HTML bytes per page [8000]
  --threads N      crawl threads [10]
  --site URL       crawl this site on 127.0.0.1 instead (e.g. ../shared/sites/serve-pgdocs.sh's URL)
  --no-wget        skip the wget comparison
  --frontier       also run the frontier micro-benchmark (1,000,000 URLs)
  --ui             also run the same crawl with the web console and one live WebSocket client attached
  --store URL      with --nodes: the PostgreSQL store the nodes share (postgres://user:password@host/db)
  --node-cpu CORES with --nodes: each node (its CLI and workers) in a CPU quota of its own (cgroup v1, root), e.g.
                   0.3: nodes that each bring their own CPU, as on separate machines, to see how a cluster scales
  --store-latency MS
                   with --nodes: the nodes reach the store through a proxy that holds each chunk MS milliseconds
                   each way (a round trip of 2 x MS), as a database across a network, which loopback hides
  --hosts N        with --nodes: the generated site spread over N hosts (127.0.0.1 to 127.0.0.N, served by nginx),
                   links between them absolute: a crawl of many hosts, as clusters crawl, not one host's queue [1]
  --nodes N        crawl with N nodes (separate processes) through the --store instead of one crawl file;
                   each node runs --threads threads. A list such as 1,2,3 runs each in turn
  --out FILE.json  where to write the JSON result [bench-results/bench-<time>.json]`;

function parse() {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '2000' },
      links: { type: 'string', default: '10' },
      'page-bytes': { type: 'string', default: '8000' },
      threads: { type: 'string', default: '10' },
      site: { type: 'string' },
      'no-wget': { type: 'boolean', default: false },
      frontier: { type: 'boolean', default: false },
      ui: { type: 'boolean', default: false },
      store: { type: 'string' },
      nodes: { type: 'string' },
      'node-cpu': { type: 'string' },
      'store-latency': { type: 'string' },
      hosts: { type: 'string', default: '1' },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
      record: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const int = (name: string, v: string, min: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min} (got ${v})`);
    return n;
  };
  if (values.site) {
    const u = new URL(values.site);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) throw new Error('--site must be on this machine (127.0.0.1)');
  }
  const nodes = values.nodes === undefined ? null : values.nodes.split(',').map((v) => int('nodes', v, 1));
  if (nodes && !values.store) throw new Error('--nodes must be given a --store postgres://... URL for the nodes to share');
  if (values.store && !nodes) throw new Error('--store is for --nodes N');
  if (values['node-cpu'] !== undefined && !nodes) throw new Error('--node-cpu is for --nodes N');
  if (values['store-latency'] !== undefined && !nodes) throw new Error('--store-latency is for --nodes N');
  const storeLatencyMs = values['store-latency'] === undefined ? null : int('store-latency', values['store-latency'], 1);
  const hosts = int('hosts', values.hosts, 1);
  if (hosts > 1 && !nodes) throw new Error('--hosts is for --nodes N (a generated site spread over several hosts)');
  if (hosts > 1 && values.site) throw new Error('--hosts generates a site: it cannot be given with --site');
  if (hosts > 254) throw new Error(`--hosts must be at most 254 (127.0.0.1 to 127.0.0.254) (got ${hosts})`);
  const nodeCpu = values['node-cpu'] === undefined ? null : Number(values['node-cpu']);
  if (nodeCpu !== null) quotaFor(nodeCpu);
  if (values.record && !values.quick) throw new Error('--record must be given with --quick');
  if (values.quick && (nodes || values.frontier || values.ui))
    throw new Error('--quick must not be combined with --nodes, --frontier or --ui');
  return {
    quick: values.quick,
    record: values.record,
    given: { pages: values.pages !== '2000', links: values.links !== '10', pageBytes: values['page-bytes'] !== '8000' },
    nodes,
    nodeCpu,
    storeLatencyMs,
    hosts,
    store: values.store ?? null,
    help: values.help,
    pages: int('pages', values.pages, 1),
    links: int('links', values.links, 1),
    pageBytes: int('page-bytes', values['page-bytes'], 200),
    threads: int('threads', values.threads, 1),
    site: values.site ?? null,
    wget: !values['no-wget'],
    frontier: values.frontier,
    ui: values.ui,
    out: values.out ?? null,
  };
}

interface CrawlRun {
  wallSeconds: number;
  cpuSeconds: { user: number; system: number };
  /** CPU time (user + system) of the main process and of its workers together, from the main process at its exit. */
  cpuMsByProcess: { main: number; workers: number } | null;
  summary: string;
  peakMemoryMB: { main: number; workers: number[]; total: number };
}

function clockTicksPerSecond(): number {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(r.stdout?.trim()) || 100;
}

/**
 * Runs the CLI as `npm run crawl` does (scripts/run-node.mjs, which starts the bundle), under a shell that reports its
 * CPU time (the crawl and its reaped workers) via `times`; the crawl's main process reports its own and its workers'
 * CPU time apart as it exits (cpu-report.mjs).
 */
async function runCrawl(seed: string, threads: number, dbPath: string): Promise<CrawlRun> {
  const launcher = path.join(root, 'scripts/run-node.mjs');
  const report = `${dbPath}.cpu.json`;
  const started = performance.now();
  const child = spawn(
    'bash',
    [
      '-c',
      '"$@" && times',
      'bench',
      process.execPath,
      ...HEAP_FLAGS,
      '--import',
      path.join(root, 'electron/bench/cpu-report.mjs'),
      launcher,
      'crawl',
      seed,
      '--threads',
      String(threads),
      '--db',
      dbPath,
      '--quiet',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TRAWL_BENCH_CPU_REPORT: report },
    },
  );
  const sampler = sampleTree(child.pid!);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallSeconds = (performance.now() - started) / 1000;
  const peaks = sampler.stop();
  if (code !== 0) throw new Error(`the crawl exited with ${code}: ${out}`);
  // `times` prints the shell's own times, then its children's: "0m2.345s 0m0.678s".
  const lines = out.trim().split('\n');
  const [user, system] = (lines.at(-1) ?? '').split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  });
  const workers = Object.values(peaks.children).map((b) => round(b / MB));
  let cpuMsByProcess: CrawlRun['cpuMsByProcess'] = null;
  try {
    const r = JSON.parse(fs.readFileSync(report, 'utf8')) as {
      selfMicros: { user: number; system: number };
      children: { userTicks: number; systemTicks: number } | null;
    };
    if (r.children) {
      cpuMsByProcess = {
        main: round((r.selfMicros.user + r.selfMicros.system) / 1000, 0),
        workers: round(((r.children.userTicks + r.children.systemTicks) * 1000) / clockTicksPerSecond(), 0),
      };
    }
  } catch {
    // no report (not Linux)
  }
  return {
    wallSeconds: round(wallSeconds, 2),
    cpuSeconds: { user: round(user ?? 0, 2), system: round(system ?? 0, 2) },
    cpuMsByProcess,
    summary: lines.find((l) => l.startsWith('Finished')) ?? '',
    peakMemoryMB: { main: round(peaks.main / MB), workers, total: round(peaks.main / MB + workers.reduce((a, b) => a + b, 0)) },
  };
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Pages per second in each tenth of the crawl (by URL count), from the crawl file's fetch times. */
function analyse(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  const times = (db.prepare('SELECT fetched_at AS t FROM results ORDER BY fetched_at').all() as { t: number }[]).map((r) => r.t);
  const fetchMs = (
    db.prepare('SELECT response_time_ms AS ms FROM results WHERE response_time_ms IS NOT NULL ORDER BY 1').all() as { ms: number }[]
  ).map((r) => r.ms);
  const counts = db.prepare('SELECT count(*) AS n, sum(status_code IS NULL) AS failed FROM results').get() as { n: number; failed: number };
  db.close();
  const slices: number[] = [];
  const n = times.length;
  for (let k = 0; k < 10 && n >= 20; k++) {
    const from = Math.floor((k * n) / 10);
    const to = Math.floor(((k + 1) * n) / 10) - 1;
    const span = (times[to]! - times[Math.max(0, from - 1)]!) / 1000;
    slices.push(round((to - from + 1) / Math.max(span, 0.001)));
  }
  return { urls: counts.n, failed: counts.failed, slices, fetchMs: { p50: percentile(fetchMs, 50), p95: percentile(fetchMs, 95) } };
}

function timeWget(seed: string, workDir: string): number | null {
  if (spawnSync('wget', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  const started = performance.now();
  spawnSync('wget', ['-r', '-l', 'inf', '--spider', '-q', '-P', path.join(workDir, 'wget'), seed], { stdio: 'ignore' });
  return round((performance.now() - started) / 1000, 2);
}

type Options = ReturnType<typeof parse>;

async function served(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** `--quick`: the guard. Crawl and wget in turn, QUICK_ROUNDS times; the best wall time of each. */
async function runQuick(opts: Options): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-'));
  fs.chmodSync(work, 0o755);
  let site: ServedSite | null = null;
  try {
    let seed = opts.site;
    let label = opts.site ?? '';
    if (!seed && !opts.given.pages && !opts.given.links && !opts.given.pageBytes && (await served(PGDOCS))) {
      seed = PGDOCS;
      label = 'PostgreSQL manual';
    }
    if (!seed) {
      const shape = {
        pages: opts.given.pages ? opts.pages : QUICK_SHAPE.pages,
        linksPerPage: opts.given.links ? opts.links : QUICK_SHAPE.linksPerPage,
        pageBytes: opts.given.pageBytes ? opts.pageBytes : QUICK_SHAPE.pageBytes,
      };
      const dir = path.join(work, 'site');
      const bytes = writeSite(dir, shape);
      site = await serveFolder(dir, work);
      seed = `${site.origin}/p/0.html`;
      label = `generated ${shape.pages}×${round(bytes / shape.pages / 1000)} kB`;
    }
    console.log(`Quick bench: ${label} (${seed}), ${opts.threads} threads, ${QUICK_ROUNDS} rounds of crawl then wget`);
    const runs: (CrawlRun & { urls: number })[] = [];
    const wgets: number[] = [];
    for (let i = 0; i < QUICK_ROUNDS; i++) {
      const dbPath = path.join(work, `quick-${i}.trawl`);
      const crawl = await runCrawl(seed, opts.threads, dbPath);
      runs.push({ ...crawl, urls: analyse(dbPath).urls });
      const wget = opts.wget ? timeWget(seed, path.join(work, `wget-${i}`)) : null;
      if (wget !== null) wgets.push(wget);
    }
    const best = runs.reduce((a, b) => (b.wallSeconds < a.wallSeconds ? b : a));
    const wget = wgets.length ? Math.min(...wgets) : null;
    const perPage = (ms: number | undefined) => (ms === undefined ? null : round(ms / best.urls, 2));
    const row = {
      site: label,
      urls: best.urls,
      wallSeconds: best.wallSeconds,
      wgetSeconds: wget,
      ratio: wget === null ? null : round(best.wallSeconds / wget, 2),
      cpuMsPerPage: { main: perPage(best.cpuMsByProcess?.main), workers: perPage(best.cpuMsByProcess?.workers) },
      peakMB: best.peakMemoryMB.total,
    };
    console.log(`${best.summary}`);
    console.log(`Crawl wall: best ${row.wallSeconds} s (${runs.map((r) => r.wallSeconds).join(', ')}) through scripts/run-node.mjs crawl`);
    if (wget !== null) console.log(`wget -r -l inf --spider: best ${wget} s (${wgets.join(', ')}) · Trawl/wget ${row.ratio}x`);
    console.log(
      `CPU per page (best run): main process ${row.cpuMsPerPage.main ?? '-'} ms · workers ${row.cpuMsPerPage.workers ?? '-'} ms` +
        ` · ${best.cpuSeconds.user} s user + ${best.cpuSeconds.system} s system in all`,
    );
    console.log(
      `Peak memory (VmHWM, summed): ${row.peakMB} MB (main ${best.peakMemoryMB.main} + workers ${best.peakMemoryMB.workers.join(' + ') || '-'})`,
    );
    if (opts.record) console.log(`Recorded in ${path.relative(process.cwd(), recordRow(row))}`);
  } finally {
    await site?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The heading of BENCHMARKS.md's table that `--quick --record` appends to. */
const BY_COMMIT_HEADING = '## By commit';

function git(args: string[]): string {
  return spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
}

/** Appends one row to the table under BY_COMMIT_HEADING in BENCHMARKS.md; returns the file's path. */
function recordRow(row: {
  site: string;
  wallSeconds: number;
  wgetSeconds: number | null;
  ratio: number | null;
  cpuMsPerPage: { main: number | null; workers: number | null };
  peakMB: number;
}): string {
  // The tests record into a copy.
  const file = process.env.TRAWL_BENCHMARKS_FILE ?? path.join(root, 'BENCHMARKS.md');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const heading = lines.indexOf(BY_COMMIT_HEADING);
  if (heading < 0) throw new Error(`BENCHMARKS.md has no "${BY_COMMIT_HEADING}" section to record in`);
  let at = lines.findIndex((l, i) => i > heading && l.startsWith('|'));
  if (at < 0) throw new Error(`BENCHMARKS.md's "${BY_COMMIT_HEADING}" section has no table`);
  while (lines[at]?.startsWith('|')) at++;
  const commit = git(['rev-parse', '--short', 'HEAD']) || '?';
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) ? '+' : '';
  const dash = (v: number | null) => (v === null ? '-' : String(v));
  const cells = [
    `${commit}${dirty}`,
    new Date().toISOString().slice(0, 10),
    row.site,
    `${row.wallSeconds} s`,
    row.wgetSeconds === null ? '-' : `${row.wgetSeconds} s`,
    row.ratio === null ? '-' : `${row.ratio}x`,
    dash(row.cpuMsPerPage.main),
    dash(row.cpuMsPerPage.workers),
    String(row.peakMB),
  ];
  lines.splice(at, 0, `| ${cells.join(' | ')} |`);
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

async function main(): Promise<void> {
  const opts = parse();
  if (opts.help) return void console.log(USAGE);
  // Rebuilt only when stale, as `npm run crawl` does: a rebuild while the tests run would swap the bundles under
  // the processes that other test files start.
  await ensureNodeBundles(root);
  if (opts.quick) return runQuick(opts);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-'));
  // nginx's workers run as an unprivileged user; mkdtemp's 0700 would make every page a 403.
  fs.chmodSync(work, 0o755);
  let served: ServedSite | null = null;
  try {
    let seed = opts.site;
    let siteLabel = opts.site ?? '';
    /** What the crawl is given besides its seed (the hosts of a site spread over several). */
    let crawlArgs: string[] = [];
    if (!seed) {
      const dir = path.join(work, 'site');
      const port = opts.hosts > 1 ? await freePort() : undefined;
      const hosts = port === undefined ? undefined : { count: opts.hosts, port };
      const bytes = writeSite(dir, { pages: opts.pages, linksPerPage: opts.links, pageBytes: opts.pageBytes, hosts });
      served = await serveFolder(dir, work, { port, addresses: hostAddresses(opts.hosts) });
      seed = `${served.origin}/p/0.html`;
      if (hosts) crawlArgs = ['--scope', 'hosts', ...hostAddresses(hosts.count).flatMap((a) => ['--allow-host', `${a}:${hosts.port}`])];
      siteLabel = `synthetic: ${opts.pages} pages, ${opts.links} links/page, ${round(bytes / opts.pages / 1024)} KiB/page${hosts ? `, on ${hosts.count} hosts` : ''}, served by ${served.server}`;
    }
    console.log(`Site: ${siteLabel}\nSeed: ${seed}\nThreads: ${opts.threads}${opts.nodes ? ' per node' : ''}`);
    if (opts.nodes) {
      const runs = [];
      for (const n of opts.nodes) {
        const r = await runClusterBench(root, opts.store!, seed, n, opts.threads, opts.nodeCpu, crawlArgs, opts.storeLatencyMs);
        runs.push(r);
        console.log(
          `${n} node${n > 1 ? 's' : ''} (${n * opts.threads} threads): ${r.summary} · wall ${r.wallSeconds} s · ${r.pagesPerSecond} pages/s · ` +
            `by node ${Object.entries(r.perNode)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')} · machine CPU ${r.machineCpuBusyPercent}% busy (${r.machineCpuSeconds} s)` +
            (r.postgresCpuSeconds === null ? '' : ` · PostgreSQL ${r.postgresCpuSeconds} CPU s`) +
            (r.quota ? ` · nodes' CPU ${Object.values(r.quota.nodeCpuSeconds).join(' / ')} s of ${r.quota.coresPerNode} core each` : ''),
        );
      }
      console.log(`\n${scalingTable(runs)}`);
      const at = new Date().toISOString();
      const machine = {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? '',
        memoryGB: round(os.totalmem() / 1024 ** 3),
        node: process.version,
      };
      const out = opts.out ?? path.join(root, 'bench-results', `bench-nodes-${at.replace(/[:.]/g, '-')}.json`);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify({ at, machine, site: siteLabel, seed, threadsPerNode: opts.threads, runs }, null, 2)}\n`);
      console.log(`Result: ${path.relative(process.cwd(), out)}`);
      return;
    }
    const dbPath = path.join(work, 'bench.trawl');
    const crawl = await runCrawl(seed, opts.threads, dbPath);
    const analysis = analyse(dbPath);
    const pagesPerSecond = round(analysis.urls / crawl.wallSeconds);
    const wget = opts.wget ? timeWget(seed, work) : null;
    const frontier = opts.frontier ? runFrontierBench(work) : null;
    let ui = null;
    if (opts.ui) {
      const withUi = await crawlWithUi(root, seed, opts.threads, path.join(work, 'ui-crawls'));
      // Headless by the controller's own clock too (the summary's "in X s"), so start-up counts for neither.
      const headlessSeconds = Number(/ in ([\d.]+) s /.exec(crawl.summary)?.[1] ?? crawl.wallSeconds);
      const headlessRate = analysis.urls / headlessSeconds;
      const uiRate = withUi.urls / (withUi.elapsedMs / 1000);
      ui = {
        headlessPagesPerSecond: round(headlessRate),
        withUiPagesPerSecond: round(uiRate),
        costPercent: round((1 - uiRate / headlessRate) * 100),
        snapshotsReceived: withUi.snapshotsReceived,
      };
    }
    const result = {
      at: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? '',
        memoryGB: round(os.totalmem() / 1024 ** 3),
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      },
      site: siteLabel,
      seed,
      threads: opts.threads,
      crawl: {
        ...crawl,
        urls: analysis.urls,
        failed: analysis.failed,
        pagesPerSecond,
        pagesPerSecondBySlice: analysis.slices,
        fetchMs: analysis.fetchMs,
      },
      crawlFileMB: round(fs.statSync(dbPath).size / MB, 2),
      wget: wget === null ? null : { wallSeconds: wget, ratio: round(crawl.wallSeconds / wget, 2) },
      frontier,
      ui,
    };
    console.log(crawl.summary);
    console.log(
      `Wall ${crawl.wallSeconds} s · ${pagesPerSecond} pages/s · CPU ${crawl.cpuSeconds.user} s user + ${crawl.cpuSeconds.system} s system`,
    );
    if (crawl.cpuMsByProcess)
      console.log(
        `CPU per page: main process ${round(crawl.cpuMsByProcess.main / analysis.urls, 2)} ms · workers ${round(crawl.cpuMsByProcess.workers / analysis.urls, 2)} ms`,
      );
    console.log(`Pages/s by 10% slice: ${analysis.slices.join(' · ')}`);
    console.log(`Fetch time p50 ${analysis.fetchMs.p50} ms · p95 ${analysis.fetchMs.p95} ms`);
    console.log(
      `Peak memory: main ${crawl.peakMemoryMB.main} MB · workers ${crawl.peakMemoryMB.workers.join(' + ') || '-'} MB · total ${crawl.peakMemoryMB.total} MB`,
    );
    console.log(`Crawl file: ${result.crawlFileMB} MB`);
    if (result.wget) console.log(`wget -r -l inf --spider: ${result.wget.wallSeconds} s · Trawl/wget wall time ${result.wget.ratio}x`);
    if (frontier) {
      console.log(
        `Frontier: enqueue ${frontier.enqueued.toLocaleString('en')} URLs at ${frontier.enqueuePerSecond.toLocaleString('en')}/s · claim 10 from 1k queued ${frontier.claimMicrosFrom1k} µs, from 1M ${frontier.claimMicrosFrom1M} µs`,
      );
    }
    if (ui)
      console.log(
        `Live UI: headless ${ui.headlessPagesPerSecond} pages/s, with web console + client ${ui.withUiPagesPerSecond} pages/s (${ui.snapshotsReceived} snapshots) · cost ${ui.costPercent}%`,
      );
    const out = opts.out ?? path.join(root, 'bench-results', `bench-${result.at.replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`Result: ${path.relative(process.cwd(), out)}`);
  } finally {
    await served?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  process.exit(err instanceof TypeError || /must be|Unknown option/.test(String(err)) ? 2 : 1);
});
