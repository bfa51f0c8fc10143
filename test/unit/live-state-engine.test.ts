// The engine's decisions behind an honest live view (issue 15): thread numbers reused after a shrink, elapsed time
// without paused time (carried over to a resumed crawl), and an idle thread's step telling the URLs/s cap apart
// from per-host politeness.
import { describe, expect, it } from 'vitest';
import { ActiveClock, averageRate } from '../../electron/engine/controller/timers.ts';
import { idleStep } from '../../electron/engine/controller/dispatch.ts';
import type { PoolListener } from '../../electron/engine/pool/worker-pool.ts';
import { WorkerPool } from '../../electron/engine/pool/worker-pool.ts';
import type { WorkerHandle } from '../../electron/engine/pool/worker-spawner.ts';
import { parseSettings } from '../../shared/settings.ts';
import { SilentWorkerHandle, settle } from '../helpers/silent-worker.ts';

function pool(): WorkerPool {
  const listener: PoolListener = {
    threadsAvailable: () => undefined,
    result: () => undefined,
    progress: () => undefined,
    processDied: () => undefined,
    failed: (message) => {
      throw new Error(message);
    },
  };
  let n = 0;
  const spawner = { spawn: (name: string): WorkerHandle => new SilentWorkerHandle(name, 2000 + n++) };
  return new WorkerPool(spawner, parseSettings({ seeds: ['https://a.test/'] }), 2, listener);
}

const ids = (p: WorkerPool) =>
  p
    .threads()
    .map((t) => t.id)
    .sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('thread numbers', () => {
  it('after shrinking to 4 and growing to 16, the new threads are #5-#16: free numbers are reused, no gap', async () => {
    const p = pool();
    p.resize(10);
    await settle();
    expect(ids(p)).toEqual(range(1, 10));
    p.resize(4);
    expect(ids(p)).toEqual(range(1, 4));
    p.resize(16);
    await settle();
    expect(ids(p)).toEqual(range(1, 16));
    await p.close(10);
  });

  it('a gap left in the middle is filled first', async () => {
    const p = pool();
    p.resize(6);
    await settle();
    // Threads #2 and #3 busy, the rest idle: shrinking to 2 keeps the busy ones, the idle newest leave first.
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
    expect(p.dispatch(p.thread(2)!, { jobId: 1, claim: claim(1) })).toBe(true);
    expect(p.dispatch(p.thread(3)!, { jobId: 2, claim: claim(2) })).toBe(true);
    p.resize(2);
    expect(ids(p)).toEqual([2, 3]);
    p.resize(5);
    expect(ids(p)).toEqual([1, 2, 3, 4, 5]);
    await p.close(10);
  });
});

describe('elapsed time', () => {
  it('leaves paused time out, and continues from the total after a resume', () => {
    const clock = new ActiveClock();
    clock.run(1_000);
    expect(clock.elapsedMs(11_000)).toBe(10_000);
    clock.hold(11_000); // paused
    expect(clock.elapsedMs(71_000)).toBe(10_000);
    clock.run(71_000); // resumed a minute later
    expect(clock.elapsedMs(76_000)).toBe(15_000);
    clock.run(80_000); // running already: no restart
    expect(clock.elapsedMs(81_000)).toBe(20_000);
    clock.hold(81_000);
    clock.hold(90_000);
    expect(clock.elapsedMs(99_000)).toBe(20_000);
  });

  it("carries a reopened crawl's earlier sessions", () => {
    const clock = new ActiveClock(20_000);
    expect(clock.elapsedMs(0)).toBe(20_000);
    clock.run(5_000);
    expect(clock.elapsedMs(8_000)).toBe(23_000);
  });

  it("gives a finished crawl's average rate over its elapsed time", () => {
    expect(averageRate(120, 60_000)).toBe(2);
    expect(averageRate(1, 3_000)).toBe(0.3);
    expect(averageRate(5, 0)).toBe(0);
  });
});

describe("an idle thread's step", () => {
  it('says rate limit when the URLs/s cap holds URLs back, politeness when only the hosts must wait', () => {
    expect(idleStep('running', 30, true)).toBe('ratelimit');
    expect(idleStep('running', 30, false)).toBe('politeness');
    expect(idleStep('running', 0, true)).toBe('waiting');
    expect(idleStep('paused', 30, true)).toBe('paused');
    expect(idleStep('pausing', 30, false)).toBe('paused');
  });
});
