// The analysis views of a crawl file (explorer, URL detail, queue, hosts, charts) through one read-only connection
// with the analysis page cache: the session's access to analysis/. It works while a crawl writes to the file.
import type {
  ChartData,
  ChartQuery,
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
  QueueScreen,
  QueueScreenQuery,
  QueueSearchPage,
  QueueSearchQuery,
  SiteStructure,
  SiteStructureQuery,
  UrlDetail,
  UrlRef,
} from '../../../shared/analysis.ts';
import {
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
  queueScreen,
  queueSearch,
  responseTimeHistogram,
  siteStructure,
  statusDistribution,
  urlDetail,
} from '../analysis/index.ts';
import { addExtracted, extractedSql, sqliteParams, SQLITE_RESULTS, type ExtractedOfRow } from '../analysis/result-rows.ts';
import { prepared } from '../analysis/sql.ts';
import { extractionColumns } from '../export/csv-export.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';

export class CrawlAnalysis {
  private constructor(
    readonly file: string,
    readonly db: Db,
  ) {}

  static open(file: string): CrawlAnalysis {
    return new CrawlAnalysis(file, openCrawlForAnalysis(file));
  }

  filterCounts(): FilterCounts {
    return filterCounts(this.db);
  }

  /** A page of a filter's rows with their custom extraction values (under the rules' CSV column names). */
  queryFiltered(query: ExplorerQuery): ExplorerPage {
    const page = queryFiltered(this.db, query);
    const rules = extractionColumns(this.db);
    const rows = page.rows.map((r) => ({ ...r, extracted: {} as Record<string, string[]> }));
    if (rules.length && rows.length) {
      // One query for the page of rows.
      const columnOf = new Map(rules.map((r) => [r.name, r.column]));
      const found = prepared(this.db, extractedSql(SQLITE_RESULTS, 'url_id')).all(
        sqliteParams([SQLITE_RESULTS.keysValue(rows.map((r) => r.url_id))]),
      ) as ExtractedOfRow[];
      addExtracted(new Map(rows.map((r) => [r.url_id, r])), found, (rule) => columnOf.get(rule));
    }
    return { ...page, rows, extractionRules: rules.map((r) => r.column) };
  }

  urlDetail(ref: UrlRef): UrlDetail | null {
    return urlDetail(this.db, ref);
  }

  inlinks(urlId: number, after: number | null): LinkPage<Inlink> {
    return inlinks(this.db, urlId, { after });
  }

  outlinks(urlId: number, after: number | null): LinkPage<Outlink> {
    return outlinks(this.db, urlId, { after });
  }

  queueHosts(query: QueueHostsQuery): QueueHostsPage {
    return queueHosts(this.db, query);
  }

  queuePrefixes(query: PrefixQuery): PrefixGroups | null {
    return queuePrefixes(this.db, query);
  }

  queueSearch(query: QueueSearchQuery): QueueSearchPage {
    return queueSearch(this.db, query);
  }

  queueScreen(query: QueueScreenQuery): QueueScreen {
    return queueScreen(this.db, query);
  }

  hostsReport(query: HostsReportQuery): HostsReport {
    return hostsReport(this.db, query);
  }

  chartData(query: ChartQuery): ChartData {
    switch (query.kind) {
      case 'status':
        return statusDistribution(this.db, { afterSeq: query.afterSeq });
      case 'depth':
        return depthDistribution(this.db, { afterSeq: query.afterSeq });
      case 'response-time':
        return responseTimeHistogram(this.db, { afterSeq: query.afterSeq });
      case 'over-time':
        return overTime(this.db, query.bucketMs === null ? { fromMs: query.fromMs } : { fromMs: query.fromMs, bucketMs: query.bucketMs });
      default:
        throw new Error(`unknown chart "${String((query as { kind: unknown }).kind)}"`);
    }
  }

  siteStructure(query: SiteStructureQuery): SiteStructure {
    return siteStructure(this.db, query);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
