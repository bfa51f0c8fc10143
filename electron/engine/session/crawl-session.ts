// One crawl workbench session: the crawls folder, the crawl that runs (at most one at a time) and the crawl in view,
// whose results are being looked at. What both hosts run: the Electron main process (over IPC) and the web console
// (over a WebSocket). Its methods mirror CrawlerApi, but file arguments are absolute paths the host has already
// resolved and checked. The crawl in view is one interface (crawl-in-view.ts), a local crawl or a cluster crawl; the
// session hands the commands and views to it. Plain Node: it never imports electron.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type * as Analysis from '../../../shared/analysis.ts';
import type * as Api from '../../../shared/crawler-api.ts';
import { MessageError, message } from '../../../shared/messages.ts';
import { LIMITS, SettingsError, parseSettings, validateSettings } from '../../../shared/settings.ts';
import type { CrawlSnapshot, StateChange } from '../../../shared/snapshot.ts';
import { ExtractionRuleTests } from '../extraction/try-extraction-rules.ts';
import type { CrawlLabel } from '../../../shared/crawl-label.ts';
import type { CrawlSchedule, ScheduleChange, ScheduleTiming } from '../../../shared/schedules.ts';
import { CrawlFileError, openCrawlFile, readSecrets, readStoredSettings } from '../frontier/sqlite/crawl-file.ts';
import { plainSecretStore } from '../secrets/secret-store.ts';
import type { WorkerSpawner } from '../pool/worker-spawner.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { CrawlMap, CrawlMapQuery } from '../../../shared/crawl-map.ts';
import { CrawlComparisons } from './crawl-comparisons.ts';
import { CRAWL_FILE_EXT, listCrawlFiles, newCrawlPath, readCrawlFileInfo, removeCrawlFile, writeCrawlLabel } from './crawl-files.ts';
import type { CrawlInView } from './crawl-in-view.ts';
import { ClusterCrawl } from './cluster-crawl.ts';
import { listClusterCrawls } from './cluster-crawl-list.ts';
import type { ClusterObserverOptions } from './cluster-crawl-observer.ts';
import { SITEMAP_MAX_URLS } from '../sitemaps/write-sitemap.ts';
import { exportChart, exportResult, viewColumnsProblem } from './exports.ts';
import type { BulkReportId } from '../../../shared/bulk-reports.ts';
import type { IssuesOverview } from '../../../shared/issues.ts';
import { LocalCrawl, type LocalRunOptions } from './local-crawl.ts';
import type { ControllerOptions } from '../controller/crawl-controller.ts';
import { PresetStore } from './presets.ts';
import { Scheduler, type SchedulerOptions } from './schedules.ts';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import type { TextDiff } from '../../../shared/text-diff.ts';

export { CRAWL_FILE_EXT, MAX_LISTED_CRAWLS, crawlFileStem, readCrawlFileInfo } from './crawl-files.ts';

/** The crawls folder: its owner's only. */
export const CRAWLS_DIR_MODE = 0o700;

export interface CrawlSessionOptions {
  /** Folder holding the .trawl files; created when missing. */
  crawlsDir: string;
  spawner: WorkerSpawner;
  /** Passed to the controller: the most worker processes used when settings.processes is null. */
  cpuCount?: number;
  /** Timings of the cluster crawl's observer (tests shorten them). */
  storeObserver?: ClusterObserverOptions;
  /** Seals the credentials of its crawls in their files: the plain store when missing (CLI, web console). */
  secrets?: SecretStore;
  /** The scheduled recrawls' clock and polling (tests drive them). */
  schedules?: SchedulerOptions;
  /** The browsers of crawls that render (settings.render): the desktop app's Chromium, or a system one. */
  renderer?: ControllerOptions['renderer'];
}

export interface CrawlSessionEvents {
  snapshot: [CrawlSnapshot];
  state: [StateChange];
  /** Nothing is in view any more: the cluster crawl in view was detached from. */
  cleared: [];
}

export class CrawlSession extends EventEmitter<CrawlSessionEvents> {
  readonly crawlsDir: string;
  /** How its local crawls' controllers run. */
  private readonly runOptions: LocalRunOptions;
  /** The crawl in view: started or resumed last (kept once finished), opened, attached to, or nothing. */
  private inView: CrawlInView = LocalCrawl.nothing();
  private readonly comparisons = new CrawlComparisons();
  private readonly presets: PresetStore;
  private readonly ruleTests: ExtractionRuleTests;
  private readonly observerOptions: ClusterObserverOptions;
  /** Scheduled recrawls of this session's crawls folder, run while it is open. */
  readonly scheduler: Scheduler;
  private readonly forwardSnapshot = (s: CrawlSnapshot) => this.emit('snapshot', s);
  private readonly forwardState = (s: StateChange) => this.emit('state', s);

  constructor(options: CrawlSessionOptions) {
    super();
    this.crawlsDir = path.resolve(options.crawlsDir);
    // The crawls folder is its owner's alone: crawl files and presets hold credentials (an existing folder too).
    fs.mkdirSync(this.crawlsDir, { recursive: true, mode: CRAWLS_DIR_MODE });
    fs.chmodSync(this.crawlsDir, CRAWLS_DIR_MODE);
    this.runOptions = {
      spawner: options.spawner,
      ...(options.cpuCount === undefined ? {} : { cpuCount: options.cpuCount }),
      ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
      ...(options.renderer === undefined ? {} : { renderer: options.renderer }),
    };
    this.ruleTests = new ExtractionRuleTests(options.spawner);
    this.observerOptions = options.storeObserver ?? {};
    this.presets = new PresetStore(this.crawlsDir);
    this.scheduler = new Scheduler(
      this.crawlsDir,
      {
        busy: () => {
          const state = this.inView.runningState();
          if (state !== null) return message('waitingForCrawl', { state });
          return this.inView.attachment() === null ? null : message('waitingForCluster');
        },
        startFrom: (file) => this.startFrom(file),
      },
      options.schedules,
    );
  }

  async defaults(): Promise<Api.CrawlDefaults> {
    const settings = parseSettings({ seeds: ['https://example.com/'] });
    return { settings: { ...settings, seeds: [] }, limits: { threads: { ...LIMITS.threads } } };
  }

  /** Validates the settings and starts a new crawl in a new file of the crawls folder. */
  async start(input: unknown): Promise<Api.StartResult> {
    const checked = validateSettings(input);
    if (!checked.ok) return { ok: false, problems: checked.problems };
    this.refuseWhileRunning('refuseStart');
    await this.detachStore();
    const file = newCrawlPath(this.crawlsDir, checked.settings.seeds[0] ?? '');
    await this.run(LocalCrawl.create(checked.settings, file, this.runOptions));
    return { ok: true, file };
  }

  // ---- the crawl in view's controls: a local crawl's controller, or every node of a cluster crawl ----

  async pause(): Promise<void> {
    return this.inView.pause();
  }

  async resume(): Promise<void> {
    return this.inView.resume();
  }

  /**
   * Stops gracefully (threads finish the URL in hand, for a few seconds at most); resolves once finished.
   * Attached to a store: tells every node to stop, and resolves once told (the nodes finish on their own).
   */
  async stop(): Promise<void> {
    return this.inView.stop();
  }

  /** The pool size; attached to a store, the cluster's total (shared out over its live nodes). */
  async setThreads(threads: number): Promise<void> {
    return this.inView.setThreads(threads);
  }

  async setMaxRate(perSecond: number | null): Promise<void> {
    return this.inView.setMaxRate(perSecond);
  }

  /** Adds an exclude pattern to the running crawl; says how many queued URLs it dropped. */
  async addExclude(pattern: string): Promise<{ dropped: number }> {
    return this.inView.addExclude(pattern);
  }

  /** Pushes the running crawl's queued URLs matching `pattern` to the back of their host's queue; says how many moved. */
  async deprioritise(pattern: string): Promise<{ moved: number }> {
    return this.inView.deprioritise(pattern);
  }

  // ---- a crawl in a PostgreSQL store ----

  /** The crawls of a PostgreSQL store; a StoreError names a bad URL or a server that cannot be reached. */
  async listStoreCrawls(storeUrl: string): Promise<Api.StoreCrawlList> {
    return listClusterCrawls(storeUrl);
  }

  /** The crawls of the attached store, to compare the cluster crawl in view with another of them; none when not attached. */
  async attachedStoreCrawls(): Promise<Api.StoreCrawlList> {
    const storeUrl = this.attachedStoreUrl();
    return storeUrl === null ? { server: '', crawls: [] } : listClusterCrawls(storeUrl);
  }

  /**
   * Watches a crawl of a PostgreSQL store in place of any local crawl (refused while a local crawl runs). The
   * previous attachment is kept when this one fails (a StoreError says why).
   */
  async attachStore(storeUrl: string, crawlId: string): Promise<Api.StoreAttachment> {
    this.refuseWhileRunning('refuseAttach');
    const crawl = await ClusterCrawl.open(storeUrl, crawlId, this.observerOptions);
    if (this.isRunning()) {
      // A local crawl started while we connected: it stays in view.
      await crawl.close();
      this.refuseWhileRunning('refuseAttach');
    }
    await this.detachStore();
    await this.show(crawl);
    const first = crawl.snapshot();
    // A crawl comes into view: `from: null` tells the UI it is another crawl.
    this.emit('state', { from: null, to: first.state, reason: first.reason, error: first.error, at: first.at });
    this.emit('snapshot', first);
    return crawl.attachment();
  }

  /**
   * Stops watching the store's crawl: UNLISTEN, connection closed, and 'cleared' says nothing is in view any more
   * (to every window, not only the one that asked). Nothing happens when not attached.
   */
  async detachStore(): Promise<void> {
    if (this.inView.attachment() === null) return;
    await this.show(LocalCrawl.nothing());
    this.emit('cleared');
  }

  /** What the session is attached to, or null. */
  attachedStore(): Api.StoreAttachment | null {
    return this.inView.attachment();
  }

  /** The URL of the store attached to (for comparing its crawls), or null. */
  private attachedStoreUrl(): string | null {
    return this.inView.storeUrl();
  }

  /** Why the crawl in view cannot be exported as CSV (none open), or null; a cluster crawl exports from its store. */
  exportProblem(): string | null {
    return this.inView.exportProblem();
  }

  /**
   * Why the crawl in view has no charts or folder tree to export (none open), or null: a cluster crawl's come from
   * its store, as its results do.
   */
  chartExportProblem(): string | null {
    return this.inView.exportProblem();
  }

  /**
   * Runs the extraction rules of `settings` on one URL, fetched and parsed by a worker process as the crawl would
   * (with its user agent, headers and timeouts). One test at a time. Invalid settings come back as problems, the
   * URL's as field "url".
   */
  async testExtraction(url: string, settings: unknown): Promise<Api.ExtractionTestResult> {
    return this.ruleTests.run(url, settings);
  }

  /** Saved presets, by name; a presets file that cannot be read is an error, never an empty list. */
  async listPresets(): Promise<Api.CrawlPreset[]> {
    return this.presets.list();
  }

  async savePreset(name: string, settings: unknown): Promise<Api.SavePresetResult> {
    return this.presets.save(name, settings);
  }

  async deletePreset(name: string): Promise<Api.CrawlPreset[]> {
    return this.presets.delete(name);
  }

  /** The crawl files of the crawls folder, most recently written first; files that are not crawls are left out. */
  async listCrawls(): Promise<Api.CrawlFileInfo[]> {
    // The crawl running now is flagged: the list of earlier crawls leaves it out while it runs.
    const running = this.isRunning() ? this.inView.file : null;
    return listCrawlFiles(this.crawlsDir).map((c) => (running !== null && path.resolve(c.file) === running ? { ...c, running: true } : c));
  }

  /** Makes `file` the crawl whose results are queried and exported. Refused while a crawl runs. */
  async openCrawl(file: string): Promise<Api.CrawlFileInfo> {
    const abs = path.resolve(file);
    if (this.isRunning() && abs !== this.inView.file) {
      throw new MessageError('refuseOpen');
    }
    const info = readCrawlFileInfo(abs);
    await this.detachStore();
    if (abs !== this.inView.file) await this.show(new LocalCrawl(abs));
    return info;
  }

  /**
   * Deletes a crawl file of the crawls folder, with its -wal and -shm. The running crawl is refused; the crawl in
   * view otherwise leaves the view first (every window empties). Answers with the crawls left.
   */
  async deleteCrawl(file: string): Promise<Api.CrawlFileInfo[]> {
    const abs = path.resolve(file);
    if (path.dirname(abs) !== this.crawlsDir || !abs.endsWith(CRAWL_FILE_EXT)) {
      throw new Error(`cannot delete ${file}: only crawls of the crawls folder are deleted here`);
    }
    // Not a crawl file (or none at all): refused, naming the file, before anything is removed.
    readCrawlFileInfo(abs);
    if (abs === this.inView.file) {
      if (this.isRunning()) throw new Error(`cannot delete ${path.basename(abs)}: it is the crawl running; stop it first`);
      await this.show(LocalCrawl.nothing());
      this.emit('cleared');
    }
    // A comparison may hold the file open.
    this.comparisons.close();
    removeCrawlFile(abs);
    return this.listCrawls();
  }

  /**
   * Names, describes and tags a crawl, in its file (a file of an older version is upgraded in place first); answers
   * with what the list says about it. Works on the crawl running too.
   */
  async labelCrawl(file: string, label: CrawlLabel): Promise<Api.CrawlFileInfo> {
    const abs = path.resolve(file);
    // Not a crawl file: refused, naming the file, before anything is written.
    readCrawlFileInfo(abs);
    await writeCrawlLabel(abs, label, { checkpoint: !(this.isRunning() && abs === this.inView.file) });
    return readCrawlFileInfo(abs);
  }

  /** The scheduled recrawls, oldest first, each with its latest runs and what changed in them. */
  async listSchedules(): Promise<CrawlSchedule[]> {
    return this.scheduler.list();
  }

  /** Runs the settings of `file` (a crawl of the crawls folder) again on `timing`. */
  async addSchedule(file: string, timing: ScheduleTiming): Promise<CrawlSchedule[]> {
    return this.scheduler.add(file, timing);
  }

  async updateSchedule(id: string, change: ScheduleChange): Promise<CrawlSchedule[]> {
    return this.scheduler.update(id, change);
  }

  async deleteSchedule(id: string): Promise<CrawlSchedule[]> {
    return this.scheduler.remove(id);
  }

  /** Continues an interrupted crawl from its file (its settings are kept). */
  async resumeCrawl(file: string): Promise<Api.StartResult> {
    this.refuseWhileRunning('refuseResume');
    const abs = path.resolve(file);
    await this.detachStore();
    let crawl: LocalCrawl;
    try {
      crawl = LocalCrawl.resume(abs, this.runOptions);
    } catch (err) {
      if (err instanceof CrawlFileError || err instanceof SettingsError) {
        return { ok: false, problems: [{ field: 'file', message: err.message }] };
      }
      throw err;
    }
    await this.run(crawl);
    return { ok: true, file: abs };
  }

  /** A page of the crawl in view's results, filtered and sorted by its store; works while the crawl runs. */
  async queryResults(query: Api.ResultsQuery): Promise<Api.ResultsPage> {
    return this.inView.queryResults(query);
  }

  /** Writes the crawl in view's results as CSV (or XLSX) to a file path or a stream (ended when done). */
  async exportCsv(dest: string | NodeJS.WritableStream, format?: Analysis.ExportFormat): Promise<Api.ExportResult> {
    return exportResult(dest, () => this.inView.exportCsv(dest, format));
  }

  // ---- analyst workbench (read-only connections to a crawl file: they work while the crawl writes) ----

  async filterCounts(): Promise<Analysis.FilterCounts> {
    return this.inView.views().filterCounts(this.writingInView());
  }

  /** The crawl in view is running here, writing its file (its filter counts may be a few seconds old: CrawlAnalysis). */
  private writingInView(): boolean {
    return this.inView.runningState() === 'running';
  }

  async queryFiltered(query: Analysis.ExplorerQuery): Promise<Analysis.ExplorerPage> {
    return this.inView.views().queryFiltered(query, this.writingInView());
  }

  async urlDetail(ref: Analysis.UrlRef): Promise<Analysis.UrlDetail | null> {
    return this.inView.views().urlDetail(ref, this.writingInView());
  }

  /**
   * Duplicate content (issue 18.1): the analysis's options for the crawl in view, the given ones changed first (none:
   * just read). A changed threshold recomputes from the stored signatures; nothing is crawled again.
   */
  async contentOptions(given: Partial<ContentAnalysisOptions>): Promise<ContentAnalysisOptions> {
    return this.inView.views().contentOptions(given);
  }

  /** What differs between two pages' main texts (issue 18.1), or null when either has none. */
  async contentDiff(urlId: number, otherId: number): Promise<TextDiff | null> {
    return this.inView.views().contentDiff(urlId, otherId);
  }

  async urlInlinks(urlId: number, after: number | null): Promise<Analysis.LinkPage<Analysis.Inlink>> {
    return this.inView.views().urlInlinks(urlId, after);
  }

  async urlOutlinks(urlId: number, after: number | null): Promise<Analysis.LinkPage<Analysis.Outlink>> {
    return this.inView.views().urlOutlinks(urlId, after);
  }

  async queueHosts(query: Analysis.QueueHostsQuery): Promise<Analysis.QueueHostsPage> {
    return this.inView.views().queueHosts(query);
  }

  async queuePrefixes(query: Analysis.PrefixQuery): Promise<Analysis.PrefixGroups | null> {
    return this.inView.views().queuePrefixes(query);
  }

  async queueSearch(query: Analysis.QueueSearchQuery): Promise<Analysis.QueueSearchPage> {
    return this.inView.views().queueSearch(query);
  }

  async queueScreen(query: Analysis.QueueScreenQuery): Promise<Analysis.QueueScreen> {
    return this.inView.views().queueScreen(query);
  }

  async hostsReport(query: Analysis.HostsReportQuery): Promise<Analysis.HostsReport> {
    return this.inView.views().hostsReport(query);
  }

  async chartData(query: Analysis.ChartQuery): Promise<Analysis.ChartData> {
    return this.inView.views().chartData(query);
  }

  /** A chart's whole data as CSV (or XLSX), to a file path or a stream (ended when done). */
  async exportChartCsv(
    kind: Analysis.ChartKind,
    dest: string | NodeJS.WritableStream,
    format?: Analysis.ExportFormat,
  ): Promise<Api.ExportResult> {
    return exportResult(dest, () => exportChart((q) => this.inView.views().chartData(q), kind, dest, format));
  }

  /** What is wrong with exporting a bulk report now (no crawl open), or null; a crawl of the store exports them too. */
  bulkReportProblem(): string | null {
    return this.inView.exportProblem();
  }

  /** A bulk report (every link to a broken page, every redirect chain...) as CSV (or XLSX), to a file path or a stream. */
  async exportBulkReport(
    report: BulkReportId,
    dest: string | NodeJS.WritableStream,
    format?: Analysis.ExportFormat,
  ): Promise<Api.ExportResult> {
    const problem = this.bulkReportProblem();
    if (problem) return { ok: false, error: problem };
    return exportResult(dest, () => this.inView.views().exportBulkReport(report, dest, format));
  }

  /** What is wrong with generating the crawl in view's sitemap now (no crawl open), or null. */
  sitemapProblem(): string | null {
    return this.inView.exportProblem();
  }

  /** Why the crawl in view's sitemap cannot be downloaded as one file (past 50,000 pages), or null. */
  async sitemapDownloadProblem(): Promise<string | null> {
    const problem = this.sitemapProblem();
    if (problem) return problem;
    const pages = await this.inView.views().sitemapPageCount();
    return pages > SITEMAP_MAX_URLS
      ? `the crawl has ${pages} pages for its sitemap, more than one sitemap holds (50,000): generate it from the desktop app or with npm run crawl -- --sitemap-out sitemap.xml (after --resume FILE, or --store URL --crawl ID)`
      : null;
  }

  /**
   * The crawl in view's sitemap: to a file path (a sitemap index with numbered sitemaps beside it past the protocol's
   * limits), or to a stream, which takes one sitemap only (past the limits it is refused, saying so).
   */
  async exportSitemap(dest: string | NodeJS.WritableStream): Promise<Api.ExportResult> {
    const problem = this.sitemapProblem();
    if (problem) return { ok: false, error: problem };
    return exportResult(dest, () => this.inView.views().exportSitemap(dest));
  }

  /** The crawl's URLs as a folder tree: the hosts, and each expanded folder's children. */
  async siteStructure(query: Analysis.SiteStructureQuery): Promise<Analysis.SiteStructure> {
    return this.inView.views().siteStructure(query);
  }

  /** The crawl map (issue 18.6): the shortest-path tree from the seeds, folded to a number of nodes, laid out. */
  async crawlMap(query: CrawlMapQuery): Promise<CrawlMap> {
    return this.inView.views().crawlMap(query, this.writingInView());
  }

  /** The whole folder tree as CSV, to a file path or a stream (ended when done). */
  async exportStructureCsv(dest: string | NodeJS.WritableStream): Promise<Api.ExportResult> {
    return exportResult(dest, () => this.inView.views().exportStructureCsv(dest));
  }

  /**
   * What is wrong with a view export (no crawl open, a column the crawl does not have), or null. A crawl of the store
   * exports its views as a crawl file does (issue 19).
   */
  async viewExportProblem(view: Analysis.ViewExport): Promise<string | null> {
    return this.inView.exportProblem() ?? viewColumnsProblem(await this.inView.views().exportColumns(view.filter), view);
  }

  /** One view of the results (a filter, a text, chosen columns, a header preset) as CSV, to a file or a stream. */
  async exportView(view: Analysis.ViewExport, dest: string | NodeJS.WritableStream): Promise<Api.ExportResult> {
    const problem = await this.viewExportProblem(view);
    if (problem) return { ok: false, error: problem };
    return exportResult(dest, () => this.inView.views().exportView(view, dest));
  }

  /** The issues overview of the crawl in view: each issue with its filter's count. */
  async issuesOverview(): Promise<IssuesOverview> {
    return this.inView.views().issuesOverview(this.writingInView());
  }

  /** Why the issues overview cannot be exported (no crawl open), or null. */
  overviewExportProblem(): string | null {
    return this.inView.exportProblem();
  }

  /** The issues found as CSV (or XLSX), to a file path or a stream (ended when done). */
  async exportOverview(dest: string | NodeJS.WritableStream, format?: Analysis.ExportFormat): Promise<Api.ExportResult> {
    const problem = this.overviewExportProblem();
    if (problem) return { ok: false, error: problem };
    return exportResult(dest, () => this.inView.views().exportOverview(dest, format));
  }

  /** Two crawl files (absolute paths, checked by the host) compared: the counts. */
  async compareCrawls(query: Analysis.CompareQuery): Promise<Analysis.ComparisonSummary> {
    return (await this.comparisons.of(query, this.attachedStoreUrl(), true)).summary();
  }

  async comparePage(query: Analysis.CompareQuery, kind: Analysis.ChangeKind, after: number | null): Promise<Analysis.ComparisonPage> {
    return (await this.comparisons.of(query, this.attachedStoreUrl())).page(kind, { after, limit: 100 });
  }

  /** The comparison as CSV (or XLSX), to a file path or a stream (ended when done). */
  async exportComparison(
    query: Analysis.CompareQuery,
    dest: string | NodeJS.WritableStream,
    format?: Analysis.ExportFormat,
  ): Promise<Api.ExportResult> {
    return exportResult(dest, async () => (await this.comparisons.of(query, this.attachedStoreUrl())).exportCsv(dest, { format }));
  }

  snapshot(): CrawlSnapshot | null {
    return this.inView.snapshot();
  }

  /** Absolute path of the crawl whose results are shown, or null. */
  currentFile(): string | null {
    return this.inView.file;
  }

  /** True while a crawl is started and not yet finished. */
  isRunning(): boolean {
    return this.inView.runningState() !== null;
  }

  /** Stops a running crawl (gracefully) and closes the connections. */
  async close(): Promise<void> {
    this.scheduler.close();
    await this.detachStore();
    await this.inView.close();
    this.comparisons.close();
  }

  // ---- internals ----

  /** A scheduled run: a new crawl of `file`'s settings (its credentials too), started as start() would. */
  private async startFrom(file: string): Promise<{ file: string; finished: Promise<void> }> {
    const secrets = this.runOptions.secrets ?? plainSecretStore;
    const db = openCrawlFile(file, { readonly: true });
    let input: unknown;
    try {
      input = { ...(readStoredSettings(db) as object), ...readSecrets(db, secrets) };
    } finally {
      db.close();
    }
    const checked = validateSettings(input);
    if (!checked.ok) throw new Error(checked.problems.map((p) => `${p.field}: ${p.message}`).join('; '));
    this.refuseWhileRunning('refuseScheduled');
    const target = newCrawlPath(this.crawlsDir, checked.settings.seeds[0] ?? '');
    const crawl = LocalCrawl.create(checked.settings, target, this.runOptions);
    const finished = new Promise<void>((resolve) => {
      const done = (change: StateChange) => {
        if (change.to !== 'finished') return;
        crawl.off('state', done);
        resolve();
      };
      crawl.on('state', done);
    });
    await this.run(crawl);
    return { file: target, finished };
  }

  private async run(crawl: LocalCrawl): Promise<void> {
    await this.show(crawl);
    crawl.start();
  }

  /** Puts `next` in view: its events are forwarded, and the crawl it replaces is closed. */
  private async show(next: CrawlInView): Promise<void> {
    const before = this.inView;
    before.off('snapshot', this.forwardSnapshot);
    before.off('state', this.forwardState);
    this.inView = next;
    next.on('snapshot', this.forwardSnapshot);
    next.on('state', this.forwardState);
    await before.close();
  }

  private refuseWhileRunning(refusal: 'refuseStart' | 'refuseResume' | 'refuseAttach' | 'refuseScheduled'): void {
    const state = this.inView.runningState();
    if (state !== null) throw new MessageError(refusal, { state });
  }
}
