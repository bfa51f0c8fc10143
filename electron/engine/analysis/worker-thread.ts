// The analyses that take seconds on a large crawl (Link Score, duplicate content, the explorer's counts) run in a
// worker thread, so the process that hosts the controller and answers the UI keeps answering meanwhile. Each worker
// script reads its workerData, does one job, posts one message (worker-answer.ts) and is ended.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerAnswer } from './worker-answer.ts';

/**
 * Where a worker thread's bundle is looked for, from the folder of the bundle running this code: beside it, or beside
 * the folder of the shared chunk it is in (electron-vite puts a module that the main entry and a worker entry both
 * import in out/main/chunks/).
 */
export function bundleDirs(here: string): string[] {
  return [here, path.dirname(here)];
}

/**
 * A worker thread's script (`name`: link-score-worker, near-duplicates-worker, crawl-reads-worker): the bundle
 * beside this code when it runs bundled (out/node/<name>.cjs from scripts/build-node.mjs, out/main/<name>.js from
 * electron.vite.config.ts), else the TypeScript source imported through tsx's API (tests, `tsx` runs: Node 20 gives
 * a worker thread no --import loader).
 */
export function workerScript(name: string): { script: string; eval: boolean } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of bundleDirs(here)) {
    for (const file of [`${name}.cjs`, `${name}.js`]) {
      const bundled = path.join(dir, file);
      if (fs.existsSync(bundled)) return { script: bundled, eval: false };
    }
  }
  const tsxApi = pathToFileURL(
    path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const entry = JSON.stringify(pathToFileURL(path.join(here, `${name}.ts`)).href);
  return { script: `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${entry}, ${entry}))`, eval: true };
}

/** Runs the worker script `name` on `data` and resolves to the value it posts; its error is named after `what`. */
export function runWorkerThread<T>(name: string, data: unknown, what: string): Promise<T> {
  const { script, eval: isCode } = workerScript(name);
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: isCode, workerData: data });
    let settled = false;
    worker.once('message', (m: WorkerAnswer<T>) => {
      settled = true;
      if (m.ok) resolve(m.value);
      else reject(new Error(`${what}: ${m.error}`));
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`${what} worker exited with code ${code}`));
    });
  });
}

/** One run at a time of an off-thread job: the callers that ask while it runs share it; the next ask after it starts another. */
export class SharedRun<T> {
  private running: Promise<T> | null = null;

  run(start: () => Promise<T>): Promise<T> {
    const run = (this.running ??= start().finally(() => {
      if (this.running === run) this.running = null;
    }));
    return run;
  }

  /** The run under way, if any. */
  get current(): Promise<T> | null {
    return this.running;
  }
}
