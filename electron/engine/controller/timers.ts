// The controller's two timers: the throttle that sends snapshots out at most once per interval however fast the
// crawl changes, and the wake-up for when idle threads have nothing ready only because of politeness or the
// rate cap.

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
