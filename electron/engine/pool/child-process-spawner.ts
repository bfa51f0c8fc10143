// Worker processes as Node child processes (CLI, web console, tests).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type { ParentToWorker, WorkerToParent } from '../../../shared/protocol.ts';
import { BaseWorkerHandle } from './worker-spawner.ts';
import type { WorkerHandle, WorkerSpawner } from './worker-spawner.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The one worker entry. Inside the esbuild bundle (out/node/crawl.mjs) it is the bundled worker beside it;
 * when the engine runs from source, the TypeScript entry through tsx's loader (slower to start).
 */
function defaultWorkerEntry(): { entry: string; execArgv: string[] } {
  const bundled = path.join(here, 'worker.mjs');
  if (fs.existsSync(bundled)) return { entry: bundled, execArgv: [] };
  const entry = path.resolve(here, '../../worker/worker-main.ts');
  // Resolve tsx from this package, so the worker starts whatever the current directory is.
  const tsxLoader = pathToFileURL(
    path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs'),
  ).href;
  return { entry, execArgv: ['--import', tsxLoader] };
}

class ChildProcessHandle extends BaseWorkerHandle {
  constructor(
    name: string,
    private readonly child: ChildProcess,
  ) {
    super(name);
    child.on('message', (m) => this.emitMessages(m as WorkerToParent | WorkerToParent[]));
    child.on('exit', (code, signal) => this.emitExit(code, signal));
    // A failed spawn emits 'error' and maybe no 'exit'.
    child.on('error', () => {
      if (child.exitCode === null && child.signalCode === null && child.pid === undefined) this.emitExit(null, null);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  protected get connected(): boolean {
    return this.child.connected;
  }

  protected post(batch: ParentToWorker[]): void {
    if (!this.child.connected) throw new Error('worker is not connected');
    this.child.send(batch);
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

export class ChildProcessSpawner implements WorkerSpawner {
  constructor(private readonly options: { entry: string; execArgv: string[] } = defaultWorkerEntry()) {}

  spawn(name: string): WorkerHandle {
    const child = fork(this.options.entry, [name], {
      execArgv: this.options.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new ChildProcessHandle(name, child);
  }
}
