// One crawl workbench session: the crawls folder, the crawl that runs (at most one at a time) and the crawl whose
// results are being looked at. What both hosts run: the Electron main process (over IPC) and the web console
// (over a WebSocket). Its methods mirror CrawlerApi, but file arguments are absolute paths the host has already
// resolved and checked. Plain Node: it never imports electron.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type {
  CrawlDefaults,
  CrawlFileInfo,
  CrawlPreset,
  ExportResult,
  ExtractionTestResult,
  ResultRow,
  ResultSortColumn,
  ResultsPage,
  ResultsQuery,
  SavePresetResult,
  StartResult,
  StatusClass,
  StoreAttachment,
  StoreCrawlList,
} from '../../../shared/crawler-api.ts';
import { RESULT_SORT_COLUMNS } from '../../../shared/crawler-api.ts';
import { LIMITS, SettingsError, checkThreadCount, parseSettings, validateSettings } from '../../../shared/settings.ts';
import type { CrawlSnapshot, StateChange } from '../../../shared/snapshot.ts';
import { CrawlController } from '../controller/crawl-controller.ts';
import { exportCsv, extractionColumns } from '../export/csv-export.ts';
import { testExtractionRules } from '../extraction/test-rules.ts';
import { CrawlFileError, UrlState, openCrawlFile, readMeta } from '../frontier/crawl-file.ts';
import type { Db } from '../frontier/crawl-file.ts';
import type { WorkerSpawner } from '../pool/worker-spawner.ts';
import { PresetStore } from './presets.ts';
import { StoreObserver, listStoreCrawls } from './store-observer.ts';
import type { StoreObserverOptions } from './store-observer.ts';
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
} from '../../../shared/analysis.ts';
import { EXPORT_COLUMNS } from '../../../shared/analysis.ts';
import {
  CrawlComparison,
  chartCsv,
  depthDistribution,
  filterCounts,
  hostsReport,
  inlinks,
  openCrawlForAnalysis,
  outlinks,
  overTime,
  queryFiltered,
  queueHosts,
  queuePrefixes,
  queueSearch,
  responseTimeHistogram,
  statusDistribution,
  urlDetail,
  viewWhere,
} from '../analysis/index.ts';
// The crawl_results view's columns (ResultRow), from the tables so the filters and the sort can use them, and their sort SQL.
import { RESULT_ROW_COLUMNS, SORT_SQL as FILTER_SORT_SQL } from '../analysis/result-filters.ts';
import { likePattern, prepared } from '../analysis/sql.ts';

export const CRAWL_FILE_EXT = '.trawl';
/** listCrawls() returns at most this many files, the newest. */
export const MAX_LISTED_CRAWLS = 200;

export interface CrawlSessionOptions {
  /** Folder holding the .trawl files; created when missing. */
  crawlsDir: string;
  spawner: WorkerSpawner;
  /** Passed to the controller: the most worker processes used when settings.processes is null. */
  cpuCount?: number;
  /** Timings of the store observer (tests shorten them). */
  storeObserver?: StoreObserverOptions;
}

export interface CrawlSessionEvents {
  snapshot: [CrawlSnapshot];
  state: [StateChange];
  /** Nothing is in view any more: the cluster crawl in view was detached from. */
  cleared: [];
}

// ---- results queries ----

/**
 * SQL of each sortable column, as the Results explorer sorts (result-filters.ts); text columns sort
 * case-insensitively. Here inlinks is the selected column's alias: the page selects it already.
 */
const SORT_SQL: Record<ResultSortColumn, string> = { ...FILTER_SORT_SQL, inlinks: 'inlinks' };

const STATUS_RANGES: Record<Exclude<StatusClass, 'none'>, [number, number]> = {
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '5xx': [500, 599],
};

const RESULT_FROM = 'FROM results r JOIN urls u ON u.id = r.url_id';

type StatusKind = 'any' | 'range' | 'none';

interface QueryStatements {
  count: Database.Statement;
  page: Database.Statement;
}

/** Adds a value to a row's extracted values under `rule` (defineProperty: a rule may be named "__proto__"). */
function pushExtracted(extracted: Record<string, string[]>, rule: string, value: string): void {
  if (!Object.hasOwn(extracted, rule)) Object.defineProperty(extracted, rule, { value: [], enumerable: true, writable: true, configurable: true });
  extracted[rule]!.push(value);
}

function buildWhere(hasText: boolean, status: StatusKind): string {
  const terms: string[] = [];
  if (hasText) terms.push("(u.url LIKE @text ESCAPE '\\' OR r.title LIKE @text ESCAPE '\\' OR r.error LIKE @text ESCAPE '\\')");
  if (status === 'range') terms.push('r.status_code BETWEEN @statusMin AND @statusMax');
  if (status === 'none') terms.push('r.status_code IS NULL');
  return terms.length ? `WHERE ${terms.join(' AND ')}` : '';
}

/** Custom extraction values of a page of rows, by seq: through results' primary key and extracted's (url_id, rule, n). */
const EXTRACTED_SQL = `SELECT r.seq AS seq, e.rule AS rule, e.value AS value
  FROM json_each(?) j JOIN results r ON r.seq = j.value JOIN extracted e ON e.url_id = r.url_id
  ORDER BY r.seq, e.rule, e.n`;

/** A read-only connection to one crawl file, with its prepared statements per query shape. */
class ResultsReader {
  private readonly statements = new Map<string, QueryStatements>();
  /** The crawl's extraction rules by name (they never change once it is created). */
  readonly extractionRules: string[];
  private extractedStatement: Database.Statement<[string], { seq: number; rule: string; value: string }> | null = null;

  constructor(
    readonly file: string,
    private readonly db: Db,
  ) {
    let rules: string[] = [];
    try {
      rules = extractionColumns(db).map((r) => r.name);
    } catch {
      // settings unreadable: no extraction columns, the results still show
    }
    this.extractionRules = rules;
  }

  static open(file: string): ResultsReader {
    return new ResultsReader(file, openCrawlFile(file, { readonly: true }));
  }

  query(q: ResultsQuery): ResultsPage {
    if (!(RESULT_SORT_COLUMNS as readonly string[]).includes(q.sort)) throw new Error(`cannot sort results by "${String(q.sort)}"`);
    if (!Number.isInteger(q.offset) || q.offset < 0) throw new RangeError(`offset must be a whole number of at least 0 (got ${q.offset})`);
    if (!Number.isInteger(q.limit) || q.limit < 1) throw new RangeError(`limit must be a whole number of at least 1 (got ${q.limit})`);
    const hasText = typeof q.text === 'string' && q.text.length > 0;
    const status: StatusKind = q.statusClass === null || q.statusClass === undefined ? 'any' : q.statusClass === 'none' ? 'none' : 'range';
    const params: Record<string, unknown> = { limit: q.limit, offset: q.offset };
    if (hasText) params.text = likePattern(q.text);
    if (status === 'range') {
      const range = STATUS_RANGES[q.statusClass as Exclude<StatusClass, 'none'>];
      if (!range) throw new Error(`unknown status class "${String(q.statusClass)}"`);
      [params.statusMin, params.statusMax] = range;
    }
    const st = this.statementsFor(q.sort, q.descending, hasText, status);
    const countParams = { ...params };
    delete countParams.limit;
    delete countParams.offset;
    // One read transaction: the total and the rows come from the same state of the file, even mid-crawl.
    return this.db.transaction(() => {
      const { total } = st.count.get(countParams) as { total: number };
      const rows = st.page.all(params) as ResultRow[];
      this.addExtracted(rows);
      return { total, offset: q.offset, rows, extractionRules: this.extractionRules };
    })();
  }

  /** Fills each row's `extracted` with one query for the whole page. */
  private addExtracted(rows: ResultRow[]): void {
    for (const row of rows) row.extracted = {};
    if (this.extractionRules.length === 0 || rows.length === 0) return;
    this.extractedStatement ??= this.db.prepare(EXTRACTED_SQL);
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    for (const { seq, rule, value } of this.extractedStatement.all(JSON.stringify(rows.map((r) => r.seq)))) {
      pushExtracted(bySeq.get(seq)!.extracted, rule, value);
    }
  }

  private statementsFor(sort: ResultSortColumn, descending: boolean, hasText: boolean, status: StatusKind): QueryStatements {
    const key = `${sort}|${descending ? 'desc' : 'asc'}|${hasText ? 'text' : ''}|${status}`;
    let st = this.statements.get(key);
    if (st) return st;
    const where = buildWhere(hasText, status);
    const dir = descending ? 'DESC' : 'ASC';
    // Empty cells (errors have no status, no title...) go last whichever the direction; ties in fetch order.
    const order = sort === 'seq' ? `r.seq ${dir}` : `${SORT_SQL[sort]} ${dir} NULLS LAST, r.seq ASC`;
    st = {
      // Every result has its URL row, so without a text filter (the only one on urls) the count skips the join.
      count: this.db.prepare(`SELECT count(*) AS total ${hasText ? RESULT_FROM : 'FROM results r'} ${where}`),
      page: this.db.prepare(`SELECT ${RESULT_ROW_COLUMNS} ${RESULT_FROM} ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`),
    };
    this.statements.set(key, st);
    return st;
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}

// ---- crawl files ----

/** What listCrawls/openCrawl say about a crawl file, read through a short-lived read-only connection. */
export function readCrawlFileInfo(file: string): CrawlFileInfo {
  const db = openCrawlFile(file, { readonly: true });
  try {
    return db.transaction(() => {
      let seeds: string[] = [];
      try {
        const settings = JSON.parse(readMeta(db, 'settings') ?? '{}') as { seeds?: unknown };
        if (Array.isArray(settings.seeds)) seeds = settings.seeds.filter((s): s is string => typeof s === 'string');
      } catch {
        // unreadable settings: show the file without seeds rather than hide it
      }
      const crawled = (db.prepare('SELECT count(*) AS n FROM urls WHERE state = ?').get(UrlState.done) as { n: number }).n;
      const queued = (db.prepare('SELECT coalesce(sum(queued), 0) AS n FROM hosts').get() as { n: number }).n;
      return {
        file,
        seeds,
        createdAt: readMeta(db, 'created_at') ?? '',
        state: readMeta(db, 'state') ?? 'unknown',
        finishReason: readMeta(db, 'finish_reason'),
        crawled,
        queued,
      };
    })();
  } finally {
    db.close();
  }
}

/** Last write to a crawl file, its WAL included (a running crawl writes to the WAL, not the file). */
function lastWritten(file: string): number {
  let t = 0;
  for (const f of [file, `${file}-wal`]) {
    try {
      t = Math.max(t, fs.statSync(f).mtimeMs);
    } catch {
      // no WAL (or the file went away meanwhile)
    }
  }
  return t;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `<host>-<YYYYMMDD-HHMMSS>` in local time; the host reduced to characters safe in any file system. */
export function crawlFileStem(seed: string, now = new Date()): string {
  let host = 'crawl';
  try {
    host = new URL(seed).hostname.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/^[._-]+|[._-]+$/g, '') || 'crawl';
  } catch {
    // validated already; keep the fallback
  }
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${host.slice(0, 100)}-${stamp}`;
}

function removeCrawlFile(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

// ---- the session ----

export class CrawlSession extends EventEmitter<CrawlSessionEvents> {
  readonly crawlsDir: string;
  private readonly spawner: WorkerSpawner;
  private readonly cpuCount: number | undefined;
  /** The controller of the crawl started or resumed last (kept once finished, for its final snapshot). */
  private controller: CrawlController | null = null;
  private current: string | null = null;
  private reader: ResultsReader | null = null;
  /** A read-only connection to the crawl in view for the analysis queries (explorer, detail, queue, hosts, charts). */
  private analysis: { file: string; db: Db } | null = null;
  /** The comparison asked about last, kept open for its pages. */
  private comparison: { key: string; c: CrawlComparison } | null = null;
  private readonly presets: PresetStore;
  /** Set while a rule test's worker runs: one at a time. */
  private testing = false;
  /** The crawl of a PostgreSQL store in view, when attached to one (then no local crawl is). */
  private observer: StoreObserver | null = null;
  private readonly storeObserverOptions: StoreObserverOptions;
  private readonly forwardSnapshot = (s: CrawlSnapshot) => this.emit('snapshot', s);
  private readonly forwardState = (s: StateChange) => this.emit('state', s);

  constructor(options: CrawlSessionOptions) {
    super();
    this.crawlsDir = path.resolve(options.crawlsDir);
    fs.mkdirSync(this.crawlsDir, { recursive: true });
    this.spawner = options.spawner;
    this.cpuCount = options.cpuCount;
    this.storeObserverOptions = options.storeObserver ?? {};
    this.presets = new PresetStore(this.crawlsDir);
  }

  async defaults(): Promise<CrawlDefaults> {
    const settings = parseSettings({ seeds: ['https://example.com/'] });
    return { settings: { ...settings, seeds: [] }, limits: { threads: { ...LIMITS.threads } } };
  }

  /** Validates the settings and starts a new crawl in a new file of the crawls folder. */
  async start(input: unknown): Promise<StartResult> {
    const checked = validateSettings(input);
    if (!checked.ok) return { ok: false, problems: checked.problems };
    this.refuseWhileRunning('start a new crawl');
    await this.detachStore();
    const file = this.newCrawlPath(checked.settings.seeds[0] ?? '');
    let controller: CrawlController;
    try {
      controller = CrawlController.create(checked.settings, this.controllerOptions(file));
    } catch (err) {
      removeCrawlFile(file);
      throw err;
    }
    this.run(controller, file);
    return { ok: true, file };
  }

  /** Pauses the crawl; attached to a store, every node of the cluster. */
  async pause(): Promise<void> {
    if (this.observer) return this.observer.command({ state: 'paused' });
    this.live('pause').pause();
  }

  async resume(): Promise<void> {
    if (this.observer) return this.observer.command({ state: 'running' });
    this.live('resume').resume();
  }

  /**
   * Stops gracefully (threads finish the URL in hand, for a few seconds at most); resolves once finished.
   * Attached to a store: tells every node to stop, and resolves once told (the nodes finish on their own).
   */
  async stop(): Promise<void> {
    if (this.observer) return this.observer.command({ state: 'stopped' });
    await this.live('stop').stop();
  }

  /** The pool size; attached to a store, the cluster's total (shared out over its live nodes). */
  async setThreads(threads: number): Promise<void> {
    if (this.observer) return this.observer.command({ threads });
    // The contract admits a cluster's total; a local crawl's pool is smaller.
    checkThreadCount(threads);
    this.live('change the threads of').setThreads(threads);
  }

  async setMaxRate(perSecond: number | null): Promise<void> {
    this.refuseForStore('change the URLs/s cap');
    this.live('change the URLs/s cap of').setMaxRate(perSecond);
  }

  /** Adds an exclude pattern to the running crawl; says how many queued URLs it dropped. */
  async addExclude(pattern: string): Promise<{ dropped: number }> {
    this.refuseForStore('add an exclude pattern');
    return this.live('add an exclude pattern to').addExclude(pattern);
  }

  /** Pushes the running crawl's queued URLs matching `pattern` to the back of their host's queue; says how many moved. */
  async deprioritise(pattern: string): Promise<{ moved: number }> {
    this.refuseForStore('deprioritise a pattern');
    return this.live('deprioritise a pattern in').deprioritise(pattern);
  }

  // ---- a crawl in a PostgreSQL store ----

  /** The crawls of a PostgreSQL store; a StoreError names a bad URL or a server that cannot be reached. */
  async listStoreCrawls(storeUrl: string): Promise<StoreCrawlList> {
    return listStoreCrawls(storeUrl);
  }

  /**
   * Watches a crawl of a PostgreSQL store in place of any local crawl (refused while a local crawl runs). The
   * previous attachment is kept when this one fails (a StoreError says why).
   */
  async attachStore(storeUrl: string, crawlId: string): Promise<StoreAttachment> {
    this.refuseWhileRunning('attach to a cluster crawl');
    const observer = await StoreObserver.open(storeUrl, crawlId, this.storeObserverOptions);
    if (this.isRunning()) {
      // A local crawl started while we connected: it stays in view.
      await observer.close();
      this.refuseWhileRunning('attach to a cluster crawl');
    }
    await this.detachStore();
    this.detach();
    this.controller = null;
    this.setCurrent(null);
    this.observer = observer;
    observer.on('snapshot', this.forwardSnapshot);
    observer.on('state', this.forwardState);
    const first = observer.snapshot();
    // A crawl comes into view: `from: null` tells the UI it is another crawl.
    this.emit('state', { from: null, to: first.state, reason: first.reason, error: first.error, at: first.at });
    this.emit('snapshot', first);
    return { server: observer.server, crawlId: observer.crawlId };
  }

  /**
   * Stops watching the store's crawl: UNLISTEN, connection closed, and 'cleared' says nothing is in view any more
   * (to every window, not only the one that asked). Nothing happens when not attached.
   */
  async detachStore(): Promise<void> {
    const observer = this.observer;
    if (!observer) return;
    this.observer = null;
    await observer.close();
    this.emit('cleared');
  }

  /** Why the crawl in view cannot be exported as CSV (none open), or null; a cluster crawl exports from its store. */
  exportProblem(): string | null {
    if (this.observer) return null;
    return this.current === null ? 'no crawl is open; start or open a crawl first' : null;
  }

  /** Why the crawl in view has no charts to export (none open, or it lives in a store), or null. */
  chartExportProblem(): string | null {
    if (this.observer) return this.storeRefusal('chart it here');
    return this.current === null ? 'no crawl is open; start or open a crawl first' : null;
  }

  /** What the session is attached to, or null. */
  attachedStore(): StoreAttachment | null {
    return this.observer ? { server: this.observer.server, crawlId: this.observer.crawlId } : null;
  }

  /**
   * Runs the extraction rules of `settings` on one URL, fetched and parsed by a worker process as the crawl would
   * (with its user agent, headers and timeouts). One test at a time. Invalid settings come back as problems, the
   * URL's as field "url".
   */
  async testExtraction(url: string, settings: unknown): Promise<ExtractionTestResult> {
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
      return { ok: false, problems: [{ field: '(settings)', message: 'must be an object of settings' }] };
    }
    if (Object.hasOwn(settings, 'seeds')) return { ok: false, problems: [{ field: 'seeds', message: 'give the URL to test on its own, not as seeds' }] };
    const checked = validateSettings({ ...settings, seeds: [url] });
    if (!checked.ok) {
      return { ok: false, problems: checked.problems.map((p) => (p.field === 'seeds.0' || p.field === 'seeds' ? { ...p, field: 'url' } : p)) };
    }
    if (checked.settings.extraction.length === 0) return { ok: false, problems: [{ field: 'extraction', message: 'add a rule to test first' }] };
    if (this.testing) throw new Error('a rule test is already running; wait for it to finish');
    this.testing = true;
    try {
      const { seeds: _seeds, ...rest } = checked.settings;
      return { ok: true, ...(await testExtractionRules(this.spawner, url, rest)) };
    } finally {
      this.testing = false;
    }
  }

  /** Saved presets, by name; a presets file that cannot be read is an error, never an empty list. */
  async listPresets(): Promise<CrawlPreset[]> {
    return this.presets.list();
  }

  async savePreset(name: string, settings: unknown): Promise<SavePresetResult> {
    return this.presets.save(name, settings);
  }

  async deletePreset(name: string): Promise<CrawlPreset[]> {
    return this.presets.delete(name);
  }

  /** The crawl files of the crawls folder, most recently written first; files that are not crawls are left out. */
  async listCrawls(): Promise<CrawlFileInfo[]> {
    let names: string[];
    try {
      names = fs.readdirSync(this.crawlsDir);
    } catch {
      return [];
    }
    const files = names
      .filter((n) => n.endsWith(CRAWL_FILE_EXT))
      .map((n) => path.join(this.crawlsDir, n))
      .filter((f) => {
        try {
          return fs.statSync(f).isFile();
        } catch {
          return false;
        }
      })
      .map((f) => ({ f, t: lastWritten(f) }))
      .sort((a, b) => b.t - a.t || (a.f < b.f ? 1 : -1));
    const out: CrawlFileInfo[] = [];
    for (const { f } of files) {
      if (out.length >= MAX_LISTED_CRAWLS) break;
      try {
        out.push(readCrawlFileInfo(f));
      } catch {
        // not a crawl file (or one this version cannot read): not listed
      }
    }
    return out;
  }

  /** Makes `file` the crawl whose results are queried and exported. Refused while a crawl runs. */
  async openCrawl(file: string): Promise<CrawlFileInfo> {
    const abs = path.resolve(file);
    if (this.isRunning() && abs !== this.current) {
      throw new Error('a crawl is running; stop it before opening another crawl');
    }
    const info = readCrawlFileInfo(abs);
    await this.detachStore();
    if (abs !== this.current) {
      this.detach();
      this.controller = null;
      this.setCurrent(abs);
    }
    return info;
  }

  /** Continues an interrupted crawl from its file (its settings are kept). */
  async resumeCrawl(file: string): Promise<StartResult> {
    this.refuseWhileRunning('resume a crawl');
    const abs = path.resolve(file);
    await this.detachStore();
    let controller: CrawlController;
    try {
      controller = CrawlController.resume(this.controllerOptions(abs));
    } catch (err) {
      if (err instanceof CrawlFileError || err instanceof SettingsError) {
        return { ok: false, problems: [{ field: 'file', message: err.message }] };
      }
      throw err;
    }
    this.run(controller, abs);
    return { ok: true, file: abs };
  }

  /** A page of the current crawl's results, filtered and sorted by SQLite; works while the crawl runs. */
  async queryResults(query: ResultsQuery): Promise<ResultsPage> {
    // A cluster crawl's results come from its store.
    if (this.observer) return this.observer.queryResults(query);
    if (this.current === null) return { total: 0, offset: query.offset, rows: [], extractionRules: [] };
    if (!this.reader || this.reader.file !== this.current) {
      this.reader?.close();
      this.reader = null;
      this.reader = ResultsReader.open(this.current);
    }
    return this.reader.query(query);
  }

  /** Writes the current crawl's results as CSV to a file path or a stream (ended when done). */
  async exportCsv(dest: string | NodeJS.WritableStream): Promise<ExportResult> {
    if (this.observer) {
      // A cluster crawl's results are exported from the store, as a crawl file's are.
      try {
        const { rows } = await this.observer.exportCsv(dest);
        return { ok: true, rows, file: typeof dest === 'string' ? dest : null };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    }
    if (this.current === null) return { ok: false, error: 'no crawl is open; start or open a crawl first' };
    try {
      const { rows } = await exportCsv(this.current, dest);
      return { ok: true, rows, file: typeof dest === 'string' ? dest : null };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  // ---- analyst workbench (read-only connections: they work while the crawl writes) ----

  async filterCounts(): Promise<FilterCounts> {
    return filterCounts(this.analysisDb());
  }

  async queryFiltered(query: ExplorerQuery): Promise<ExplorerPage> {
    const db = this.analysisDb();
    const page = queryFiltered(db, query);
    const rules = extractionColumns(db);
    const rows = page.rows.map((r) => ({ ...r, extracted: {} as Record<string, string[]> }));
    if (rules.length && rows.length) {
      // One query for the page of rows, through extracted's primary key (url_id, rule, n).
      const columnOf = new Map(rules.map((r) => [r.name, r.column]));
      const byId = new Map(rows.map((r) => [r.url_id, r]));
      const values = prepared(db, 'SELECT url_id, rule, value FROM extracted WHERE url_id IN (SELECT value FROM json_each(?)) ORDER BY url_id, rule, n')
        .all(JSON.stringify(rows.map((r) => r.url_id))) as { url_id: number; rule: string; value: string }[];
      for (const { url_id, rule, value } of values) {
        const column = columnOf.get(rule);
        const extracted = byId.get(url_id)?.extracted;
        if (column === undefined || extracted === undefined) continue;
        pushExtracted(extracted, column, value);
      }
    }
    return { ...page, rows, extractionRules: rules.map((r) => r.column) };
  }

  async urlDetail(ref: UrlRef): Promise<UrlDetail | null> {
    return urlDetail(this.analysisDb(), ref);
  }

  async urlInlinks(urlId: number, after: number | null): Promise<LinkPage<Inlink>> {
    return inlinks(this.analysisDb(), urlId, { after });
  }

  async urlOutlinks(urlId: number, after: number | null): Promise<LinkPage<Outlink>> {
    return outlinks(this.analysisDb(), urlId, { after });
  }

  async queueHosts(query: QueueHostsQuery): Promise<QueueHostsPage> {
    return queueHosts(this.analysisDb(), query);
  }

  async queuePrefixes(query: PrefixQuery): Promise<PrefixGroups | null> {
    return queuePrefixes(this.analysisDb(), query);
  }

  async queueSearch(query: QueueSearchQuery): Promise<QueueSearchPage> {
    return queueSearch(this.analysisDb(), query);
  }

  async hostsReport(query: HostsReportQuery): Promise<HostsReport> {
    return hostsReport(this.analysisDb(), query);
  }

  async chartData(query: ChartQuery): Promise<ChartData> {
    const db = this.analysisDb();
    switch (query.kind) {
      case 'status':
        return statusDistribution(db, { afterSeq: query.afterSeq });
      case 'depth':
        return depthDistribution(db, { afterSeq: query.afterSeq });
      case 'response-time':
        return responseTimeHistogram(db, { afterSeq: query.afterSeq });
      case 'over-time':
        return overTime(db, query.bucketMs === null ? { fromMs: query.fromMs } : { fromMs: query.fromMs, bucketMs: query.bucketMs });
      default:
        throw new Error(`unknown chart "${String((query as { kind: unknown }).kind)}"`);
    }
  }

  /** A chart's whole data as CSV, to a file path or a stream (ended when done). */
  async exportChartCsv(kind: ChartKind, dest: string | NodeJS.WritableStream): Promise<ExportResult> {
    try {
      const data = await this.chartData({ kind, afterSeq: null, fromMs: null, bucketMs: null });
      const csv = chartCsv(data);
      const rows = data.rows.length;
      if (typeof dest === 'string') fs.writeFileSync(dest, csv);
      else dest.end(csv);
      return { ok: true, rows, file: typeof dest === 'string' ? dest : null };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** What is wrong with a view export (no crawl open, a column the crawl does not have), or null. */
  viewExportProblem(view: ViewExport): string | null {
    if (this.observer) return this.storeRefusal('export its results here');
    if (this.current === null) return 'no crawl is open; start or open a crawl first';
    const known = new Set<string>([...EXPORT_COLUMNS, ...extractionColumns(this.analysisDb()).map((r) => r.column)]);
    const unknown = view.columns.filter((c) => !known.has(c));
    if (view.columns.length === 0) return 'choose at least one column to export';
    return unknown.length ? `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')}` : null;
  }

  /** One view of the results (a filter, a text, chosen columns, a header preset) as CSV, to a file or a stream. */
  async exportView(view: ViewExport, dest: string | NodeJS.WritableStream): Promise<ExportResult> {
    const problem = this.viewExportProblem(view);
    if (problem) return { ok: false, error: problem };
    try {
      const where = viewWhere(this.analysisDb(), view.filter, view.text);
      // The external view lists URLs, most never fetched: its rows come from urls, not from results.
      const rowsFrom = view.filter === 'external' ? 'urls' : 'results';
      const { rows } = await exportCsv(this.current!, dest, { columns: view.columns, headerPreset: view.headerPreset, rowsFrom, ...(where ? { where } : {}) });
      return { ok: true, rows, file: typeof dest === 'string' ? dest : null };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Two crawl files (absolute paths, checked by the host) compared: the counts. */
  async compareCrawls(query: CompareQuery): Promise<ComparisonSummary> {
    return this.comparisonOf(query).summary();
  }

  async comparePage(query: CompareQuery, kind: ChangeKind, after: number | null): Promise<ComparisonPage> {
    return this.comparisonOf(query).page(kind, { after, limit: 100 });
  }

  /** The comparison as CSV, to a file path or a stream (ended when done). */
  async exportComparison(query: CompareQuery, dest: string | NodeJS.WritableStream): Promise<ExportResult> {
    try {
      const { rows } = await this.comparisonOf(query).exportCsv(dest);
      return { ok: true, rows, file: typeof dest === 'string' ? dest : null };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  snapshot(): CrawlSnapshot | null {
    if (this.observer) return this.observer.snapshot();
    return this.controller?.snapshot() ?? null;
  }

  /** Absolute path of the crawl whose results are shown, or null. */
  currentFile(): string | null {
    return this.current;
  }

  /** True while a crawl is started and not yet finished. */
  isRunning(): boolean {
    return this.controller !== null && this.controller.crawlState !== 'finished';
  }

  /** Stops a running crawl (gracefully) and closes the connections. */
  async close(): Promise<void> {
    await this.detachStore();
    if (this.isRunning()) await this.controller!.stop();
    this.reader?.close();
    this.reader = null;
    this.closeAnalysis();
    this.comparison?.c.close();
    this.comparison = null;
  }

  // ---- internals ----

  private controllerOptions(dbPath: string) {
    return this.cpuCount === undefined ? { dbPath, spawner: this.spawner } : { dbPath, spawner: this.spawner, cpuCount: this.cpuCount };
  }

  private run(controller: CrawlController, file: string): void {
    this.detach();
    this.controller = controller;
    controller.on('snapshot', this.forwardSnapshot);
    controller.on('state', this.forwardState);
    this.setCurrent(file);
    controller.start();
  }

  private detach(): void {
    this.controller?.off('snapshot', this.forwardSnapshot);
    this.controller?.off('state', this.forwardState);
  }

  private setCurrent(file: string | null): void {
    if (this.current === file) return;
    this.current = file;
    this.reader?.close();
    this.reader = null;
    this.closeAnalysis();
  }

  /** The analysis connection to the crawl in view, opened when first needed. */
  private analysisDb(): Db {
    this.refuseForStore('look into it here');
    if (this.current === null) throw new Error('no crawl is open; start or open a crawl first');
    if (this.analysis?.file !== this.current) {
      this.closeAnalysis();
      this.analysis = { file: this.current, db: openCrawlForAnalysis(this.current) };
    }
    return this.analysis.db;
  }

  private closeAnalysis(): void {
    if (this.analysis?.db.open) this.analysis.db.close();
    this.analysis = null;
  }

  /** The comparison of two files, kept open while the same two are asked about. */
  private comparisonOf(query: CompareQuery): CrawlComparison {
    const oldFile = path.resolve(query.oldFile);
    const newFile = path.resolve(query.newFile);
    if (oldFile === newFile) throw new Error('choose two different crawls to compare');
    const key = JSON.stringify([oldFile, newFile, query.wordThresholdPercent]);
    if (this.comparison?.key !== key) {
      this.comparison?.c.close();
      this.comparison = null;
      this.comparison = { key, c: CrawlComparison.open(oldFile, newFile, { wordThreshold: { percent: query.wordThresholdPercent } }) };
    }
    return this.comparison.c;
  }

  /** Why a command for a local crawl file cannot be used on the store's crawl. */
  private storeRefusal(what: string): string {
    const o = this.observer!;
    return `cannot ${what}: crawl "${o.crawlId}" lives in the PostgreSQL store at ${o.server} and is run by its nodes (from here: its live view, results table and CSV export; pause, resume, stop and the thread count)`;
  }

  private refuseForStore(what: string): void {
    if (this.observer) throw new Error(this.storeRefusal(what));
  }

  private refuseWhileRunning(what: string): void {
    if (this.isRunning()) throw new Error(`cannot ${what}: a crawl is already running (${this.controller!.crawlState}); stop it first`);
  }

  private live(what: string): CrawlController {
    if (!this.controller) throw new Error(`cannot ${what} the crawl: no crawl has been started`);
    if (this.controller.crawlState === 'finished') throw new Error(`cannot ${what} the crawl: it has finished`);
    return this.controller;
  }

  /** `<host>-<YYYYMMDD-HHMMSS>.trawl`, with `-2`, `-3`... when that name is taken. */
  private newCrawlPath(seed: string): string {
    const stem = crawlFileStem(seed);
    for (let n = 1; ; n++) {
      const file = path.join(this.crawlsDir, `${stem}${n === 1 ? '' : `-${n}`}${CRAWL_FILE_EXT}`);
      if (!fs.existsSync(file)) return file;
    }
  }
}
