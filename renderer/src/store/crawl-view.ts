// What the live view shows, as one immutable state: the crawl in view, its threads (by key, grouped by node for a
// cluster), counters, throughput history, notices; the state it starts from, and when a crawl counts as live.
// The store that holds it and feeds it is crawl-store.ts; how a snapshot changes it, snapshot-reducer.ts.
import type { StoreApi } from 'zustand/vanilla';
import type { CrawlDefaults, CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type {
  CrawlCounters,
  CrawlState,
  FinishReason,
  NodeStatus,
  StateChange,
  StoreInfo,
  ThreadStatus,
} from '../../../shared/snapshot.ts';
import type { ThreadStep } from '../../../shared/steps.ts';
import type { ConnectionStatus } from '../api/connection.ts';

/** Points of pages/s kept for the throughput sparkline (one per snapshot; snapshots come at most 10/s). */
export const HISTORY_POINTS = 120;
/** A thread this long in one working step stands out in the grid. */
export const STUCK_AFTER_MS = 10_000;
/** How often the shared clock behind "time in step" ticks. */
export const CLOCK_TICK_MS = 250;
/** Steps in which a long stay is normal (nothing to fetch, a host's politeness delay, the URLs/s cap, a paused crawl). */
export const PATIENT_STEPS: ReadonlySet<ThreadStep> = new Set(['waiting', 'politeness', 'ratelimit', 'paused']);

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
  /** While the queue view is open: the total of its last read, which the Queue tab's badge shows too. */
  queueShown: number | null;
}

export type CrawlStore = StoreApi<CrawlView>;

const ZERO_COUNTERS: CrawlCounters = { queued: 0, inFlight: 0, crawled: 0, failed: 0, pagesPerSecond: 0, elapsedMs: 0 };
export const NO_THREADS: readonly ThreadKey[] = [];
export const NO_NODE_THREADS: Readonly<Record<string, readonly ThreadKey[]>> = {};
export const NO_EXCLUDES: readonly string[] = [];

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
    queueShown: null,
  };
}

export const isLiveState = (state: CrawlState | null): boolean => state !== null && state !== 'finished';
