// An in-process stand-in for a crawl worker process, for tests of the pool's decisions: it gets ready at once and
// takes jobs, but answers none (the test decides who is busy, as a worker whose event loop spins would); it
// leaves when asked to shut down, and only a kill ends it otherwise.
import { BaseWorkerHandle } from '../../electron/engine/pool/worker-spawner.ts';
import type { ParentToWorker } from '../../shared/protocol.ts';

export class SilentWorkerHandle extends BaseWorkerHandle {
  kills = 0;
  constructor(
    name: string,
    readonly pidValue: number,
  ) {
    super(name);
  }
  get pid(): number {
    return this.pidValue;
  }
  protected get connected(): boolean {
    return true;
  }
  protected post(batch: ParentToWorker[]): void {
    for (const message of batch) {
      if (message.t === 'init') queueMicrotask(() => this.emitMessages({ t: 'ready', pid: this.pidValue }));
      if (message.t === 'shutdown') queueMicrotask(() => this.emitExit(0, null));
    }
  }
  kill(): void {
    this.kills++;
    queueMicrotask(() => this.emitExit(null, 'SIGKILL'));
  }
}

/** Lets queued messages go both ways: to the worker after a turn of the event loop (shared/message-batch.ts), back in a microtask. */
export async function settle(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 0));
}
