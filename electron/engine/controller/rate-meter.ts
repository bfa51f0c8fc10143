// Pages per second over a sliding window of whole seconds: constant memory whatever the crawl's speed.
export class RateMeter {
  private readonly buckets: number[];
  private bucketSecond = 0;

  constructor(private readonly windowSeconds = 5) {
    this.buckets = new Array<number>(windowSeconds).fill(0);
  }

  private advance(now: number): void {
    const second = Math.floor(now / 1000);
    if (second - this.bucketSecond >= this.windowSeconds) this.buckets.fill(0);
    else for (let s = this.bucketSecond + 1; s <= second; s++) this.buckets[s % this.windowSeconds] = 0;
    this.bucketSecond = Math.max(this.bucketSecond, second);
  }

  record(now = Date.now()): void {
    this.advance(now);
    this.buckets[this.bucketSecond % this.windowSeconds]! += 1;
  }

  /** Completions per second over the window; `since` shortens the window at the start of a crawl. */
  perSecond(now = Date.now(), since = 0): number {
    this.advance(now);
    const total = this.buckets.reduce((a, b) => a + b, 0);
    const spanMs = Math.min(this.windowSeconds * 1000, Math.max(1000, now - since));
    return Math.round((total / spanMs) * 1000 * 10) / 10;
  }
}

/**
 * Token bucket for the global URLs/s cap: how many fetches may start now, and when the next may. The burst is a
 * tenth of a second's worth (at least one), so no one-second window sees much more than the cap.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly burst: number;

  constructor(
    private readonly perSecond: number,
    now = Date.now(),
  ) {
    this.burst = Math.max(1, perSecond / 10);
    this.tokens = this.burst;
    this.last = now;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  available(now = Date.now()): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }

  take(n: number, now = Date.now()): void {
    this.refill(now);
    this.tokens -= n;
  }

  /** Ms until one whole token is available. */
  waitMs(now = Date.now()): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}
