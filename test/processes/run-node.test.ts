// scripts/run-node.mjs, what `npm run crawl`, `compare` and `serve` run: from an up-to-date build (the global
// setup has just built out/node) it starts the bundle at once, rebuilding nothing, in the same process.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/engine.ts';

const LAUNCHER = path.join(ROOT, 'scripts/run-node.mjs');
const mtimes = (files: string[]) => files.map((f) => fs.statSync(path.join(ROOT, f)).mtimeMs);

function serveOnce(dir: string): Promise<string> {
  const child = spawn(process.execPath, [LAUNCHER, 'serve', '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n')) child.kill('SIGTERM');
    });
    child.on('close', (code) => (code === 0 && stdout ? resolve(stdout) : reject(new Error(`serve exited ${code}: ${stderr}`))));
  });
}

describe('scripts/run-node.mjs', () => {
  it('runs the crawl and compare bundles from an up-to-date build without rebuilding, with their arguments', () => {
    const bundles = ['out/node/crawl.mjs', 'out/node/compare.mjs', 'out/node/worker.mjs', 'out/node/build-inputs.json'];
    const before = mtimes(bundles);
    const help = execFileSync(process.execPath, [LAUNCHER, 'crawl', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help).toMatch(/^Usage: npm run crawl -- <seed URL>/);
    expect(execFileSync(process.execPath, [LAUNCHER, 'compare', '--help'], { cwd: ROOT, encoding: 'utf8' })).toMatch(
      /^Usage: npm run compare -- OLD\.trawl NEW\.trawl/,
    );
    // A usage error: the crawl's own exit code and message come through.
    const bad = (() => {
      try {
        execFileSync(process.execPath, [LAUNCHER, 'crawl', '--threads', 'x', 'http://127.0.0.1:1/'], { cwd: ROOT, stdio: 'pipe' });
        return null;
      } catch (err) {
        return err as { status: number; stderr: Buffer };
      }
    })();
    expect(bad?.status).toBe(2);
    expect(String(bad?.stderr)).toMatch(/--threads/);
    expect(mtimes(bundles)).toEqual(before);
  });

  it('starts from bundles that are pure ASCII (no comments): Node decodes and V8 compiles those faster', () => {
    for (const name of ['crawl', 'compare', 'serve', 'worker']) {
      const bytes = fs.readFileSync(path.join(ROOT, 'out/node', `${name}.mjs`));
      expect(
        bytes.findIndex((b) => b > 0x7f),
        name,
      ).toBe(-1);
    }
  });

  it('refuses an unknown command', () => {
    expect(() => execFileSync(process.execPath, [LAUNCHER, 'nope'], { cwd: ROOT, stdio: 'pipe' })).toThrow(
      /Usage: node scripts\/run-node\.mjs/,
    );
  });

  it('starts the web console twice without rebuilding the second time', { timeout: 120_000 }, async () => {
    // The first start builds the pages when they are stale (a checkout whose renderer was never built by it).
    const first = await serveOnce(tempDir());
    expect(first).toMatch(/^Trawl web console: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}\n$/);
    const outputs = ['out/node/serve.mjs', 'out/node/build-inputs.json', 'out/renderer/index.html', 'out/renderer-build.json'];
    const before = mtimes(outputs);
    const second = await serveOnce(tempDir());
    expect(second).toMatch(/^Trawl web console: /);
    expect(mtimes(outputs)).toEqual(before);
  });
});
