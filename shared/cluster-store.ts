// A crawl shared by a cluster through a PostgreSQL store, as the renderer sees it: what listStoreCrawls and
// attachStore answer, and the limits their arguments are checked against.

/** Crawl IDs of the PostgreSQL store (CRAWL_ID_PATTERN of the store's schema, restated so the contract needs no engine code). */
export const STORE_CRAWL_ID_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
/** The cluster's thread count (all nodes together), as the store takes it. */
export const CLUSTER_THREAD_LIMITS = { min: 1, max: 1000 } as const;
/** Longest store URL accepted. */
export const STORE_URL_MAX_LENGTH = 2048;

/** A crawl in a PostgreSQL store, as listStoreCrawls lists it. */
export interface StoreCrawlInfo {
  id: string;
  /** What the cluster is told to do: running, paused, stopped or finished. */
  state: string;
  finishReason: string | null;
  /** ISO time. */
  createdAt: string;
  seeds: string[];
  /** The cluster's thread count. */
  threads: number;
  /** Counters from the crawl's per-host totals; null when they could not be read (see `problem`). */
  crawled: number | null;
  queued: number | null;
  /** Nodes heard from within the crawl's lease time. */
  liveNodes: number | null;
  /** Why this Trawl cannot attach to it (another store schema version, tables missing), or null. */
  problem: string | null;
}

export interface StoreCrawlList {
  /** host:port/database (never the password). */
  server: string;
  crawls: StoreCrawlInfo[];
}

/** What attachStore answers: the crawl now in view. */
export interface StoreAttachment {
  /** host:port/database (never the password). */
  server: string;
  crawlId: string;
}
