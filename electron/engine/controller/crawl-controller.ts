// The crawl controller (Heritrix's CrawlController): owns the crawl file, the frontier and the worker pool, runs
// the lifecycle PREPARING -> RUNNING <-> PAUSING -> PAUSED, STOPPING -> FINISHED, hands URLs to idle threads,
// and tells the outside what happens. Everything is event-driven: work is handed out when a thread frees up, a
// result arrives or a host's politeness wait ends, and the crawl finishes the moment nothing is queued or in
// flight. It runs in plain Node and imports nothing from electron.
//
// The controller works through a FrontierStore (frontier/frontier-store.ts): a SQLite crawl file by default, or a
// PostgreSQL crawl shared with other nodes. Store calls are async and run one at a time in order (serial()), so a
// claim never overlaps the recording of a result. With a shared store the cluster's commands (pause, resume, stop,
// thread count) arrive as events, and the crawl ends when the store says no URL is queued or claimed anywhere.
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { CrawlSettings } from '../../../shared/settings.ts';
import { LIMITS, parseSettings } from '../../../shared/settings.ts';
import { compilePattern } from '../../../shared/scope.ts';
import type { JobResult, PageFetchResult } from '../../../shared/protocol.ts';
import type { CrawlSnapshot, CrawlState, FinishReason, StateChange } from '../../../shared/snapshot.ts';
import { createCrawlFile, openCrawlFile, readStoredSettings, writeMeta } from '../frontier/sqlite/crawl-file.ts';
import { SqliteFrontierStore } from '../frontier/sqlite/sqlite-store.ts';
import type { Claim, FrontierStore } from '../frontier/frontier-store.ts';
import { WorkerPool } from '../pool/worker-pool.ts';
import type { CrawlThread, ThreadJob } from '../pool/crawl-thread.ts';
import type { WorkerExit, WorkerSpawner } from '../pool/worker-spawner.ts';
import { RateMeter, TokenBucket } from './rate-meter.ts';

/** Snapshots go out at most this often, however fast the crawl. */
export const SNAPSHOT_INTERVAL_MS = 100;
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
}

/** Settings that may differ when an interrupted crawl is resumed. */
export interface ResumeOverrides {
  threads?: number;
}

interface PendingResult {
  thread: CrawlThread;
  job: ThreadJob;
  result: JobResult;
  at: number;
}

const ALLOWED: Record<CrawlState, CrawlState[]> = {
  preparing: ['running', 'stopping'],
  running: ['pausing', 'stopping'],
  pausing: ['paused', 'running', 'stopping'],
  paused: ['running', 'stopping'],
  stopping: ['finished'],
  finished: [],
};

export class CrawlController extends EventEmitter<ControllerEvents> {
  readonly settings: CrawlSettings;
  private state: CrawlState = 'preparing';
  private reason: FinishReason | null = null;
  private error: string | null = null;
  private readonly store: FrontierStore;
  private readonly pool: WorkerPool;
  /** The end of the chain of store calls: each call starts when the one before has finished. */
  private storeQueue: Promise<unknown> = Promise.resolve();
  /** Results and released claims handed to the store but not recorded yet: the crawl is not over while any are. */
  private pendingWrites = 0;
  private pumping = false;
  /** Results waiting for the store, recorded together by the next store call (see onResult). */
  private pendingResults: PendingResult[] = [];
  private recordQueued = false;
  private pumpAgain = false;
  /** Set while the shared store is unreachable (its message). */
  private storeError: string | null = null;
  private readonly rate = new RateMeter();
  private bucket: TokenBucket | null;
  /** Settings changed while the crawl runs (threads, URLs/s cap, excludes), written back to the crawl file. */
  private live: Pick<CrawlSettings, 'threads' | 'maxUrlsPerSecond' | 'exclude'>;
  private nextJobId = 1;
  private threadTarget: number;
  private startedAt = 0;
  private finishedAt = 0;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = 0;
  private snapshotTimer: NodeJS.Timeout | null = null;
  private lastSnapshotAt = 0;
  private stopping: Promise<FinishInfo> | null = null;
  /** Called once no thread holds a URL any more, while a stop waits for them. */
  private stopWaiters: (() => void)[] = [];
  private resolveDone!: (info: FinishInfo) => void;
  /** Resolves once the crawl has finished, for whatever reason. */
  readonly done: Promise<FinishInfo>;

  /** Creates a new crawl file from settings; throws a SettingsError (creating nothing) when they are invalid. */
  static create(settingsInput: unknown, options: ControllerOptions): CrawlController {
    const settings = parseSettings(settingsInput);
    const db = createCrawlFile(options.dbPath, settings);
    const controller = new CrawlController(new SqliteFrontierStore(db, settings, options.dbPath), settings, options);
    // SQLite answers at once: the seeds are in the file (and counted) when this returns.
    controller.prepared = controller.store.addSeeds(settings.seeds);
    return controller;
  }

  /**
   * A controller over a store that exists already (a PostgreSQL crawl this process has created or joined): the
   * store's cluster, if any, steers it.
   */
  static withStore(store: FrontierStore, settings: CrawlSettings, options: Omit<ControllerOptions, 'dbPath'>, prepare?: Promise<unknown>): CrawlController {
    const controller = new CrawlController(store, settings, { ...options, dbPath: store.label });
    if (prepare) controller.prepared = prepare;
    return controller;
  }

  /** Reopens a crawl file to continue it: URLs that were in flight when it was interrupted are queued again. */
  static resume(options: ControllerOptions, overrides: ResumeOverrides = {}): CrawlController {
    const db = openCrawlFile(options.dbPath);
    try {
      const stored = readStoredSettings(db) as Record<string, unknown>;
      const settings = parseSettings({ ...stored, ...overrides });
      const controller = new CrawlController(new SqliteFrontierStore(db, settings, options.dbPath), settings, options);
      controller.prepared = controller.store.recoverLeases();
      writeMeta(db, 'settings', JSON.stringify(settings));
      return controller;
    } catch (err) {
      if (db.open) db.close();
      throw err;
    }
  }

  /** Store work that must be done before the crawl starts (seeding, lease recovery). */
  private prepared: Promise<unknown> = Promise.resolve();

  private constructor(store: FrontierStore, settings: CrawlSettings, options: ControllerOptions) {
    super();
    this.settings = settings;
    this.store = store;
    const cluster = store.cluster;
    this.threadTarget = cluster ? cluster.threadShare() : settings.threads;
    this.live = { threads: settings.threads, maxUrlsPerSecond: settings.maxUrlsPerSecond, exclude: [...settings.exclude] };
    this.bucket = settings.maxUrlsPerSecond ? new TokenBucket(settings.maxUrlsPerSecond) : null;
    // By default one worker process per core but one: the parent (frontier and crawl file) keeps a core of its
    // own. On 2 cores one worker hosting all threads beat two sharing the cores with the parent by a fifth.
    const maxProcesses = settings.processes ?? Math.max(1, (options.cpuCount ?? os.availableParallelism()) - 1);
    this.pool = new WorkerPool(options.spawner, settings, maxProcesses, {
      threadsAvailable: () => this.pump(),
      result: (thread, job, result) => this.onResult(thread, job, result),
      progress: () => this.changed(),
      processDied: (name, exit, lost) => this.onProcessDied(name, exit, lost),
      failed: (message) => void this.finish('failed', message),
    });
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    if (cluster) {
      cluster.on('command', (c) => this.onClusterCommand(c));
      cluster.on('work', () => this.pump());
      cluster.on('finished', ({ reason }) => void this.finish(reason, null));
      cluster.on('unavailable', ({ error }) => {
        this.storeError = error;
        this.emit('store', { error });
        this.changed();
      });
      cluster.on('available', () => {
        this.storeError = null;
        this.emit('store', { error: null });
        this.pump();
      });
    }
  }

  /** Runs a store call after the ones before it; a failure fails the crawl (the store has kept what it could). */
  private serial<T>(work: () => Promise<T>): Promise<T | undefined> {
    const run = this.storeQueue.then(work);
    this.storeQueue = run.catch(() => undefined);
    return run.catch((err: unknown) => {
      void this.finish('failed', err instanceof Error ? err.message : String(err));
      return undefined;
    });
  }

  /** A command from the cluster (from any node, or the app attached to the store). */
  private onClusterCommand(c: { state: 'running' | 'paused' | 'stopped'; threads: number }): void {
    if (this.state === 'stopping' || this.state === 'finished') return;
    if (c.threads !== this.threadTarget) this.resizeLocal(c.threads);
    if (c.state === 'stopped') void this.finish('stopped', null);
    else if (c.state === 'paused') this.pauseLocal();
    else if (this.state === 'paused' || this.state === 'pausing') this.resumeLocal();
  }

  get crawlState(): CrawlState {
    return this.state;
  }

  /** Starts the worker processes and the crawl. */
  start(): void {
    if (this.state !== 'preparing' || this.startedAt) throw new Error(`cannot start a crawl that is ${this.state}`);
    this.startedAt = Date.now();
    this.emitState(null, 'preparing');
    void this.serial(() => this.prepared).then(() => {
      if (this.state !== 'preparing') return;
      this.guard(() => {
        this.pool.resize(this.threadTarget);
        this.transition('running');
        // A node joining a paused cluster holds its threads at once.
        if (this.store.cluster?.clusterState() === 'paused') this.pauseLocal();
        this.pump();
      });
    });
  }

  /** Lets every thread finish the URL in hand, then holds them until resume(). In a cluster: every node's threads. */
  pause(): void {
    if (this.store.cluster) return void this.serial(() => this.store.cluster!.command({ state: 'paused' }));
    this.pauseLocal();
  }

  private pauseLocal(): void {
    if (this.state !== 'running') return;
    this.transition('pausing');
    this.clearWake();
    this.settleIdleThreads();
    this.checkPaused();
  }

  resume(): void {
    if (this.store.cluster) return void this.serial(() => this.store.cluster!.command({ state: 'running' }));
    this.resumeLocal();
  }

  private resumeLocal(): void {
    if (this.state !== 'paused' && this.state !== 'pausing') return;
    this.transition('running');
    this.pump();
  }

  /** Resizes the pool live: growing starts threads at once, shrinking retires threads after their current URL. */
  setThreads(n: number): void {
    if (!Number.isInteger(n) || n < LIMITS.threads.min || n > LIMITS.threads.max) {
      throw new RangeError(`threads must be a whole number from ${LIMITS.threads.min} to ${LIMITS.threads.max} (got ${n})`);
    }
    if (this.state === 'stopping' || this.state === 'finished') return;
    // In a cluster n is the whole cluster's thread count; each node takes its share when the command comes back.
    if (this.store.cluster) return void this.serial(() => this.store.cluster!.command({ threads: n }));
    this.live.threads = n;
    this.persistSettings();
    this.resizeLocal(n);
  }

  private resizeLocal(n: number): void {
    this.threadTarget = n;
    this.guard(() => {
      this.pool.resize(n);
      this.settleIdleThreads();
      this.pump();
      this.changed();
    });
  }

  /** Changes the global URLs/s cap live (null: no cap); the next claims follow it. */
  setMaxRate(perSecond: number | null): void {
    if (perSecond !== null && !(typeof perSecond === 'number' && perSecond > 0 && perSecond <= LIMITS.maxUrlsPerSecond)) {
      throw new RangeError(`the URLs/s cap must be more than 0 and at most ${LIMITS.maxUrlsPerSecond}, or none (got ${perSecond})`);
    }
    if (this.state === 'stopping' || this.state === 'finished') return;
    this.guard(() => {
      this.bucket = perSecond ? new TokenBucket(perSecond) : null;
      this.live.maxUrlsPerSecond = perSecond;
      this.persistSettings();
      this.clearWake();
      this.pump();
      this.changed();
    });
  }

  /**
   * Adds an exclude pattern live: queued URLs matching it are dropped at once, and links found later that match
   * it are not crawled. Returns how many queued URLs were dropped. Throws a RangeError for an invalid pattern.
   */
  async addExclude(pattern: string): Promise<{ dropped: number }> {
    const compiled = typeof pattern === 'string' && pattern !== '' ? compilePattern(pattern) : { ok: false as const, error: 'empty' };
    if (!compiled.ok) throw new RangeError(`invalid exclude pattern "${String(pattern)}": ${compiled.error}`);
    if (this.state === 'stopping' || this.state === 'finished') throw new RangeError(`the crawl is ${this.state}`);
    const dropped = await this.serial(() => this.store.addExclude(pattern));
    if (!this.live.exclude.includes(pattern)) this.live.exclude.push(pattern);
    this.persistSettings();
    this.changed();
    this.pump();
    return { dropped: dropped ?? 0 };
  }

  /** Pushes queued URLs matching `pattern`, and those found later, to the back of their host's queue. */
  async deprioritise(pattern: string): Promise<{ moved: number }> {
    const compiled = typeof pattern === 'string' && pattern !== '' ? compilePattern(pattern) : { ok: false as const, error: 'empty' };
    if (!compiled.ok) throw new RangeError(`invalid pattern "${String(pattern)}": ${compiled.error}`);
    if (this.state === 'stopping' || this.state === 'finished') throw new RangeError(`the crawl is ${this.state}`);
    const moved = await this.serial(() => this.store.deprioritise(pattern));
    this.changed();
    return { moved: moved ?? 0 };
  }

  /** The settings as they are now, in the crawl file: a resumed crawl continues with what was changed live. */
  private persistSettings(): void {
    const settings = { ...this.settings, ...this.live };
    void this.serial(() => this.store.saveSettings(settings));
  }

  /** Stops gracefully: threads finish their URL (for a few seconds at most), unfinished URLs stay queued. */
  stop(): Promise<FinishInfo> {
    return this.finish('stopped', null);
  }

  snapshot(now = Date.now()): CrawlSnapshot {
    const counts = this.store.counts();
    const end = this.state === 'finished' ? this.finishedAt : now;
    const snapshot: CrawlSnapshot = {
      state: this.state,
      reason: this.reason,
      error: this.error ?? (this.storeError ? `store unreachable, retrying: ${this.storeError}` : null),
      threadTarget: this.threadTarget,
      maxUrlsPerSecond: this.live.maxUrlsPerSecond,
      liveExcludes: this.live.exclude.slice(this.settings.exclude.length),
      threads: this.pool.threads().map((t) => t.status()),
      counters: {
        queued: counts.queued,
        inFlight: this.pool.busyCount(),
        crawled: counts.crawled,
        failed: counts.failed,
        pagesPerSecond: this.rate.perSecond(end, this.startedAt),
        elapsedMs: this.startedAt ? end - this.startedAt : 0,
      },
      at: now,
    };
    if (this.store.info) snapshot.store = this.store.info;
    return snapshot;
  }

  // ---- scheduling ----

  /**
   * Hands claimable URLs to idle threads, and finishes the crawl when there is nothing left. One pump runs at a
   * time; a pump asked for while one runs runs again right after it.
   */
  private pump(): void {
    if (this.state !== 'running') return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.serial(() => this.pumpOnce()).finally(() => {
      this.pumping = false;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.pump();
      }
    });
  }

  private async pumpOnce(): Promise<void> {
    if (this.state !== 'running') return;
    const now = Date.now();
    let want = this.pool.idleThreads().length;
    const limit = this.settings.maxPages;
    if (limit !== null) {
      const counts = this.store.counts();
      want = Math.min(want, Math.max(0, limit - counts.crawled - counts.failed - this.pool.busyCount()));
    }
    if (this.bucket) want = Math.min(want, this.bucket.available(now));
    const claims = want > 0 ? await this.store.claim(want, now) : [];
    if (this.bucket && claims.length) this.bucket.take(claims.length, now);
    // The thread idle longest goes first, so work spreads over the pool instead of piling on thread #1
    // whenever fewer URLs are ready than threads (a rate cap, politeness). Read after the claim: threads may
    // have retired or stopped meanwhile; what nobody can take goes back.
    const idle = this.state === 'running' ? this.pool.idleThreads().sort((a, b) => a.stepSince - b.stepSince) : [];
    for (let i = 0; i < claims.length; i++) {
      const thread = idle[i];
      const job: ThreadJob = { jobId: this.nextJobId++, claim: claims[i]! };
      if (!thread || !this.pool.dispatch(thread, job)) await this.store.release(job.claim, false);
    }
    this.settleIdleThreads();
    this.changed();
    if (await this.finishIfDone()) return;
    await this.scheduleWake(now);
  }

  /**
   * The crawl is over when nothing is queued (deferred included) or in flight, or the page limit is reached. In a
   * cluster, "nothing" means on every node, and the store decides it once for all.
   */
  private async finishIfDone(): Promise<boolean> {
    if (this.pool.busyCount() > 0 || this.pendingWrites > 0) return false;
    const counts = this.store.counts();
    const limit = this.settings.maxPages;
    if (limit !== null && counts.crawled + counts.failed >= limit) {
      void this.finish('page limit', null);
      return true;
    }
    if (this.store.cluster) {
      if (counts.queued > 0 && this.pool.idleThreads().length === 0) return false;
      if (!(await this.store.cluster.completeIfDone())) return false;
      void this.finish('completed', null);
      return true;
    }
    if (counts.queued === 0) {
      void this.finish('completed', null);
      return true;
    }
    return false;
  }

  /** When idle threads have nothing ready only because of politeness or the rate cap, wake exactly then. */
  private async scheduleWake(now: number): Promise<void> {
    if (this.pool.idleThreads().length === 0) return;
    let at = await this.store.nextReadyAt();
    if (this.bucket && this.store.counts().queued > 0) {
      const wait = this.bucket.waitMs(now);
      if (wait > 0) at = Math.max(at ?? 0, now + wait);
    }
    if (at === null || (this.wakeTimer && this.wakeAt <= at)) return;
    this.clearWake();
    this.wakeAt = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.pump();
    }, Math.max(0, at - Date.now()));
  }

  private clearWake(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
  }

  /** Gives idle threads the step that says why they are idle. */
  private settleIdleThreads(): void {
    const deferred = this.store.counts().queued > 0;
    const step = this.state === 'pausing' || this.state === 'paused' ? 'paused' : deferred ? 'politeness' : 'waiting';
    for (const t of this.pool.idleThreads()) if (t.setStep(step)) this.changed();
  }

  /**
   * A thread's result: recorded with the others that arrive while the store is busy, in one store call (group
   * commit), so a store that answers over the network is not paid a round trip per page.
   */
  private onResult(thread: CrawlThread, job: ThreadJob, result: JobResult): void {
    this.pendingWrites++;
    this.pendingResults.push({ thread, job, result, at: Date.now() });
    if (this.recordQueued) return;
    this.recordQueued = true;
    let batch: PendingResult[] = [];
    void this.serial(async () => {
      this.recordQueued = false;
      batch = this.pendingResults.splice(0);
      const pages = batch.filter((r) => r.job.claim.kind === 'page' && r.result.kind === 'page');
      const outcomes = await this.store.recordPages(
        pages.map((r) => ({ claim: r.job.claim as Extract<Claim, { kind: 'page' }>, result: r.result as PageFetchResult, now: r.at })),
      );
      pages.forEach((r, i) => {
        r.thread.pagesDone++;
        if (outcomes[i] === 'recorded' && (r.result as PageFetchResult).error) r.thread.errors++;
        this.rate.record(r.at);
      });
      for (const r of batch) {
        if (r.job.claim.kind === 'robots' && r.result.kind === 'robots') await this.store.recordRobots(r.job.claim, r.result, r.at);
      }
    }).finally(() => {
      this.pendingWrites -= batch.length;
      this.afterWork();
    });
  }

  /** After a result or a lost worker: the next step for the lifecycle state the crawl is in. */
  private afterWork(): void {
    if (this.state === 'stopping') return this.checkStopped();
    if (this.state === 'pausing' || this.state === 'paused') {
      this.settleIdleThreads();
      this.checkPaused();
      return this.changed();
    }
    this.pump();
  }

  private onProcessDied(worker: string, exit: WorkerExit, lost: ThreadJob[]): void {
    // While stopping, a killed worker's URLs simply stay queued for a later resume.
    const crashed = this.state !== 'stopping' && this.state !== 'finished';
    this.pendingWrites++;
    void this.serial(async () => {
      let requeued = 0;
      let failed = 0;
      for (const job of lost) {
        if ((await this.store.release(job.claim, crashed)) === 'requeued') requeued++;
        else failed++;
      }
      if (crashed) this.emit('workerDied', { worker, reason: exit.reason, requeued, failed });
      this.changed();
    }).finally(() => {
      this.pendingWrites--;
      this.afterWork();
    });
  }

  // ---- lifecycle ----

  private checkPaused(): void {
    if (this.state === 'pausing' && this.pool.busyCount() === 0 && this.pendingWrites === 0) this.transition('paused');
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
      this.clearWake();
      if (this.state !== 'stopping') this.transition('stopping');
      if (reason === 'stopped' && this.pool.busyCount() > 0) {
        // Let threads finish the URL in hand, then stop; a thread that takes too long is killed and its URL kept.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, STOP_GRACE_MS);
          this.stopWaiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      if (this.pool.busyCount() > 0) this.pool.killAll();
      await this.pool.close();
      // Every result handed to the store is recorded before it is closed.
      await this.storeQueue;
      try {
        // A node that leaves a cluster before the crawl is done gives its claimed URLs back at once.
        if (this.store.cluster) await this.store.cluster.leave(reason === 'completed' || reason === 'page limit' ? 'finished' : 'left');
        if (this.store.cluster && reason !== 'completed' && reason !== 'page limit') await this.store.close();
        else await this.store.finish(this.reason!);
      } catch (err) {
        // A crawl file that cannot be written is itself a failure; report it rather than lose it.
        this.reason = 'failed';
        this.error = this.error ?? `could not write the crawl ${this.store.cluster ? 'store' : 'file'}: ${(err as Error).message}`;
        await this.store.close().catch(() => undefined);
      }
      this.finishedAt = Date.now();
      this.transition('finished');
      if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
      this.snapshotTimer = null;
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
    if (!ALLOWED[from].includes(to)) throw new Error(`invalid crawl state change ${from} -> ${to}`);
    this.state = to;
    // The state is also in every snapshot; failing to note it in the store must not stop the crawl.
    if (to !== 'finished') void this.serial(() => this.store.noteState(to).catch(() => undefined));
    if (to === 'paused' || to === 'running') this.settleIdleThreads();
    this.emitState(from, to);
    this.changed();
  }

  private emitState(from: CrawlState | null, to: CrawlState): void {
    this.emit('state', { from, to, reason: to === 'finished' ? this.reason : null, error: to === 'finished' ? this.error : null, at: Date.now() });
  }

  /** Marks the snapshot stale; listeners get at most one snapshot per SNAPSHOT_INTERVAL_MS. */
  private changed(): void {
    if (this.snapshotTimer || this.state === 'finished') return;
    const wait = Math.max(0, this.lastSnapshotAt + SNAPSHOT_INTERVAL_MS - Date.now());
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = null;
      this.lastSnapshotAt = Date.now();
      const cluster = this.store.cluster;
      if (cluster) {
        // Every observer of the cluster sees this node's threads through the store (written with its heartbeat).
        const threads = this.pool.threads();
        cluster.publishStatus(this.state, threads.map((t) => t.status()), threads.reduce((n, t) => n + t.pagesDone, 0));
      }
      if (this.listenerCount('snapshot') > 0) this.emit('snapshot', this.snapshot(this.lastSnapshotAt));
    }, wait);
  }
}
