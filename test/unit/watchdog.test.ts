// The job watchdog's decisions (electron/engine/pool/watchdog.ts) and the pool acting on them with a worker that
// takes jobs and never answers, as a worker whose event loop spins would.
import { describe, expect, it } from 'vitest';
import { fetchAllowanceMs, watchdogVerdict } from '../../electron/engine/pool/watchdog.ts';
import type { OverranJob, PoolListener } from '../../electron/engine/pool/worker-pool.ts';
import { WorkerPool } from '../../electron/engine/pool/worker-pool.ts';
import type { ThreadJob } from '../../electron/engine/pool/crawl-thread.ts';
import type { WorkerExit, WorkerHandle } from '../../electron/engine/pool/worker-spawner.ts';
import type { ParentToWorker } from '../../shared/protocol.ts';
import { parseSettings } from '../../shared/settings.ts';
import { SilentWorkerHandle, settle } from '../helpers/silent-worker.ts';

const timing = { responseTimeoutMs: 1_000, processingBudgetMs: 500 };

describe('job deadline', () => {
  it('allows a page its whole-response timeout, then its processing budget', () => {
    expect(fetchAllowanceMs('page', timing)).toBe(1_000);
    expect(watchdogVerdict('page', 0, timing)).toBe('on time');
    expect(watchdogVerdict('page', 1_000, timing)).toBe('on time');
    expect(watchdogVerdict('page', 1_001, timing)).toBe('overdue');
    expect(watchdogVerdict('page', 1_500, timing)).toBe('overdue');
    expect(watchdogVerdict('page', 1_501, timing)).toBe('overran');
    expect(watchdogVerdict('page', 1_000_000, timing)).toBe('overran');
  });

  it('allows a robots.txt job one fetch per redirect it may follow (six)', () => {
    expect(fetchAllowanceMs('robots', timing)).toBe(6_000);
    expect(watchdogVerdict('robots', 5_999, timing)).toBe('on time');
    expect(watchdogVerdict('robots', 6_400, timing)).toBe('overdue');
    expect(watchdogVerdict('robots', 6_501, timing)).toBe('overran');
  });

  it('follows the settings: the defaults give a page 20 s to fetch and 10 s more', () => {
    const defaults = parseSettings({ seeds: ['https://a.test/'] });
    expect(defaults.processingBudgetMs).toBe(10_000);
    expect(watchdogVerdict('page', 29_999, defaults)).toBe('overdue');
    expect(watchdogVerdict('page', 30_001, defaults)).toBe('overran');
  });
});

describe("the pool's watchdog", () => {
  it('flags an overdue thread, then kills its process past the deadline and reports that job alone as overran', async () => {
    const handles: SilentWorkerHandle[] = [];
    const deaths: { exit: WorkerExit; lost: ThreadJob[]; overran: OverranJob[] }[] = [];
    let progress = 0;
    const listener: PoolListener = {
      threadsAvailable: () => undefined,
      result: () => undefined,
      progress: () => void progress++,
      processDied: (_name, exit, lost, overran) => void deaths.push({ exit, lost, overran }),
      failed: (message) => {
        throw new Error(message);
      },
    };
    const settings = parseSettings({ seeds: ['https://a.test/'], ...timing });
    const spawner = {
      spawn: (name: string): WorkerHandle => {
        const h = new SilentWorkerHandle(name, 1000 + handles.length);
        handles.push(h);
        return h;
      },
    };
    const pool = new WorkerPool(spawner, settings, 1, listener);
    pool.resize(2);
    await settle();
    const [a, b] = pool.idleThreads();
    const claim = (urlId: number) => ({
      kind: 'page' as const,
      urlId,
      hostId: 1,
      url: `https://a.test/${urlId}`,
      depth: 1,
      hops: 0,
      urlKind: 'page' as const,
      checkOnly: false,
    });
    const first: ThreadJob = { jobId: 1, claim: claim(1) };
    const second: ThreadJob = { jobId: 2, claim: claim(2) };
    expect(pool.dispatch(a!, first)).toBe(true);
    const t0 = a!.jobStartedAt;
    expect(pool.dispatch(b!, second)).toBe(true);
    b!.jobStartedAt = t0 + 400; // handed out later: not past its own deadline yet

    pool.checkDeadlines(t0 + 900);
    expect(a!.overdue).toBe(false);
    pool.checkDeadlines(t0 + 1_200);
    expect(a!.overdue).toBe(true);
    expect(a!.status().overdue).toBe(true);
    expect(b!.status().overdue).toBeUndefined();
    expect(progress).toBeGreaterThan(0);
    expect(handles[0]!.kills).toBe(0);

    pool.checkDeadlines(t0 + 1_600);
    expect(handles[0]!.kills).toBe(1);
    pool.checkDeadlines(t0 + 2_000); // the kill is under way: not blamed again, nor anyone else
    expect(handles[0]!.kills).toBe(1);
    await settle();

    expect(deaths).toHaveLength(1);
    expect(deaths[0]!.exit.reason).toMatch(/killed by the watchdog/);
    expect(deaths[0]!.overran.map((o) => o.job)).toEqual([first]);
    expect(deaths[0]!.overran[0]!.thread).toBe(a);
    expect(deaths[0]!.lost).toEqual([second]);
    // A fresh process took over both threads, which hold nothing and are no longer flagged.
    expect(handles).toHaveLength(2);
    expect(a!.busy || b!.busy || a!.overdue).toBe(false);
    await settle();
    expect(pool.threads().map((t) => t.pid)).toEqual([1001, 1001]);
    await pool.close();
  });
});

/** A worker whose result for its job was already in the pipe when the watchdog decided to kill it. */
class LateResultHandle extends SilentWorkerHandle {
  job: { jobId: number; threadId: number; url: string } | null = null;
  protected override post(batch: ParentToWorker[]): void {
    super.post(batch);
    for (const message of batch)
      if (message.t === 'job') this.job = { jobId: message.job.jobId, threadId: message.job.threadId, url: message.job.url };
  }
  override kill(): void {
    this.kills++;
    const job = this.job!;
    queueMicrotask(() => {
      this.emitMessages({
        t: 'result',
        result: {
          kind: 'robots',
          jobId: job.jobId,
          threadId: job.threadId,
          url: job.url,
          statusCode: 200,
          body: '',
          responseTimeMs: 1,
          error: null,
        },
      });
      this.emitExit(null, 'SIGKILL');
    });
  }
}

describe('a result that arrives after the kill was decided', () => {
  it("is the job's result: the job is not reported overran too (a robots.txt recorded twice was fetched again)", async () => {
    const results: ThreadJob[] = [];
    const deaths: { exit: WorkerExit; lost: ThreadJob[]; overran: OverranJob[] }[] = [];
    const listener: PoolListener = {
      threadsAvailable: () => undefined,
      result: (_t, job) => void results.push(job),
      progress: () => undefined,
      processDied: (_name, exit, lost, overran) => void deaths.push({ exit, lost, overran }),
      failed: (message) => {
        throw new Error(message);
      },
    };
    const settings = parseSettings({ seeds: ['https://a.test/'], ...timing });
    const handles: LateResultHandle[] = [];
    const spawner = {
      spawn: (name: string): WorkerHandle => {
        const h = new LateResultHandle(name, 2000 + handles.length);
        handles.push(h);
        return h;
      },
    };
    const pool = new WorkerPool(spawner, settings, 1, listener);
    pool.resize(1);
    await settle();
    const [thread] = pool.idleThreads();
    const job: ThreadJob = { jobId: 7, claim: { kind: 'robots', hostId: 1, url: 'https://a.test/robots.txt' } };
    expect(pool.dispatch(thread!, job)).toBe(true);
    await settle();
    pool.checkDeadlines(thread!.jobStartedAt + 7_000);
    expect(handles[0]!.kills).toBe(1);
    await settle();
    expect(results).toEqual([job]);
    expect(deaths).toHaveLength(1);
    expect(deaths[0]!.overran).toEqual([]);
    expect(deaths[0]!.lost).toEqual([]);
    // Still the watchdog's kill: the controller counts no crash for the process's other jobs.
    expect(deaths[0]!.exit.byWatchdog).toBe(true);
    await pool.close();
  });
});
