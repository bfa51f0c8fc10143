// The command table: every command between the renderer and its host (Electron main over IPC, or the web console
// over a WebSocket), declared once, with what it answers and what a transport or a host needs to know about it.
// The CrawlerApi's methods, the IPC channels, both hosts' handler maps, the WebSocket transport and the test
// client are derived from it. Each command's argument schema is in command-args.ts, which must have exactly these
// names (the compiler checks): the schemas need zod and the settings parser, which this table leaves out so that
// the sandboxed preload and the renderer can import it (it holds nothing but plain data and type markers).
//
// Adding a command: an entry here, its schema in command-args.ts, and a CrawlSession method of the same name
// (the session's method is every host's default handler; `hostHandler` commands have none, each host says).
import type { CrawlDefaults, CrawlFileInfo, ExportResult, ExtractionTestResult, StartResult } from './crawl-info.ts';
import type { CrawlPreset, SavePresetResult } from './presets.ts';
import type { CrawlSchedule } from './schedules.ts';
import type { ResultsPage } from './results.ts';
import type {
  ExplorerPage,
  FilterCounts,
  HostsReport,
  Inlink,
  LinkPage,
  Outlink,
  PrefixGroups,
  QueueHostsPage,
  QueueScreen,
  QueueSearchPage,
  UrlDetail,
} from './analysis.ts';
import type { ChartData } from './charts.ts';
import type { IssuesOverview } from './issues.ts';
import type { SiteStructure } from './structure.ts';
import type { CrawlMap } from './crawl-map.ts';
import type { ContentAnalysisOptions } from './content.ts';
import type { TextDiff } from './text-diff.ts';
import type { ComparisonPage, ComparisonSummary } from './comparison.ts';
import type { StoreAttachment, StoreCrawlList } from './cluster-store.ts';
import type { CrawlSnapshot } from './snapshot.ts';

declare const RESULT: unique symbol;
/** What a command answers: a marker for the compiler only (its value is an empty object). */
export interface Returns<R> {
  readonly [RESULT]?: R;
}
const returns = <R>(): Returns<R> => ({});

/**
 * Where a command names crawl files. The desktop passes absolute paths; the web console's clients name a file of
 * its crawls folder, which it resolves before the session sees it, and it answers with names, never paths.
 */
export interface CrawlFileRefs {
  /** Arguments that are a crawl file: the argument itself (maybe null), or the named fields of an object argument. */
  readonly args?: readonly { readonly arg: number; readonly fields?: readonly string[] }[];
  /** Where the answer names crawl files: a CrawlFileInfo, a list of them, a StartResult or a ComparisonSummary. */
  readonly result?: 'fileInfo' | 'fileInfos' | 'start' | 'comparison';
}

/** A download of the web console: the command answers with a check, then the browser downloads `path`. */
export interface DownloadRoute {
  readonly path: string;
  /** The download's query parameters, from the command's arguments (none: the path alone, with the token). */
  readonly query?: (args: readonly unknown[]) => Record<string, string>;
}

export interface CommandSpec {
  readonly result: Returns<unknown>;
  /** May legitimately take a while: the WebSocket transport waits longer for its reply. */
  readonly slow?: boolean;
  /** Read-only: sent again when the connection drops before its reply. */
  readonly retryable?: boolean;
  /** Changes the crawl in view, its settings or the app's saved state (never retried: it may have happened). */
  readonly changesCrawl?: boolean;
  /**
   * Each host implements it itself (the session's method, if any, takes other arguments): a dialog on the
   * desktop, a crawl name or a download in the web console. A host without a handler for it does not compile.
   */
  readonly hostHandler?: boolean;
  readonly crawlFiles?: CrawlFileRefs;
  /** The web console answers with a check and the browser downloads the file (the desktop shows a save dialog). */
  readonly download?: DownloadRoute;
}

/** A download's `format` parameter: none for CSV (the default, so a CSV's address is as it always was), else the format. */
const formatQuery = (format: unknown): Record<string, string> =>
  format === undefined || format === null || format === 'csv' ? {} : { format: String(format) };

export const COMMANDS = {
  defaults: { result: returns<CrawlDefaults>(), retryable: true },
  /** Validates and starts a new crawl; invalid settings come back as problems, field by field. */
  start: { result: returns<StartResult>(), slow: true, changesCrawl: true, crawlFiles: { result: 'start' } },
  pause: { result: returns<void>(), changesCrawl: true },
  resume: { result: returns<void>(), changesCrawl: true },
  // stop lets every thread finish its URL.
  stop: { result: returns<void>(), slow: true, changesCrawl: true },
  setThreads: { result: returns<void>(), changesCrawl: true },
  /** Changes the running crawl's URLs/s cap (null: no cap). */
  setMaxRate: { result: returns<void>(), changesCrawl: true },
  /** Adds an exclude pattern to the running crawl; the queued URLs it matches are dropped, and counted. */
  addExclude: { result: returns<{ dropped: number }>(), changesCrawl: true },
  /** Pushes the running crawl's queued URLs that match `pattern` (and those found later) to the back of their host's queue. */
  deprioritise: { result: returns<{ moved: number }>(), changesCrawl: true },
  /** Fetches `url` in a fresh worker and runs `settings.extraction` on it, before any crawl (the fetch may take up to a minute). */
  testExtraction: { result: returns<ExtractionTestResult>(), slow: true },
  /** Saved configuration presets, by name. */
  listPresets: { result: returns<CrawlPreset[]>(), retryable: true },
  /** Saves (or replaces) a named preset of every setting but the seeds. */
  savePreset: { result: returns<SavePresetResult>(), changesCrawl: true },
  /** Deletes a preset; answers with the presets left. */
  deletePreset: { result: returns<CrawlPreset[]>(), changesCrawl: true },
  /** Crawl files in the crawls folder, newest first. */
  listCrawls: { result: returns<CrawlFileInfo[]>(), slow: true, retryable: true, crawlFiles: { result: 'fileInfos' } },
  /** Opens an earlier crawl to look at its results; `file` from listCrawls, or (desktop) null to pick one in a dialog. */
  openCrawl: {
    result: returns<CrawlFileInfo | null>(),
    slow: true,
    changesCrawl: true,
    hostHandler: true,
    crawlFiles: { args: [{ arg: 0 }], result: 'fileInfo' },
  },
  /** Deletes a crawl of the crawls folder (never the one running); answers with the crawls left. */
  deleteCrawl: { result: returns<CrawlFileInfo[]>(), changesCrawl: true, crawlFiles: { args: [{ arg: 0 }], result: 'fileInfos' } },
  /** Continues an interrupted crawl. */
  resumeCrawl: { result: returns<StartResult>(), slow: true, changesCrawl: true, crawlFiles: { args: [{ arg: 0 }], result: 'start' } },
  queryResults: { result: returns<ResultsPage>(), retryable: true },
  /**
   * The crawl in view as CSV (or, given 'xlsx', an XLSX workbook). Desktop: a save dialog, then the file is written.
   * Web console: the browser downloads it.
   */
  exportCsv: {
    result: returns<ExportResult>(),
    hostHandler: true,
    download: { path: '/export.csv', query: ([format]) => formatQuery(format) },
  },
  // ---- analyst workbench: over the crawl in view (running or opened), through read-only connections ----
  /** The Results explorer's badges: rows per filter. */
  filterCounts: { result: returns<FilterCounts>(), retryable: true },
  /** A page of one filter's rows, searched and sorted in SQL. */
  queryFiltered: { result: returns<ExplorerPage>(), retryable: true },
  /** Everything about one URL (null when the crawl does not know it). */
  urlDetail: { result: returns<UrlDetail | null>(), retryable: true },
  /** More of a URL's inlinks, after a page's `next`. */
  urlInlinks: { result: returns<LinkPage<Inlink>>(), retryable: true },
  /** More of a URL's outlinks, after a page's `next`. */
  urlOutlinks: { result: returns<LinkPage<Outlink>>(), retryable: true },
  /** Queued URLs by host, most first. */
  queueHosts: { result: returns<QueueHostsPage>(), retryable: true },
  /** A host's queued URLs grouped by path prefix (null when the host is unknown). */
  queuePrefixes: { result: returns<PrefixGroups | null>(), retryable: true },
  /** Queued URLs containing a text, paged by key. */
  queueSearch: { result: returns<QueueSearchPage>(), retryable: true },
  /** The queue inspector's hosts, prefixes and URLs from one read, so its numbers agree. */
  queueScreen: { result: returns<QueueScreen>(), retryable: true },
  /** Per host: crawled, queued, bytes, errors, politeness and robots.txt. */
  hostsReport: { result: returns<HostsReport>(), retryable: true },
  /** One chart's data, whole or (afterSeq / fromMs) what came since. */
  chartData: { result: returns<ChartData>(), retryable: true },
  /** A chart's data as CSV (or, given 'xlsx', XLSX). Desktop: a save dialog. Web console: a download. */
  exportChartCsv: {
    result: returns<ExportResult>(),
    hostHandler: true,
    download: { path: '/chart.csv', query: ([kind, format]) => ({ kind: String(kind), ...formatQuery(format) }) },
  },
  /** A view of the results as CSV (filter, text, columns, header preset). Desktop: a save dialog. Web console: a download. */
  exportView: {
    result: returns<ExportResult>(),
    hostHandler: true,
    download: { path: '/export-view.csv', query: ([view]) => ({ view: JSON.stringify(view) }) },
  },
  /** Two crawls of the list compared (each walked once): the counts of URLs added, removed and changed. */
  compareCrawls: {
    result: returns<ComparisonSummary>(),
    slow: true,
    retryable: true,
    crawlFiles: { args: [{ arg: 0, fields: ['oldFile', 'newFile'] }], result: 'comparison' },
  },
  /** A page of the added, removed or changed URLs, after a page's `next`. */
  comparePage: { result: returns<ComparisonPage>(), retryable: true, crawlFiles: { args: [{ arg: 0, fields: ['oldFile', 'newFile'] }] } },
  /** The comparison as CSV (or, given 'xlsx', XLSX). Desktop: a save dialog. Web console: a download. */
  exportComparison: {
    result: returns<ExportResult>(),
    slow: true,
    hostHandler: true,
    crawlFiles: { args: [{ arg: 0, fields: ['oldFile', 'newFile'] }] },
    download: { path: '/compare.csv', query: ([query, format]) => ({ query: JSON.stringify(query), ...formatQuery(format) }) },
  },
  /** The issues overview: every issue checked, with its priority, type and number of URLs (its explorer filter's count). */
  issuesOverview: { result: returns<IssuesOverview>(), retryable: true },
  /** The issues found as CSV (or, given 'xlsx', XLSX). Desktop: a save dialog. Web console: a download. */
  exportOverview: {
    result: returns<ExportResult>(),
    hostHandler: true,
    download: { path: '/overview.csv', query: ([format]) => formatQuery(format) },
  },
  // ---- a crawl in a PostgreSQL store, run by a cluster of headless nodes (each connects first, up to 5 s) ----
  /** The crawls of a PostgreSQL store (postgres://user:password@host:port/database), newest first. */
  listStoreCrawls: { result: returns<StoreCrawlList>(), slow: true, retryable: true },
  /**
   * Watches a crawl of the store live (its nodes and their threads) in place of any local crawl: the snapshots are
   * the cluster's, and pause, resume, stop and setThreads (the cluster's total) go to every node.
   */
  attachStore: { result: returns<StoreAttachment>(), slow: true, changesCrawl: true },
  /** Stops watching the store's crawl (the crawl itself goes on). */
  detachStore: { result: returns<void>(), changesCrawl: true },
  /**
   * The crawls of the store the host is attached to, as listStoreCrawls lists them (none when it is attached to
   * none): the other crawls compare can take, the store's address staying in the host.
   */
  attachedStoreCrawls: { result: returns<StoreCrawlList>(), slow: true, retryable: true },
  /** The crawl in view's current snapshot, or null before any crawl (a freshly loaded window shows it at once). */
  currentSnapshot: { result: returns<CrawlSnapshot | null>(), retryable: true, hostHandler: true },
  // ---- crawl management ----
  /** Names, describes and tags a crawl (kept in its file); answers with what the list says about it. */
  labelCrawl: { result: returns<CrawlFileInfo>(), changesCrawl: true, crawlFiles: { args: [{ arg: 0 }], result: 'fileInfo' } },
  /** Scheduled recrawls, each with its latest runs and what changed since the run before. */
  listSchedules: { result: returns<CrawlSchedule[]>(), retryable: true },
  /** Runs a crawl's settings again on a schedule (every N minutes, or daily at HH:MM); answers with every schedule. */
  addSchedule: { result: returns<CrawlSchedule[]>(), changesCrawl: true, crawlFiles: { args: [{ arg: 0 }] } },
  /** Changes a schedule's timing, or pauses or resumes it. */
  updateSchedule: { result: returns<CrawlSchedule[]>(), changesCrawl: true },
  deleteSchedule: { result: returns<CrawlSchedule[]>(), changesCrawl: true },
  // ---- bulk reports (shared/bulk-reports.ts) ----
  /** A bulk report of the crawl in view as CSV (or, given 'xlsx', XLSX). Desktop: a save dialog. Web console: a download. */
  exportBulkReport: {
    result: returns<ExportResult>(),
    slow: true,
    hostHandler: true,
    download: { path: '/bulk-report.csv', query: ([report, format]) => ({ report: String(report), ...formatQuery(format) }) },
  },
  // ---- site structure ----
  /** The crawl's URLs as a folder tree: the hosts, and the children of each folder asked for (expanded). */
  siteStructure: { result: returns<SiteStructure>(), retryable: true },
  /** The whole folder tree as CSV. Desktop: a save dialog. Web console: a download. */
  exportStructureCsv: { result: returns<ExportResult>(), hostHandler: true, download: { path: '/structure.csv' } },
  // ---- XML sitemap (electron/engine/sitemaps/write-sitemap.ts) ----
  /**
   * A sitemap of the crawl in view's indexable 200 HTML pages. Desktop: a save dialog (past 50,000 URLs or 50 MB, the
   * file is a sitemap index naming numbered sitemaps beside it). Web console: a download of one sitemap.
   */
  exportSitemap: { result: returns<ExportResult>(), slow: true, hostHandler: true, download: { path: '/sitemap.xml' } },
  // ---- crawl map (issue 18.6, electron/engine/analysis/crawl-map.ts) ----
  /** The shortest-path tree from the seeds, laid out and folded to at most maxNodes nodes, and inlinks and Link Score per depth. */
  crawlMap: { result: returns<CrawlMap>(), slow: true, retryable: true },
  // ---- duplicate content (issue 18.1, electron/engine/analysis/near-duplicates.ts) ----
  /**
   * The crawl in view's duplicate-content options (near-duplicate threshold, pages compared, low-content words), the
   * given ones changed first (none: read only); the filters' counts, rows and the detail follow, nothing is crawled.
   */
  contentOptions: { result: returns<ContentAnalysisOptions>(), retryable: true },
  /** What differs between two pages' main texts (sentences only on the first, only on the second), or null. */
  contentDiff: { result: returns<TextDiff | null>(), retryable: true },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
/** Every command, in the table's order. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export type CommandResult<K extends CommandName> = (typeof COMMANDS)[K]['result'] extends Returns<infer R> ? R : never;

/** A command's entry, with every flag (absent flags read as undefined). */
export const commandSpec = (name: CommandName): CommandSpec => COMMANDS[name];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}

/** Commands of a flag, for the types of the handlers that depend on it. */
type Flagged<F extends keyof CommandSpec> = {
  [K in CommandName]: (typeof COMMANDS)[K] extends { readonly [P in F]: unknown } ? K : never;
}[CommandName];
/** Commands each host implements itself. */
export type HostHandledName = Flagged<'hostHandler'>;
/** Commands whose default handler, in every host, is the session's method of the same name. */
export type SessionCommandName = Exclude<CommandName, HostHandledName>;
/** The web console's downloads. */
export type DownloadCommandName = Flagged<'download'>;
