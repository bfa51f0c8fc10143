// Waits for what a test reads to become what it expects, naming what it waited for (and the last value) on timeout.
// The timeout is a hang bound, not a timing goal.
export async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last ${JSON.stringify(v)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
