// Fakes for the renderer tests: an api whose events the test fires, a frame scheduler the test runs by hand,
// and snapshots; and components rendered to HTML inside a provider.
import { createElement } from 'react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { COMMAND_NAMES } from '../../shared/commands.ts';
import type { CommandMethods, CrawlerApi } from '../../shared/crawler-api.ts';
import type { CrawlSnapshot, StateChange, ThreadStatus } from '../../shared/snapshot.ts';
import { createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import type { FrameScheduler } from '../../renderer/src/store/crawl-store.ts';
import type { CrawlView } from '../../renderer/src/store/crawl-view.ts';
import { TrawlProvider } from '../../renderer/src/store/context.tsx';

export interface FakeApi extends CrawlerApi {
  emitSnapshot(s: CrawlSnapshot): void;
  emitState(c: StateChange): void;
  emitCleared(): void;
  listenerCount(): number;
}

export function fakeApi(overrides: Partial<CrawlerApi> = {}): FakeApi {
  const snapshotListeners = new Set<(s: CrawlSnapshot) => void>();
  const stateListeners = new Set<(c: StateChange) => void>();
  const clearedListeners = new Set<() => void>();
  const never = () => Promise.reject(new Error('not in this test'));
  return {
    // Every command of the table rejects unless the test overrides it.
    ...(Object.fromEntries(COMMAND_NAMES.map((name) => [name, never])) as unknown as CommandMethods),
    ...overrides,
    onSnapshot(listener) {
      snapshotListeners.add(listener);
      return () => void snapshotListeners.delete(listener);
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    onCleared(listener) {
      clearedListeners.add(listener);
      return () => void clearedListeners.delete(listener);
    },
    emitSnapshot: (s) => snapshotListeners.forEach((l) => l(s)),
    emitState: (c) => stateListeners.forEach((l) => l(c)),
    emitCleared: () => clearedListeners.forEach((l) => l()),
    listenerCount: () => snapshotListeners.size + stateListeners.size + clearedListeners.size,
  };
}

export interface ManualFrames extends FrameScheduler {
  /** Runs the callbacks waiting for the next frame; returns how many ran. */
  run(): number;
  pending(): number;
}

export function manualFrames(): ManualFrames {
  let queue = new Map<number, () => void>();
  let next = 1;
  return {
    request(cb) {
      const id = next++;
      queue.set(id, cb);
      return id;
    },
    cancel(handle) {
      queue.delete(handle as number);
    },
    run() {
      const batch = queue;
      queue = new Map();
      batch.forEach((cb) => cb());
      return batch.size;
    },
    pending: () => queue.size,
  };
}

export function thread(id: number, patch: Partial<ThreadStatus> = {}): ThreadStatus {
  return {
    id,
    worker: `crawl-worker-${(id % 2) + 1}`,
    pid: 1000 + id,
    step: 'waiting',
    processor: null,
    url: null,
    stepSince: 1_000_000,
    bytes: 0,
    pagesDone: 0,
    errors: 0,
    ...patch,
  };
}

export function snapshot(patch: Partial<CrawlSnapshot> = {}, counters: Partial<CrawlSnapshot['counters']> = {}): CrawlSnapshot {
  return {
    state: 'running',
    reason: null,
    error: null,
    threadTarget: 3,
    maxUrlsPerSecond: null,
    liveExcludes: [],
    threads: [thread(1), thread(2), thread(3)],
    counters: { queued: 10, inFlight: 0, crawled: 0, failed: 0, pagesPerSecond: 0, elapsedMs: 1_000, ...counters },
    at: 1_000_500,
    ...patch,
  };
}

/** Renders inside a provider whose store starts from `state` (SSR reads the store's initial state). */
export function render(element: ReactElement, state: Partial<CrawlView> = {}): string {
  const store = createCrawlStore();
  store.setState(state);
  const initial = store.getState();
  store.getInitialState = () => initial;
  return renderToStaticMarkup(createElement(TrawlProvider, { api: fakeApi(), store, children: element }));
}
