// The controller's timers: the throttle that sends snapshots out at most once per interval however fast the
// crawl changes, the wake-up for when idle threads have nothing ready only because of politeness or the rate cap,
// and the clock of the crawl's elapsed time (paused time left out, earlier sessions' time carried over).

/** Fires at most once per `intervalMs`, after something was marked changed. */
export class Throttle {
  private timer: NodeJS.Timeout | null = null;
  private lastAt = 0;

  constructor(
    private readonly intervalMs: number,
    /** `at`: when it fired (epoch ms). */
    private readonly fire: (at: number) => void,
  ) {}

  /** Something changed: fire once, as soon as the interval since the last firing allows. */
  mark(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastAt + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastAt = Date.now();
      this.fire(this.lastAt);
    }, wait);
  }

  /** Fires now, whatever the interval says (a state change is shown with the figures it changed at). */
  fireNow(): void {
    this.cancel();
    this.lastAt = Date.now();
    this.fire(this.lastAt);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** One pending wake-up, at the earliest time asked for. */
export class WakeTimer {
  private timer: NodeJS.Timeout | null = null;
  private at = 0;

  constructor(private readonly wake: () => void) {}

  /** Wakes at `at` (epoch ms), unless a wake-up is due by then already. */
  set(at: number): void {
    if (this.timer && this.at <= at) return;
    this.clear();
    this.at = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.wake();
      },
      Math.max(0, at - Date.now()),
    );
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A crawl's elapsed time: the time it ran (preparing, running, pausing, stopping), paused time left out, plus what
 * earlier sessions of the same crawl file ran (`carriedMs`), so a resumed crawl's clock continues from the total.
 */
export class ActiveClock {
  private since: number | null = null;

  constructor(private carriedMs = 0) {}

  /** The crawl works from `now` on (a no-op while it already does). */
  run(now = Date.now()): void {
    if (this.since === null) this.since = now;
  }

  /** The crawl holds (paused, finished) from `now` on: its clock stops. */
  hold(now = Date.now()): void {
    if (this.since === null) return;
    this.carriedMs += Math.max(0, now - this.since);
    this.since = null;
  }

  get running(): boolean {
    return this.since !== null;
  }

  elapsedMs(now = Date.now()): number {
    return this.carriedMs + (this.since === null ? 0 : Math.max(0, now - this.since));
  }
}

/** The crawl's average rate over its elapsed time (the figure a finished crawl keeps), one decimal. */
export function averageRate(done: number, elapsedMs: number): number {
  return elapsedMs > 0 ? Math.round((done / elapsedMs) * 1000 * 10) / 10 : 0;
}
