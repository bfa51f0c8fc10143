// The one storage interface the controller works through: the frontier (what to fetch, politeness, leases) and the
// results, with two implementations that pass the same contract tests (test/frontier-store-contract.test.ts):
//   - SqliteFrontierStore (sqlite/sqlite-store.ts): one crawl file, one node; the default.
//   - PgFrontierStore (postgres/pg-frontier.ts): a crawl in a PostgreSQL database that several nodes share.
// Every method that reads or writes the store is async (PostgreSQL answers over the network); the controller calls
// them one at a time, never overlapping. What both stores share is beside this file: the model (model.ts: states,
// claims, counters, limits) and the decisions (candidates.ts, page-outcome.ts, indexability.ts, politeness.ts,
// robots-rules.ts, robots-policy.ts, retry-policy.ts, redirect-chain.ts); neither store imports from the other.
import type { EventEmitter } from 'node:events';
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult, SitemapFetchResult } from '../../../shared/protocol.ts';
import type { CrawlState, FinishReason, StoreInfo, ThreadStatus } from '../../../shared/snapshot.ts';
import type { Claim, FrontierCounts, RobotsClaim } from './model.ts';
import type { RobotsRules } from './robots-rules.ts';

export type { Claim, FrontierCounts } from './model.ts';

/** A fetched page to record (`now`: when its result arrived). */
export interface PageRecord {
  claim: Extract<Claim, { kind: 'page' }>;
  result: PageFetchResult;
  now?: number;
}

/** What recording a fetched page did: recorded, queued again for a retry, or dropped (the URL is no longer ours). */
export type RecordOutcome = 'recorded' | 'retry' | 'lost';

/** Commands and news from the cluster, for a store several nodes share. */
export interface ClusterEvents {
  /**
   * The cluster was told to run, pause or stop, or its thread count or URLs/s cap changed: this node's shares of
   * them (null: no cap).
   */
  command: [{ state: 'running' | 'paused' | 'stopped'; threads: number; maxUrlsPerSecond: number | null }];
  /** Another node queued URLs or freed a host: claiming may find work now. */
  work: [];
  /** Another node found the crawl complete (or it was finished some other way). */
  finished: [{ reason: FinishReason; by: string | null }];
  /** The store cannot be reached: work that needs it waits (nothing is lost) until `available`. */
  unavailable: [{ error: string }];
  available: [];
  /** The cluster's counters, refreshed with every heartbeat. */
  counts: [FrontierCounts];
  /** Exclude and deprioritise patterns of the whole cluster (settings.exclude included). */
  patterns: [{ exclude: string[]; deprioritised: string[] }];
}

/** What a store shared by a cluster adds: nodes, leases, cluster-wide commands and termination. */
export interface ClusterCoordination extends EventEmitter<ClusterEvents> {
  readonly nodeName: string;
  /** This node's share of the cluster's threads, as of the last command. */
  threadShare(): number;
  /** The cluster's run/pause/stop command as of now. */
  clusterState(): 'running' | 'paused' | 'stopped' | 'finished';
  /** This node's share of the cluster's URLs/s cap, as of the last command (null: no cap). */
  rateShare(): number | null;
  /** Sends a command to every node (this one included, through the `command` event). */
  command(command: { state?: 'running' | 'paused' | 'stopped'; threads?: number; maxUrlsPerSecond?: number | null }): Promise<void>;
  /** Publishes this node's state and threads for observers (coalesced by the caller). */
  publishStatus(state: CrawlState, threads: ThreadStatus[], pagesDone: number): void;
  /**
   * When no URL is queued or claimed anywhere in the cluster, marks the crawl finished (exactly once, whichever
   * node gets there first) and returns true; otherwise false (another node still holds work).
   */
  completeIfDone(): Promise<boolean>;
  /** Leaves the cluster: this node's claimed URLs go back to the queue at once (not after the lease). */
  leave(state: 'left' | 'finished'): Promise<void>;
}

/**
 * What fetches the frontier does not hand out (a render's sub-resources, issue 16) share with the crawl's own: each
 * host's one politeness clock and its one robots.txt. Both stores keep them where they keep the host's schedule.
 */
export interface HostAccess {
  /**
   * Takes the host's next fetch slot: resolves to when the fetch may start (this machine's clock, at least `now`).
   * The host's next fetch of any kind, a page or another such fetch, waits the crawl's delay after that slot.
   */
  reserveFetch(origin: string, now?: number): Promise<number>;
  /**
   * The host's robots.txt as the crawl has it: its rules; `wait` while the crawl is fetching it; or a claim on fetching
   * it (the caller fetches it and records it with recordRobots, and the frontier does not fetch it again).
   */
  robotsFor(origin: string, now?: number): Promise<{ rules: RobotsRules } | { wait: true } | { fetch: RobotsClaim }>;
}

export interface FrontierStore extends HostAccess {
  /** Where the crawl lives, for messages: a file path, or the crawl ID at a server. */
  readonly label: string;
  /** Set for a store shared with other nodes. */
  readonly cluster: ClusterCoordination | null;
  /** Where the crawl lives, for snapshots; null for a local crawl file. */
  readonly info: StoreInfo | null;

  /** The crawl's counters, as of the last store call (for a cluster: refreshed as work is recorded). */
  counts(): Readonly<FrontierCounts>;
  /** Adds seeds at depth 0 (ignoring known ones); returns how many were new. */
  addSeeds(seeds: string[], now?: number): Promise<number>;
  /** After a crash: claimed URLs whose owner is gone are queued again. Returns how many. */
  recoverLeases(): Promise<number>;
  /** Claims up to `max` URLs (or robots.txt fetches) whose host may be fetched now. */
  claim(max: number, now?: number): Promise<Claim[]>;
  /** Epoch ms at which some queued host may next be fetched (this machine's clock), or null. */
  nextReadyAt(): Promise<number | null>;
  recordPage(claim: Extract<Claim, { kind: 'page' }>, result: PageFetchResult, now?: number): Promise<RecordOutcome>;
  /** Records several fetched pages in one transaction (the results that arrived while the last write ran). */
  recordPages(items: readonly PageRecord[]): Promise<RecordOutcome[]>;
  recordRobots(claim: Extract<Claim, { kind: 'robots' }>, result: RobotsFetchResult, now?: number): Promise<void>;
  /**
   * Records a sitemap a worker read and what it lists (issue 17). Only a store that queues sitemaps has it (the crawl
   * file's); a store without it never hands out a sitemap claim.
   */
  recordSitemap?(claim: Extract<Claim, { kind: 'sitemap' }>, result: SitemapFetchResult, now?: number): Promise<void>;
  /** Gives back unfinished work (`crashed`: its worker died; a URL that crashes too often is recorded as failed). */
  release(claim: Claim, crashed: boolean, now?: number): Promise<'requeued' | 'failed'>;
  addExclude(pattern: string): Promise<number>;
  deprioritise(pattern: string): Promise<number>;
  /** The settings as changed live, so a resumed crawl keeps them. */
  saveSettings(settings: CrawlSettings): Promise<void>;
  /** Notes the crawl's lifecycle state (best effort: the state is in every snapshot too). */
  noteState(state: CrawlState): Promise<void>;
  /** Notes the crawl's elapsed time, paused time left out, so a resumed or reopened crawl knows it (a crawl file only). */
  noteElapsed?(elapsedMs: number): Promise<void>;
  /** Notes how the crawl finished, then closes the store. */
  finish(reason: FinishReason): Promise<void>;
  /** Closes the store without noting anything (after a failure). */
  close(): Promise<void>;
}
