// The renderer's one store: everything the live view shows, fed by one subscription to the api's snapshots and
// state changes. Snapshots are coalesced to at most one store update per animation frame, and threads that did not
// change keep their object, so a grid cell that selects its own thread re-renders only when that thread changes.
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { CrawlDefaults, CrawlerApi, CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type { CrawlCounters, CrawlSnapshot, CrawlState, FinishReason, NodeStatus, StateChange, StoreInfo, ThreadStatus } from '../../../shared/snapshot.ts';
import type { ThreadStep } from '../../../shared/steps.ts';
import type { ConnectionStatus } from '../api/connection.ts';
import { hasConnection } from '../api/connection.ts';

/** Points of pages/s kept for the throughput sparkline (one per snapshot; snapshots come at most 10/s). */
export const HISTORY_POINTS = 120;
/** A thread this long in one working step stands out in the grid. */
export const STUCK_AFTER_MS = 10_000;
/** How often the shared clock behind "time in step" ticks. */
export const CLOCK_TICK_MS = 250;
/** Steps in which a long stay is normal (nothing to fetch, a host's politeness delay, a paused crawl). */
export const PATIENT_STEPS: ReadonlySet<ThreadStep> = new Set(['waiting', 'politeness', 'paused']);

/**
 * What a thread is known by in the store: its id in a local crawl; in a cluster, where every node numbers its own
 * threads from 1, "<node>#<id>".
 */
export type ThreadKey = number | string;

export const threadKey = (t: ThreadStatus): ThreadKey => (t.node === undefined ? t.id : `${t.node}#${t.id}`);

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface CrawlView {
  connection: ConnectionStatus;
  /** False until the first snapshot (or state change) arrives. */
  hasSnapshot: boolean;
  state: CrawlState | null;
  reason: FinishReason | null;
  error: string | null;
  threadTarget: number;
  /** The running crawl's URLs/s cap (it can change live); null: none. */
  maxUrlsPerSecond: number | null;
  /** Exclude patterns added while the crawl ran; the same array while they do not change. */
  liveExcludes: readonly string[];
  counters: CrawlCounters;
  /** Keys of the threads in the pool (threadKey), by node then id; the same array while the set of keys is unchanged. */
  threadIds: readonly ThreadKey[];
  /** Each thread keeps its object while nothing about it changes. */
  threadsById: Readonly<Record<ThreadKey, ThreadStatus>>;
  /** A cluster crawl's nodes, live ones first (each keeps its object while unchanged); null for a local crawl. */
  nodes: readonly NodeStatus[] | null;
  /** A cluster crawl's thread keys per node name; each array stays the same while that node's threads do. */
  nodeThreads: Readonly<Record<string, readonly ThreadKey[]>>;
  /** The PostgreSQL store and crawl in view when attached to a cluster crawl; null for a local crawl. */
  cluster: StoreInfo | null;
  stepCounts: Readonly<Partial<Record<ThreadStep, number>>>;
  /** Pages per second, oldest first, at most HISTORY_POINTS. */
  history: readonly number[];
  /** `at` of the snapshot behind the last history point (a snapshot seen twice adds one point). */
  historyAt: number;
  /** The host's clock minus ours, so "time in step" is right even when the console runs on another machine. */
  clockOffset: number;
  /** The host's time now, ticking every CLOCK_TICK_MS while a crawl is live. */
  now: number;
  lastChange: StateChange | null;
  /** Bumped when another crawl comes into view (a new crawl, a resumed or an opened one): results start over. */
  crawlKey: number;
  /** The crawl file whose results are shown, when known (start, resume and open say it). */
  file: string | null;
  /** Set while looking at an earlier crawl opened from the list. */
  opened: CrawlFileInfo | null;
  notices: readonly Notice[];
  /** Every setting's default and the thread limits, from the host (null until it answers). */
  defaults: CrawlDefaults | null;
}

export type CrawlStore = StoreApi<CrawlView>;

const ZERO_COUNTERS: CrawlCounters = { queued: 0, inFlight: 0, crawled: 0, failed: 0, pagesPerSecond: 0, elapsedMs: 0 };
const NO_THREADS: readonly ThreadKey[] = [];
const NO_NODE_THREADS: Readonly<Record<string, readonly ThreadKey[]>> = {};
const NO_EXCLUDES: readonly string[] = [];

export function initialView(): CrawlView {
  return {
    connection: { state: 'connected', detail: null },
    hasSnapshot: false,
    state: null,
    reason: null,
    error: null,
    threadTarget: 0,
    maxUrlsPerSecond: null,
    liveExcludes: NO_EXCLUDES,
    counters: ZERO_COUNTERS,
    threadIds: NO_THREADS,
    threadsById: {},
    nodes: null,
    nodeThreads: NO_NODE_THREADS,
    cluster: null,
    stepCounts: {},
    history: [],
    historyAt: 0,
    clockOffset: 0,
    now: Date.now(),
    lastChange: null,
    crawlKey: 0,
    file: null,
    opened: null,
    notices: [],
    defaults: null,
  };
}

export function createCrawlStore(): CrawlStore {
  return createStore<CrawlView>()(() => initialView());
}

export const isLiveState = (state: CrawlState | null): boolean => state !== null && state !== 'finished';

// ---- selectors (stable: the same input state gives the same output object) ----

export const selectThread =
  (id: ThreadKey) =>
  (s: CrawlView): ThreadStatus | undefined =>
    s.threadsById[id];

export const selectStuck =
  (id: ThreadKey) =>
  (s: CrawlView): boolean => {
    const t = s.threadsById[id];
    return !!t && isLiveState(s.state) && !PATIENT_STEPS.has(t.step) && s.now - t.stepSince > STUCK_AFTER_MS;
  };

// ---- reducers (pure) ----

/** `next` with every thread that equals its previous version replaced by that previous object. */
export function shareThreads(prev: CrawlView, threads: readonly ThreadStatus[]): Pick<CrawlView, 'threadIds' | 'threadsById' | 'stepCounts'> {
  const byId: Record<ThreadKey, ThreadStatus> = {};
  const counts: Partial<Record<ThreadStep, number>> = {};
  let changed = threads.length !== prev.threadIds.length;
  for (const t of threads) {
    const key = threadKey(t);
    const old = prev.threadsById[key];
    const keep = old !== undefined && shallowEqual(old, t);
    byId[key] = keep ? old : t;
    if (!keep) changed = true;
    counts[t.step] = (counts[t.step] ?? 0) + 1;
  }
  const ids = [...threads].sort(compareThreads).map(threadKey);
  const sameIds = ids.length === prev.threadIds.length && ids.every((id, i) => prev.threadIds[i] === id);
  return {
    threadIds: sameIds ? prev.threadIds : ids.length ? ids : NO_THREADS,
    threadsById: changed || !sameIds ? byId : prev.threadsById,
    stepCounts: shallowEqual(prev.stepCounts, counts) ? prev.stepCounts : counts,
  };
}

/** Local threads by id; a cluster's by node, then id. */
function compareThreads(a: ThreadStatus, b: ThreadStatus): number {
  const na = a.node ?? '';
  const nb = b.node ?? '';
  return na < nb ? -1 : na > nb ? 1 : a.id - b.id;
}

/** The nodes, each keeping its previous object while unchanged, and the array kept while none changed. */
export function shareNodes(prev: readonly NodeStatus[] | null, next: readonly NodeStatus[] | undefined): readonly NodeStatus[] | null {
  if (!next) return null;
  const byName = new Map((prev ?? []).map((n) => [n.name, n]));
  const shared = next.map((n) => {
    const old = byName.get(n.name);
    return old && shallowEqual(old, n) ? old : n;
  });
  return prev && prev.length === shared.length && shared.every((n, i) => n === prev[i]) ? prev : shared;
}

/** Thread keys per node, in the order of `ids`; a node's array is kept while its keys are the same. */
export function groupByNode(
  prev: Readonly<Record<string, readonly ThreadKey[]>>,
  ids: readonly ThreadKey[],
  byId: Readonly<Record<ThreadKey, ThreadStatus>>,
): Readonly<Record<string, readonly ThreadKey[]>> {
  const groups: Record<string, ThreadKey[]> = {};
  for (const key of ids) {
    const node = byId[key]?.node;
    if (node === undefined) continue;
    // defineProperty: a node may be named "__proto__".
    if (!Object.hasOwn(groups, node)) Object.defineProperty(groups, node, { value: [], enumerable: true, writable: true, configurable: true });
    groups[node]!.push(key);
  }
  const names = Object.keys(groups);
  if (names.length === 0) return Object.keys(prev).length === 0 ? prev : NO_NODE_THREADS;
  let same = names.length === Object.keys(prev).length;
  const out: Record<string, readonly ThreadKey[]> = {};
  for (const name of names) {
    const keys = groups[name]!;
    const old = Object.hasOwn(prev, name) ? prev[name] : undefined;
    const keep = old !== undefined && sameKeys(old, keys);
    if (!keep) same = false;
    Object.defineProperty(out, name, { value: keep ? old : keys, enumerable: true, writable: true, configurable: true });
  }
  return same ? prev : out;
}

function sameKeys(a: readonly ThreadKey[], b: readonly ThreadKey[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

const sameStore = (a: StoreInfo | null, b: StoreInfo | null): boolean =>
  a === b || (a !== null && b !== null && a.server === b.server && a.crawlId === b.crawlId && a.node === b.node && a.kind === b.kind);

/** A crawl other than the one in view: a new one, or one whose clock went backwards (resumed, reconnected). */
function isAnotherCrawl(prev: CrawlView, s: CrawlSnapshot): boolean {
  if (!prev.hasSnapshot) return false;
  if (!sameStore(prev.cluster, s.store ?? null)) return true;
  if (s.state === 'preparing' && prev.state !== 'preparing') return true;
  return s.counters.elapsedMs + 1_000 < prev.counters.elapsedMs;
}

function startOver(prev: CrawlView): Partial<CrawlView> {
  return { history: [], historyAt: 0, crawlKey: prev.crawlKey + 1, opened: null };
}

export interface PendingPoint {
  at: number;
  pagesPerSecond: number;
}

export function reduceSnapshot(prev: CrawlView, s: CrawlSnapshot, points: readonly PendingPoint[], clockOffset: number): CrawlView {
  const base: CrawlView = isAnotherCrawl(prev, s) ? { ...prev, ...startOver(prev) } : prev;
  let history = base.history;
  let historyAt = base.historyAt;
  const fresh = points.filter((p) => p.at > historyAt);
  if (fresh.length) {
    history = [...history, ...fresh.map((p) => p.pagesPerSecond)].slice(-HISTORY_POINTS);
    historyAt = fresh[fresh.length - 1]!.at;
  }
  const threads = shareThreads(base, s.threads);
  const cluster = s.store ?? null;
  return {
    ...base,
    ...threads,
    nodes: shareNodes(base.nodes, s.nodes),
    nodeThreads: s.nodes ? groupByNode(base.nodeThreads, threads.threadIds, threads.threadsById) : NO_NODE_THREADS,
    cluster: sameStore(base.cluster, cluster) ? base.cluster : cluster,
    hasSnapshot: true,
    state: s.state,
    reason: s.reason,
    error: s.error,
    threadTarget: s.threadTarget,
    maxUrlsPerSecond: s.maxUrlsPerSecond ?? null,
    liveExcludes: sameStrings(base.liveExcludes, s.liveExcludes ?? NO_EXCLUDES) ? base.liveExcludes : s.liveExcludes,
    counters: shallowEqual(base.counters, s.counters) ? base.counters : s.counters,
    history,
    historyAt,
    clockOffset,
    now: s.at,
    // A live crawl is what the results show from now on.
    opened: isLiveState(s.state) ? null : base.opened,
  };
}

export function reduceStateChange(prev: CrawlView, c: StateChange): CrawlView {
  const base: CrawlView = c.from === null && prev.hasSnapshot ? { ...prev, ...startOver(prev) } : prev;
  return { ...base, hasSnapshot: true, state: c.to, reason: c.reason, error: c.error, lastChange: c, opened: isLiveState(c.to) ? null : base.opened };
}

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

  const updateTicker = (state: CrawlState | null) => {
    if (isLiveState(state) && !ticker) ticker = setInterval(tick, tickMs);
    else if (!isLiveState(state) && ticker) {
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

  const offConnection = hasConnection(api) ? api.onConnection((connection) => store.setState({ connection })) : () => {};

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

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((x, i) => x === b[i]));
}

function shallowEqual(a: object, b: object): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
