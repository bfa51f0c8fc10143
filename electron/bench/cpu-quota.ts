// A CPU quota of its own for a process and everything it starts: how `npm run bench -- --nodes 1,2,3 --node-cpu 0.3`
// gives each cluster node the CPU of a small machine of its own, so that adding nodes on one 2-core machine shows
// how a cluster scales with nodes that each bring their own CPU (without quotas, every node competes for the same
// two cores and more nodes are only slower). Linux cgroup v1: a group in the `cpu` hierarchy holds the quota
// (cpu.cfs_quota_us per cpu.cfs_period_us) and one in `cpuacct` counts what the group used (cpuacct.usage, ns).
// A process is moved into both before it runs the command (a shell wrapper), so its workers, forked later, inherit
// them. Needs root (or a delegated hierarchy); cgroup v2's unified hierarchy is not supported here.
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** CFS period: the quota is this many microseconds of CPU per period times the cores given. */
const PERIOD_US = 100_000;

/** The quota for `cores` cores (a fraction of one, or several): validated, in microseconds per period. */
export function quotaFor(cores: number, cpus = os.cpus().length): { quotaUs: number; periodUs: number } {
  if (!Number.isFinite(cores) || cores < 0.01 || cores > cpus) {
    throw new RangeError(`--node-cpu must be a number of cores from 0.01 to ${cpus} (this machine's CPUs) (got ${String(cores)})`);
  }
  return { quotaUs: Math.round(cores * PERIOD_US), periodUs: PERIOD_US };
}

export interface CgroupRoots {
  cpu: string;
  cpuacct: string;
}

/**
 * Where the cpu and cpuacct hierarchies are mounted, or why quotas cannot be set here (a sentence naming what is
 * missing). `root` is /sys/fs/cgroup but for tests.
 */
export function cgroupRoots(root = '/sys/fs/cgroup'): CgroupRoots | string {
  const cpu = path.join(root, 'cpu');
  const cpuacct = path.join(root, 'cpuacct');
  if (!fs.existsSync(path.join(cpu, 'cpu.cfs_quota_us'))) {
    return fs.existsSync(path.join(root, 'cgroup.controllers'))
      ? `${root} is cgroup v2 (unified); CPU quotas per node need cgroup v1's cpu hierarchy (${cpu})`
      : `no cgroup v1 cpu hierarchy at ${cpu} (cpu.cfs_quota_us)`;
  }
  if (!fs.existsSync(path.join(cpuacct, 'cpuacct.usage'))) return `no cgroup v1 cpuacct hierarchy at ${cpuacct} (cpuacct.usage)`;
  try {
    fs.accessSync(cpu, fs.constants.W_OK);
    fs.accessSync(cpuacct, fs.constants.W_OK);
  } catch {
    return `${cpu} and ${cpuacct} are not writable by this user (CPU quotas need root)`;
  }
  return { cpu, cpuacct };
}

/** A CPU-limited group: processes started in it (and their children) share `cores` cores at most. */
export class CpuQuotaGroup {
  private readonly cpuDir: string;
  private readonly acctDir: string;

  private constructor(
    readonly name: string,
    readonly cores: number,
    roots: CgroupRoots,
  ) {
    this.cpuDir = path.join(roots.cpu, name);
    this.acctDir = path.join(roots.cpuacct, name);
  }

  /** Creates (or takes over, after a run that did not clean up) the group `name` with the quota for `cores`. */
  static create(name: string, cores: number, roots: CgroupRoots | string = cgroupRoots()): CpuQuotaGroup {
    if (typeof roots === 'string') throw new Error(`cannot give nodes a CPU quota: ${roots}`);
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) throw new Error(`a CPU quota group's name must be letters, digits, - and _ (got ${name})`);
    const { quotaUs, periodUs } = quotaFor(cores);
    const group = new CpuQuotaGroup(name, cores, roots);
    fs.mkdirSync(group.cpuDir, { recursive: true });
    fs.mkdirSync(group.acctDir, { recursive: true });
    fs.writeFileSync(path.join(group.cpuDir, 'cpu.cfs_period_us'), String(periodUs));
    fs.writeFileSync(path.join(group.cpuDir, 'cpu.cfs_quota_us'), String(quotaUs));
    // Counts from zero: a group taken over keeps the usage of its last run otherwise.
    fs.writeFileSync(path.join(group.acctDir, 'cpuacct.usage'), '0');
    return group;
  }

  /** Starts `command` inside the group: a shell moves itself into both hierarchies, then becomes the command. */
  spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const script = 'echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@"';
    return spawn(
      '/bin/sh',
      ['-c', script, 'sh', path.join(this.cpuDir, 'cgroup.procs'), path.join(this.acctDir, 'cgroup.procs'), command, ...args],
      options,
    );
  }

  /** CPU seconds the group's processes used since it was created. */
  usageSeconds(): number {
    return Number(fs.readFileSync(path.join(this.acctDir, 'cpuacct.usage'), 'utf8').trim()) / 1e9;
  }

  /** Periods in which the group ran and those in which it hit its quota, and how long it was held back. */
  throttling(): { periods: number; throttled: number; throttledSeconds: number } {
    const stat = new Map(
      fs
        .readFileSync(path.join(this.cpuDir, 'cpu.stat'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' ') as [string, string]),
    );
    return {
      periods: Number(stat.get('nr_periods') ?? 0),
      throttled: Number(stat.get('nr_throttled') ?? 0),
      throttledSeconds: Number(stat.get('throttled_time') ?? 0) / 1e9,
    };
  }

  /** Removes the group once its processes have exited (a group with processes left cannot be removed: kept then). */
  remove(): void {
    for (const dir of [this.cpuDir, this.acctDir]) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // processes still in it, or gone already
      }
    }
  }
}
