// The analysis views that read a crawl wherever it is kept: a crawl file (CrawlAnalysis, synchronous SQLite) or a
// crawl in the PostgreSQL store (cluster-results.ts, the same queries in PostgreSQL's dialect). The session asks the
// crawl in view for them, so the app and the web console show them for either. Views move here as they learn to
// read the store (issue 19); the others are still the crawl file's alone (CrawlInView.analysis).
import type * as Analysis from '../../../shared/analysis.ts';
import { isContentFilter } from '../../../shared/analysis.ts';
import { pageScoreOptions, type RefreshOptions, SETTLED_LINK_SCORES } from '../analysis/link-score-thread.ts';
import { exportOverview } from '../analysis/issues-overview.ts';
import type { BulkReportId } from '../../../shared/bulk-reports.ts';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import type { CrawlMap, CrawlMapQuery } from '../../../shared/crawl-map.ts';
import type { TextDiff } from '../../../shared/text-diff.ts';
import { writeBulkReport } from '../analysis/bulk-reports.ts';
import { overviewOf, type IssuesOverview } from '../../../shared/issues.ts';
import type { CrawlAnalysis } from './crawl-analysis.ts';
import { exportView, viewColumns, writeSitemapTo } from './exports.ts';
import { sitemapPageCount, writeSitemap } from '../sitemaps/write-sitemap.ts';

export interface CrawlViews {
  hostsReport(query: Analysis.HostsReportQuery): Promise<Analysis.HostsReport>;
  queueHosts(query: Analysis.QueueHostsQuery): Promise<Analysis.QueueHostsPage>;
  queuePrefixes(query: Analysis.PrefixQuery): Promise<Analysis.PrefixGroups | null>;
  queueSearch(query: Analysis.QueueSearchQuery): Promise<Analysis.QueueSearchPage>;
  queueScreen(query: Analysis.QueueScreenQuery): Promise<Analysis.QueueScreen>;
  /** The explorer's filter counts; `writing`: the crawl is running here (a crawl file's counts may then be a few seconds old). */
  filterCounts(writing: boolean): Promise<Analysis.FilterCounts>;
  /** A page of a filter's rows (`writing`: Link Scores are brought up to date as a running crawl's are). */
  queryFiltered(query: Analysis.ExplorerQuery, writing: boolean): Promise<Analysis.ExplorerPage>;
  /** The URL detail pane, and pages of its inlinks and outlinks after an id. */
  urlDetail(ref: Analysis.UrlRef, writing: boolean): Promise<Analysis.UrlDetail | null>;
  urlInlinks(urlId: number, after: number | null): Promise<Analysis.LinkPage<Analysis.Inlink>>;
  urlOutlinks(urlId: number, after: number | null): Promise<Analysis.LinkPage<Analysis.Outlink>>;

  // ---- the views' exports, the issues overview, the bulk reports (issue 19: "Export this view", --export-tabs) ----
  /** Every column a view of `filter` can export from this crawl, in the order a tab export writes them (viewColumnsOf). */
  exportColumns(filter: Analysis.FilterId): Promise<string[]>;
  /** One view of the results (a filter, a text, chosen columns, a header preset, CSV or XLSX), to a file or a stream. */
  exportView(view: Analysis.ViewExport, dest: string | NodeJS.WritableStream): Promise<{ rows: number }>;
  /**
   * Duplicate content's options for this crawl (issue 18.1), the given ones changed first (none: just read): a
   * changed threshold recomputes from the stored signatures.
   */
  contentOptions(given: Partial<ContentAnalysisOptions>): Promise<ContentAnalysisOptions>;
  /** What differs between two pages' main texts (issue 18.1), or null when either has none. */
  contentDiff(urlId: number, otherId: number): Promise<TextDiff | null>;
  /** Each issue with its filter's count (`writing`: as filterCounts). */
  issuesOverview(writing: boolean): Promise<IssuesOverview>;
  /** The issues found as CSV (or XLSX), to a file or a stream. */
  exportOverview(dest: string | NodeJS.WritableStream, format?: Analysis.ExportFormat): Promise<{ rows: number }>;
  /** A bulk report (every link to a broken page, every redirect chain...) as CSV (or XLSX), to a file or a stream. */
  exportBulkReport(report: BulkReportId, dest: string | NodeJS.WritableStream, format?: Analysis.ExportFormat): Promise<{ rows: number }>;

  // ---- the charts and the site structure (charts-data.ts, site-structure.ts: the same code on either store) ----
  /** A chart's data: whole, or what came after a previous answer's last_seq (live while the crawl runs). */
  chartData(query: Analysis.ChartQuery): Promise<Analysis.ChartData>;
  /** The folder tree: the hosts and each expanded folder's children. */
  siteStructure(query: Analysis.SiteStructureQuery): Promise<Analysis.SiteStructure>;
  /** The whole folder tree as CSV, to a file path or a stream (ended when done). */
  exportStructureCsv(dest: string | NodeJS.WritableStream): Promise<{ rows: number }>;
  /**
   * The crawl map (issue 18.6), sized by Link Score (`writing`: the scores are brought up to date as a running
   * crawl's are; otherwise settled ones serve). The view's map is drawn before the crawl's first scores, marked
   * scoresPending; `waitForScores` (an export's) waits for them.
   */
  crawlMap(query: CrawlMapQuery, writing: boolean, waitForScores?: boolean): Promise<CrawlMap>;

  // ---- the XML sitemap (sitemaps/write-sitemap.ts, pg-sitemap.ts) ----
  /** How many pages the crawl's sitemap lists. */
  sitemapPageCount(): Promise<number>;
  /** The crawl's sitemap to a file path (an index and numbered sitemaps past the limits), or to a stream (one sitemap). */
  exportSitemap(dest: string | NodeJS.WritableStream): Promise<{ rows: number }>;
}

/** A crawl file's views, from its analysis connection (opened when first asked). */
export function fileViews(analysis: () => CrawlAnalysis): CrawlViews {
  return {
    hostsReport: async (q) => analysis().hostsReport(q),
    queueHosts: async (q) => analysis().queueHosts(q),
    queuePrefixes: async (q) => analysis().queuePrefixes(q),
    queueSearch: async (q) => analysis().queueSearch(q),
    queueScreen: async (q) => analysis().queueScreen(q),
    filterCounts: (writing) => analysis().filterCounts(writing),
    queryFiltered: async (q, writing) => {
      const a = analysis();
      // The page's rows at once, their scores as they are (unless sorted by them): the first ones may take seconds.
      const scoring = pageScoreOptions(writing ? {} : SETTLED_LINK_SCORES, q.sort);
      const behind = await a.refreshLinkScores(scoring);
      if (isContentFilter(q.filter)) await a.prepareContent(true);
      const page = a.queryFiltered(q);
      return behind ? { ...page, scoresPending: true } : page;
    },
    urlDetail: async (ref, writing) => {
      const a = analysis();
      const scoring: RefreshOptions = { ...(writing ? {} : SETTLED_LINK_SCORES), background: true };
      const behind = await a.refreshLinkScores(scoring);
      // Its duplicates once the crawl's analysis is there (seconds at a million pages); the pane asks again meanwhile.
      const contentReady = a.contentReady(writing);
      const detail = a.urlDetail(ref, writing, contentReady);
      if (!detail) return null;
      return { ...detail, ...(behind ? { scoresPending: true } : {}), ...(contentReady ? {} : { contentPending: true }) };
    },
    urlInlinks: async (urlId, after) => analysis().inlinks(urlId, after),
    urlOutlinks: async (urlId, after) => analysis().outlinks(urlId, after),

    // ---- the views' exports, the issues overview, the bulk reports ----
    exportColumns: async (filter) => viewColumns(analysis().db, filter),
    exportView: async (view, dest) => exportView(analysis(), view, dest),
    contentOptions: async (given) => {
      const a = analysis();
      return Object.keys(given).length === 0 ? a.contentOptions() : a.setContentOptions(given);
    },
    contentDiff: async (urlId, otherId) => analysis().contentDiff(urlId, otherId),
    // From the explorer's counts, which a large crawl does not recount at every ask (CrawlAnalysis.filterCounts).
    issuesOverview: async (writing) => overviewOf(await analysis().filterCounts(writing)),
    exportOverview: async (dest, format) => exportOverview(analysis().db, dest, format),
    exportBulkReport: async (report, dest, format) => writeBulkReport(analysis().db, report, dest, format),

    chartData: async (q) => analysis().chartData(q),
    siteStructure: (q) => analysis().siteStructure(q),
    exportStructureCsv: (dest) => analysis().exportStructureCsv(dest),
    crawlMap: async (q, writing, waitForScores = false) =>
      analysis().crawlMap(q, { ...(writing ? {} : SETTLED_LINK_SCORES), background: !waitForScores }),

    sitemapPageCount: async () => sitemapPageCount(analysis().db),
    exportSitemap: (dest) => writeSitemapTo((outPath) => writeSitemap(analysis().db, outPath), dest),
  };
}
