// Worker processes as Node child processes (CLI, web console, tests).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { type ParentToWorker, WORKER_EXTRA_CA_ENV, type WorkerToParent } from '../../../shared/protocol.ts';
import { BaseWorkerHandle } from './worker-spawner.ts';
import { WORKER_FLAGS } from '../../../scripts/v8-flags.mjs';
import type { WorkerHandle, WorkerSpawner } from './worker-spawner.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The one worker entry. Inside the esbuild bundle (out/node/crawl.mjs) it is the bundled worker beside it;
 * when the engine runs from source, the TypeScript entry through tsx's loader (slower to start).
 */
export function defaultWorkerEntry(): { entry: string; execArgv: string[] } {
  const bundled = path.join(here, 'worker.mjs');
  if (fs.existsSync(bundled)) return { entry: bundled, execArgv: [...WORKER_FLAGS] };
  const entry = path.resolve(here, '../../worker/worker-main.ts');
  // Resolve tsx from this package, so the worker starts whatever the current directory is.
  const tsxLoader = pathToFileURL(
    path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs'),
  ).href;
  return { entry, execArgv: [...WORKER_FLAGS, '--import', tsxLoader] };
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

/**
 * Where scripts/run-node.mjs leaves a worker it forked before loading the CLI bundle: a worker takes as long to
 * load as the engine does (about 0.2 s each), so starting both at once on two cores brings the first fetch that
 * much sooner. The first spawn adopts it. Forked with the options below, unreferenced (a command that never
 * crawls exits without waiting for it, and it leaves when its channel closes).
 */
export const PRESPAWNED_WORKER = Symbol.for('trawl.prespawnedWorker');

/** The worker forked ahead for `entry`, if there is one still alive; taken at most once. */
function adoptPrespawned(entry: string): ChildProcess | null {
  const slot = globalThis as { [PRESPAWNED_WORKER]?: { entry: string; child: ChildProcess } };
  const ahead = slot[PRESPAWNED_WORKER];
  delete slot[PRESPAWNED_WORKER];
  if (!ahead || path.resolve(ahead.entry) !== path.resolve(entry)) {
    ahead?.child.kill();
    return null;
  }
  const { child } = ahead;
  if (child.exitCode !== null || child.signalCode !== null || !child.connected) return null;
  child.ref();
  child.channel?.ref();
  return child;
}

/**
 * A worker's environment: this one, with NODE_EXTRA_CA_CERTS handed over as WORKER_EXTRA_CA_ENV so the worker
 * reads those certificates when it first needs them rather than at start-up (shared/protocol.ts).
 */
export function workerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: extra, ...rest } = env;
  return extra ? { ...rest, [WORKER_EXTRA_CA_ENV]: extra } : rest;
}

export class ChildProcessSpawner implements WorkerSpawner {
  constructor(private readonly options: { entry: string; execArgv: string[] } = defaultWorkerEntry()) {}

  spawn(name: string): WorkerHandle {
    // Only a worker started as scripts/run-node.mjs starts its own (the bundle, the workers' V8 flags alone) can be adopted.
    const plain = this.options.execArgv.every((flag) => WORKER_FLAGS.includes(flag));
    const ahead = plain ? adoptPrespawned(this.options.entry) : null;
    // scripts/run-node.mjs forks its worker with these same options.
    const child =
      ahead ??
      fork(this.options.entry, [name], {
        execArgv: this.options.execArgv,
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: workerEnv(process.env),
      });
    return new ChildProcessHandle(name, child);
  }
}
