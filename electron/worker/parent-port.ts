// The worker's line to the engine. The same worker code runs under two hosts: Node's child_process.fork (the CLI
// and tests: process.send / 'message' / 'disconnect') and Electron's utilityProcess (the desktop app:
// process.parentPort). This module hides which, without importing 'electron'.
import { MessageBatcher, messagesOf } from '../../shared/message-batch.ts';
import type { ParentToWorker, WorkerToParent } from '../../shared/protocol.ts';

export interface ParentLink {
  /** Sends after the current turn of the event loop, with whatever else is sent in it (shared/message-batch.ts). */
  send(msg: WorkerToParent): void;
  /** Sends what is queued now: before the process ends. */
  flush(): void;
  onMessage(cb: (msg: ParentToWorker) => void): void;
  /** Called once when the parent can no longer be reached; the worker should exit so no orphan stays. */
  onGone(cb: () => void): void;
  /** Ends this process at once, after a requested shutdown (nothing is left to flush). */
  exit(): never;
}

/** How often a utilityProcess worker checks that its parent is still alive (see parentPortLink). */
const PARENT_CHECK_MS = 1_000;

// process.parentPort as Electron provides it (typed here so the worker needs no 'electron' import).
interface ElectronParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  postMessage(message: unknown): void;
}

/** The link for however this process was started; throws when it was started without a parent channel. */
export function connectToParent(): ParentLink {
  const port = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (port) return parentPortLink(port);
  if (typeof process.send === 'function') return forkLink();
  throw new Error('no parent channel: the crawl worker must be started by the crawl engine (fork or utilityProcess)');
}

/** A once-only notifier: several signals can report the same loss of the parent. */
function goneNotifier() {
  const listeners: Array<() => void> = [];
  let gone = false;
  return {
    add(cb: () => void) {
      if (gone) queueMicrotask(cb);
      else listeners.push(cb);
    },
    fire() {
      if (gone) return;
      gone = true;
      for (const cb of listeners) cb();
    },
  };
}

function forkLink(): ParentLink {
  const gone = goneNotifier();
  // 'disconnect' fires when the parent closes the IPC channel or dies (the pipe's other end closes).
  process.on('disconnect', () => gone.fire());
  const outbox = new MessageBatcher<WorkerToParent>((batch) => {
    if (!process.connected) return gone.fire();
    // The callback swallows the error of a send racing a disconnect; 'disconnect' reports the loss itself.
    process.send!(batch, undefined, {}, (err) => {
      if (err) gone.fire();
    });
  });
  return {
    send: (msg) => outbox.send(msg),
    flush: () => outbox.flush(),
    onMessage(cb) {
      process.on('message', (received) => {
        for (const msg of messagesOf(received as ParentToWorker | ParentToWorker[])) cb(msg);
      });
    },
    onGone: gone.add,
    exit() {
      // SIGTERM's default action, not process.exit(): exit joins V8's background threads first, and after a
      // crawl a JIT compile still running there held each worker's exit for 200-300 ms.
      process.kill(process.pid, 'SIGTERM');
      return process.exit(0); // not reached
    },
  };
}

function parentPortLink(port: ElectronParentPort): ParentLink {
  const gone = goneNotifier();
  // ParentPort documents no close event today; listen anyway in case it gains one (an unknown event never fires).
  port.on('close', () => gone.fire());
  // Chromium normally ends utility processes along with the browser process. As a backstop, notice the parent
  // disappearing (signal 0 only checks that the pid exists) so a crash of the main process leaves no orphan.
  const parentPid = process.ppid;
  const check = setInterval(() => {
    try {
      process.kill(parentPid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') gone.fire();
    }
  }, PARENT_CHECK_MS);
  check.unref();
  const outbox = new MessageBatcher<WorkerToParent>((batch) => port.postMessage(batch));
  return {
    send: (msg) => outbox.send(msg),
    flush: () => outbox.flush(),
    onMessage(cb) {
      port.on('message', (e) => {
        for (const msg of messagesOf(e.data as ParentToWorker | ParentToWorker[])) cb(msg);
      });
    },
    onGone: gone.add,
    // Electron reports a utility process ended by a signal as abnormal; exit plainly there.
    exit: () => process.exit(0),
  };
}
