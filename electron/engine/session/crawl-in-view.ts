// The crawl the session shows: what the views and commands act on, whoever runs it. A local crawl (local-crawl.ts:
// one this app runs, or a crawl file opened to look at) and a crawl of the PostgreSQL store run by its nodes
// (cluster-crawl.ts) answer the same calls; each refuses what it cannot do, saying why.
import type { ExportFormat } from '../../../shared/analysis.ts';
import type { CrawlViews } from './crawl-views.ts';
import type { EventEmitter } from 'node:events';
import type { ResultsPage, ResultsQuery, StoreAttachment } from '../../../shared/crawler-api.ts';
import type { CrawlSnapshot, CrawlState, StateChange } from '../../../shared/snapshot.ts';
import type { CsvExportResult } from '../export/csv-writer.ts';

export interface CrawlInViewEvents {
  snapshot: [CrawlSnapshot];
  state: [StateChange];
}

export interface CrawlInView extends EventEmitter<CrawlInViewEvents> {
  /** The crawl file in view, or null (none open, or a cluster crawl). */
  readonly file: string | null;
  /** The cluster crawl attached to, or null. */
  attachment(): StoreAttachment | null;
  /** The URL of the store of the cluster crawl attached to (it holds the password: never sent to a client), or null. */
  storeUrl(): string | null;
  /** The latest snapshot, or null when nothing has run in this session. */
  snapshot(): CrawlSnapshot | null;
  /** The state of a crawl this process runs and that has not finished, or null. */
  runningState(): CrawlState | null;

  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Resolves once finished (a cluster crawl: once its nodes are told). */
  stop(): Promise<void>;
  setThreads(threads: number): Promise<void>;
  setMaxRate(perSecond: number | null): Promise<void>;
  addExclude(pattern: string): Promise<{ dropped: number }>;
  deprioritise(pattern: string): Promise<{ moved: number }>;

  queryResults(query: ResultsQuery): Promise<ResultsPage>;
  exportCsv(dest: string | NodeJS.WritableStream, format?: ExportFormat): Promise<CsvExportResult>;
  /** Why the results cannot be exported as CSV, or null. */
  exportProblem(): string | null;
  /** The views that read the crawl wherever it is kept (crawl-views.ts). */
  views(): CrawlViews;

  /** Stops a crawl this process runs (gracefully) and closes the connections. */
  close(): Promise<void>;
}
