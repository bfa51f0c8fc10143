// The default store: the crawl is one SQLite file (crawl-file.ts) and this process its only node. The frontier's
// work is synchronous SQLite transactions (frontier.ts); this wraps them in the store interface.
//
// Group commit: a commit writes every page it changed to the WAL, and a crawl changes the same few pages (the
// host's row, the queue's index, the results table's last page) with every claim and every result. Committing
// each one cost a quarter of the parent's time on the PostgreSQL manual (two commits per page), and committing once
// per turn of the event loop still cost a 10,000-page site of small pages a quarter of its speed (system time in
// WAL writes). So writes go into one transaction that stays open for at most COMMIT_WINDOW_MS (each call a
// savepoint in it) and is committed then, and at once before anything that must be durable now: a state change,
// settings, finish and close. A crash loses at most that window, as a consistent whole: its claims roll back to
// queued, its results and discoveries with them, so no URL is lost; the pages recorded in it are fetched again on
// resume, with those in flight. Other connections (the results view, analyses) are read-only and see the crawl
// at most one window late.
//
// A savepoint keeps a copy of every page it changes, to roll back to (the "sub-journal"); past 64 KiB SQLite spills
// it to a temporary file. Each call changes some twenty pages, so on the PostgreSQL manual that was 47,000 writes
// (100 MB) to files in /var/tmp for a 1.5 MB crawl file: a sixth of the parent's CPU. This connection keeps them
// in memory (temp_store), and the calls that change rows in bulk (seeds, leases recovered, live excludes and
// deprioritising) commit the group and run as transactions of their own, whose rollback is the WAL's: so a
// sub-journal is at most one page record's or one claim's few pages.
import type { CrawlSettings } from '../../../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult, SitemapFetchResult } from '../../../../shared/protocol.ts';
import type { CrawlState, FinishReason } from '../../../../shared/snapshot.ts';
import type { Db } from './crawl-file.ts';
import { closeCrawlFile, writeMeta, writeSettings } from './crawl-file.ts';
import { Frontier } from './frontier.ts';
import type { RobotsRules } from '../robots-rules.ts';

/** The meta key of the crawl's elapsed time in ms, paused time left out (ActiveClock, controller/timers.ts). */
export const ELAPSED_META = 'elapsed_ms';
import type { Claim, FrontierCounts, PageClaim, RobotsClaim, SitemapClaim } from '../model.ts';
import type { FrontierStore, PageRecord, RecordOutcome } from '../frontier-store.ts';

/** Longest a write waits for its commit: what a kill -9 can cost in pages fetched again, and how late a reader is. */
export const COMMIT_WINDOW_MS = 50;

export class SqliteFrontierStore implements FrontierStore {
  readonly cluster = null;
  readonly info = null;
  private readonly frontier: Frontier;
  private commitTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly db: Db,
    settings: CrawlSettings,
    readonly label: string = db.name,
  ) {
    // This connection only runs the frontier's statements (readers have their own): no large sort or temporary
    // table goes to memory through this.
    db.pragma('temp_store = MEMORY');
    this.frontier = new Frontier(db, settings);
  }

  counts(): Readonly<FrontierCounts> {
    return this.frontier.getCounts();
  }

  async addSeeds(seeds: string[], now = Date.now()): Promise<number> {
    return this.alone(() => this.frontier.addSeeds(seeds, now));
  }

  async recoverLeases(): Promise<number> {
    return this.alone(() => this.frontier.recoverLeases());
  }

  async claim(max: number, now = Date.now()): Promise<Claim[]> {
    return this.write(() => this.frontier.claim(max, now));
  }

  async nextReadyAt(): Promise<number | null> {
    return this.frontier.nextReadyAt();
  }

  async reserveFetch(origin: string, now = Date.now()): Promise<number> {
    return this.write(() => this.frontier.reserveFetch(origin, now));
  }

  async robotsFor(origin: string): Promise<{ rules: RobotsRules } | { wait: true } | { fetch: RobotsClaim }> {
    return this.write(() => this.frontier.robotsFor(origin));
  }

  async recordPage(claim: PageClaim, result: PageFetchResult, now = Date.now()): Promise<RecordOutcome> {
    return this.write(() => this.frontier.recordPage(claim, result, now));
  }

  async recordPages(items: readonly PageRecord[]): Promise<RecordOutcome[]> {
    // One transaction (each page a savepoint within it): one commit for the batch instead of one per page.
    return this.write(this.db.transaction(() => items.map((i) => this.frontier.recordPage(i.claim, i.result, i.now ?? Date.now()))));
  }

  async recordRobots(claim: RobotsClaim, result: RobotsFetchResult, now = Date.now()): Promise<void> {
    this.write(() => this.frontier.recordRobots(claim, result, now));
  }

  async recordSitemap(claim: SitemapClaim, result: SitemapFetchResult, now = Date.now()): Promise<void> {
    this.write(() => this.frontier.recordSitemap(claim, result, now));
  }

  /** A sitemap read from a local file (crawl-file-store.ts), in a transaction of its own. */
  async recordSitemapFile(result: SitemapFetchResult, now = Date.now()): Promise<void> {
    return this.alone(() => this.frontier.recordSitemapFile(result, now));
  }

  async release(claim: Claim, crashed: boolean, now = Date.now()): Promise<'requeued' | 'failed'> {
    return this.write(() => this.frontier.release(claim, crashed, now));
  }

  async addExclude(pattern: string): Promise<number> {
    return this.alone(() => this.frontier.addExclude(pattern));
  }

  async deprioritise(pattern: string): Promise<number> {
    return this.alone(() => this.frontier.deprioritise(pattern));
  }

  async saveSettings(settings: CrawlSettings): Promise<void> {
    this.commit();
    writeSettings(this.db, settings);
  }

  async noteState(state: CrawlState): Promise<void> {
    this.commit();
    if (this.db.open && state !== 'finished') writeMeta(this.db, 'state', state);
  }

  async noteElapsed(elapsedMs: number): Promise<void> {
    // Joins the open group commit rather than forcing one.
    if (this.db.open) this.write(() => writeMeta(this.db, ELAPSED_META, String(Math.round(elapsedMs))));
  }

  async finish(reason: FinishReason): Promise<void> {
    try {
      this.commit();
      writeMeta(this.db, 'state', 'finished');
      writeMeta(this.db, 'finish_reason', reason);
      writeMeta(this.db, 'finished_at', new Date().toISOString());
    } finally {
      closeCrawlFile(this.db);
    }
  }

  async close(): Promise<void> {
    try {
      this.commit();
    } finally {
      closeCrawlFile(this.db);
    }
  }

  /** Runs a write inside the open group transaction, opening one (and its commit timer) if none is. */
  private write<T>(work: () => T): T {
    if (!this.db.inTransaction) {
      this.db.exec('BEGIN');
      this.commitTimer = setTimeout(() => this.commit(), COMMIT_WINDOW_MS);
    }
    return work();
  }

  /** Runs a write that may change rows in bulk as a transaction of its own, after committing the group. */
  private alone<T>(work: () => T): T {
    this.commit();
    return work();
  }

  /** Commits the group transaction now, if one is open. */
  commit(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = null;
    if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
  }
}
