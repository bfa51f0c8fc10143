// The pool of crawl threads (Heritrix's ToePool) spread over worker OS processes, and its monitor (crawler4j's):
// a process that dies is noticed from its exit at once, the URLs its threads held are handed back, and a fresh
// process takes over its threads. Its watchdog (watchdog.ts) gives every job a deadline: a process holding a job
// past it is killed and replaced the same way, and that job is handed back as overran, not to be tried again.
import type { ParsedSettings } from '../../../shared/settings.ts';
import type { Job, JobResult, WorkerToParent } from '../../../shared/protocol.ts';
import type { RenderRequest, RenderResult } from '../../../shared/render.ts';
import { CrawlThread } from './crawl-thread.ts';
import type { ThreadJob } from './crawl-thread.ts';
import { watchdogTickMs, watchdogVerdict } from './watchdog.ts';
import type { WorkerExit, WorkerHandle, WorkerSpawner } from './worker-spawner.ts';

/** Processes that die before ever becoming ready, in a row, before the pool gives up. */
const MAX_FAILED_STARTS = 3;

export interface PoolListener {
  /** Threads became free to take work (a process got ready). */
  threadsAvailable(): void;
  /** A thread finished its job. The thread may already have left the pool if it was retiring. */
  result(thread: CrawlThread, job: ThreadJob, result: JobResult): void;
  /** A thread's step or bytes changed inside its worker. */
  progress(thread: CrawlThread): void;
  /**
   * A worker process died while its threads held these jobs: `lost` are to be given back; `overran` ran past their
   * deadline (the watchdog killed the process for them) and are to be recorded as "processing timeout".
   */
  processDied(name: string, exit: WorkerExit, lost: ThreadJob[], overran: OverranJob[]): void;
  /** Worker processes cannot be started at all. */
  failed(message: string): void;
}

/** Renders a page for a thread (the controller's render pool with the crawl's resource fetcher). */
export type RenderService = (request: RenderRequest) => Promise<RenderResult>;

/** A render that could not be made, as its answer. */
export function renderFailure(error: string): RenderResult {
  return { html: null, jsRedirect: null, consoleErrors: [], pageErrors: [], failedResources: [], blockedResources: [], renderMs: 0, error };
}

/** A job the watchdog killed its worker for, with the thread that held it. */
export interface OverranJob {
  thread: CrawlThread;
  job: ThreadJob;
}

class WorkerProcess {
  ready = false;
  /** Being shut down on purpose: its exit is not a crash. */
  leaving = false;
  /** Set when the watchdog killed it: the jobs that ran past their deadline. */
  overran: OverranJob[] | null = null;
  readonly threads = new Set<CrawlThread>();
  constructor(
    readonly name: string,
    readonly handle: WorkerHandle,
  ) {}
}

export class WorkerPool {
  private readonly processes = new Set<WorkerProcess>();
  private readonly threadsById = new Map<number, CrawlThread>();
  private readonly processOf = new Map<CrawlThread, WorkerProcess>();
  private nextProcessNumber = 1;
  private failedStarts = 0;
  private closed = false;
  private lastFailure = '';
  private watchdog: NodeJS.Timeout | null = null;
  /** Renders the workers ask for (crawls with rendering on); null: every request is answered with an error. */
  private renderService: RenderService | null = null;
  /** When the watchdog's timer last fired, and whether that tick judged nothing (see watchdogTick). */
  private lastTickAt = 0;
  private skippedTick = false;

  constructor(
    private readonly spawner: WorkerSpawner,
    /** Sent to every worker process as they are: parsed once, where the crawl's settings entered. */
    private readonly settings: ParsedSettings,
    private readonly maxProcesses: number,
    private readonly listener: PoolListener,
  ) {}

  /** Where the workers' render requests go from now on. */
  renderWith(service: RenderService | null): void {
    this.renderService = service;
  }

  /** Threads in the pool (retiring ones included), by id. */
  threads(): CrawlThread[] {
    return [...this.threadsById.values()];
  }

  thread(id: number): CrawlThread | undefined {
    return this.threadsById.get(id);
  }

  /** Threads that can take a URL now. */
  idleThreads(): CrawlThread[] {
    const out: CrawlThread[] = [];
    for (const t of this.threadsById.values()) if (!t.busy && !t.retiring && this.processOf.get(t)?.ready) out.push(t);
    return out;
  }

  busyCount(): number {
    let n = 0;
    for (const t of this.threadsById.values()) if (t.busy) n++;
    return n;
  }

  /** Non-retiring threads: the pool's size as the user sees it. */
  activeCount(): number {
    let n = 0;
    for (const t of this.threadsById.values()) if (!t.retiring) n++;
    return n;
  }

  /**
   * Grows or shrinks the pool to `target` threads, live. Growing starts threads at once; shrinking retires idle
   * threads now and busy ones after their current URL, so nothing is lost or fetched twice.
   */
  resize(target: number): void {
    if (this.closed) return;
    let active = this.activeCount();
    // Threads on their way out are the cheapest to keep: call them back first.
    for (const t of this.threadsById.values()) {
      if (active >= target) break;
      if (t.retiring) {
        t.retiring = false;
        t.setStep(t.busy ? 'fetching' : 'waiting');
        active++;
      }
    }
    while (active < target) {
      this.addThread();
      active++;
    }
    if (active > target) {
      // Idle threads leave first, newest first; then busy ones, after their current URL.
      const candidates = [...this.threadsById.values()]
        .filter((t) => !t.retiring)
        .sort((a, b) => Number(a.busy) - Number(b.busy) || b.id - a.id);
      for (const t of candidates.slice(0, active - target)) {
        if (t.busy) {
          t.retiring = true;
          t.setStep('retiring');
          this.listener.progress(t);
        } else this.removeThread(t);
      }
    }
  }

  private addThread(): void {
    const wanted = Math.min(this.maxProcesses, this.activeCount() + 1);
    let proc: WorkerProcess | undefined;
    if (this.liveProcesses().length < wanted) proc = this.spawnProcess();
    else proc = this.liveProcesses().sort((a, b) => activeIn(a) - activeIn(b))[0];
    if (!proc) proc = this.spawnProcess();
    const thread = new CrawlThread(this.freeThreadId(), proc.name, proc.handle.pid ?? null);
    if (proc.ready) thread.setStep('waiting');
    this.attach(thread, proc);
    if (proc.ready) this.listener.threadsAvailable();
  }

  /** The lowest number no thread in the pool has: after shrinking to 4 and growing to 16, the new threads are #5-#16. */
  private freeThreadId(): number {
    let id = 1;
    while (this.threadsById.has(id)) id++;
    return id;
  }

  private liveProcesses(): WorkerProcess[] {
    return [...this.processes].filter((p) => !p.leaving);
  }

  private attach(thread: CrawlThread, proc: WorkerProcess): void {
    proc.threads.add(thread);
    this.processOf.set(thread, proc);
    this.threadsById.set(thread.id, thread);
    thread.workerName = proc.name;
    thread.pid = proc.handle.pid ?? null;
  }

  private removeThread(thread: CrawlThread): void {
    const proc = this.processOf.get(thread);
    this.threadsById.delete(thread.id);
    this.processOf.delete(thread);
    if (!proc) return;
    proc.threads.delete(thread);
    if (proc.threads.size === 0 && !proc.leaving) {
      proc.leaving = true;
      void proc.handle.stop();
    }
  }

  private spawnProcess(): WorkerProcess {
    const name = `crawl-worker-${this.nextProcessNumber++}`;
    const handle = this.spawner.spawn(name);
    const proc = new WorkerProcess(name, handle);
    this.processes.add(proc);
    handle.onMessage((m) => this.onMessage(proc, m));
    handle.onExit((exit) => this.onExit(proc, exit));
    handle.send({ t: 'init', workerName: name, settings: this.settings });
    return proc;
  }

  private onMessage(proc: WorkerProcess, message: WorkerToParent): void {
    switch (message.t) {
      case 'ready': {
        proc.ready = true;
        this.failedStarts = 0;
        for (const t of proc.threads) {
          t.pid = message.pid;
          if (!t.busy && !t.retiring) t.setStep('waiting');
        }
        this.listener.threadsAvailable();
        return;
      }
      case 'steps': {
        for (const report of message.steps) {
          const t = this.threadsById.get(report.threadId);
          if (!t || t.job?.jobId !== report.jobId) continue;
          t.setStep(t.retiring ? 'retiring' : report.step, report.processor);
          t.bytes = report.bytes;
          this.listener.progress(t);
        }
        return;
      }
      case 'result': {
        const t = this.threadsById.get(message.result.threadId);
        const job = t?.job;
        if (!t || !job || job.jobId !== message.result.jobId) return;
        t.job = null;
        t.overdue = false;
        t.setStep('returning', 'disposition');
        if (t.retiring) this.removeThread(t);
        this.listener.result(t, job, message.result);
        return;
      }
      case 'render':
        return this.render(proc, message);
      case 'fatal':
        this.lastFailure = message.message;
        return;
    }
  }

  /** A worker's render request: answered when the render is done (its time off the job's watchdog clock). */
  private render(proc: WorkerProcess, message: Extract<WorkerToParent, { t: 'render' }>): void {
    const t = this.threadsById.get(message.threadId);
    if (!t || t.job?.jobId !== message.jobId) return;
    const since = Date.now();
    t.renderingSince = since;
    const service = this.renderService;
    const answer = service ? service(message.request) : Promise.resolve(renderFailure('rendering is not available'));
    void answer
      .catch((err: unknown) => renderFailure(`render failed: ${err instanceof Error ? err.message : String(err)}`))
      .then((result) => {
        if (t.job?.jobId === message.jobId && t.renderingSince === since) {
          t.jobStartedAt += Date.now() - since;
          t.renderingSince = 0;
        }
        if (this.processes.has(proc)) proc.handle.send({ t: 'rendered', requestId: message.requestId, result });
      });
  }

  private onExit(proc: WorkerProcess, died: WorkerExit): void {
    this.processes.delete(proc);
    // A job whose result came in after the kill was decided (it was in the pipe) is done, not overran: blaming it
    // too recorded it twice, and a robots.txt recorded as "processing timeout" after its rules was fetched again.
    const overran = (proc.overran ?? []).filter((o) => o.thread.job === o.job);
    const exit = proc.overran
      ? { ...died, byWatchdog: true, reason: `killed by the watchdog: ${overran.length} URL(s) ran past their deadline` }
      : died;
    const lost: ThreadJob[] = [];
    for (const t of proc.threads) {
      if (t.job && !overran.some((o) => o.job === t.job)) lost.push(t.job);
      t.job = null;
      t.overdue = false;
      t.setStep('dead');
    }
    if (proc.leaving || this.closed) {
      for (const t of proc.threads) this.removeThread(t);
      if (lost.length || overran.length) this.listener.processDied(proc.name, exit, lost, overran);
      return;
    }
    if (!proc.ready) this.failedStarts++;
    const survivors = [...proc.threads].filter((t) => !t.retiring);
    for (const t of proc.threads) if (t.retiring) this.removeThread(t);
    this.listener.processDied(proc.name, exit, lost, overran);
    if (this.failedStarts >= MAX_FAILED_STARTS) {
      const detail = this.lastFailure ? `: ${this.lastFailure}` : ` (last one ${exit.reason})`;
      this.closed = true;
      this.listener.failed(`worker processes keep failing to start${detail}`);
      return;
    }
    if (survivors.length === 0) return;
    // A fresh process takes over the same threads (same ids, so the grid keeps its cells).
    const fresh = this.spawnProcess();
    for (const t of survivors) {
      this.threadsById.delete(t.id);
      this.processOf.delete(t);
      this.attach(t, fresh);
      t.setStep('starting');
    }
  }

  /** Hands a job to an idle thread. False when its process is gone (the job was not sent). */
  dispatch(thread: CrawlThread, job: ThreadJob): boolean {
    const proc = this.processOf.get(thread);
    if (!proc || !proc.ready) return false;
    thread.job = job;
    thread.jobStartedAt = Date.now();
    thread.renderingSince = 0;
    thread.overdue = false;
    thread.setStep('claimed', 'preconditions');
    const sent = proc.handle.send({ t: 'job', job: jobMessage(thread.id, job) });
    if (!sent) thread.job = null;
    else this.watchdog ??= setInterval(() => this.watchdogTick(), watchdogTickMs(this.settings)).unref();
    return sent;
  }

  /**
   * A tick of the watchdog's timer. One that comes late (this process's event loop was blocked: timers run before
   * the messages that arrived meanwhile are read) judges nothing: a job whose result is waiting unread would be
   * blamed for the parent's stall. The next tick, after those messages, judges; only one tick in a row is skipped.
   */
  private watchdogTick(now = Date.now()): void {
    const late = this.lastTickAt !== 0 && now - this.lastTickAt > 2 * watchdogTickMs(this.settings) + 500 && !this.skippedTick;
    this.lastTickAt = now;
    this.skippedTick = late;
    if (!late) this.checkDeadlines(now);
  }

  /**
   * The watchdog's round: flags threads whose job is past its fetch allowance, and kills the process of any job
   * past its deadline (a spinning job holds its whole process, so nothing less ends it). The exit then takes the
   * crash path: a fresh process takes over the threads, the other jobs are given back, the overran ones reported.
   */
  checkDeadlines(now = Date.now()): void {
    if (this.closed) return;
    for (const proc of this.processes) {
      if (proc.overran) continue; // being killed already
      const overran: OverranJob[] = [];
      for (const t of proc.threads) {
        if (!t.job) continue;
        const verdict = watchdogVerdict(t.job.claim.kind, t.jobElapsedMs(now), this.settings);
        if (verdict === 'overran') overran.push({ thread: t, job: t.job });
        else if (verdict === 'overdue' && !t.overdue) {
          t.overdue = true;
          this.listener.progress(t);
        }
      }
      if (overran.length === 0) continue;
      proc.overran = overran;
      proc.handle.kill();
    }
  }

  /** Kills every worker process at once (a stop that cannot wait any longer). */
  killAll(): void {
    for (const p of this.processes) p.handle.kill();
  }

  /** Shuts every worker down (graceful, then killed after `graceMs`); resolves when all have exited. */
  async close(graceMs = 3_000): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    const procs = [...this.processes];
    for (const p of procs) p.leaving = true;
    await Promise.all(procs.map((p) => p.handle.stop(graceMs)));
  }
}

/** The job as sent to the worker that runs it on thread `threadId`. */
export function jobMessage(threadId: number, job: ThreadJob): Job {
  const c = job.claim;
  if (c.kind === 'sitemap') return { kind: 'sitemap', jobId: job.jobId, threadId, url: c.url };
  return c.kind === 'page'
    ? { kind: 'page', jobId: job.jobId, threadId, url: c.url, depth: c.depth, checkOnly: c.checkOnly }
    : { kind: 'robots', jobId: job.jobId, threadId, url: c.url };
}

function activeIn(p: WorkerProcess): number {
  let n = 0;
  for (const t of p.threads) if (!t.retiring) n++;
  return n;
}
