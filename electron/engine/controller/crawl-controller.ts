// The crawl controller (Heritrix's CrawlController): owns the crawl file, the frontier and the worker pool, runs
// the lifecycle PREPARING -> RUNNING <-> PAUSING -> PAUSED, STOPPING -> FINISHED (lifecycle.ts), hands URLs to
// idle threads, and tells the outside what happens. Everything is event-driven: work is handed out when a thread
// frees up, a result arrives or a host's politeness wait ends, and the crawl finishes the moment nothing is queued
// or in flight. It runs in plain Node and imports nothing from electron.
//
// The controller works through a FrontierStore (frontier/frontier-store.ts): a SQLite crawl file by default, or a
// PostgreSQL crawl shared with other nodes. Store calls run one at a time in order (store-calls.ts), so a claim
// never overlaps the recording of a result. What differs between a crawl run alone and a node of a cluster (who
// obeys pause, resume and thread changes, who decides the crawl is over) is in steering.ts.
//
// Settings arrive parsed (ParsedSettings), by whatever let them in: the start form, the command line, a
// PostgreSQL crawl joined, or a crawl file reopened by crawl-file-store.ts; the controller and its workers never
// parse them again.
//
// About 490 lines, kept whole on purpose: what is left is the controller's public face (create, resume, withStore,
// start, pause, resume, stop, setThreads, snapshot) and the wiring between its parts; each job it had is a module
// of this folder already, and splitting the wiring would only spread one object's state across files.
import { CrawlResourceFetcher, type CrawlHosts } from '../render/resource-fetcher.ts';
import { robotsRulesFrom, robotsUrlOf } from '../frontier/robots-rules.ts';
import type { Renderer } from '../render/renderer.ts';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { ParsedSettings, CrawlSettings } from '../../../shared/settings.ts';
import { checkThreadCount } from '../../../shared/settings.ts';
import type { CrawlSnapshot, CrawlState, FinishReason, StateChange } from '../../../shared/snapshot.ts';
import type { FrontierStore } from '../frontier/frontier-store.ts';
import { jobMessage, WorkerPool, type OverranJob } from '../pool/worker-pool.ts';
import type { ThreadJob } from '../pool/crawl-thread.ts';
import { PROCESSING_TIMEOUT } from '../pool/watchdog.ts';
import { failedResult } from '../../../shared/job-result.ts';
import type { WorkerExit, WorkerSpawner } from '../pool/worker-spawner.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { createCrawlFileStore, reopenCrawlFileStore, type ResumeOverrides } from './crawl-file-store.ts';
import { Dispatcher } from './dispatch.ts';
import { checkTransition, isEnding } from './lifecycle.ts';
import { checkMaxRate, checkPattern, LiveSettings } from './live-settings.ts';
import { RateMeter } from './rate-meter.ts';
import { steeringFor, type Steering } from './steering.ts';
import { StoreCalls } from './store-calls.ts';
import { ActiveClock, averageRate, Throttle } from './timers.ts';

/** Snapshots go out at most this often, however fast the crawl. */
export const SNAPSHOT_INTERVAL_MS = 100;
/** How often a running crawl notes its elapsed time in its file (also at every pause and at the end). */
const ELAPSED_NOTE_MS = 5_000;
/** How long stop() lets threads finish the URL in hand before killing their processes. */
const STOP_GRACE_MS = 5_000;

export interface FinishInfo {
  reason: FinishReason;
  error: string | null;
  snapshot: CrawlSnapshot;
}

export interface ControllerEvents {
  state: [StateChange];
  snapshot: [CrawlSnapshot];
  /** A worker process died; `requeued` URLs went back to the frontier, `failed` were recorded as crashed. */
  workerDied: [{ worker: string; reason: string; requeued: number; failed: number }];
  /** The shared store cannot be reached (error) or is back (null): work waits meanwhile, nothing is lost. */
  store: [{ error: string | null }];
  finished: [FinishInfo];
}

export interface ControllerOptions {
  /** The crawl file (for create and resume; a shared store is passed to CrawlController.withStore instead). */
  dbPath: string;
  spawner: WorkerSpawner;
  /** Defaults to the machine's CPU count: the most worker processes used when settings.processes is null. */
  cpuCount?: number;
  /** Seals the crawl's credentials in its file (the plain store when missing; the desktop app passes safeStorage's). */
  secrets?: SecretStore;
  /** Sitemaps in local files (`--sitemap FILE`) a new crawl reads before it starts. */
  sitemapFiles?: readonly string[];
  /**
   * The browsers that render pages when the crawl's settings say so (the CLI and web console pass a playwright-core
   * pool, the desktop app its own Chromium's); called once, with the crawl's settings, only when they render.
   * Without it such a crawl records every render as failed ("rendering is not available").
   */
  renderer?: (settings: ParsedSettings) => Renderer;
}

export class CrawlController extends EventEmitter<ControllerEvents> {
  readonly settings: ParsedSettings;
  private state: CrawlState = 'preparing';
  private reason: FinishReason | null = null;
  private error: string | null = null;
  private readonly store: FrontierStore;
  private readonly calls: StoreCalls;
  private readonly steering: Steering;
  private readonly pool: WorkerPool;
  /** The crawl's browsers and the fetcher of what they load (settings.render), ended with the crawl. */
  private readonly rendering: { renderer: Renderer; resources: CrawlResourceFetcher; ended: AbortController } | null = null;
  /** Set while the shared store is unreachable (its message). */
  private storeError: string | null = null;
  private readonly rate = new RateMeter();
  /** Settings changed while the crawl runs (threads, URLs/s cap, excludes), written back to the crawl file. */
  private readonly live: LiveSettings;
  private threadTarget: number;
  private startedAt = 0;
  /** Since when the crawl runs again (start or the last resume): the pages/s window starts there. */
  private runningSince = 0;
  /** Elapsed time with paused time left out, continuing a reopened crawl's (timers.ts). */
  private readonly clock: ActiveClock;
  /** Pages/s when the crawl paused: a paused crawl keeps showing it rather than a rate sinking to 0. */
  private pausedRate = 0;
  private elapsedNotedAt = 0;
  private readonly dispatcher: Dispatcher;
  private readonly snapshots: Throttle;
  private stopping: Promise<FinishInfo> | null = null;
  /** Called once no thread holds a URL any more, while a stop waits for them. */
  private stopWaiters: (() => void)[] = [];
  private resolveDone!: (info: FinishInfo) => void;
  /** Resolves once the crawl has finished, for whatever reason. */
  readonly done: Promise<FinishInfo>;

  /** Creates a new crawl file from parsed settings. */
  static create(settings: ParsedSettings, options: ControllerOptions): CrawlController {
    const file = createCrawlFileStore(settings, options.dbPath, options.secrets, options.sitemapFiles);
    return new CrawlController(file.store, settings, options, file.prepared, file.elapsedMs);
  }

  /**
   * A controller over a store that exists already (a PostgreSQL crawl this process has created or joined): the
   * store's cluster, if any, steers it.
   */
  static withStore(
    store: FrontierStore,
    settings: ParsedSettings,
    options: Omit<ControllerOptions, 'dbPath'>,
    prepare?: Promise<unknown>,
  ): CrawlController {
    return new CrawlController(store, settings, { ...options, dbPath: store.label }, prepare ?? Promise.resolve());
  }

  /**
   * Reopens a crawl file to continue it (crawl-file-store.ts): URLs that were in flight when it was interrupted are
   * queued again. Throws a SettingsError when the settings stored in the file are invalid.
   */
  static resume(options: ControllerOptions, overrides: ResumeOverrides = {}): CrawlController {
    const file = reopenCrawlFileStore(options.dbPath, overrides, options.secrets);
    return new CrawlController(file.store, file.settings, options, file.prepared, file.elapsedMs);
  }

  private constructor(
    store: FrontierStore,
    settings: ParsedSettings,
    options: ControllerOptions,
    /** Store work that must be done before the crawl starts (seeding, lease recovery). */
    private readonly prepared: Promise<unknown>,
    /** Elapsed time of a reopened crawl's earlier sessions. */
    carriedElapsedMs = 0,
  ) {
    super();
    this.clock = new ActiveClock(carriedElapsedMs);
    this.settings = settings;
    this.store = store;
    this.calls = new StoreCalls(store, this.rate, (message) => void this.finish('failed', message));
    this.live = new LiveSettings(settings);
    this.snapshots = new Throttle(SNAPSHOT_INTERVAL_MS, (at) => this.publishSnapshot(at));
    this.steering = steeringFor(store, settings, this.calls, {
      state: () => this.state,
      threadTarget: () => this.threadTarget,
      pauseHere: () => this.pauseHere(),
      resumeHere: () => this.resumeHere(),
      resizeHere: (n) => this.resizeHere(n),
      keepThreads: (n) => {
        this.live.setThreads(n);
        this.persistSettings();
      },
      rateHere: (perSecond) => this.rateHere(perSecond),
      keepRate: () => this.persistSettings(),
      finish: (reason) => void this.finish(reason, null),
      pump: () => this.dispatcher.pump(),
      storeReachable: (error) => this.onStoreReachable(error),
    });
    this.threadTarget = this.steering.startThreads;
    // By default one worker process per core but one: the parent (frontier and crawl file) keeps a core of its
    // own. On 2 cores one worker hosting all threads beat two sharing the cores with the parent by a fifth.
    const maxProcesses = settings.processes ?? Math.max(1, (options.cpuCount ?? os.availableParallelism()) - 1);
    this.pool = new WorkerPool(options.spawner, settings, maxProcesses, {
      threadsAvailable: () => this.dispatcher.pump(),
      // Recorded with the results that arrive while the store is busy (group commit, store-calls.ts).
      result: (thread, job, result) => this.calls.record(thread, job, result, () => this.afterWork()),
      progress: () => this.changed(),
      processDied: (name, exit, lost, overran) => this.onProcessDied(name, exit, lost, overran),
      failed: (message) => void this.finish('failed', message),
    });
    if (settings.render && options.renderer) {
      const ended = new AbortController();
      const rendering = {
        renderer: options.renderer(settings),
        resources: new CrawlResourceFetcher(settings, this.hostsForRenders(ended.signal)),
        ended,
      };
      this.rendering = rendering;
      this.pool.renderWith((request) => rendering.renderer.render(request, rendering.resources.fetch, rendering.ended.signal));
    }
    this.dispatcher = new Dispatcher(store, this.pool, this.calls, this.steering, settings, this.live, {
      state: () => this.state,
      changed: () => this.changed(),
      finish: (reason) => void this.finish(reason, null),
    });
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  private onStoreReachable(error: string | null): void {
    this.storeError = error;
    this.emit('store', { error });
    if (error) this.changed();
    else this.dispatcher.pump();
  }

  get crawlState(): CrawlState {
    return this.state;
  }

  /** Starts the worker processes and the crawl. */
  start(): void {
    if (this.state !== 'preparing' || this.startedAt) throw new Error(`cannot start a crawl that is ${this.state}`);
    this.startedAt = Date.now();
    this.runningSince = this.startedAt;
    this.clock.run(this.startedAt);
    this.emitState(null, 'preparing');
    void this.calls
      .run(() => this.prepared)
      .then(() => {
        if (this.state !== 'preparing') return;
        this.guard(() => {
          this.pool.resize(this.threadTarget);
          this.transition('running');
          // A node joining a paused cluster holds its threads at once.
          if (this.steering.startsPaused()) this.pauseHere();
          this.dispatcher.pump();
        });
      });
  }

  /** Lets every thread finish the URL in hand, then holds them until resume(). In a cluster: every node's threads. */
  pause(): void {
    this.steering.pause();
  }

  private pauseHere(): void {
    if (this.state !== 'running') return;
    this.transition('pausing');
    this.dispatcher.clearWake();
    this.dispatcher.settleIdleThreads();
    this.checkPaused();
  }

  resume(): void {
    this.steering.resume();
  }

  private resumeHere(): void {
    if (this.state !== 'paused' && this.state !== 'pausing') return;
    this.transition('running');
    this.dispatcher.pump();
  }

  /**
   * Resizes the pool live: growing starts threads at once, shrinking retires threads after their current URL. In
   * a cluster n is the whole cluster's thread count.
   */
  setThreads(n: number): void {
    checkThreadCount(n);
    if (isEnding(this.state)) return;
    this.steering.setThreads(n);
  }

  private resizeHere(n: number): void {
    this.threadTarget = n;
    this.guard(() => {
      this.pool.resize(n);
      this.dispatcher.settleIdleThreads();
      this.dispatcher.pump();
      this.changed();
    });
  }

  /** Changes the global URLs/s cap live (null: no cap); the next claims follow it. */
  setMaxRate(perSecond: number | null): void {
    checkMaxRate(perSecond);
    if (isEnding(this.state)) return;
    this.guard(() => this.steering.setMaxRate(perSecond));
  }

  /** This node's URLs/s cap (a crawl's own, or its share of a cluster's): the next claims follow it. */
  private rateHere(perSecond: number | null): void {
    this.live.setMaxRate(perSecond);
    this.dispatcher?.clearWake();
    this.dispatcher?.pump();
    this.changed();
  }

  /**
   * Adds an exclude pattern live: queued URLs matching it are dropped at once, and links found later that match
   * it are not crawled. Returns how many queued URLs were dropped. Throws a RangeError for an invalid pattern.
   */
  async addExclude(pattern: string): Promise<{ dropped: number }> {
    checkPattern(pattern, 'exclude pattern');
    if (isEnding(this.state)) throw new RangeError(`the crawl is ${this.state}`);
    const dropped = await this.calls.run(() => this.store.addExclude(pattern));
    this.live.addExclude(pattern);
    this.persistSettings();
    this.changed();
    this.dispatcher.pump();
    return { dropped: dropped ?? 0 };
  }

  /** Pushes queued URLs matching `pattern`, and those found later, to the back of their host's queue. */
  async deprioritise(pattern: string): Promise<{ moved: number }> {
    checkPattern(pattern, 'pattern');
    if (isEnding(this.state)) throw new RangeError(`the crawl is ${this.state}`);
    const moved = await this.calls.run(() => this.store.deprioritise(pattern));
    this.changed();
    return { moved: moved ?? 0 };
  }

  /** The settings as they are now, in the crawl file: a resumed crawl continues with what was changed live. */
  private persistSettings(): void {
    const settings: CrawlSettings = this.live.current();
    void this.calls.run(() => this.store.saveSettings(settings));
  }

  /** Stops gracefully: threads finish their URL (for a few seconds at most), unfinished URLs stay queued. */
  stop(): Promise<FinishInfo> {
    return this.finish('stopped', null);
  }

  snapshot(now = Date.now()): CrawlSnapshot {
    const counts = this.store.counts();
    const elapsedMs = this.clock.elapsedMs(now);
    // Paused: the rate it paused at; finished: its average over its elapsed time, the figure a reopened crawl shows.
    const pagesPerSecond =
      this.state === 'paused'
        ? this.pausedRate
        : this.state === 'finished'
          ? averageRate(counts.crawled + counts.failed, elapsedMs)
          : this.rate.perSecond(now, this.runningSince);
    const snapshot: CrawlSnapshot = {
      state: this.state,
      reason: this.reason,
      error: this.error ?? (this.storeError ? `store unreachable, retrying: ${this.storeError}` : null),
      threadTarget: this.threadTarget,
      maxUrlsPerSecond: this.live.maxUrlsPerSecond,
      liveExcludes: this.live.addedExcludes(),
      threads: this.pool.threads().map((t) => t.status()),
      counters: {
        queued: counts.queued,
        inFlight: this.pool.busyCount(),
        crawled: counts.crawled,
        failed: counts.failed,
        pagesPerSecond,
        elapsedMs,
      },
      at: now,
    };
    if (this.store.info) snapshot.store = this.store.info;
    return snapshot;
  }

  /** After a result or a lost worker: the next step for the lifecycle state the crawl is in. */
  /**
   * The store's hosts as a render's sub-resource fetches reach them: through the one line of store calls, and not
   * after the crawl has ended. A robots.txt a render claimed keeps the crawl from ending until it is recorded.
   */
  private hostsForRenders(ended: AbortSignal): CrawlHosts {
    const claimed = new Map<number, () => void>();
    const unavailable = (origin: string) => ({
      rules: robotsRulesFrom(robotsUrlOf(origin), null, null, this.settings.userAgent, 'the crawl has ended'),
    });
    return {
      reserveFetch: async (origin) =>
        ended.aborted ? Date.now() : ((await this.calls.run(() => this.store.reserveFetch(origin))) ?? Date.now()),
      robotsFor: async (origin) => {
        if (ended.aborted) return unavailable(origin);
        const answer = (await this.calls.run(() => this.store.robotsFor(origin))) ?? unavailable(origin);
        if ('fetch' in answer)
          claimed.set(
            answer.fetch.hostId,
            this.calls.begin(() => this.afterWork()),
          );
        return answer;
      },
      recordRobots: async (claim, result) => {
        if (!ended.aborted) await this.calls.run(() => this.store.recordRobots(claim, result));
        claimed.get(claim.hostId)?.();
        claimed.delete(claim.hostId);
      },
    };
  }

  private afterWork(): void {
    if (this.state === 'stopping') return this.checkStopped();
    if (this.state === 'pausing' || this.state === 'paused') {
      this.dispatcher.settleIdleThreads();
      this.checkPaused();
      return this.changed();
    }
    this.dispatcher.pump();
  }

  private onProcessDied(worker: string, exit: WorkerExit, lost: ThreadJob[], overran: OverranJob[]): void {
    // A job that ran past its deadline is recorded as failed, like any result (never tried again: retry-policy.ts).
    for (const { thread, job } of overran) {
      this.calls.record(thread, job, failedResult(jobMessage(thread.id, job), PROCESSING_TIMEOUT), () => this.afterWork());
    }
    // The watchdog killed the process for those: the others it held did nothing wrong, and go back uncounted.
    // While stopping, a killed worker's URLs simply stay queued for a later resume.
    const crashed = !exit.byWatchdog && overran.length === 0 && !isEnding(this.state);
    const reported = exit.byWatchdog === true || crashed;
    this.calls.write(
      async () => {
        let requeued = 0;
        let failed = 0;
        for (const job of lost) {
          if ((await this.store.release(job.claim, crashed)) === 'requeued') requeued++;
          else failed++;
        }
        if (reported) this.emit('workerDied', { worker, reason: exit.reason, requeued, failed });
        this.changed();
      },
      () => this.afterWork(),
    );
  }

  // ---- lifecycle ----

  private checkPaused(): void {
    if (this.state === 'pausing' && this.pool.busyCount() === 0 && this.calls.pendingWrites === 0) this.transition('paused');
  }

  private checkStopped(): void {
    this.changed();
    if (this.pool.busyCount() === 0) for (const w of this.stopWaiters.splice(0)) w();
  }

  private finish(reason: FinishReason, error: string | null): Promise<FinishInfo> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      this.reason = reason;
      this.error = error;
      this.dispatcher.clearWake();
      if (this.state !== 'stopping') this.transition('stopping');
      if (reason === 'stopped' && this.pool.busyCount() > 0) {
        // Let threads finish the URL in hand, then stop; a thread that takes too long is killed and its URL kept.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, STOP_GRACE_MS);
          this.stopWaiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      if (this.pool.busyCount() > 0) this.pool.killAll();
      this.rendering?.ended.abort();
      await this.pool.close();
      // No browser outlives its crawl.
      await this.rendering?.renderer.close().catch(() => undefined);
      // Every result handed to the store is recorded before it is closed.
      await this.calls.drained();
      this.clock.hold();
      await this.store.noteElapsed?.(this.clock.elapsedMs()).catch(() => undefined);
      try {
        await this.steering.close(this.reason!);
      } catch (err) {
        // A crawl file that cannot be written is itself a failure; report it rather than lose it.
        this.reason = 'failed';
        this.error = this.error ?? `could not write the crawl ${this.steering.keptIn}: ${(err as Error).message}`;
        await this.store.close().catch(() => undefined);
      }
      this.transition('finished');
      this.snapshots.cancel();
      const info: FinishInfo = { reason: this.reason!, error: this.error, snapshot: this.snapshot() };
      this.emit('snapshot', info.snapshot);
      this.emit('finished', info);
      this.resolveDone(info);
      return info;
    })();
    return this.stopping;
  }

  /** Runs engine work; an unexpected error (a broken crawl file, say) fails the crawl instead of crashing it. */
  private guard(work: () => void): void {
    try {
      work();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void this.finish('failed', message);
    }
  }

  private transition(to: CrawlState): void {
    const from = this.state;
    if (from === to) return;
    checkTransition(from, to);
    this.state = to;
    this.timeTransition(to);
    // The state is also in every snapshot; failing to note it in the store must not stop the crawl.
    if (to !== 'finished') void this.calls.run(() => this.store.noteState(to).catch(() => undefined));
    if (to === 'paused' || to === 'running') this.dispatcher.settleIdleThreads();
    // The snapshot goes out before the state change, so no view shows the new state with the old state's figures
    // (a pause shown with the running rate that then jumps to the rate it paused at). The finished snapshot is
    // sent by finish() once the crawl file is closed.
    if (to !== 'finished') this.snapshots.fireNow();
    this.emitState(from, to);
  }

  /** The clock stops while paused (and once finished); pages/s freezes at the rate the crawl paused at. */
  private timeTransition(to: CrawlState, now = Date.now()): void {
    if (to === 'paused') {
      this.pausedRate = this.rate.perSecond(now, this.runningSince);
      this.clock.hold(now);
      this.noteElapsed(now);
    } else if (to === 'finished') this.clock.hold(now);
    else if ((to === 'running' || to === 'pausing') && !this.clock.running) {
      this.clock.run(now);
      this.runningSince = now;
    }
  }

  /** Notes the elapsed time in the crawl file (best effort, like the state). */
  private noteElapsed(now: number): void {
    if (!this.store.noteElapsed) return;
    this.elapsedNotedAt = now;
    const ms = this.clock.elapsedMs(now);
    void this.calls.run(() => this.store.noteElapsed!(ms).catch(() => undefined));
  }

  private emitState(from: CrawlState | null, to: CrawlState): void {
    this.emit('state', {
      from,
      to,
      reason: to === 'finished' ? this.reason : null,
      error: to === 'finished' ? this.error : null,
      at: Date.now(),
    });
  }

  /** Marks the snapshot stale; listeners get at most one snapshot per SNAPSHOT_INTERVAL_MS. */
  private changed(): void {
    if (this.state !== 'finished') this.snapshots.mark();
  }

  private publishSnapshot(at: number): void {
    if (this.clock.running && at - this.elapsedNotedAt >= ELAPSED_NOTE_MS && !isEnding(this.state)) this.noteElapsed(at);
    this.steering.publish(this.state, this.pool.threads());
    if (this.listenerCount('snapshot') > 0) this.emit('snapshot', this.snapshot(at));
  }
}
