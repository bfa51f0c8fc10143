// scripts/fresh.mjs: when `npm run crawl`, `compare` and `serve` may skip the build. A build is fresh until a file it
// was built from is modified after the build started, goes missing, or an output goes missing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeBuildInputsFile, nodeBundlesStale, rendererStale, rendererStampFile } from '../../scripts/fresh.mjs';

const roots: string[] = [];
function fakeRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-fresh-'));
  roots.push(root);
  return root;
}
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

const HOUR = 3600_000;
function write(file: string, content: string, mtimeMs: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.utimesSync(file, new Date(mtimeMs), new Date(mtimeMs));
}

describe('out/node freshness', () => {
  function built(root: string) {
    const startedAt = Date.now() - HOUR;
    const inputs = [
      path.join(root, 'electron/cli/crawl.ts'),
      path.join(root, 'shared/a.ts'),
      path.join(root, 'node_modules/.package-lock.json'),
    ];
    for (const f of inputs) write(f, 'x', startedAt - HOUR);
    const outputs = [path.join(root, 'out/node/crawl.mjs'), path.join(root, 'out/node/worker.mjs')];
    for (const f of outputs) write(f, 'bundle', startedAt + 1000);
    write(nodeBuildInputsFile(root), JSON.stringify({ startedAt, inputs, outputs }), startedAt + 1000);
    return { startedAt, inputs, outputs };
  }

  it('is fresh when nothing changed since the build', () => {
    const root = fakeRoot();
    built(root);
    expect(nodeBundlesStale(root)).toBeNull();
  });

  it('is stale without a finished build', () => {
    const root = fakeRoot();
    expect(nodeBundlesStale(root)).toBe('no complete build');
    write(nodeBuildInputsFile(root), '{"startedAt":', Date.now());
    expect(nodeBundlesStale(root)).toBe('no complete build');
  });

  it('is stale when an input changed after the build started, even during the build', () => {
    const root = fakeRoot();
    const { startedAt, inputs } = built(root);
    write(inputs[1]!, 'y', startedAt + 10);
    expect(nodeBundlesStale(root)).toBe(`${path.join('shared', 'a.ts')} changed`);
  });

  it('is stale when the installed packages changed', () => {
    const root = fakeRoot();
    const { inputs } = built(root);
    write(inputs[2]!, 'y', Date.now());
    expect(nodeBundlesStale(root)).toMatch(/node_modules.*changed/);
  });

  it('is stale when an input or an output is gone', () => {
    const root = fakeRoot();
    const { inputs, outputs } = built(root);
    fs.rmSync(outputs[1]!);
    expect(nodeBundlesStale(root)).toMatch(/worker\.mjs is missing/);
    const other = fakeRoot();
    const b = built(other);
    fs.rmSync(b.inputs[0]!);
    expect(nodeBundlesStale(other)).toMatch(/crawl\.ts is gone/);
    expect(inputs).toHaveLength(3);
  });
});

describe('out/renderer freshness', () => {
  function built(root: string) {
    const startedAt = Date.now() - HOUR;
    write(path.join(root, 'renderer/src/deep/view.tsx'), 'x', startedAt - HOUR);
    write(path.join(root, 'shared/a.ts'), 'x', startedAt - HOUR);
    write(path.join(root, 'electron.vite.config.ts'), 'x', startedAt - HOUR);
    for (const d of ['renderer/src/deep', 'renderer/src', 'renderer', 'shared']) {
      fs.utimesSync(path.join(root, d), new Date(startedAt - HOUR), new Date(startedAt - HOUR));
    }
    write(path.join(root, 'out/renderer/index.html'), '<!doctype html>', startedAt + 1000);
    write(rendererStampFile(root), JSON.stringify({ startedAt }), startedAt + 1000);
    return startedAt;
  }

  it('is fresh when nothing changed since the build', () => {
    const root = fakeRoot();
    built(root);
    expect(rendererStale(root)).toBeNull();
  });

  it('is stale without a finished build or its page', () => {
    const root = fakeRoot();
    expect(rendererStale(root)).toBe('no complete build');
    built(root);
    fs.rmSync(path.join(root, 'out/renderer/index.html'));
    expect(rendererStale(root)).toMatch(/index\.html is missing/);
  });

  it('is stale when a source deep in renderer/ or shared/ changed, or a file was added or removed', () => {
    const root = fakeRoot();
    const startedAt = built(root);
    write(path.join(root, 'renderer/src/deep/view.tsx'), 'y', startedAt + 5);
    expect(rendererStale(root)).toMatch(/view\.tsx changed/);

    const other = fakeRoot();
    const t = built(other);
    fs.rmSync(path.join(other, 'shared/a.ts'));
    fs.utimesSync(path.join(other, 'shared'), new Date(t + 5), new Date(t + 5));
    expect(rendererStale(other)).toBe('shared changed');
  });

  it('is stale when the build configuration changed', () => {
    const root = fakeRoot();
    const startedAt = built(root);
    write(path.join(root, 'electron.vite.config.ts'), 'y', startedAt + 5);
    expect(rendererStale(root)).toBe('electron.vite.config.ts changed');
  });
});
