// `npm run bench` keeps working: a small synthetic site, crawled and measured end to end. No timing is
// asserted here; the benchmark's figures live in BENCHMARKS.md.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/engine.ts';

describe('npm run bench', () => {
  it('crawls a generated site and writes a complete JSON result', () => {
    const out = path.join(tempDir(), 'bench.json');
    const stdout = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'electron/bench/run.ts', '--pages', '300', '--links', '5', '--no-wget', '--ui', '--out', out],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(stdout).toMatch(/Finished \(completed\): 300 crawled, 0 failed/);
    const result = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(result.crawl.urls).toBe(300);
    expect(result.crawl.pagesPerSecondBySlice).toHaveLength(10);
    expect(result.crawl.peakMemoryMB.main).toBeGreaterThan(0);
    expect(result.crawl.peakMemoryMB.workers.length).toBeGreaterThan(0);
    expect(result.crawl.cpuSeconds.user).toBeGreaterThan(0);
    expect(result.crawlFileMB).toBeGreaterThan(0);
    expect(result.ui.snapshotsReceived).toBeGreaterThan(0);
  });

  it('--quick --record: prints the guard figures and appends one row to the table by commit', () => {
    const dir = tempDir();
    const benchmarks = path.join(dir, 'BENCHMARKS.md');
    const before = fs.readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8');
    fs.writeFileSync(benchmarks, before);
    const stdout = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'electron/bench/run.ts', '--quick', '--record', '--pages', '40', '--links', '4', '--no-wget'],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TRAWL_BENCHMARKS_FILE: benchmarks } },
    );
    expect(stdout).toMatch(/^Quick bench: generated 40×/m);
    expect(stdout).toMatch(/Finished \(completed\): 40 crawled, 0 failed/);
    expect(stdout).toMatch(/^Crawl wall: best [\d.]+ s \([\d.]+, [\d.]+, [\d.]+\)/m);
    const cpu = /^CPU per page \(best run\): main process ([\d.]+) ms · workers ([\d.]+) ms/m.exec(stdout);
    expect(Number(cpu?.[1])).toBeGreaterThan(0);
    expect(Number(cpu?.[2])).toBeGreaterThan(0);
    const peak = /^Peak memory \(VmHWM, summed\): ([\d.]+) MB \(main ([\d.]+) \+ workers ([\d.]+)\)/m.exec(stdout);
    expect(Number(peak?.[1])).toBeCloseTo(Number(peak?.[2]) + Number(peak?.[3]), 0);

    const after = fs.readFileSync(benchmarks, 'utf8').split('\n');
    const added = after.filter((l) => !before.split('\n').includes(l));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(
      /^\| [0-9a-f]{7,}\+? \| \d{4}-\d{2}-\d{2} \| generated 40×[\d.]+ kB \| [\d.]+ s \| - \| - \| [\d.]+ \| [\d.]+ \| [\d.]+ \|$/,
    );
    // In the "By commit" section's table, after its header or its last row.
    const row = after.indexOf(added[0]!);
    const section = after.indexOf('## By commit');
    const next = after.findIndex((l, i) => i > section && l.startsWith('## '));
    expect(section).toBeGreaterThan(-1);
    expect(row).toBeGreaterThan(section);
    expect(row).toBeLessThan(next);
    expect(after[row - 1]).toMatch(/^\|/);
  });

  it('refuses a site that is not on this machine', () => {
    expect(() =>
      execFileSync(process.execPath, ['--import', 'tsx', 'electron/bench/run.ts', '--site', 'http://example.invalid/'], {
        cwd: ROOT,
        stdio: 'pipe',
      }),
    ).toThrow(/--site must be on this machine/);
  });
});
