// A local crawl in view: a crawl file, with the controller that runs it when this session started or resumed it
// (kept once finished, for its final snapshot), or without one when the file was opened to look at. With neither
// (LocalCrawl.nothing()), it is what the session shows before any crawl: every call says there is none.
import type { ExportFormat } from '../../../shared/analysis.ts';
import { type CrawlViews, fileViews } from './crawl-views.ts';
import { EventEmitter } from 'node:events';
import type { ResultsPage, ResultsQuery, StoreAttachment } from '../../../shared/crawler-api.ts';
import { checkThreadCount, type ParsedSettings } from '../../../shared/settings.ts';
import type { CrawlSnapshot, CrawlState, StateChange } from '../../../shared/snapshot.ts';
import { CrawlController, type ControllerOptions } from '../controller/crawl-controller.ts';
import type { CsvExportResult } from '../export/csv-writer.ts';
import { CrawlAnalysis } from './crawl-analysis.ts';
import { CrawlFileResults } from './crawl-file-results.ts';
import { removeCrawlFile } from './crawl-files.ts';
import type { CrawlInView, CrawlInViewEvents } from './crawl-in-view.ts';

const NO_CRAWL_OPEN = 'no crawl is open; start or open a crawl first';

/** How the session's controllers run: its worker spawner and CPU count. */
export type LocalRunOptions = Omit<ControllerOptions, 'dbPath'>;

export class LocalCrawl extends EventEmitter<CrawlInViewEvents> implements CrawlInView {
  private readonly results: CrawlFileResults | null;
  /** The analysis views' connection, opened when first needed. */
  private analysisOf: CrawlAnalysis | null = null;

  constructor(
    readonly file: string | null,
    private readonly controller: CrawlController | null = null,
  ) {
    super();
    this.results = file === null ? null : new CrawlFileResults(file, () => this.runningState() === 'running');
    controller?.on('snapshot', (s: CrawlSnapshot) => this.emit('snapshot', s));
    controller?.on('state', (s: StateChange) => this.emit('state', s));
  }

  /** A new crawl of (validated) `settings` in the new file `file`, ready to start; the file is removed if it cannot be. */
  static create(settings: ParsedSettings, file: string, options: LocalRunOptions): LocalCrawl {
    try {
      return new LocalCrawl(file, CrawlController.create(settings, { ...options, dbPath: file }));
    } catch (err) {
      removeCrawlFile(file);
      throw err;
    }
  }

  /** An interrupted crawl continued from its file (its settings kept), ready to start; a CrawlFileError or SettingsError says why not. */
  static resume(file: string, options: LocalRunOptions): LocalCrawl {
    return new LocalCrawl(file, CrawlController.resume({ ...options, dbPath: file }));
  }

  /** Nothing in view. */
  static nothing(): LocalCrawl {
    return new LocalCrawl(null);
  }

  /** Starts the crawl created or resumed (once the session shows it, so none of its events is missed). */
  start(): void {
    this.controller?.start();
  }

  attachment(): StoreAttachment | null {
    return null;
  }

  storeUrl(): string | null {
    return null;
  }

  snapshot(): CrawlSnapshot | null {
    return this.controller?.snapshot() ?? null;
  }

  runningState(): CrawlState | null {
    return this.controller && this.controller.crawlState !== 'finished' ? this.controller.crawlState : null;
  }

  async pause(): Promise<void> {
    this.live('pause').pause();
  }

  async resume(): Promise<void> {
    this.live('resume').resume();
  }

  async stop(): Promise<void> {
    await this.live('stop').stop();
  }

  async setThreads(threads: number): Promise<void> {
    // The contract admits a cluster's total; a local crawl's pool is smaller.
    checkThreadCount(threads);
    this.live('change the threads of').setThreads(threads);
  }

  async setMaxRate(perSecond: number | null): Promise<void> {
    this.live('change the URLs/s cap of').setMaxRate(perSecond);
  }

  async addExclude(pattern: string): Promise<{ dropped: number }> {
    return this.live('add an exclude pattern to').addExclude(pattern);
  }

  async deprioritise(pattern: string): Promise<{ moved: number }> {
    return this.live('deprioritise a pattern in').deprioritise(pattern);
  }

  async queryResults(query: ResultsQuery): Promise<ResultsPage> {
    if (!this.results) return { total: 0, offset: query.offset, rows: [], extractionRules: [] };
    return this.results.query(query);
  }

  async exportCsv(dest: string | NodeJS.WritableStream, format?: ExportFormat): Promise<CsvExportResult> {
    if (!this.results) throw new Error(NO_CRAWL_OPEN);
    return this.results.exportCsv(dest, format);
  }

  exportProblem(): string | null {
    return this.file === null ? NO_CRAWL_OPEN : null;
  }

  views(): CrawlViews {
    return fileViews(() => this.analysis());
  }

  /** The analysis connection to the crawl file, opened when a view first needs it. */
  private analysis(): CrawlAnalysis {
    if (this.file === null) throw new Error(NO_CRAWL_OPEN);
    this.analysisOf ??= CrawlAnalysis.open(this.file);
    return this.analysisOf;
  }

  async close(): Promise<void> {
    if (this.runningState() !== null) await this.controller!.stop();
    await this.results?.close();
    this.analysisOf?.close();
    this.analysisOf = null;
  }

  private live(what: string): CrawlController {
    if (!this.controller) throw new Error(`cannot ${what} the crawl: no crawl has been started`);
    if (this.controller.crawlState === 'finished') throw new Error(`cannot ${what} the crawl: it has finished`);
    return this.controller;
  }
}
