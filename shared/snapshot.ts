// What the controller tells the outside (CLI, desktop UI, web console) about a crawl.
import type { ThreadStep } from './steps.ts';

export const CRAWL_STATES = ['preparing', 'running', 'pausing', 'paused', 'stopping', 'finished'] as const;
export type CrawlState = (typeof CRAWL_STATES)[number];

export type FinishReason = 'completed' | 'page limit' | 'stopped' | 'failed';

export interface ThreadStatus {
  id: number;
  /** Name of the worker process hosting it, e.g. "crawl-worker-2". */
  worker: string;
  pid: number | null;
  step: ThreadStep;
  /** The processor of the chain it is in (shared/processors.ts), e.g. "fetch-http"; null when it holds no URL. */
  processor: string | null;
  url: string | null;
  /** Epoch ms when the thread entered its step; "time in step" is now minus this. */
  stepSince: number;
  /** Bytes received so far while fetching. */
  bytes: number;
  pagesDone: number;
  errors: number;
  /**
   * Its URL has run past its fetch timeouts and is spending its processing budget: at the deadline the watchdog
   * kills its worker process and records the URL as "processing timeout". Absent when not.
   */
  overdue?: boolean;
  /** The cluster node hosting it, in a crawl shared through a PostgreSQL store; absent for a local crawl. */
  node?: string;
}

/** One Trawl node working on a crawl shared through a PostgreSQL store, as every observer sees it. */
export interface NodeStatus {
  name: string;
  hostname: string;
  pid: number;
  /** The node's own state: running, paused, stopping, finished, left, store unavailable... */
  state: string;
  /** Its share of the cluster's threads. */
  threads: number;
  /** Epoch ms of its last heartbeat. */
  lastSeen: number;
  /** Heard from within the crawl's lease time; a node that is not live has left or died. */
  live: boolean;
  pagesDone: number;
}

/** Where a crawl lives when it is not a local crawl file. */
export interface StoreInfo {
  kind: 'postgres';
  /** host:port/database (never the password). */
  server: string;
  crawlId: string;
  /** The node this process runs as, or null for an observer (the app or web console attached to the store). */
  node: string | null;
}

export interface CrawlCounters {
  /** URLs waiting in the frontier, including those deferred by politeness. */
  queued: number;
  inFlight: number;
  /** URLs fetched (any response, including redirects and HTTP errors). */
  crawled: number;
  /** URLs that ended without a response (network error, blocked by robots.txt, worker crashed...). */
  failed: number;
  /** Fetches completed per second over the last few seconds. */
  pagesPerSecond: number;
  elapsedMs: number;
}

export interface CrawlSnapshot {
  state: CrawlState;
  reason: FinishReason | null;
  error: string | null;
  threadTarget: number;
  /** The global URLs/s cap now (it can change live); null: none. */
  maxUrlsPerSecond: number | null;
  /** Exclude patterns added while the crawl ran, in order. */
  liveExcludes: string[];
  threads: ThreadStatus[];
  counters: CrawlCounters;
  at: number;
  /** A crawl shared through a PostgreSQL store: its nodes (threads carry their node's name). */
  nodes?: NodeStatus[];
  store?: StoreInfo;
}

export interface StateChange {
  from: CrawlState | null;
  to: CrawlState;
  reason: FinishReason | null;
  error: string | null;
  at: number;
}
