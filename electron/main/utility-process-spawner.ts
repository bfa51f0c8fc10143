// Worker processes as Electron utility processes (the desktop app). The only pool code that imports electron.
import { utilityProcess } from 'electron';
import type { UtilityProcess } from 'electron';
import type { ParentToWorker, WorkerToParent } from '../../shared/protocol.ts';
import { BaseWorkerHandle } from '../engine/pool/worker-spawner.ts';
import type { WorkerHandle, WorkerSpawner } from '../engine/pool/worker-spawner.ts';
import { WORKER_FLAGS } from '../../scripts/v8-flags.mjs';

class UtilityProcessHandle extends BaseWorkerHandle {
  private crashReason: string | null = null;

  constructor(
    name: string,
    private readonly child: UtilityProcess,
  ) {
    super(name);
    child.on('message', (m: unknown) => this.emitMessages(m as WorkerToParent | WorkerToParent[]));
    // 'error' carries the crash type (e.g. FatalError) before 'exit'; keep it for the report.
    child.on('error', (type: string, location: string) => {
      this.crashReason = `${type} at ${location}`;
    });
    child.on('exit', (code: number) => this.emitExit(code, this.crashReason));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  protected get connected(): boolean {
    return this.child.pid !== undefined;
  }

  protected post(batch: ParentToWorker[]): void {
    if (this.child.pid === undefined) throw new Error('worker is not running');
    this.child.postMessage(batch);
  }

  kill(): void {
    if (!this.exited) this.child.kill();
  }
}

export class UtilityProcessSpawner implements WorkerSpawner {
  /** `entry` is the built worker bundle (out/main/worker.js from electron-vite). */
  constructor(private readonly entry: string) {}

  spawn(name: string): WorkerHandle {
    // The crawl workers get their V8 flags (scripts/v8-flags.mjs). The app's own main process keeps V8's
    // defaults: Electron reads --js-flags for it only from its command line, before any of this code runs.
    const child = utilityProcess.fork(this.entry, [name], { serviceName: name, stdio: 'inherit', execArgv: [...WORKER_FLAGS] });
    return new UtilityProcessHandle(name, child);
  }
}
