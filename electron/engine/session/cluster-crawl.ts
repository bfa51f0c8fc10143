// A cluster crawl in view: a crawl of the PostgreSQL store, run by its nodes and watched from here. Its live view and
// commands (pause, resume, stop, the thread count, the URLs/s cap, live exclude and deprioritise patterns) go through
// the observer to every node, its results table and CSV export through a results reader of its own, and every
// analysis view and export through that reader's connection to the store (cluster-results.ts).
import type { ExportFormat } from '../../../shared/analysis.ts';
import type { CrawlViews } from './crawl-views.ts';
import { EventEmitter } from 'node:events';
import type { ResultsPage, ResultsQuery, StoreAttachment } from '../../../shared/crawler-api.ts';
import type { CrawlSnapshot, CrawlState } from '../../../shared/snapshot.ts';
import type { CsvExportResult } from '../export/csv-writer.ts';
import type { CrawlInView, CrawlInViewEvents } from './crawl-in-view.ts';
import { ClusterCrawlObserver, type ClusterObserverOptions } from './cluster-crawl-observer.ts';
import { ClusterResults } from './cluster-results.ts';
import { checkMaxRate, checkPattern } from '../controller/live-settings.ts';

export class ClusterCrawl extends EventEmitter<CrawlInViewEvents> implements CrawlInView {
  readonly file = null;
  private readonly results: ClusterResults;

  private constructor(
    private readonly observer: ClusterCrawlObserver,
    private readonly store: string,
  ) {
    super();
    this.results = new ClusterResults(store, observer.crawlId);
    observer.on('snapshot', (s) => this.emit('snapshot', s));
    observer.on('state', (s) => this.emit('state', s));
  }

  /** Connects and reads the crawl's first snapshot; a StoreError names a bad URL, an unreachable server, an unknown crawl. */
  static async open(storeUrl: string, crawlId: string, options: ClusterObserverOptions = {}): Promise<ClusterCrawl> {
    return new ClusterCrawl(await ClusterCrawlObserver.open(storeUrl, crawlId, options), storeUrl);
  }

  attachment(): StoreAttachment {
    return { server: this.observer.server, crawlId: this.observer.crawlId };
  }

  storeUrl(): string {
    return this.store;
  }

  snapshot(): CrawlSnapshot {
    return this.observer.snapshot();
  }

  /** The nodes run it, not this process. */
  runningState(): CrawlState | null {
    return null;
  }

  /** Every node of the cluster. */
  pause(): Promise<void> {
    return this.observer.command({ state: 'paused' });
  }

  resume(): Promise<void> {
    return this.observer.command({ state: 'running' });
  }

  /** Tells every node to stop, and resolves once told (the nodes finish on their own). */
  stop(): Promise<void> {
    return this.observer.command({ state: 'stopped' });
  }

  /** The cluster's total, shared out over its live nodes. */
  setThreads(threads: number): Promise<void> {
    return this.observer.command({ threads });
  }

  /** The whole cluster's cap: each live node takes its share (in proportion to its threads). */
  async setMaxRate(perSecond: number | null): Promise<void> {
    checkMaxRate(perSecond);
    await this.observer.command({ maxUrlsPerSecond: perSecond });
  }

  /** For every node: links found from now on that match are not crawled, and queued URLs that match are dropped. */
  async addExclude(pattern: string): Promise<{ dropped: number }> {
    checkPattern(pattern, 'exclude pattern');
    return { dropped: await this.observer.addPattern('exclude', pattern) };
  }

  /** For every node: URLs that match wait behind their host's others, those queued now included. */
  async deprioritise(pattern: string): Promise<{ moved: number }> {
    checkPattern(pattern, 'pattern');
    return { moved: await this.observer.addPattern('deprioritised', pattern) };
  }

  queryResults(query: ResultsQuery): Promise<ResultsPage> {
    return this.results.query(query);
  }

  exportCsv(dest: string | NodeJS.WritableStream, format?: ExportFormat): Promise<CsvExportResult> {
    return this.results.exportCsv(dest, format);
  }

  /** Its results are exported from the store, as a crawl file's are. */
  exportProblem(): string | null {
    return null;
  }

  /** The views that read the store (the hosts report, the queue, the explorer, the charts...): through the results reader's connection. */
  views(): CrawlViews {
    return this.results;
  }

  /** UNLISTEN and the connections closed; no event is emitted afterwards. */
  async close(): Promise<void> {
    this.removeAllListeners();
    await this.observer.close();
    await this.results.close();
  }
}
