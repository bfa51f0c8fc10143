// The desktop build (electron-vite, built by this project's global setup) puts each analysis worker thread's script
// where analysis/worker-thread.ts looks for it: beside the bundle that holds workerScript, or beside the folder of
// the shared chunk it is in. Once it was moved into a chunk of out/main/chunks/ while the workers stayed in out/main,
// and the app would have looked for them in the wrong folder (the Electron app's own test cannot run here).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_ENTRIES } from '../../scripts/fresh.mjs';
import { bundleDirs } from '../../electron/engine/analysis/worker-thread.ts';
import { ROOT } from '../helpers/engine.ts';

const OUT = path.join(ROOT, 'out/main');
/** The worker threads' entries: every bundle named *-worker (the crawl worker, a process, is `worker`). */
const WORKER_THREADS = Object.keys(NODE_ENTRIES).filter((name) => name.endsWith('-worker'));

describe('the desktop build', () => {
  it('has every worker thread script where the code that starts them looks', () => {
    expect(WORKER_THREADS.length).toBeGreaterThanOrEqual(3);
    const files = [
      ...fs.readdirSync(OUT).map((f) => path.join(OUT, f)),
      ...fs.readdirSync(path.join(OUT, 'chunks')).map((f) => path.join(OUT, 'chunks', f)),
    ].filter((f) => f.endsWith('.js'));
    const starter = files.filter((f) => fs.readFileSync(f, 'utf8').includes('function workerScript('));
    expect(starter).toHaveLength(1);
    const here = path.dirname(starter[0]!);
    for (const name of WORKER_THREADS) {
      const found = bundleDirs(here).some((dir) => fs.existsSync(path.join(dir, `${name}.js`)));
      expect(found, `${name}.js where workerScript looks from ${path.relative(ROOT, here)}`).toBe(true);
    }
  });
});
