// The renderer's one store: everything the live view shows, fed by one subscription to the api's snapshots and
// state changes. Snapshots are coalesced to at most one store update per animation frame, and threads that did not
// change keep their object, so a grid cell that selects its own thread re-renders only when that thread changes.
// The state's shape is crawl-view.ts, its pure reducers snapshot-reducer.ts.
import { createStore } from 'zustand/vanilla';
import type { CrawlerApi, CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type { CrawlSnapshot, CrawlState, StateChange, ThreadStatus } from '../../../shared/snapshot.ts';
import { hasConnection, isOffline } from '../api/connection.ts';
import { CLOCK_TICK_MS, HISTORY_POINTS, PATIENT_STEPS, STUCK_AFTER_MS, initialView, isLiveState } from './crawl-view.ts';
import type { CrawlStore, CrawlView, Notice, ThreadKey } from './crawl-view.ts';
import { reduceSnapshot, reduceStateChange } from './snapshot-reducer.ts';
import type { PendingPoint } from './snapshot-reducer.ts';

export function createCrawlStore(): CrawlStore {
  return createStore<CrawlView>()(() => initialView());
}

// ---- selectors (stable: the same input state gives the same output object) ----

export const selectThread =
  (id: ThreadKey) =>
  (s: CrawlView): ThreadStatus | undefined =>
    s.threadsById[id];

/**
 * A thread that stands out: long in one working step, or (the engine says so) past its fetch timeouts and spending
 * its processing budget, which the watchdog enforces.
 */
export const selectStuck =
  (id: ThreadKey) =>
  (s: CrawlView): boolean => {
    const t = s.threadsById[id];
    if (!t || !isLiveState(s.state)) return false;
    return t.overdue === true || (!PATIENT_STEPS.has(t.step) && s.now - t.stepSince > STUCK_AFTER_MS);
  };

// ---- wiring ----

/** requestAnimationFrame, or a timer where there is none (tests, a worker). */
export interface FrameScheduler {
  request(callback: () => void): unknown;
  cancel(handle: unknown): void;
}

export const animationFrames: FrameScheduler =
  typeof requestAnimationFrame === 'function'
    ? { request: (cb) => requestAnimationFrame(cb), cancel: (h) => cancelAnimationFrame(h as number) }
    : { request: (cb) => setTimeout(cb, 16), cancel: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export interface ConnectOptions {
  frames?: FrameScheduler;
  /** Our clock (tests pass a fake one). */
  localNow?: () => number;
  tickMs?: number;
}

/**
 * Feeds the store from the api: one subscription each to snapshots, state changes, "nothing in view" and (WebSocket)
 * connection.
 * Returns the function that undoes it all.
 */
export function connectCrawlStore(store: CrawlStore, api: CrawlerApi, options: ConnectOptions = {}): () => void {
  const frames = options.frames ?? animationFrames;
  const localNow = options.localNow ?? Date.now;
  const tickMs = options.tickMs ?? CLOCK_TICK_MS;

  let frame: unknown = null;
  let pendingSnapshot: CrawlSnapshot | null = null;
  let pendingOffset = 0;
  let pendingPoints: PendingPoint[] = [];
  let pendingChange: StateChange | null = null;
  let changeIsNewer = false;
  let ticker: ReturnType<typeof setInterval> | null = null;

  const flush = () => {
    frame = null;
    let next = store.getState();
    if (pendingChange && !changeIsNewer) next = reduceStateChange(next, pendingChange);
    if (pendingSnapshot) next = reduceSnapshot(next, pendingSnapshot, pendingPoints, pendingOffset);
    if (pendingChange && changeIsNewer) next = reduceStateChange(next, pendingChange);
    pendingSnapshot = null;
    pendingPoints = [];
    pendingChange = null;
    store.setState(next, true);
    updateTicker(next.state);
  };

  const schedule = () => {
    if (frame === null) frame = frames.request(flush);
  };

  const tick = () => {
    const s = store.getState();
    store.setState({ now: localNow() + s.clockOffset });
  };

  // The clock behind "time in step" ticks while a crawl is live and the host is reachable: cut off from it, the
  // page shows the threads as they were when the connection was lost, not timers that go on counting.
  const updateTicker = (state: CrawlState | null) => {
    const ticking = isLiveState(state) && !isOffline(store.getState().connection);
    if (ticking && !ticker) ticker = setInterval(tick, tickMs);
    else if (!ticking && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };

  const offSnapshot = api.onSnapshot((snapshot) => {
    if (!snapshot) return; // the host may say "no crawl yet" with null
    pendingSnapshot = snapshot;
    pendingOffset = snapshot.at - localNow();
    changeIsNewer = false;
    const last = pendingPoints[pendingPoints.length - 1];
    if (!last || snapshot.at > last.at) {
      pendingPoints.push({ at: snapshot.at, pagesPerSecond: snapshot.counters.pagesPerSecond });
      // While frames do not run (a hidden window) only the newest points matter.
      if (pendingPoints.length > HISTORY_POINTS) pendingPoints = pendingPoints.slice(-HISTORY_POINTS);
    }
    schedule();
  });

  const offState = api.onState((change) => {
    if (!change) return;
    pendingChange = change;
    changeIsNewer = true;
    schedule();
  });

  // The host detached from the cluster crawl, whichever window asked: this one empties too. What was on its way is
  // of the crawl no longer in view, so it is dropped rather than applied after.
  const offCleared = api.onCleared(() => {
    if (frame !== null) frames.cancel(frame);
    frame = null;
    pendingSnapshot = null;
    pendingPoints = [];
    pendingChange = null;
    clearCrawl(store);
    updateTicker(null);
  });

  const offConnection = hasConnection(api)
    ? api.onConnection((connection) => {
        store.setState({ connection });
        updateTicker(store.getState().state);
      })
    : () => {};

  return () => {
    offSnapshot();
    offState();
    offCleared();
    offConnection();
    if (frame !== null) frames.cancel(frame);
    frame = null;
    if (ticker) clearInterval(ticker);
    ticker = null;
  };
}

// ---- small actions ----

let nextNoticeId = 1;

export function notify(store: CrawlStore, kind: Notice['kind'], text: string): number {
  const id = nextNoticeId++;
  store.setState((s) => ({ notices: [...s.notices.slice(-4), { id, kind, text }] }));
  return id;
}

export function dismissNotice(store: CrawlStore, id: number): void {
  store.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
}

/** Attached to a cluster crawl in a PostgreSQL store: no crawl file is in view (its snapshots say the rest). */
export function showCluster(store: CrawlStore): void {
  store.setState((s) => ({ file: null, opened: null, crawlKey: s.crawlKey + 1 }));
}

/** Nothing in view any more (detached from a cluster crawl; the host's "cleared" event): the live view starts over, empty. */
export function clearCrawl(store: CrawlStore): void {
  store.setState((s) => ({
    ...initialView(),
    connection: s.connection,
    defaults: s.defaults,
    notices: s.notices,
    crawlKey: s.crawlKey + 1,
  }));
}

/** A crawl was started or resumed (live) or opened (earlier): its results are what the table shows. */
export function showCrawl(store: CrawlStore, file: string, opened: CrawlFileInfo | null): void {
  store.setState((s) => ({
    file,
    opened,
    crawlKey: s.crawlKey + 1,
    ...(opened ? { history: [], historyAt: s.historyAt } : {}),
  }));
}
