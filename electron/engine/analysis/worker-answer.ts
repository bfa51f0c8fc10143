// A worker thread's side of worker-thread.ts: the one message its script posts. Kept apart from the starting side so
// that a worker's bundle does not carry it (and the desktop build keeps the starting side in its main entry).

/** A worker script's one message. */
export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

/** A worker script's ending: posts what `job` resolves to (its `transfer` buffers moved, not copied), or its error. */
export function answerParent<T>(
  port: { postMessage(m: unknown, transfer?: readonly ArrayBuffer[]): void },
  job: () => Promise<T> | T,
  transfer: (value: T) => ArrayBuffer[] = () => [],
): void {
  void (async () => {
    try {
      const value = await job();
      port.postMessage({ ok: true, value } satisfies WorkerAnswer<T>, transfer(value));
    } catch (err) {
      port.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies WorkerAnswer<T>);
    }
  })();
}
