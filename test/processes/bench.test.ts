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

  it('refuses a site that is not on this machine', () => {
    expect(() =>
      execFileSync(process.execPath, ['--import', 'tsx', 'electron/bench/run.ts', '--site', 'http://example.invalid/'], {
        cwd: ROOT,
        stdio: 'pipe',
      }),
    ).toThrow(/--site must be on this machine/);
  });
});
