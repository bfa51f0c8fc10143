// The bench's CPU quotas per cluster node (electron/bench/cpu-quota.ts): a process started in a group gets at most
// its cores, and so do the processes it starts; the group counts what they used. Needs root and cgroup v1's cpu
// and cpuacct hierarchies: skipped, saying which is missing, where they are not there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuQuotaGroup, cgroupRoots, quotaFor } from '../../electron/bench/cpu-quota.ts';

describe('quotaFor', () => {
  it('gives a fraction of a core as microseconds per 100 ms period', () => {
    expect(quotaFor(0.3, 2)).toEqual({ quotaUs: 30_000, periodUs: 100_000 });
    expect(quotaFor(2, 2)).toEqual({ quotaUs: 200_000, periodUs: 100_000 });
  });

  it('refuses what no machine can give, naming the option', () => {
    for (const bad of [0, -1, Number.NaN, 3]) expect(() => quotaFor(bad, 2)).toThrow(/--node-cpu must be a number of cores from 0.01 to 2/);
  });
});

describe('cgroupRoots', () => {
  it('says why there are no quotas: cgroup v2, or no cpu hierarchy', () => {
    const v2 = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-'));
    fs.writeFileSync(path.join(v2, 'cgroup.controllers'), 'cpu memory');
    expect(cgroupRoots(v2)).toMatch(/cgroup v2 \(unified\)/);
    const none = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-'));
    expect(cgroupRoots(none)).toMatch(/no cgroup v1 cpu hierarchy/);
    fs.mkdirSync(path.join(none, 'cpu'));
    fs.writeFileSync(path.join(none, 'cpu', 'cpu.cfs_quota_us'), '-1');
    expect(cgroupRoots(none)).toMatch(/no cgroup v1 cpuacct hierarchy/);
  });
});

const roots = cgroupRoots();
describe.skipIf(typeof roots === 'string')(`a real quota${typeof roots === 'string' ? ` (skipped: ${roots})` : ''}`, () => {
  it('holds a process and the process it starts to their cores, and counts what they used', async () => {
    const group = CpuQuotaGroup.create(`trawl-test-${process.pid}`, 0.2);
    const dir = path.join((roots as { cpu: string }).cpu, group.name);
    try {
      // Two busy processes (a parent and the child it forks) for 1.5 s of wall time: 3 CPU s unconstrained.
      const busy = 'const end = Date.now() + 1500; while (Date.now() < end);';
      const script = `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(busy)}]); ${busy}; c.on('exit', () => {});`;
      const started = performance.now();
      const child = group.spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
      await new Promise((resolve) => child.on('exit', resolve));
      const wall = (performance.now() - started) / 1000;
      // At most 0.2 core over the time they ran (longer on a loaded machine), with room for accounting at the edges:
      // unconstrained, the two loops take 3 CPU s in about 1.6 s.
      const used = group.usageSeconds();
      expect(used).toBeGreaterThan(0.05);
      expect(used).toBeLessThan(0.2 * wall * 1.2 + 0.1);
      expect(group.throttling().throttled).toBeGreaterThan(0);
    } finally {
      group.remove();
    }
    expect(fs.existsSync(dir)).toBe(false);
  });
});
