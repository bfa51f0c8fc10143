// Handing out work: claims URLs from the store for idle threads (within the page limit and the URLs/s cap),
// finishes the crawl when nothing is left, and otherwise wakes up exactly when politeness or the rate cap lets
// the next URL go. Everything is event-driven: the controller pumps when a thread frees up or a result arrives,
// and the wake timer when a host's wait ends.
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { CrawlState, FinishReason } from '../../../shared/snapshot.ts';
import type { ThreadStep } from '../../../shared/steps.ts';
import type { FrontierStore } from '../frontier/frontier-store.ts';
import type { ThreadJob } from '../pool/crawl-thread.ts';
import type { WorkerPool } from '../pool/worker-pool.ts';
import type { LiveSettings } from './live-settings.ts';
import type { Steering } from './steering.ts';
import type { StoreCalls } from './store-calls.ts';
import { WakeTimer } from './timers.ts';

/** What the dispatcher needs of the controller. */
export interface DispatchHost {
  state(): CrawlState;
  /** The snapshot is stale. */
  changed(): void;
  finish(reason: FinishReason): void;
}

/**
 * The step that says why an idle thread is idle: the crawl is paused; the global URLs/s cap held back URLs that
 * were there to claim (rateLimited); URLs are queued but no host may be fetched yet (politeness); or nothing is
 * queued at all.
 */
export function idleStep(state: CrawlState, queued: number, rateLimited: boolean): ThreadStep {
  if (state === 'pausing' || state === 'paused') return 'paused';
  if (queued === 0) return 'waiting';
  return rateLimited ? 'ratelimit' : 'politeness';
}

export class Dispatcher {
  private pumping = false;
  /** The last pump claimed fewer URLs than idle threads because of the URLs/s cap, not because none were ready. */
  private rateLimited = false;
  private pumpAgain = false;
  private nextJobId = 1;
  private readonly wake = new WakeTimer(() => this.pump());

  constructor(
    private readonly store: FrontierStore,
    private readonly pool: WorkerPool,
    private readonly calls: StoreCalls,
    private readonly steering: Steering,
    private readonly settings: CrawlSettings,
    private readonly live: LiveSettings,
    private readonly host: DispatchHost,
  ) {}

  /**
   * Hands claimable URLs to idle threads, and finishes the crawl when there is nothing left. One pump runs at a
   * time; a pump asked for while one runs runs again right after it.
   */
  pump(): void {
    if (this.host.state() !== 'running') return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.calls
      .run(() => this.pumpOnce())
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  /** Forgets the pending wake-up (pausing, stopping, or a new rate cap that changes when it is due). */
  clearWake(): void {
    this.wake.clear();
  }

  /** Gives idle threads the step that says why they are idle. */
  settleIdleThreads(): void {
    const step = idleStep(this.host.state(), this.store.counts().queued, this.rateLimited && this.live.bucket !== null);
    for (const t of this.pool.idleThreads()) if (t.setStep(step)) this.host.changed();
  }

  private async pumpOnce(): Promise<void> {
    if (this.host.state() !== 'running') return;
    const now = Date.now();
    let want = this.pool.idleThreads().length;
    const limit = this.settings.maxPages;
    if (limit !== null) {
      const counts = this.store.counts();
      want = Math.min(want, Math.max(0, limit - counts.crawled - counts.failed - this.pool.busyCount()));
    }
    const bucket = this.live.bucket;
    const uncapped = want;
    if (bucket) want = Math.min(want, bucket.available(now));
    const claims = want > 0 ? await this.store.claim(want, now) : [];
    if (bucket && claims.length) bucket.take(claims.length, now);
    // The cap held threads back when it cut what was asked for and the store gave all that was left of it.
    this.rateLimited = want < uncapped && claims.length >= want;
    // The thread idle longest goes first, so work spreads over the pool instead of piling on thread #1
    // whenever fewer URLs are ready than threads (a rate cap, politeness). Read after the claim: threads may
    // have retired or stopped meanwhile; what nobody can take goes back.
    const idle = this.host.state() === 'running' ? this.pool.idleThreads().sort((a, b) => a.stepSince - b.stepSince) : [];
    for (let i = 0; i < claims.length; i++) {
      const thread = idle[i];
      const job: ThreadJob = { jobId: this.nextJobId++, claim: claims[i]! };
      if (!thread || !this.pool.dispatch(thread, job)) await this.store.release(job.claim, false);
    }
    this.settleIdleThreads();
    this.host.changed();
    if (await this.finishIfDone()) return;
    await this.scheduleWake(now);
  }

  /**
   * The crawl is over when nothing is queued (deferred included) or in flight, or the page limit is reached. In a
   * cluster, "nothing" means on every node, and the store decides it once for all (steering.ts).
   */
  private async finishIfDone(): Promise<boolean> {
    if (this.pool.busyCount() > 0 || this.calls.pendingWrites > 0) return false;
    const counts = this.store.counts();
    const limit = this.settings.maxPages;
    if (limit !== null && counts.crawled + counts.failed >= limit) {
      this.host.finish('page limit');
      return true;
    }
    if (!(await this.steering.isComplete(counts.queued, this.pool.idleThreads().length))) return false;
    this.host.finish('completed');
    return true;
  }

  /** When idle threads have nothing ready only because of politeness or the rate cap, wake exactly then. */
  private async scheduleWake(now: number): Promise<void> {
    if (this.pool.idleThreads().length === 0) return;
    let at = await this.store.nextReadyAt();
    const bucket = this.live.bucket;
    if (bucket && this.store.counts().queued > 0) {
      const wait = bucket.waitMs(now);
      if (wait > 0) at = Math.max(at ?? 0, now + wait);
    }
    if (at !== null) this.wake.set(at);
  }
}
