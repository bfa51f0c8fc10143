// The Results table of a cluster crawl, and the analysis views that read the store so far (the hosts report, the queue,
// the explorer with duplicate content, its view exports, the issues overview, the bulk reports, the charts and the
// site structure), read
// from its schema in the PostgreSQL store with the same SQL as a crawl file's (analysis/result-rows.ts and
// hosts-report.ts, in PostgreSQL's dialect): the same rows, filters and sort order. Reads through a
// connection of its own, opened when first asked, so a slow sort never holds up the live view (the observer's).
import type {
  ChartData,
  ChartQuery,
  ExplorerPage,
  ExplorerQuery,
  ExportFormat,
  FilterCounts,
  FilterId,
  Inlink,
  LinkPage,
  Outlink,
  UrlDetail,
  UrlRef,
  HostsReport,
  HostsReportQuery,
  PrefixGroups,
  PrefixQuery,
  QueueHostsPage,
  QueueHostsQuery,
  QueueScreen,
  QueueScreenQuery,
  QueueSearchPage,
  QueueSearchQuery,
  ViewExport,
  SiteStructure,
  SiteStructureQuery,
} from '../../../shared/analysis.ts';
import { overviewOf, type IssuesOverview } from '../../../shared/issues.ts';
import { isContentFilter } from '../../../shared/analysis.ts';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { contentOptions, contentOptionsKey, setContentOptions } from '../analysis/near-duplicates.ts';
import { keepAnswer, keptAnswer } from '../analysis/pg-kept-answers.ts';
import {
  keepLinkScoreOrder,
  orderedLinkScores,
  readyKeptLinkScores,
  refreshStoreLinkScores,
  storeLinkScores,
  storeLinkScoresBehind,
} from '../analysis/pg-link-score.ts';
import { pageScoreOptions, type RefreshOptions, SCORE_SORTS } from '../analysis/link-score-thread.ts';
import { postgresCrawlMap } from '../analysis/pg-crawl-map.ts';
import { CrawlMapMemo } from '../analysis/crawl-map.ts';
import { postgresSitemapPageCount, writeStoreSitemap } from '../sitemaps/pg-sitemap.ts';
import { writeSitemapTo } from './exports.ts';
import type { CrawlMap, CrawlMapQuery } from '../../../shared/crawl-map.ts';
import {
  type ContentState,
  refreshStoreContent,
  storeContentColumns,
  storeContentReady,
  storeContentDetail,
  storeContentDiff,
  storeCrawlKey,
  storeSettledState,
} from '../analysis/pg-content.ts';
import type { TextDiff } from '../../../shared/text-diff.ts';
import { writeOverview } from '../analysis/issues-overview.ts';
import type { BulkReportId } from '../../../shared/bulk-reports.ts';
import { exportBulkReportFromStore, exportViewFromStore, storeViewColumns } from '../export/pg-view-export.ts';
import { postgresChartData } from '../analysis/charts-data.ts';
import {
  adoptStorePackedTrie,
  keepStoreTrie,
  keptStoreTrie,
  postgresSiteStructure,
  postgresStructureCsvRows,
  storeStructureFolded,
  writeStructureCsv,
} from '../analysis/site-structure.ts';
import { OFF_THREAD_ROWS, storeMapRowsOffThread, storeStructureTrieOffThread } from '../analysis/crawl-reads-thread.ts';
import type { StoreMapRead } from '../analysis/pg-crawl-map.ts';
import { postgresQueueHosts, postgresQueuePrefixes, postgresQueueScreen, postgresQueueSearch } from '../analysis/queue-inspector.ts';
import type { CrawlViews } from './crawl-views.ts';
import { postgresHostsReport } from '../analysis/hosts-report.ts';
import {
  filterCountsBuild,
  postgresFilterCounts,
  postgresLinks,
  postgresQueryFiltered,
  postgresUrlDetail,
} from '../analysis/pg-explorer.ts';
import type { ResultRow, ResultsPage, ResultsQuery } from '../../../shared/crawler-api.ts';
import {
  addExtracted,
  extractedSql,
  postgresResults,
  resultsPageSql,
  totalFromPage,
  type ExtractedOfRow,
} from '../analysis/result-rows.ts';
import { extractionColumnsOf, type CsvExportResult } from '../export/csv-writer.ts';
import { exportCsvFromStore } from '../export/pg-csv-export.ts';
import type { PgClient } from '../frontier/postgres/pg-client.ts';
import { StoreError, serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import type { ResultsReader } from './results-reader.ts';
import { SerialConnection } from './serial-connection.ts';

/** A page of a cluster crawl's results, counted and sorted by PostgreSQL. */
export async function queryClusterResults(client: PgClient, crawlId: string, q: ResultsQuery, linkScores = false): Promise<ResultsPage> {
  const d = postgresResults(crawlSchema(crawlId), linkScores);
  const { count, page } = resultsPageSql(d, q, linkScores ? orderedLinkScores(client) : null);
  const rules = extractionColumnsOf((await readCrawl(client, crawlId)).settings).map((r) => r.name);
  const { rows } = await client.query<ResultRow>(page.sql, page.values);
  const total =
    totalFromPage(q.offset, q.limit, rows.length) ?? (await client.query<{ total: number }>(count.sql, count.values)).rows[0]!.total;
  for (const row of rows) row.extracted = {};
  if (rules.length && rows.length) {
    const { rows: found } = await client.query<ExtractedOfRow>(extractedSql(d, 'seq'), [d.keysValue(rows.map((r) => r.seq))]);
    addExtracted(new Map(rows.map((r) => [r.seq, r])), found);
  }
  return { total, offset: q.offset, rows, extractionRules: rules };
}

/**
 * The page reads' session: no parallel index scans. A parallel scan of an index hands its pages out one at a time,
 * and the pages' sorts that read results_charts whole took longer in three processes than in one: at 800,000 results
 * the explorer's first 100 by depth descending 387-676 ms against 140-197 ms, by response time 231-372 against
 * 111-204, the first page of all 63-177 against 39-66, and no page read slower (pg-plans.ts's views). The whole-crawl
 * reads keep them: the badges were 4% slower without.
 */
export const PAGE_READS_SETUP = "SET min_parallel_index_scan_size = '16GB'";

/**
 * The crawl map as this build draws it, for a map kept in a crawl: a build that draws it otherwise (other folds,
 * other fields) changes this, and the maps kept before are not taken for its own.
 */
const KEPT_MAP_FORMAT = 'map:1';

export class ClusterResults implements ResultsReader, CrawlViews {
  private readonly server: string;
  private closed = false;
  /** The reads that answer a page at a time (a page of rows, a URL's detail, the queue, the charts). */
  private readonly pages: SerialConnection;
  /**
   * The reads of the whole crawl (the explorer's counts, the structure's first fold, the crawl map: seconds at a
   * million URLs), on a connection of their own so that a page asked beside them is not queued behind them.
   */
  private readonly sweeps: SerialConnection;
  /**
   * The pages sorted by Link Score or unique inlinks, on a connection of their own, readied in the background once a
   * page has been read (readyKeptLinkScores), so that the first such sort does not pay for it and no other page
   * waits: with the results kept in the order of the kept scores, a sort walks that; else the scores are copied into
   * a table of the connection's own, which PostgreSQL sorts well (0.7 s at a million URLs), and the order is kept
   * meanwhile on a connection of its own (keepLinkScoreOrder: 2.5 s there, once for every reader of the crawl).
   */
  private readonly scoreSorts: SerialConnection;
  /** How the score sorts' connection is readied (readyKeptLinkScores), or whether it is being readied. */
  private scoreSortsReady: 'no' | 'readying' | 'copy' | 'walk' = 'no';
  /** The connection keeping the results in the order of the kept scores, while it does. */
  private ordering: SerialConnection | null = null;
  private readonly mapMemo = new CrawlMapMemo();
  /** The last map kept in the crawl (read from it, or drawn and written here), and the stamp it is kept under. */
  private keptMap: { keptAs: string; map: CrawlMap } | null = null;
  /**
   * The last filter counts: the crawl's settled state (null: unsettled) and content analysis then (null: taken as
   * kept in the crawl), the stamp they are kept in the crawl under (null: not kept), when, and their cost.
   */
  private counted: {
    state: string | null;
    content: string | null;
    keptAs: string | null;
    at: number;
    ms: number;
    counts: FilterCounts;
  } | null = null;

  constructor(
    private readonly storeUrl: string,
    readonly crawlId: string,
  ) {
    this.server = serverLabel(storeUrl);
    this.pages = new SerialConnection(storeUrl, 'trawl-observer', PAGE_READS_SETUP);
    this.sweeps = new SerialConnection(storeUrl, 'trawl-observer-sweeps');
    this.scoreSorts = new SerialConnection(storeUrl, 'trawl-observer-sorts', PAGE_READS_SETUP);
  }

  /** Runs a read that answers a page at a time (SerialConnection). */
  private read<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    return this.pages.read(work);
  }

  /**
   * Runs a page's read on the connection for its sort: the pages' connection, or the score sorts' (readied in the
   * background after a page read otherwise, once the crawl has kept scores of its present state).
   */
  private readPage<T>(sort: string, work: (client: PgClient) => Promise<T>): Promise<T> {
    if (SCORE_SORTS.includes(sort)) return this.scoreSorts.read(work);
    const read = this.read(work);
    if (this.scoreSortsReady === 'no') {
      this.scoreSortsReady = 'readying';
      void read.then(() => this.readyScoreSorts()).catch(() => void (this.scoreSortsReady = 'no'));
    }
    return read;
  }

  /**
   * Readies the score sorts' connection (readyKeptLinkScores); when it copied the scores, keeps the results in their
   * order, then readies it again to walk that.
   */
  private async readyScoreSorts(): Promise<void> {
    const ready = (c: PgClient) => readyKeptLinkScores(c, this.crawlId, this.contentKey());
    this.scoreSortsReady = (await this.scoreSorts.read(ready)) ?? 'no';
    if (this.scoreSortsReady !== 'copy' || this.closed) return;
    this.ordering = new SerialConnection(this.storeUrl, 'trawl-observer-order');
    try {
      if (!(await this.ordering.read((c) => keepLinkScoreOrder(c, this.crawlId)))) return;
    } finally {
      await this.ordering.close();
      this.ordering = null;
    }
    if (!this.closed) this.scoreSortsReady = (await this.scoreSorts.read(ready)) ?? 'no';
  }

  /** Runs a read of the whole crawl, beside the pages' reads. */
  private sweep<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    return this.sweeps.read(work);
  }

  query(q: ResultsQuery): Promise<ResultsPage> {
    return this.readPage(q.sort, async (client) => {
      // The Link Score columns, as a crawl file's Results table has them (best effort: a failure leaves them empty),
      // not waited for unless the rows are sorted by them.
      const scoring = await this.refreshLinkScores(client, pageScoreOptions({}, q.sort), SCORE_SORTS.includes(q.sort)).catch(() => null);
      const page = await queryClusterResults(client, this.crawlId, q, scoring !== null);
      return scoring?.pending ? { ...page, scoresPending: true } : page;
    });
  }

  /** The hosts report, from the store's hosts table (analysis/hosts-report.ts, in PostgreSQL's dialect). */
  hostsReport(q: HostsReportQuery): Promise<HostsReport> {
    return this.read((client) => postgresHostsReport(client, this.crawlId, q));
  }

  /** The queue inspector's reads (analysis/queue-inspector.ts, in PostgreSQL's dialect). */
  queueHosts(q: QueueHostsQuery): Promise<QueueHostsPage> {
    return this.read((client) => postgresQueueHosts(client, this.crawlId, q));
  }

  queuePrefixes(q: PrefixQuery): Promise<PrefixGroups | null> {
    return this.read((client) => postgresQueuePrefixes(client, this.crawlId, q));
  }

  queueSearch(q: QueueSearchQuery): Promise<QueueSearchPage> {
    return this.read((client) => postgresQueueSearch(client, this.crawlId, q));
  }

  queueScreen(q: QueueScreenQuery): Promise<QueueScreen> {
    return this.read((client) => postgresQueueScreen(client, this.crawlId, q));
  }

  /**
   * The explorer's filter counts and pages of rows (analysis/result-filters.ts, in PostgreSQL's dialect), duplicate
   * content's computed here first from the store's signatures (pg-content.ts), as a crawl file's are. The counts
   * read the whole crawl (2.6 s of the database's time at a million URLs), and the explorer and the issues overview
   * ask at every refresh: the last counts are given again while the crawl's settled state (storeSettledState) and
   * its duplicate content analysis are the ones they were made at, and, while the crawl is `writing`, until ten
   * times what they cost has passed (CrawlAnalysis.filterCounts' rule), so counting takes at most about a tenth of
   * the database's time however often the views ask. Counts made while no node adds results are kept in the crawl
   * (pg-kept-answers.ts): a later reader of the settled crawl, in any process, takes them without the analysis or the
   * counts.
   */
  filterCounts(writing = false): Promise<FilterCounts> {
    return this.sweep(async (client) => {
      const state = await storeSettledState(client, this.crawlId);
      const options = contentOptionsKey(this.contentKey());
      const keptAs = this.countsKeptAs(state);
      if (keptAs !== null && this.counted?.keptAs !== keptAs) {
        const kept = await keptAnswer<FilterCounts>(client, this.crawlId, 'filter_counts', keptAs);
        if (kept) this.counted = { state, content: null, keptAs, at: performance.now(), ms: 0, counts: kept.answer };
      }
      if (keptAs !== null && this.counted?.keptAs === keptAs) return this.counted.counts;
      const analysis = await this.refreshContent(client);
      const content = `${analysis.stamp}|${analysis.key}`;
      // The counts' own cost (not the duplicate content analysis before them, which has its own spacing).
      const now = performance.now();
      const last = this.counted;
      if (last && last.content === content && ((state !== null && last.state === state) || (writing && now - last.at < 10 * last.ms))) {
        return last.counts;
      }
      const counts = (await postgresFilterCounts(client, this.crawlId)) as FilterCounts;
      // Kept only when the analysis is of this state too (while nodes crawl it may be an earlier one's).
      const whole = keptAs !== null && analysis.stamp === state && analysis.key === options;
      const kept = whole && (await keepAnswer(client, this.crawlId, 'filter_counts', keptAs, counts));
      this.counted = { state, content, keptAs: kept ? keptAs : null, at: now, ms: performance.now() - now, counts };
      return counts;
    });
  }

  queryFiltered(q: ExplorerQuery): Promise<ExplorerPage> {
    return this.readPage(q.sort, async (client) => {
      // The page's rows at once, their scores as they are (unless sorted by them): the first ones may take seconds.
      const scoring = pageScoreOptions({}, q.sort);
      const { pending } = await this.refreshLinkScores(client, scoring, SCORE_SORTS.includes(q.sort));
      const content = isContentFilter(q.filter);
      if (content) await this.refreshContent(client);
      const read = await postgresQueryFiltered(client, this.crawlId, q, await this.knownTotal(client, q));
      const page = pending ? { ...read, scoresPending: true } : read;
      if (!content) return page;
      // The content filters' rows carry the page's words, its exact duplicates and closest near-duplicate (issue 18.1).
      const columns = await storeContentColumns(
        client,
        this.crawlId,
        page.rows.map((r) => r.url_id),
      );
      return { ...page, rows: page.rows.map((r) => ({ ...r, ...columns.get(r.url_id) })) };
    });
  }

  /**
   * A filter's total without counting it again: its badge, when the badges are those kept for the crawl's present
   * state and this process's duplicate content options (the badges and the pages' totals are the same counts, checked
   * for every filter by the analysis contract); undefined while nodes add results, and for a page a text or a prefix
   * narrows. A content filter's total over 624,999 flagged pages took about 1 s to count.
   */
  private async knownTotal(client: PgClient, q: ExplorerQuery): Promise<number | undefined> {
    const counted = this.counted;
    if (q.text || q.prefix || !counted?.keptAs) return undefined;
    const keptAs = this.countsKeptAs(await storeSettledState(client, this.crawlId));
    return counted.keptAs === keptAs ? counted.counts[q.filter] : undefined;
  }

  /**
   * What counts kept for the crawl in the settled state `state` must have been made with: that state, this process's
   * content options, this build's passes (null: no settled state, none kept).
   */
  private countsKeptAs(state: string | null): string | null {
    return state === null ? null : `${state}|${contentOptionsKey(this.contentKey())}|${filterCountsBuild()}`;
  }

  /** Duplicate content's options for this crawl (near-duplicates.ts keeps them under the crawl's key). */
  async contentOptions(given: Partial<ContentAnalysisOptions>): Promise<ContentAnalysisOptions> {
    const key = storeCrawlKey(this.server, this.crawlId);
    return Object.keys(given).length === 0 ? contentOptions(key) : setContentOptions(key, given);
  }

  /** This connection's content_dups made current (recomputed at most as often as a running crawl file's). */
  private refreshContent(client: PgClient): Promise<ContentState> {
    return refreshStoreContent(client, this.storeUrl, this.crawlId, storeCrawlKey(this.server, this.crawlId), { writing: true });
  }

  /** The URL detail pane and its pages of links (analysis/url-detail.ts's code, run on the store). */
  urlDetail(ref: UrlRef): Promise<UrlDetail | null> {
    return this.read(async (client) => {
      // Its Link Score as it is: the crawl's first ones may take seconds (the pane asks again while they are pending).
      const scoring: RefreshOptions = { background: true };
      const { pending } = await this.refreshLinkScores(client, scoring);
      const detail = await postgresUrlDetail(client, this.crawlId, ref);
      if (!detail) return null;
      // Its duplicate content (issue 18.1), as a crawl file's detail has it, once the crawl's analysis is there
      // (seconds at a million pages): the pane asks again meanwhile.
      const contentReady = await storeContentReady(client, this.storeUrl, this.crawlId, this.contentKey(), { writing: true });
      if (contentReady) detail.content = await storeContentDetail(client, this.storeUrl, this.crawlId, this.contentKey(), detail.url_id);
      return { ...detail, ...(pending ? { scoresPending: true } : {}), ...(contentReady ? {} : { contentPending: true }) };
    });
  }

  /** What differs between two pages' main texts, or null when either has none. */
  contentDiff(urlId: number, otherId: number): Promise<TextDiff | null> {
    return this.read((client) => storeContentDiff(client, this.crawlId, urlId, otherId));
  }

  private contentKey(): string {
    return storeCrawlKey(this.server, this.crawlId);
  }

  /**
   * This connection's link_scores made current (computed off the thread; stale scores serve while nodes crawl):
   * whether it holds scores, and whether they lack a computation under way that `options` would have waited for
   * without `background` (told at once: a later check could see scores the table does not hold yet). `sorted`: the
   * read sorts by them (refreshStoreLinkScores).
   */
  private async refreshLinkScores(
    client: PgClient,
    options: RefreshOptions = {},
    sorted = false,
  ): Promise<{ held: boolean; pending: boolean }> {
    const held = await refreshStoreLinkScores(client, this.storeUrl, this.crawlId, this.contentKey(), options, sorted);
    return { held, pending: storeLinkScoresBehind(this.contentKey(), options) };
  }

  urlInlinks(urlId: number, after: number | null): Promise<LinkPage<Inlink>> {
    return this.read((client) => postgresLinks(client, this.crawlId, 'in', urlId, after));
  }

  urlOutlinks(urlId: number, after: number | null): Promise<LinkPage<Outlink>> {
    return this.read((client) => postgresLinks(client, this.crawlId, 'out', urlId, after));
  }

  // ---- the views' exports, the issues overview, the bulk reports (issue 19: "Export this view", --export-tabs) ----

  /** Every column a view of `filter` can export from the crawl, as a crawl file's (export/pg-view-export.ts). */
  exportColumns(filter: FilterId): Promise<string[]> {
    return this.read((client) => storeViewColumns(client, this.crawlId, filter));
  }

  /** A view as a crawl file's export writes it, through a connection of its own (as exportCsv): the live view goes on meanwhile. */
  async exportView(view: ViewExport, dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    return exportViewFromStore(this.storeUrl, this.crawlId, view, dest, storeCrawlKey(this.server, this.crawlId));
  }

  /** Each issue with its filter's count: the explorer's counts (`writing`: as filterCounts), as a crawl file's overview. */
  async issuesOverview(writing = false): Promise<IssuesOverview> {
    return overviewOf(await this.filterCounts(writing));
  }

  async exportOverview(dest: string | NodeJS.WritableStream, format?: ExportFormat): Promise<{ rows: number }> {
    return writeOverview(await this.issuesOverview(), dest, format);
  }

  /** A bulk report as a crawl file's is written (its code run on the store), through a connection of its own. */
  async exportBulkReport(report: BulkReportId, dest: string | NodeJS.WritableStream, format?: ExportFormat): Promise<{ rows: number }> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    return exportBulkReportFromStore(this.storeUrl, this.crawlId, report, dest, format);
  }

  // ---- the charts and the site structure (charts-data.ts and site-structure.ts, the crawl file's code on the store) ----

  /** A chart's data, up to the seq settled before its snapshot (pg-settled.ts): live updates lose no row. */
  chartData(q: ChartQuery): Promise<ChartData> {
    return this.read((client) => postgresChartData(client, this.crawlId, q));
  }

  /** The folder tree, from a trie this connection keeps and brings up to date. */
  siteStructure(q: SiteStructureQuery): Promise<SiteStructure> {
    return this.sweep(async (client) => {
      await this.prepareStructure(client);
      return postgresSiteStructure(client, this.crawlId, q);
    });
  }

  /** The folder tree as CSV: its rows made in one read, written afterwards (a slow download holds no read up). */
  async exportStructureCsv(dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
    const rows = await this.sweep(async (client) => {
      await this.prepareStructure(client);
      return postgresStructureCsvRows(client, this.crawlId);
    });
    return writeStructureCsv(rows, dest);
  }

  /**
   * A large crawl's first fold (2-3 s of this thread's time at a million URLs, in pages between the store's
   * answers) made in a worker thread through a connection of its own, and adopted by this one; the rows settled
   * since, and every later ask, are folded in here. The fold is kept in the crawl, and a later reader, in any
   * process, adopts it instead when fewer rows than a fold off the thread came since.
   */
  private async prepareStructure(client: PgClient): Promise<void> {
    if (storeStructureFolded(client, this.crawlId)) return;
    const seq = await this.resultsSeq(client);
    if (seq < OFF_THREAD_ROWS) return;
    const kept = await keptStoreTrie(client, this.crawlId);
    if (kept && kept.lastSeq <= seq && seq - kept.lastSeq < OFF_THREAD_ROWS) {
      adoptStorePackedTrie(client, this.crawlId, kept);
      return;
    }
    const packed = await storeStructureTrieOffThread(this.storeUrl, this.crawlId);
    adoptStorePackedTrie(client, this.crawlId, packed);
    // Before the answer (0.15 s at a million URLs, compressed off the thread): kept by a reader that leaves at once too.
    await keepStoreTrie(client, this.crawlId, packed);
  }

  /** The crawl map (pg-crawl-map.ts, the crawl file's code on the store), sized by the crawl's Link Scores when they can be had. */
  crawlMap(q: CrawlMapQuery, _writing = false, waitForScores = false): Promise<CrawlMap> {
    return this.sweep(async (client) => {
      // A map of the settled crawl kept by an earlier reader, sized by the crawl's scores (seconds at a million URLs).
      const state = await storeSettledState(client, this.crawlId);
      const keptAs = state === null ? null : `${state}|${q.maxNodes}|${KEPT_MAP_FORMAT}`;
      if (keptAs !== null) {
        if (this.keptMap?.keptAs !== keptAs) {
          const kept = await keptAnswer<CrawlMap>(client, this.crawlId, 'crawl_map', keptAs);
          if (kept) this.keptMap = { keptAs, map: kept.answer };
        }
        if (this.keptMap?.keptAs === keptAs) return this.keptMap.map;
      }
      // Drawn before the crawl's first scores are computed (seconds at a million URLs), then sized by them; an
      // export waits for them.
      const scoring: RefreshOptions = { background: !waitForScores };
      // Read as arrays: this connection's TEMP table is not filled for them.
      const scores = await storeLinkScores(client, this.storeUrl, this.crawlId, this.contentKey(), scoring).catch(() => null);
      const pending = storeLinkScoresBehind(this.contentKey(), scoring);
      const map = await postgresCrawlMap(client, this.crawlId, q, scores, this.mapMemo, await this.mapRowsOffThread(client));
      if (pending) return { ...map, scoresPending: true };
      // Kept once sized by the scores of the state it was asked at (its rows are read after the state, as the badges').
      if (keptAs !== null && scores?.stamp === state && (await keepAnswer(client, this.crawlId, 'crawl_map', keptAs, map))) {
        this.keptMap = { keptAs, map };
      }
      return map;
    });
  }

  /**
   * A large crawl's map rows (seconds at a million URLs, taken by this thread a cursor page at a time) read in a
   * worker thread through a connection of its own; undefined when the rows kept serve, or the crawl is small.
   */
  private async mapRowsOffThread(client: PgClient): Promise<StoreMapRead | undefined> {
    if (this.mapMemo.rows(await storeSettledState(client, this.crawlId))) return undefined;
    if ((await this.resultsSeq(client)) < OFF_THREAD_ROWS) return undefined;
    return storeMapRowsOffThread(this.storeUrl, this.crawlId);
  }

  /** The crawl's last results seq: how large it is, for the reads that go off the thread past OFF_THREAD_ROWS. */
  private async resultsSeq(client: PgClient): Promise<number> {
    const { rows } = await client.query<{ n: string }>(`SELECT coalesce(max(seq), 0) AS n FROM ${crawlSchema(this.crawlId)}.results`);
    return Number(rows[0]!.n);
  }

  /** How many pages the crawl's sitemap lists (write-sitemap.ts's pages, in PostgreSQL's dialect). */
  sitemapPageCount(): Promise<number> {
    return this.read((client) => postgresSitemapPageCount(client, this.crawlId));
  }

  /** The crawl's sitemap, read through a connection of its own (as exportView): the live view goes on meanwhile. */
  async exportSitemap(dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    return writeSitemapTo((outPath) => writeStoreSitemap(this.storeUrl, this.crawlId, outPath), dest);
  }

  /** As a crawl file's export, through a connection of its own: the live view goes on meanwhile. */
  async exportCsv(dest: string | NodeJS.WritableStream, format: ExportFormat = 'csv'): Promise<CsvExportResult> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    return exportCsvFromStore(this.storeUrl, this.crawlId, dest, { format, linkScores: true });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.pages.close(), this.sweeps.close(), this.scoreSorts.close(), this.ordering?.close()]);
  }
}
