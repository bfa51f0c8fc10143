// One crawl thread (Heritrix's ToeThread): a slot that holds at most one URL at a time, hosted by a worker
// process. Its step and counters are what the live worker grid shows.
import type { Claim } from '../frontier/model.ts';
import type { ThreadStep } from '../../../shared/steps.ts';
import type { ThreadStatus } from '../../../shared/snapshot.ts';

export interface ThreadJob {
  jobId: number;
  claim: Claim;
}

export class CrawlThread {
  step: ThreadStep = 'starting';
  /** The processor of the chain the thread is in (shared/processors.ts), while it holds a URL. */
  processor: string | null = null;
  stepSince = Date.now();
  bytes = 0;
  pagesDone = 0;
  errors = 0;
  job: ThreadJob | null = null;
  /** Epoch ms when its current job was handed to it (the watchdog's clock starts here). */
  jobStartedAt = 0;
  /**
   * Epoch ms since its page is with the render pool (0: it is not): the pool bounds a render itself, so that
   * time does not count against the job's deadline (the watchdog's clock stops).
   */
  renderingSince = 0;
  /** Its job is past its fetch allowance, spending its processing budget (watchdog.ts): the grid flags it. */
  overdue = false;
  /** Leaves the pool once its current URL is done. */
  retiring = false;

  constructor(
    readonly id: number,
    public workerName: string,
    public pid: number | null,
  ) {}

  /** How long its current job has run by the watchdog's clock: its renders left out. */
  jobElapsedMs(now = Date.now()): number {
    return now - this.jobStartedAt - (this.renderingSince === 0 ? 0 : now - this.renderingSince);
  }

  /** Sets the step (and the processor within it); true when anything changed. */
  setStep(step: ThreadStep, processor: string | null = null, now = Date.now()): boolean {
    if (this.step === step && this.processor === processor) return false;
    this.processor = processor;
    if (this.step === step) return true;
    this.step = step;
    this.stepSince = now;
    if (step !== 'fetching') this.bytes = 0;
    return true;
  }

  get busy(): boolean {
    return this.job !== null;
  }

  status(): ThreadStatus {
    const status: ThreadStatus = {
      id: this.id,
      worker: this.workerName,
      pid: this.pid,
      step: this.step,
      processor: this.processor,
      url: this.job?.claim.url ?? null,
      stepSince: this.stepSince,
      bytes: this.bytes,
      pagesDone: this.pagesDone,
      errors: this.errors,
    };
    if (this.overdue && this.job) status.overdue = true;
    return status;
  }
}
