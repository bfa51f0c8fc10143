// The default store: the crawl is one SQLite file (crawl-file.ts) and this process its only node. The frontier's
// work is synchronous SQLite transactions (frontier.ts); this wraps them in the store interface.
import type { CrawlSettings } from '../../../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult } from '../../../../shared/protocol.ts';
import type { CrawlState, FinishReason } from '../../../../shared/snapshot.ts';
import type { Db } from './crawl-file.ts';
import { closeCrawlFile, writeMeta, writeSettings } from './crawl-file.ts';
import { Frontier } from './frontier.ts';
import type { Claim, FrontierCounts, PageClaim, RobotsClaim } from '../model.ts';
import type { FrontierStore, PageRecord, RecordOutcome } from '../frontier-store.ts';

export class SqliteFrontierStore implements FrontierStore {
  readonly cluster = null;
  readonly info = null;
  private readonly frontier: Frontier;

  constructor(
    private readonly db: Db,
    settings: CrawlSettings,
    readonly label: string = db.name,
  ) {
    this.frontier = new Frontier(db, settings);
  }

  counts(): Readonly<FrontierCounts> {
    return this.frontier.getCounts();
  }

  async addSeeds(seeds: string[], now = Date.now()): Promise<number> {
    return this.frontier.addSeeds(seeds, now);
  }

  async recoverLeases(): Promise<number> {
    return this.frontier.recoverLeases();
  }

  async claim(max: number, now = Date.now()): Promise<Claim[]> {
    return this.frontier.claim(max, now);
  }

  async nextReadyAt(): Promise<number | null> {
    return this.frontier.nextReadyAt();
  }

  async recordPage(claim: PageClaim, result: PageFetchResult, now = Date.now()): Promise<RecordOutcome> {
    return this.frontier.recordPage(claim, result, now);
  }

  async recordPages(items: readonly PageRecord[]): Promise<RecordOutcome[]> {
    // One transaction (each page a savepoint within it): one commit for the batch instead of one per page.
    return this.db.transaction(() => items.map((i) => this.frontier.recordPage(i.claim, i.result, i.now ?? Date.now())))();
  }

  async recordRobots(claim: RobotsClaim, result: RobotsFetchResult, now = Date.now()): Promise<void> {
    this.frontier.recordRobots(claim, result, now);
  }

  async release(claim: Claim, crashed: boolean, now = Date.now()): Promise<'requeued' | 'failed'> {
    return this.frontier.release(claim, crashed, now);
  }

  async addExclude(pattern: string): Promise<number> {
    return this.frontier.addExclude(pattern);
  }

  async deprioritise(pattern: string): Promise<number> {
    return this.frontier.deprioritise(pattern);
  }

  async saveSettings(settings: CrawlSettings): Promise<void> {
    writeSettings(this.db, settings);
  }

  async noteState(state: CrawlState): Promise<void> {
    if (this.db.open && state !== 'finished') writeMeta(this.db, 'state', state);
  }

  async finish(reason: FinishReason): Promise<void> {
    try {
      writeMeta(this.db, 'state', 'finished');
      writeMeta(this.db, 'finish_reason', reason);
      writeMeta(this.db, 'finished_at', new Date().toISOString());
    } finally {
      closeCrawlFile(this.db);
    }
  }

  async close(): Promise<void> {
    closeCrawlFile(this.db);
  }
}
