// `npm run bench -- --store postgres://... --nodes N`: the same crawl by N nodes (separate CLI processes, as on N
// machines) through the PostgreSQL store. The first node creates the crawl with N x --threads threads (so each node
// runs --threads), the others join it at once. Reports wall time from the first node's start to the last node's
// exit, pages/s, the share each node fetched, and how busy the machine's CPUs were (on one machine, nodes, workers,
// the site's server and PostgreSQL all share the cores).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface ClusterBenchResult {
  nodes: number;
  threadsPerNode: number;
  crawlId: string;
  summary: string;
  wallSeconds: number;
  urls: number;
  pagesPerSecond: number;
  pagesPerSecondBySlice: number[];
  perNode: Record<string, number>;
  /** Share of all the machine's CPU time that was busy during the crawl, percent. */
  machineCpuBusyPercent: number;
  /** CPU seconds the whole machine spent during the crawl (nodes, workers, the site's server, PostgreSQL). */
  machineCpuSeconds: number;
  /** CPU seconds of PostgreSQL's processes during the crawl (all of them: the server is the crawl's). */
  postgresCpuSeconds: number | null;
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Busy and total jiffies of all CPUs, from /proc/stat. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) of every process named postgres, from /proc. */
function postgresCpuSeconds(): number | null {
  let sum = 0;
  try {
    for (const e of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(e)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        sum += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      } catch {
        // gone
      }
    }
  } catch {
    return null;
  }
  return sum / 100;
}

function startNode(cli: string, args: string[]): { stderr: () => string; stdout: () => string; done: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, ...args, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return { stdout: () => out, stderr: () => err, done: new Promise((resolve) => child.on('close', resolve)) };
}

export async function runClusterBench(
  root: string,
  storeUrl: string,
  seed: string,
  nodes: number,
  threadsPerNode: number,
): Promise<ClusterBenchResult> {
  const cli = path.join(root, 'out/node/crawl.mjs');
  const cpu0 = cpuTimes();
  const pg0 = postgresCpuSeconds();
  const started = performance.now();
  const first = startNode(cli, ['--store', storeUrl, seed, '--threads', String(threadsPerNode * nodes), '--node-name', 'bench-1']);
  let crawlId = '';
  while (!(crawlId = /Crawl (c[a-z0-9_]+) in /.exec(first.stderr())?.[1] ?? '')) {
    if (performance.now() - started > 30_000) throw new Error(`the first node did not start: ${first.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const others = Array.from({ length: nodes - 1 }, (_, i) =>
    startNode(cli, ['--store', storeUrl, '--join', crawlId, '--node-name', `bench-${i + 2}`]),
  );
  const codes = await Promise.all([first.done, ...others.map((o) => o.done)]);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu1 = cpuTimes();
  const pg1 = postgresCpuSeconds();
  codes.forEach((code, i) => {
    if (code !== 0) throw new Error(`node bench-${i + 1} exited with ${code}: ${(i === 0 ? first : others[i - 1]!).stderr()}`);
  });

  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  try {
    const schema = `trawl_${crawlId}`;
    const { rows } = await client.query<{ t: string; node: string }>(
      `SELECT fetched_at AS t, node FROM ${schema}.results ORDER BY fetched_at`,
    );
    const times = rows.map((r) => Number(r.t));
    const perNode: Record<string, number> = {};
    for (const r of rows) perNode[r.node] = (perNode[r.node] ?? 0) + 1;
    const slices: number[] = [];
    const n = times.length;
    for (let k = 0; k < 10 && n >= 20; k++) {
      const from = Math.floor((k * n) / 10);
      const to = Math.floor(((k + 1) * n) / 10) - 1;
      slices.push(round((to - from + 1) / Math.max((times[to]! - times[Math.max(0, from - 1)]!) / 1000, 0.001)));
    }
    return {
      nodes,
      threadsPerNode,
      crawlId,
      summary:
        first
          .stdout()
          .split('\n')
          .find((l) => l.startsWith('Finished')) ?? '',
      wallSeconds: round(wallSeconds, 2),
      urls: n,
      pagesPerSecond: round(n / wallSeconds),
      pagesPerSecondBySlice: slices,
      perNode,
      machineCpuBusyPercent: cpu0 && cpu1 ? round(((cpu1.busy - cpu0.busy) / Math.max(1, cpu1.total - cpu0.total)) * 100) : 0,
      machineCpuSeconds: cpu0 && cpu1 ? round((cpu1.busy - cpu0.busy) / 100, 2) : 0,
      postgresCpuSeconds: pg0 !== null && pg1 !== null ? round(pg1 - pg0, 2) : null,
    };
  } finally {
    await client.end();
  }
}
