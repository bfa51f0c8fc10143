// The Results table of a crawl file: a read-only connection (it works while the crawl writes, through the WAL) that
// reads pages of results with analysis/result-rows.ts's SQL, and exports the file as CSV.
import type { ExportFormat } from '../../../shared/analysis.ts';
import type { ResultRow, ResultsPage, ResultsQuery } from '../../../shared/crawler-api.ts';
import {
  addExtracted,
  extractedSql,
  resultsPageSql,
  totalFromPage,
  sqliteParams,
  SQLITE_RESULTS,
  type BoundSql,
  type ExtractedOfRow,
} from '../analysis/result-rows.ts';
import { prepared, readTransaction } from '../analysis/sql.ts';
import { linkScoresBehind, pageScoreOptions, refreshLinkScores, SETTLED_LINK_SCORES } from '../analysis/link-score-thread.ts';
import { exportCsv, extractionColumns } from '../export/csv-export.ts';
import type { CsvExportResult } from '../export/csv-writer.ts';
import { openCrawlFile, type Db } from '../frontier/sqlite/crawl-file.ts';
import type { ResultsReader } from './results-reader.ts';

/** A statement's parameters as better-sqlite3 takes them: none, or one object of named values. */
const args = (bound: BoundSql): [] | [Record<string, unknown>] => (bound.values.length ? [sqliteParams(bound.values)] : []);

export class CrawlFileResults implements ResultsReader {
  private db: Db | null = null;
  /** The crawl's extraction rules by name (they never change once it is created). */
  private rules: string[] = [];

  constructor(
    readonly file: string,
    /** The crawl is running, writing the file: Link Score may then lag its latest results (link-score-thread.ts). */
    private readonly writing: () => boolean = () => false,
  ) {}

  async query(q: ResultsQuery): Promise<ResultsPage> {
    const db = this.connection();
    // The Link Score columns (computed off the thread; best effort), not waited for unless the rows are sorted by them.
    const scoring = pageScoreOptions(this.writing() ? {} : SETTLED_LINK_SCORES, q.sort);
    await refreshLinkScores(db, scoring).catch(() => null);
    const behind = linkScoresBehind(db.name, scoring);
    const { count, page } = resultsPageSql(SQLITE_RESULTS, q);
    // One read transaction: the total and the rows come from the same state of the file, even mid-crawl.
    return readTransaction(db, () => {
      const rows = prepared(db, page.sql).all(...args(page)) as ResultRow[];
      const total =
        totalFromPage(q.offset, q.limit, rows.length) ?? (prepared(db, count.sql).get(...args(count)) as { total: number }).total;
      for (const row of rows) row.extracted = {};
      if (this.rules.length > 0 && rows.length > 0) {
        // One query for the whole page.
        const found = prepared(db, extractedSql(SQLITE_RESULTS, 'seq')).all(
          sqliteParams([SQLITE_RESULTS.keysValue(rows.map((r) => r.seq))]),
        ) as ExtractedOfRow[];
        addExtracted(new Map(rows.map((r) => [r.seq, r])), found);
      }
      return { total, offset: q.offset, rows, extractionRules: this.rules, ...(behind ? { scoresPending: true } : {}) };
    });
  }

  /** Through a connection of the export's own. */
  exportCsv(dest: string | NodeJS.WritableStream, format: ExportFormat = 'csv'): Promise<CsvExportResult> {
    return exportCsv(this.file, dest, { format, linkScores: true });
  }

  async close(): Promise<void> {
    if (this.db?.open) this.db.close();
    this.db = null;
  }

  private connection(): Db {
    if (this.db) return this.db;
    const db = openCrawlFile(this.file, { readonly: true });
    try {
      this.rules = extractionColumns(db).map((r) => r.name);
    } catch {
      // settings unreadable: no extraction columns, the results still show
      this.rules = [];
    }
    return (this.db = db);
  }
}
