// The renderer's store: snapshots coalesced to one update per frame, per-thread identity kept, history bounded.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectCrawlStore, createCrawlStore, selectStuck, selectThread, showCrawl } from '../../renderer/src/store/crawl-store.ts';
import { HISTORY_POINTS, STUCK_AFTER_MS } from '../../renderer/src/store/crawl-view.ts';
import { fakeApi, manualFrames, snapshot, thread } from './helpers.ts';

function setup() {
  const api = fakeApi();
  const frames = manualFrames();
  const store = createCrawlStore();
  let updates = 0;
  store.subscribe(() => updates++);
  const disconnect = connectCrawlStore(store, api, { frames, localNow: () => 1_000_500 });
  return { api, frames, store, disconnect, updates: () => updates };
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
  vi.useRealTimers();
});

describe('coalescing', () => {
  it('applies many snapshots arriving within one frame as one store update, the newest winning', () => {
    const t = setup();
    cleanup = t.disconnect;
    for (let i = 1; i <= 50; i++) t.api.emitSnapshot(snapshot({ at: 1_000_000 + i }, { crawled: i, pagesPerSecond: i }));
    expect(t.updates()).toBe(0);
    expect(t.frames.pending()).toBe(1);
    expect(t.frames.run()).toBe(1);
    expect(t.updates()).toBe(1);
    const s = t.store.getState();
    expect(s.counters.crawled).toBe(50);
    expect(s.state).toBe('running');
    // Every snapshot still counts for the throughput history.
    expect(s.history).toHaveLength(50);
    expect(s.history[49]).toBe(50);
    // Nothing new: no frame asked for.
    expect(t.frames.pending()).toBe(0);
  });

  it('one more frame per new burst, never more than one pending', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 1 }));
    t.api.emitState({ from: 'running', to: 'pausing', reason: null, error: null, at: 2 });
    t.api.emitSnapshot(snapshot({ at: 3 }));
    expect(t.frames.pending()).toBe(1);
    t.frames.run();
    t.api.emitSnapshot(snapshot({ at: 4 }));
    t.api.emitSnapshot(snapshot({ at: 5 }));
    t.frames.run();
    expect(t.updates()).toBe(2);
  });

  it('keeps the order of a state change and a snapshot within one frame', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ state: 'running', at: 10 }));
    t.api.emitState({ from: 'running', to: 'paused', reason: null, error: null, at: 11 });
    t.frames.run();
    expect(t.store.getState().state).toBe('paused');

    t.api.emitState({ from: 'paused', to: 'running', reason: null, error: null, at: 12 });
    t.api.emitSnapshot(snapshot({ state: 'stopping', at: 13 }));
    t.frames.run();
    expect(t.store.getState().state).toBe('stopping');
  });

  it('stops listening when disconnected', () => {
    const t = setup();
    t.api.emitSnapshot(snapshot());
    t.disconnect();
    expect(t.api.listenerCount()).toBe(0);
    expect(t.frames.pending()).toBe(0);
  });
});

describe('per-thread identity', () => {
  it('keeps a thread object (and the id list) when another thread changes', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 1, threads: [thread(1), thread(2), thread(3)] }));
    t.frames.run();
    const before = t.store.getState();
    const one = selectThread(1)(before);
    const two = selectThread(2)(before);
    expect(one?.id).toBe(1);

    // A brand-new snapshot object, where only thread 2 moved on.
    t.api.emitSnapshot(
      snapshot({ at: 2, threads: [thread(1), thread(2, { step: 'fetching', url: 'https://a.test/x', stepSince: 1_000_400 }), thread(3)] }),
    );
    t.frames.run();
    const after = t.store.getState();
    expect(selectThread(1)(after)).toBe(one);
    expect(selectThread(3)(after)).toBe(selectThread(3)(before));
    expect(selectThread(2)(after)).not.toBe(two);
    expect(selectThread(2)(after)?.step).toBe('fetching');
    expect(after.threadIds).toBe(before.threadIds);
    expect(after.stepCounts).toEqual({ waiting: 2, fetching: 1 });
  });

  it('keeps the whole thread map when nothing about the threads changed', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 1 }, { crawled: 1 }));
    t.frames.run();
    const before = t.store.getState();
    t.api.emitSnapshot(snapshot({ at: 2 }, { crawled: 2 }));
    t.frames.run();
    const after = t.store.getState();
    expect(after.threadsById).toBe(before.threadsById);
    expect(after.stepCounts).toBe(before.stepCounts);
    expect(after.counters).not.toBe(before.counters);
  });

  it('gives a new id list, sorted, when threads come and go', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 1, threads: [thread(3), thread(1)] }));
    t.frames.run();
    expect(t.store.getState().threadIds).toEqual([1, 3]);
    t.api.emitSnapshot(snapshot({ at: 2, threads: [thread(1), thread(4, { step: 'starting' }), thread(3, { step: 'retiring' })] }));
    t.frames.run();
    expect(t.store.getState().threadIds).toEqual([1, 3, 4]);
    expect(selectThread(3)(t.store.getState())?.step).toBe('retiring');
  });
});

describe('throughput history', () => {
  it('keeps at most HISTORY_POINTS points, newest last', () => {
    const t = setup();
    cleanup = t.disconnect;
    for (let i = 1; i <= 3 * HISTORY_POINTS; i++) {
      t.api.emitSnapshot(snapshot({ at: i }, { pagesPerSecond: i }));
      if (i % 7 === 0) t.frames.run();
    }
    t.frames.run();
    const { history } = t.store.getState();
    expect(history).toHaveLength(HISTORY_POINTS);
    expect(history[HISTORY_POINTS - 1]).toBe(3 * HISTORY_POINTS);
    expect(history[0]).toBe(2 * HISTORY_POINTS + 1);
  });

  it('adds no point for a snapshot seen twice (the current one, replayed on subscribe)', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 5 }, { pagesPerSecond: 3 }));
    t.frames.run();
    t.api.emitSnapshot(snapshot({ at: 5 }, { pagesPerSecond: 3 }));
    t.frames.run();
    expect(t.store.getState().history).toEqual([3]);
  });

  it('starts over for a new crawl', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 1 }, { pagesPerSecond: 7, elapsedMs: 50_000 }));
    t.frames.run();
    const key = t.store.getState().crawlKey;
    t.api.emitState({ from: null, to: 'preparing', reason: null, error: null, at: 2 });
    t.frames.run();
    expect(t.store.getState().history).toEqual([]);
    expect(t.store.getState().crawlKey).toBe(key + 1);
    t.api.emitSnapshot(snapshot({ at: 3 }, { pagesPerSecond: 1, elapsedMs: 100 }));
    t.frames.run();
    expect(t.store.getState().history).toEqual([1]);
  });
});

describe('clock and stuck threads', () => {
  it('ticks one shared clock while the crawl is live, and flags a thread stuck in a working step', () => {
    vi.useFakeTimers();
    let local = 5_000;
    const api = fakeApi();
    const frames = manualFrames();
    const store = createCrawlStore();
    cleanup = connectCrawlStore(store, api, { frames, localNow: () => local, tickMs: 250 });
    // The host's clock is 1,000,000 ms ahead of ours.
    api.emitSnapshot(
      snapshot({
        at: 1_005_000,
        threads: [thread(1, { step: 'fetching', stepSince: 1_000_000 }), thread(2, { step: 'waiting', stepSince: 900_000 })],
      }),
    );
    frames.run();
    expect(selectStuck(1)(store.getState())).toBe(false);
    local += STUCK_AFTER_MS;
    vi.advanceTimersByTime(250);
    expect(store.getState().now).toBe(1_000_000 + local);
    expect(selectStuck(1)(store.getState())).toBe(true);
    // Waiting for a URL a long time is normal.
    expect(selectStuck(2)(store.getState())).toBe(false);

    // Finished: the clock stops.
    api.emitState({ from: 'running', to: 'finished', reason: 'completed', error: null, at: 1 });
    frames.run();
    const now = store.getState().now;
    local += 5_000;
    vi.advanceTimersByTime(1_000);
    expect(store.getState().now).toBe(now);
    expect(selectStuck(1)(store.getState())).toBe(false);
  });
});

describe('overdue threads', () => {
  it('flags a thread the engine says is overdue as stuck at once, however short its time in step', () => {
    const api = fakeApi();
    const frames = manualFrames();
    const store = createCrawlStore();
    cleanup = connectCrawlStore(store, api, { frames, localNow: () => 5_000, tickMs: 250 });
    api.emitSnapshot(
      snapshot({
        at: 5_000,
        threads: [thread(1, { step: 'processing', stepSince: 4_900, overdue: true }), thread(2, { step: 'processing', stepSince: 4_900 })],
      }),
    );
    frames.run();
    expect(selectStuck(1)(store.getState())).toBe(true);
    expect(selectStuck(2)(store.getState())).toBe(false);
    // Over: nothing is stuck any more.
    api.emitState({ from: 'running', to: 'finished', reason: 'completed', error: null, at: 1 });
    frames.run();
    expect(selectStuck(1)(store.getState())).toBe(false);
  });
});

describe('opened crawls', () => {
  it('an opened crawl is shown until a live crawl comes along', () => {
    const t = setup();
    cleanup = t.disconnect;
    t.api.emitSnapshot(snapshot({ at: 1, state: 'finished', reason: 'completed', threads: [] }));
    t.frames.run();
    const info = {
      file: '/c/a.trawl',
      seeds: ['https://a.test/'],
      createdAt: '2025-01-01T00:00:00Z',
      state: 'finished',
      finishReason: 'completed',
      crawled: 5,
      queued: 0,
      failed: 0,
      name: '',
      description: '',
      tags: [],
      summary: '',
    };
    showCrawl(t.store, info.file, info);
    expect(t.store.getState().opened).toEqual(info);
    t.api.emitState({ from: null, to: 'preparing', reason: null, error: null, at: 2 });
    t.frames.run();
    expect(t.store.getState().opened).toBeNull();
  });
});

describe('live settings in the store', () => {
  it('keeps the URLs/s cap and the exclude patterns added live, the same array while they do not change', () => {
    const t = setup();
    cleanup = t.disconnect;
    expect(t.store.getState().maxUrlsPerSecond).toBeNull();
    expect(t.store.getState().liveExcludes).toEqual([]);
    t.api.emitSnapshot(snapshot({ at: 10, maxUrlsPerSecond: 5, liveExcludes: ['/tag/'] }));
    t.frames.run();
    const first = t.store.getState().liveExcludes;
    expect(t.store.getState().maxUrlsPerSecond).toBe(5);
    expect(first).toEqual(['/tag/']);
    t.api.emitSnapshot(snapshot({ at: 11, maxUrlsPerSecond: null, liveExcludes: ['/tag/'] }));
    t.frames.run();
    expect(t.store.getState().maxUrlsPerSecond).toBeNull();
    expect(t.store.getState().liveExcludes).toBe(first);
    t.api.emitSnapshot(snapshot({ at: 12, liveExcludes: ['/tag/', '\\?page='] }));
    t.frames.run();
    expect(t.store.getState().liveExcludes).toEqual(['/tag/', '\\?page=']);
  });
});
