// The controller's line to its FrontierStore. Store calls are async (a PostgreSQL store answers over the network)
// and run one at a time, in order, so a claim never overlaps the recording of a result; results that arrive while
// the store is busy are recorded together by the next call (group commit), so a store that answers over the
// network is not paid a round trip per page. It also counts the writes handed over but not done yet: the crawl is
// not over (nor paused) while any are.
import type { JobResult, PageFetchResult } from '../../../shared/protocol.ts';
import type { Claim, FrontierStore } from '../frontier/frontier-store.ts';
import type { CrawlThread, ThreadJob } from '../pool/crawl-thread.ts';
import type { RateMeter } from './rate-meter.ts';

interface PendingResult {
  thread: CrawlThread;
  job: ThreadJob;
  result: JobResult;
  at: number;
}

export class StoreCalls {
  /** The end of the chain of store calls: each call starts when the one before has finished. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Results and released claims handed to the store but not recorded yet. */
  private writes = 0;
  /** Results waiting for the store, recorded together by the next store call (see record). */
  private pendingResults: PendingResult[] = [];
  private recordQueued = false;

  constructor(
    private readonly store: FrontierStore,
    private readonly rate: RateMeter,
    /** A store call failed: the crawl fails (the store has kept what it could). */
    private readonly failed: (message: string) => void,
  ) {}

  /** Runs a store call after the ones before it; a failure fails the crawl and resolves to undefined. */
  run<T>(work: () => Promise<T>): Promise<T | undefined> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run.catch((err: unknown) => {
      this.failed(err instanceof Error ? err.message : String(err));
      return undefined;
    });
  }

  /** Resolves once every store call handed over so far has finished. */
  drained(): Promise<unknown> {
    return this.queue;
  }

  /** Writes handed to the store and not done yet. */
  get pendingWrites(): number {
    return this.writes;
  }

  /** A write the crawl must wait for: counted from now until it is done, then `after` runs. */
  write(work: () => Promise<void>, after: () => void): void {
    this.writes++;
    void this.run(work).finally(() => {
      this.writes--;
      after();
    });
  }

  /**
   * Work outside the store that ends in a write (a robots.txt a render claimed, until it is recorded): counted from
   * now until the returned function is called, then `after` runs.
   */
  begin(after: () => void): () => void {
    this.writes++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.writes--;
      after();
    };
  }

  /** A thread's result: recorded with the others that arrive while the store is busy, in one store call. */
  record(thread: CrawlThread, job: ThreadJob, result: JobResult, after: () => void): void {
    this.writes++;
    this.pendingResults.push({ thread, job, result, at: Date.now() });
    if (this.recordQueued) return;
    this.recordQueued = true;
    let batch: PendingResult[] = [];
    void this.run(async () => {
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
        else if (r.job.claim.kind === 'sitemap' && r.result.kind === 'sitemap')
          await this.store.recordSitemap?.(r.job.claim, r.result, r.at);
      }
    }).finally(() => {
      this.writes -= batch.length;
      after();
    });
  }
}
