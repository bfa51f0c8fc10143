// Messages between the engine and a worker process travel in batches: everything one side sends in one turn of
// its event loop goes out as one array, in one write. Each write wakes the other process, and on a small machine
// that wake-up, not the bytes, is the cost: a write per result and per job was a tenth of a worker's busy time on
// the PostgreSQL manual. The receiving side takes a batch or, from older or foreign senders, a single message.

// Node's and Electron's utility processes have it; shared/ is also compiled for the renderer, which has no Node types.
declare function setImmediate(callback: () => void): unknown;

/** Queues messages and posts them as one array after the current turn of the event loop (setImmediate). */
export class MessageBatcher<T> {
  private queue: T[] = [];
  private scheduled = false;

  constructor(private readonly post: (batch: T[]) => void) {}

  send(message: T): void {
    this.queue.push(message);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Posts what is queued now (before the process ends, or a message that must not wait). */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.post(batch);
  }
}

/** The messages of what arrived: a batch, or one message on its own. */
export function messagesOf<T>(received: T | T[]): T[] {
  return Array.isArray(received) ? received : [received];
}
