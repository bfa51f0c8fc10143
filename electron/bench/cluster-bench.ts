// `npm run bench -- --store postgres://... --nodes N`: the same crawl by N nodes (separate CLI processes, as on N
// machines) through the PostgreSQL store. The first node creates the crawl with N x --threads threads (so each node
// runs --threads), the others join it at once. Reports wall time from the first node's start to the last node's
// exit, pages/s, the share each node fetched, and how busy the machine's CPUs were (on one machine, nodes, workers,
// the site's server and PostgreSQL all share the cores).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { CpuQuotaGroup } from './cpu-quota.ts';
import { startLatencyProxy } from './latency-proxy.ts';
import { HEAP_FLAGS } from '../../scripts/v8-flags.mjs';

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
  /** Transactions PostgreSQL committed and rolled back during the crawl, and deadlocks it broke (pg_stat_database). */
  postgresTransactions: { committed: number; rolledBack: number; deadlocks: number } | null;
  /** PostgreSQL's CPU milliseconds per page crawled. */
  postgresCpuMsPerPage: number | null;
  /** The median of the 10% slices' rates: the crawl's pace once started, without start-up and the last stragglers. */
  steadyPagesPerSecond: number;
  /** With --node-cpu: the cores each node (its CLI process and workers) may use, and what the nodes used. */
  quota: {
    coresPerNode: number;
    /** CPU seconds used by each node's group, by node name. */
    nodeCpuSeconds: Record<string, number>;
    /** Share of each node's CFS periods in which it hit its quota, percent, by node name. */
    throttledPercent: Record<string, number>;
  } | null;
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

/** The store database's transaction and deadlock counters (the statistics collector's: they lag by up to 0.5 s). */
async function databaseCounters(storeUrl: string): Promise<{ committed: number; rolledBack: number; deadlocks: number } | null> {
  const client = new pg.Client({ connectionString: storeUrl });
  try {
    await client.connect();
    // What this session has not reported yet is left out; a fresh snapshot of what the others reported.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ committed: string; rolled_back: string; deadlocks: string }>(
      'SELECT xact_commit AS committed, xact_rollback AS rolled_back, deadlocks FROM pg_stat_database WHERE datname = current_database()',
    );
    const r = rows[0];
    return r ? { committed: Number(r.committed), rolledBack: Number(r.rolled_back), deadlocks: Number(r.deadlocks) } : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function startNode(
  cli: string,
  args: string[],
  group: CpuQuotaGroup | null,
): { stderr: () => string; stdout: () => string; done: Promise<number | null> } {
  const argv = [...HEAP_FLAGS, cli, ...args, '--quiet'];
  const options = { stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[] };
  const child = group ? group.spawn(process.execPath, argv, options) : spawn(process.execPath, argv, options);
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
  coresPerNode: number | null = null,
  crawlArgs: readonly string[] = [],
  storeLatencyMs: number | null = null,
): Promise<ClusterBenchResult> {
  const cli = path.join(root, 'out/node/crawl.mjs');
  const names = Array.from({ length: nodes }, (_, i) => `bench-${i + 1}`);
  const groups = coresPerNode === null ? null : names.map((n) => CpuQuotaGroup.create(`trawl-${n}`, coresPerNode));
  // The nodes' way to the store; the bench's own counters read it directly.
  const proxy = storeLatencyMs === null ? null : await startLatencyProxy(storeUrl, storeLatencyMs);
  try {
    return await crawlWithNodes(cli, storeUrl, proxy?.url ?? storeUrl, seed, names, threadsPerNode, groups, crawlArgs);
  } finally {
    for (const g of groups ?? []) g.remove();
    await proxy?.close();
  }
}

async function crawlWithNodes(
  cli: string,
  storeUrl: string,
  nodeStoreUrl: string,
  seed: string,
  names: string[],
  threadsPerNode: number,
  groups: CpuQuotaGroup[] | null,
  crawlArgs: readonly string[],
): Promise<ClusterBenchResult> {
  const nodes = names.length;
  const tx0 = await databaseCounters(storeUrl);
  const cpu0 = cpuTimes();
  const pg0 = postgresCpuSeconds();
  const started = performance.now();
  const first = startNode(
    cli,
    ['--store', nodeStoreUrl, seed, '--threads', String(threadsPerNode * nodes), '--node-name', names[0]!, ...crawlArgs],
    groups?.[0] ?? null,
  );
  let crawlId = '';
  while (!(crawlId = /Crawl (c[a-z0-9_]+) in /.exec(first.stderr())?.[1] ?? '')) {
    if (performance.now() - started > 30_000) throw new Error(`the first node did not start: ${first.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const others = names
    .slice(1)
    .map((name, i) => startNode(cli, ['--store', nodeStoreUrl, '--join', crawlId, '--node-name', name], groups?.[i + 1] ?? null));
  const codes = await Promise.all([first.done, ...others.map((o) => o.done)]);
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu1 = cpuTimes();
  const pg1 = postgresCpuSeconds();
  codes.forEach((code, i) => {
    if (code !== 0) throw new Error(`node ${names[i]} exited with ${code}: ${(i === 0 ? first : others[i - 1]!).stderr()}`);
  });

  const tx1 = await databaseCounters(storeUrl);
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
    const postgresCpuSeconds = pg0 !== null && pg1 !== null ? round(pg1 - pg0, 2) : null;
    const sorted = [...slices].sort((a, b) => a - b);
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
      postgresCpuSeconds,
      postgresTransactions:
        tx0 && tx1
          ? {
              committed: tx1.committed - tx0.committed,
              rolledBack: tx1.rolledBack - tx0.rolledBack,
              deadlocks: tx1.deadlocks - tx0.deadlocks,
            }
          : null,
      postgresCpuMsPerPage: postgresCpuSeconds === null || n === 0 ? null : round((postgresCpuSeconds * 1000) / n, 2),
      steadyPagesPerSecond: sorted.length
        ? round((sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2)
        : 0,
      quota: groups && {
        coresPerNode: groups[0]!.cores,
        nodeCpuSeconds: Object.fromEntries(groups.map((g, i) => [names[i]!, round(g.usageSeconds(), 2)])),
        throttledPercent: Object.fromEntries(
          groups.map((g, i) => {
            const t = g.throttling();
            return [names[i]!, t.periods ? round((t.throttled / t.periods) * 100) : 0];
          }),
        ),
      },
    };
  } finally {
    await client.end();
  }
}

/**
 * The runs as a Markdown table: rate overall and once started, the speed-up over the first one-node run's steady
 * rate, the CPU the nodes and PostgreSQL used and PostgreSQL's CPU per page (what caps a cluster: each node brings
 * its own CPU, the database is shared).
 */
export function scalingTable(runs: readonly ClusterBenchResult[]): string {
  const one = runs.find((r) => r.nodes === 1);
  const rows = runs.map((r) => {
    const nodeCpu = r.quota ? Object.values(r.quota.nodeCpuSeconds).reduce((a, b) => a + b, 0) : null;
    const throttled = r.quota ? Math.max(...Object.values(r.quota.throttledPercent)) : null;
    return [
      String(r.nodes),
      `${r.wallSeconds} s`,
      String(r.pagesPerSecond),
      String(r.steadyPagesPerSecond),
      one ? `${round(r.steadyPagesPerSecond / Math.max(one.steadyPagesPerSecond, 0.001), 2)}x` : '',
      nodeCpu === null ? '' : `${round(nodeCpu, 2)} s${throttled === null ? '' : ` (throttled ≤${throttled}%)`}`,
      r.postgresCpuSeconds === null ? '' : `${r.postgresCpuSeconds} s`,
      r.postgresCpuMsPerPage === null ? '' : String(r.postgresCpuMsPerPage),
      r.postgresTransactions === null ? '' : String(round(r.postgresTransactions.committed / Math.max(r.urls, 1), 2)),
      r.postgresTransactions === null ? '' : String(r.postgresTransactions.deadlocks),
      `${r.machineCpuBusyPercent}%`,
    ];
  });
  const head = [
    'nodes',
    'wall',
    'pages/s',
    'pages/s once started',
    'speed-up',
    'nodes CPU',
    'PostgreSQL CPU',
    'PostgreSQL ms/page',
    'transactions/page',
    'deadlocks',
    'machine busy',
  ];
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
