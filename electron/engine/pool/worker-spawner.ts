// How the pool starts a worker process. One interface, two implementations: Node's child_process.fork for the
// CLI and tests (child-process-spawner.ts) and Electron's utilityProcess.fork for the app
// (electron/main/utility-process-spawner.ts). The pool never knows which one it has.
import { MessageBatcher, messagesOf } from '../../../shared/message-batch.ts';
import type { ParentToWorker, WorkerToParent } from '../../../shared/protocol.ts';

export interface WorkerExit {
  code: number | null;
  signal: string | null;
  /** Person-readable: "exited normally", "killed by SIGKILL", "exited with code 134". */
  reason: string;
  /** Set by the pool when its watchdog killed the process (its other jobs did nothing wrong: not counted as crashes). */
  byWatchdog?: boolean;
}

export interface WorkerHandle {
  /** Process name, e.g. "crawl-worker-3", shown in the UI and in crash reports. */
  readonly name: string;
  /** OS process id once spawned. */
  readonly pid: number | undefined;
  /** Sends a message; returns false (and sends nothing) when the process is already gone. */
  send(message: ParentToWorker): boolean;
  onMessage(listener: (message: WorkerToParent) => void): void;
  /** Called once when the process has ended, whatever the cause. */
  onExit(listener: (exit: WorkerExit) => void): void;
  /** Asks the worker to shut down, waits up to `graceMs`, then kills it. Resolves when it has exited. */
  stop(graceMs?: number): Promise<WorkerExit>;
  /** Kills at once. */
  kill(): void;
}

export interface WorkerSpawner {
  spawn(name: string): WorkerHandle;
}

function describeExit(code: number | null, signal: string | null): string {
  if (signal) return `killed by ${signal}`;
  if (code === 0) return 'exited normally';
  if (code === 134) return 'crashed (aborted, often out of memory)';
  return `exited with code ${code}`;
}

/** Shared by both spawners: exit bookkeeping, and graceful stop then kill. */
export abstract class BaseWorkerHandle implements WorkerHandle {
  private exitInfo: WorkerExit | null = null;
  private readonly exitListeners: ((exit: WorkerExit) => void)[] = [];
  protected readonly messageListeners: ((message: WorkerToParent) => void)[] = [];

  constructor(readonly name: string) {}

  /** Jobs dispatched in one pump go to the process in one write (shared/message-batch.ts). */
  private readonly outbox = new MessageBatcher<ParentToWorker>((batch) => {
    try {
      if (!this.exitInfo) this.post(batch);
    } catch {
      // The process is going: its exit reports the jobs it held as lost, and they are given back.
    }
  });

  abstract get pid(): number | undefined;
  /** Writes a batch of messages to the process; throws when it cannot. */
  protected abstract post(batch: ParentToWorker[]): void;
  abstract kill(): void;

  get exited(): boolean {
    return this.exitInfo !== null;
  }

  send(message: ParentToWorker): boolean {
    if (this.exitInfo || !this.connected) return false;
    this.outbox.send(message);
    return true;
  }

  /** The process can still be written to. */
  protected abstract get connected(): boolean;

  onMessage(listener: (message: WorkerToParent) => void): void {
    this.messageListeners.push(listener);
  }

  onExit(listener: (exit: WorkerExit) => void): void {
    if (this.exitInfo) queueMicrotask(() => listener(this.exitInfo!));
    else this.exitListeners.push(listener);
  }

  /** What the process sent: a batch of messages, or one. */
  protected emitMessages(received: WorkerToParent | WorkerToParent[]): void {
    for (const message of messagesOf(received)) for (const l of this.messageListeners) l(message);
  }

  protected emitExit(code: number | null, signal: string | null): void {
    if (this.exitInfo) return;
    this.exitInfo = { code, signal, reason: describeExit(code, signal) };
    for (const l of this.exitListeners.splice(0)) l(this.exitInfo);
  }

  stop(graceMs = 3_000): Promise<WorkerExit> {
    return new Promise((resolve) => {
      this.onExit(resolve);
      if (this.exitInfo) return;
      if (!this.send({ t: 'shutdown' })) return this.kill();
      const timer = setTimeout(() => this.kill(), graceMs);
      this.onExit(() => clearTimeout(timer));
    });
  }
}
