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
  fileChartData,
  filterCounts,
  hostsReport,
  inlinks,
  openCrawlForAnalysis,
  outlinks,
  queryFiltered,
  queueHosts,
  queuePrefixes,
  queueScreen,
  queueSearch,
  siteStructure,
  urlDetail,
} from '../analysis/index.ts';
import { addExtracted, extractedSql, sqliteParams, SQLITE_RESULTS, type ExtractedOfRow } from '../analysis/result-rows.ts';
import { prepared } from '../analysis/sql.ts';
import { forgetLinkScores, linkScoresBehind, refreshLinkScores, type RefreshOptions } from '../analysis/link-score-thread.ts';
import { type CrawlMapRead, CrawlMapMemo, crawlMap, crawlMapState } from '../analysis/crawl-map.ts';
import { adoptPackedTrie, exportStructureCsv, structureFolded } from '../analysis/site-structure.ts';
import type { CrawlMap, CrawlMapQuery } from '../../../shared/crawl-map.ts';
import { extractionColumns } from '../export/csv-export.ts';
import {
  contentColumnsOf,
  contentDetailOf,
  contentDiff,
  contentOptions,
  forgetContentAnalysis,
  refreshContentAnalysis,
  setContentOptions,
} from '../analysis/near-duplicates.ts';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { contentAnalysisReady, prepareContentAnalysis } from '../analysis/near-duplicates-thread.ts';
import type { TextDiff } from '../../../shared/text-diff.ts';
import { isContentFilter } from '../../../shared/analysis.ts';
import {
  countsOffThread,
  crawlMapRowsOffThread,
  filterCountsOffThread,
  largeCrawl,
  structureTrieOffThread,
} from '../analysis/crawl-reads-thread.ts';
import { SharedRun } from '../analysis/worker-thread.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';

export class CrawlAnalysis {
  private readonly mapMemo = new CrawlMapMemo();

  private constructor(
    readonly file: string,
    readonly db: Db,
  ) {}

  static open(file: string): CrawlAnalysis {
    return new CrawlAnalysis(file, openCrawlForAnalysis(file));
  }

  /** The last counts, when they were made (performance.now()), what they cost, and the file's data_version then. */
  private counted: { at: number; ms: number; version: number; counts: FilterCounts; content: string } | null = null;

  /** What is read off the thread (crawl-reads-thread.ts), each shared by the callers while it runs. */
  private readonly mapRows = new SharedRun<CrawlMapRead>();
  private readonly counting = new SharedRun<FilterCounts>();
  private readonly folding = new SharedRun<void>();

  /**
   * The explorer's filter counts (the issues overview's too). On a large crawl they take long (about 0.6 s at
   * 100,000 URLs, 7 s at 800,000): they are counted in a worker thread (crawl-reads-thread.ts), so the process that
   * hosts the crawl keeps answering the other views and running the crawl meanwhile. An answer is served again while
   * the file has not changed, and, while a crawl is `writing` it, until ten times what it cost has passed, so
   * counting takes at most about a tenth of the host's time however often the views ask. Once the crawl stops
   * writing, the next ask counts.
   */
  async filterCounts(writing = false): Promise<FilterCounts> {
    // Duplicate content's analysis off the thread first (issue 18.1): the counts then only read it.
    await this.prepareContent(writing);
    if (this.counting.current) return this.counting.current;
    const now = performance.now();
    // Duplicate content's TEMP table first: its options may have changed since the last counts (issue 18.1).
    const content = this.refreshContent(writing);
    const version = this.db.pragma('data_version', { simple: true }) as number;
    const last = this.counted;
    if (last && last.content === content && (last.version === version || (writing && now - last.at < 10 * last.ms))) return last.counts;
    const keep = (counts: FilterCounts): FilterCounts => {
      this.counted = { at: now, ms: performance.now() - now, version, counts, content };
      return counts;
    };
    if (!countsOffThread(this.db, last?.ms ?? null)) return keep(filterCounts(this.db));
    return this.counting.run(() => filterCountsOffThread(this.db).then(keep));
  }

  /** Duplicate content (issue 18.1): this connection's content_dups made current; what it holds (stamp and options). */
  refreshContent(writing = false): string {
    try {
      const r = refreshContentAnalysis(this.db, { writing });
      return `${r.stamp}|${r.key}`;
    } catch {
      // the content filters stay empty; the views still answer
      return '';
    }
  }

  /**
   * Duplicate content's analysis computed off the thread when due (near-duplicates-thread.ts), so the views that
   * read it next only fill their TEMP table; a failure leaves it to them (computed in the thread).
   */
  async prepareContent(writing = false): Promise<void> {
    try {
      await prepareContentAnalysis(this.db, { writing });
    } catch {
      // refreshContent computes it in the thread, or leaves the filters empty
    }
  }

  /** The duplicate-content analysis's options for this file (changed after the crawl, without crawling again). */
  contentOptions(): ContentAnalysisOptions {
    return contentOptions(this.db.name);
  }

  setContentOptions(options: Partial<ContentAnalysisOptions>): ContentAnalysisOptions {
    return setContentOptions(this.db.name, options);
  }

  /** A page of a filter's rows with their custom extraction values (under the rules' CSV column names). */
  queryFiltered(query: ExplorerQuery): ExplorerPage {
    const content = isContentFilter(query.filter);
    if (content) this.refreshContent(true);
    const page = queryFiltered(this.db, query);
    const rules = extractionColumns(this.db);
    const rows: ExplorerPage['rows'] = page.rows.map((r) => ({ ...r, extracted: {} as Record<string, string[]> }));
    if (content) {
      // The content filters' rows carry the page's words, its exact duplicates and closest near-duplicate (issue 18.1).
      const columns = contentColumnsOf(
        this.db,
        rows.map((r) => r.url_id),
      );
      for (const r of rows) Object.assign(r, columns.get(r.url_id) ?? {});
    }
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

  /**
   * Brings this connection's Link Scores (the link_score and unique_inlinks columns) up to date: computed in a
   * worker thread the first time and when the crawl has new results (link-score-thread.ts). Best effort: a
   * computation that fails leaves the columns empty. Resolves to whether the scores now in the columns lack a
   * computation under way that `options` would have waited for without `background` (an answer read now is to be
   * asked for again): told at once, since a later check could see scores the columns do not hold yet.
   */
  async refreshLinkScores(options: RefreshOptions = {}): Promise<boolean> {
    try {
      await refreshLinkScores(this.db, options);
    } catch {
      // the columns stay empty; the views still answer
    }
    return linkScoresBehind(this.db.name, options);
  }

  /** A URL's detail; its duplicate content too unless `withContent` is false (the analysis not ready: contentReady). */
  urlDetail(ref: UrlRef, writing = false, withContent = true): UrlDetail | null {
    const detail = urlDetail(this.db, ref);
    if (detail && withContent) detail.content = this.contentDetail(detail.url_id, writing);
    return detail;
  }

  /**
   * Whether duplicate content's analysis can be read now without computing it (contentAnalysisReady): when not,
   * its computation goes on off the thread.
   */
  contentReady(writing = false): boolean {
    try {
      return contentAnalysisReady(this.db, { writing });
    } catch {
      return true;
    }
  }

  /** Duplicate content (issue 18.1): a page's words, exact and near duplicates under the current options, or null. */
  contentDetail(urlId: number, writing = false): UrlDetail['content'] {
    try {
      return contentDetailOf(this.db, urlId, { writing });
    } catch {
      // the section stays away; the detail still answers
      return null;
    }
  }

  /** What differs between two pages' main texts (duplicate content, issue 18.1); null when either has none. */
  contentDiff(urlId: number, otherId: number): TextDiff | null {
    return contentDiff(this.db, urlId, otherId);
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
    return fileChartData(this.db, query);
  }

  async siteStructure(query: SiteStructureQuery): Promise<SiteStructure> {
    await this.prepareStructure();
    return siteStructure(this.db, query);
  }

  /** The folder tree as CSV, from the same trie. */
  async exportStructureCsv(dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
    await this.prepareStructure();
    return exportStructureCsv(this.db, dest);
  }

  /**
   * A large crawl's first fold (3 s at 800,000 results) made in a worker thread and adopted here; the rows written
   * since, and every later ask, are folded in here (few while a crawl runs).
   */
  private prepareStructure(): Promise<void> {
    if (structureFolded(this.db) || !largeCrawl(this.db)) return Promise.resolve();
    return this.folding.run(() => structureTrieOffThread(this.db).then((packed) => adoptPackedTrie(this.db, packed)));
  }

  /** The crawl map (issue 18.6), its nodes sized by the Link Scores brought up to date first (none when they fail). */
  async crawlMap(query: CrawlMapQuery, options: RefreshOptions = {}): Promise<CrawlMap> {
    const scores = await refreshLinkScores(this.db, options).catch(() => null);
    const behind = linkScoresBehind(this.db.name, options);
    // A large crawl's rows are read in a worker thread (3 s at 800,000 results); the map is then folded from them here.
    const read =
      this.mapMemo.rows(crawlMapState(this.db).state) || !largeCrawl(this.db)
        ? undefined
        : await this.mapRows.run(() => crawlMapRowsOffThread(this.db));
    const map = crawlMap(this.db, query, scores, this.mapMemo, read);
    // With options.background, drawn before the crawl's first scores (seconds at a million URLs), then sized by them.
    return behind ? { ...map, scoresPending: true } : map;
  }

  close(): void {
    // The file's computed Link Scores go with its view (a file opened again computes them again).
    forgetLinkScores(this.db.name);
    forgetContentAnalysis(this.db.name);
    if (this.db.open) this.db.close();
  }
}
