// The steps of this worker's busy threads, reported to the engine in one batched message per STEP_REPORT_MS
// instead of one message per step change: at hundreds of pages a second the per-message IPC write was a tenth
// of a worker's time.
import { STEP_REPORT_MS } from '../../shared/protocol.ts';
import type { ThreadStepReport } from '../../shared/protocol.ts';

export class StepBoard {
  private readonly changed = new Map<number, ThreadStepReport>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly send: (steps: ThreadStepReport[]) => void) {}

  /** Notes a thread's step; it goes out with the next batch unless its job ends first. */
  set(report: ThreadStepReport): void {
    this.changed.set(report.threadId, report);
    this.timer ??= setTimeout(() => this.flush(), STEP_REPORT_MS);
  }

  /** The thread's job is over: its result says more than any step still waiting to go out. */
  clear(threadId: number): void {
    this.changed.delete(threadId);
  }

  private flush(): void {
    this.timer = null;
    if (this.changed.size === 0) return;
    const steps = [...this.changed.values()];
    this.changed.clear();
    this.send(steps);
  }
}
