// The one interface the renderer talks to, whatever carries it: Electron's preload (desktop app) or a WebSocket
// (the `serve` web console). No component knows which transport it has.
import type { CrawlSettings, CrawlSettingsInput, SettingsProblem } from './settings.ts';
import type { CrawlSnapshot, StateChange } from './snapshot.ts';
import type {
  ChangeKind,
  ChartData,
  ChartKind,
  ChartQuery,
  CompareQuery,
  ComparisonPage,
  ComparisonSummary,
  ExplorerPage,
  ExplorerQuery,
  FilterCounts,
  HostsReport,
  HostsReportQuery,
  Inlink,
  LinkPage,
  Outlink,
  PrefixGroups,
  PrefixQuery,
  QueueHostsPage,
  QueueHostsQuery,
  QueueSearchPage,
  QueueSearchQuery,
  UrlDetail,
  UrlRef,
  ViewExport,
} from './analysis.ts';

/** Status classes the results table filters on; 'none' is a URL that got no response. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const RESULT_SORT_COLUMNS = ['seq', 'url', 'status_code', 'content_type', 'size_bytes', 'response_time_ms', 'crawl_depth', 'indexability', 'title', 'word_count', 'inlinks', 'outlinks', 'attempts'] as const;
export type ResultSortColumn = (typeof RESULT_SORT_COLUMNS)[number];

export interface ResultsQuery {
  offset: number;
  limit: number;
  sort: ResultSortColumn;
  descending: boolean;
  /** Case-insensitive text found in the URL, title or error. */
  text: string;
  statusClass: StatusClass | null;
}

export interface ResultRow {
  seq: number;
  url: string;
  /** page, image, script or stylesheet. */
  kind: string;
  status_code: number | null;
  content_type: string | null;
  size_bytes: number | null;
  response_time_ms: number | null;
  crawl_depth: number;
  /** "indexable" or "non-indexable"; null for resources, links only checked, and rows without a response. */
  indexability: string | null;
  indexability_reason: string | null;
  title: string | null;
  meta_description: string | null;
  h1: string | null;
  h1_count: number | null;
  h2: string | null;
  h2_count: number | null;
  canonical: string | null;
  lang: string | null;
  /** "en=https://…; de=https://…" */
  hreflang: string | null;
  meta_robots: string | null;
  x_robots_tag: string | null;
  meta_refresh: string | null;
  word_count: number | null;
  inlinks: number;
  outlinks: number;
  redirect_url: string | null;
  /** Fetches it took (retries included); 0 when it was never fetched (blocked by robots.txt). */
  attempts: number;
  /** 1 when robots.txt disallows it and it was fetched anyway (robots mode "report"). */
  robots_disallowed: number;
  error: string | null;
  /** Custom extraction: the values each rule found on the page, by rule name; rules that found nothing are left out. */
  extracted: Record<string, string[]>;
}

export interface ResultsPage {
  /** Rows matching the query's filters, whatever the offset. */
  total: number;
  offset: number;
  rows: ResultRow[];
  /** The crawl's custom extraction rules, by name, in order: a column each. */
  extractionRules: string[];
}

/** A crawl file the app knows about. */
export interface CrawlFileInfo {
  /** Absolute path of the .trawl file (desktop) or its name in the crawls folder (web console). */
  file: string;
  seeds: string[];
  createdAt: string;
  state: string;
  finishReason: string | null;
  crawled: number;
  queued: number;
}

/** What the renderer shows before a crawl starts: defaults and limits of every setting. */
export interface CrawlDefaults {
  settings: CrawlSettings;
  limits: { threads: { min: number; max: number } };
}

export type StartResult = { ok: true; file: string } | { ok: false; problems: SettingsProblem[] };

/** A named configuration to reuse: every setting but the seeds. */
export interface CrawlPreset {
  name: string;
  /** ISO time of the last save. */
  savedAt: string;
  settings: Omit<CrawlSettings, 'seeds'>;
}

export const PRESET_NAME_MAX_LENGTH = 60;

/** Why a preset name is refused, or null: 1-60 characters, letters, digits, spaces and - _ . , ( ) ' & +. */
export function presetNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'a preset name must be text';
  if (name.trim() === '') return 'give the preset a name';
  if (name !== name.trim()) return 'a preset name must not start or end with a space';
  if (name.length > PRESET_NAME_MAX_LENGTH) return `a preset name must be at most ${PRESET_NAME_MAX_LENGTH} characters`;
  if (!/^[\p{L}\p{N}][\p{L}\p{N} _.,()'&+-]*$/u.test(name)) return "a preset name may hold letters, digits, spaces and - _ . , ( ) ' & + only, starting with a letter or digit";
  return null;
}

/** Saving a preset: the presets afterwards, or the settings' problems field by field. */
export type SavePresetResult = { ok: true; presets: CrawlPreset[] } | { ok: false; problems: SettingsProblem[] };

/** What the extraction rules found on one sample URL, fetched and parsed by a worker as the crawl would. */
export interface ExtractionTest {
  url: string;
  statusCode: number | null;
  contentType: string | null;
  /** Why nothing could be read: a fetch error, a redirect (with its target), or not an HTML page. */
  problem: string | null;
  /** Values per rule name, as the crawl would record them. */
  values: Record<string, string[]>;
}

/** Invalid settings (or URL, as field "url") come back as problems, field by field. */
export type ExtractionTestResult = ({ ok: true } & ExtractionTest) | { ok: false; problems: SettingsProblem[] };

/** `rows` and `file` are null where the browser does the writing (a web console download). */
export type ExportResult = { ok: true; rows: number | null; file: string | null } | { ok: false; error: string };

// ---- a crawl shared by a cluster through a PostgreSQL store ----

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

export interface CrawlerApi {
  defaults(): Promise<CrawlDefaults>;
  /** Validates and starts a new crawl; invalid settings come back as problems, field by field. */
  start(settings: CrawlSettingsInput): Promise<StartResult>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
  setThreads(threads: number): Promise<void>;
  /** Changes the running crawl's URLs/s cap (null: no cap). */
  setMaxRate(perSecond: number | null): Promise<void>;
  /** Adds an exclude pattern to the running crawl; the queued URLs it matches are dropped, and counted. */
  addExclude(pattern: string): Promise<{ dropped: number }>;
  /** Pushes the running crawl's queued URLs that match `pattern` (and those found later) to the back of their host's queue. */
  deprioritise(pattern: string): Promise<{ moved: number }>;
  /** Fetches `url` in a worker and runs `settings.extraction` on it, before any crawl. */
  testExtraction(url: string, settings: Omit<CrawlSettingsInput, 'seeds'>): Promise<ExtractionTestResult>;
  /** Saved configuration presets, by name. */
  listPresets(): Promise<CrawlPreset[]>;
  /** Saves (or replaces) a named preset of every setting but the seeds. */
  savePreset(name: string, settings: Omit<CrawlSettingsInput, 'seeds'>): Promise<SavePresetResult>;
  /** Deletes a preset; answers with the presets left. */
  deletePreset(name: string): Promise<CrawlPreset[]>;
  /** Crawl files in the crawls folder, newest first. */
  listCrawls(): Promise<CrawlFileInfo[]>;
  /** Opens an earlier crawl to look at its results; `file` from listCrawls, or (desktop) null to pick one. */
  openCrawl(file: string | null): Promise<CrawlFileInfo | null>;
  /** Continues an interrupted crawl. */
  resumeCrawl(file: string): Promise<StartResult>;
  queryResults(query: ResultsQuery): Promise<ResultsPage>;
  /** Desktop: a save dialog, then the file is written. Web console: the browser downloads it. */
  exportCsv(): Promise<ExportResult>;
  // ---- analyst workbench: over the crawl in view (running or opened), through read-only connections ----
  /** The Results explorer's badges: rows per filter. */
  filterCounts(): Promise<FilterCounts>;
  /** A page of one filter's rows, searched and sorted in SQL. */
  queryFiltered(query: ExplorerQuery): Promise<ExplorerPage>;
  /** Everything about one URL (null when the crawl does not know it). */
  urlDetail(ref: UrlRef): Promise<UrlDetail | null>;
  /** More of a URL's inlinks or outlinks, after a page's `next`. */
  urlInlinks(urlId: number, after: number | null): Promise<LinkPage<Inlink>>;
  urlOutlinks(urlId: number, after: number | null): Promise<LinkPage<Outlink>>;
  /** Queued URLs by host, most first. */
  queueHosts(query: QueueHostsQuery): Promise<QueueHostsPage>;
  /** A host's queued URLs grouped by path prefix (null when the host is unknown). */
  queuePrefixes(query: PrefixQuery): Promise<PrefixGroups | null>;
  /** Queued URLs containing a text, paged by key. */
  queueSearch(query: QueueSearchQuery): Promise<QueueSearchPage>;
  /** Per host: crawled, queued, bytes, errors, politeness and robots.txt. */
  hostsReport(query: HostsReportQuery): Promise<HostsReport>;
  /** One chart's data, whole or (afterSeq / fromMs) what came since. */
  chartData(query: ChartQuery): Promise<ChartData>;
  /** A chart's data as CSV. Desktop: a save dialog. Web console: a download. */
  exportChartCsv(kind: ChartKind): Promise<ExportResult>;
  /** A view of the results as CSV (filter, text, columns, header preset). Desktop: a save dialog. Web console: a download. */
  exportView(view: ViewExport): Promise<ExportResult>;
  /** Two crawls of the list compared: the counts of URLs added, removed and changed. */
  compareCrawls(query: CompareQuery): Promise<ComparisonSummary>;
  /** A page of the added, removed or changed URLs, after a page's `next`. */
  comparePage(query: CompareQuery, kind: ChangeKind, after: number | null): Promise<ComparisonPage>;
  /** The comparison as CSV. Desktop: a save dialog. Web console: a download. */
  exportComparison(query: CompareQuery): Promise<ExportResult>;
  // ---- a crawl in a PostgreSQL store, run by a cluster of headless nodes ----
  /** The crawls of a PostgreSQL store (postgres://user:password@host:port/database), newest first. */
  listStoreCrawls(storeUrl: string): Promise<StoreCrawlList>;
  /**
   * Watches a crawl of the store live (its nodes and their threads) in place of any local crawl: the snapshots are
   * the cluster's, and pause, resume, stop and setThreads (the cluster's total) go to every node.
   */
  attachStore(storeUrl: string, crawlId: string): Promise<StoreAttachment>;
  /** Stops watching the store's crawl (the crawl itself goes on). */
  detachStore(): Promise<void>;
  /** Current snapshot (or null before any crawl), then every coalesced snapshot; returns an unsubscribe. */
  onSnapshot(listener: (snapshot: CrawlSnapshot) => void): () => void;
  onState(listener: (change: StateChange) => void): () => void;
  /**
   * Nothing is in view any more: the host detached from the cluster crawl it showed (asked by any window or
   * browser, or in starting, resuming or opening a local crawl). Every window's live view empties.
   */
  onCleared(listener: () => void): () => void;
}
