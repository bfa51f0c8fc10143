// V8's flags (scripts/v8-flags.mjs) reach every Trawl process: the workers get theirs from the code that starts them
// (a worker's own command line cannot be read back: it sets its process title over it), and the CLI's own process
// can only get its heap flags from its command line, so package.json's scripts and the `trawl` bin's first line must
// name exactly the declared flags.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultWorkerEntry } from '../../electron/engine/pool/child-process-spawner.ts';
import { HEAP_FLAGS, WORKER_FLAGS } from '../../scripts/v8-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('V8 flags', () => {
  it('are on the command line of npm run crawl, compare and serve', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const command of ['crawl', 'compare', 'serve'])
      expect(scripts[command]).toBe(`node ${HEAP_FLAGS.join(' ')} scripts/run-node.mjs ${command}`);
  });

  it('are on the first line of the trawl bin', () => {
    const first = fs.readFileSync(path.join(root, 'bin/trawl.mjs'), 'utf8').split('\n')[0];
    expect(first).toBe(`#!/usr/bin/env -S node ${HEAP_FLAGS.join(' ')}`);
  });

  it("are what the engine's spawner and run-node.mjs's worker forked ahead start crawl workers with", () => {
    // From source, the spawner adds tsx's loader after them.
    expect(defaultWorkerEntry().execArgv.slice(0, WORKER_FLAGS.length)).toEqual(WORKER_FLAGS);
    // The engine adopts the worker run-node.mjs forked ahead only when its own flags are WORKER_FLAGS alone.
    const runNode = fs.readFileSync(path.join(root, 'scripts/run-node.mjs'), 'utf8');
    expect(runNode).toContain("import { WORKER_FLAGS } from './v8-flags.mjs';");
    expect(runNode).toMatch(/fork\(entry, \['crawl-worker-1'\], \{\s*execArgv: \[\.\.\.WORKER_FLAGS\],/);
  });

  it('name only options V8 takes at start-up, each once; the workers get the heap flags too', () => {
    expect(HEAP_FLAGS.length).toBeGreaterThan(0);
    for (const flag of HEAP_FLAGS) expect(flag).toMatch(/^--max-(semi|old)-space-size=\d+$/);
    expect(new Set(HEAP_FLAGS).size).toBe(HEAP_FLAGS.length);
    expect(WORKER_FLAGS.slice(0, HEAP_FLAGS.length)).toEqual(HEAP_FLAGS);
    expect(new Set(WORKER_FLAGS).size).toBe(WORKER_FLAGS.length);
    for (const flag of WORKER_FLAGS) expect(flag).toMatch(/^--[a-z][a-z-]*(=\d+)?$/);
  });

  it('are all flags this Node knows', () => {
    // Node refuses to start with an option it does not know ("bad option"): a worker would never start.
    const run = spawnSync(process.execPath, [...WORKER_FLAGS, '-e', ''], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});
