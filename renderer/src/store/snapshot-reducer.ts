// How the live view changes (pure): a snapshot or a state change in, the next view out, every thread, node and
// count that did not change keeping its previous object so selectors and React skip them.
import type { CrawlSnapshot, NodeStatus, StateChange, StoreInfo, ThreadStatus } from '../../../shared/snapshot.ts';
import type { ThreadStep } from '../../../shared/steps.ts';
import { HISTORY_POINTS, NO_EXCLUDES, NO_NODE_THREADS, NO_THREADS, isLiveState, threadKey } from './crawl-view.ts';
import type { CrawlView, ThreadKey } from './crawl-view.ts';

/** `next` with every thread that equals its previous version replaced by that previous object. */
export function shareThreads(
  prev: CrawlView,
  threads: readonly ThreadStatus[],
): Pick<CrawlView, 'threadIds' | 'threadsById' | 'stepCounts'> {
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
    if (!Object.hasOwn(groups, node))
      Object.defineProperty(groups, node, { value: [], enumerable: true, writable: true, configurable: true });
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
  return {
    ...base,
    hasSnapshot: true,
    state: c.to,
    reason: c.reason,
    error: c.error,
    lastChange: c,
    opened: isLiveState(c.to) ? null : base.opened,
  };
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
