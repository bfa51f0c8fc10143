// Exports a crawl file's results as CSV: one row per fetch (pages, redirect hops and errors) in fetch order.
// Reads through its own read-only connection, a page of rows at a time, so it can run while a crawl is writing
// (WAL lets readers and the writer proceed together) and its memory does not grow with the size of the crawl.
// The CSV itself (columns, header presets, cells, the .part file) is csv-writer.ts's, shared with the PostgreSQL
// store's export (pg-csv-export.ts).
import path from 'node:path';
import { openCrawlFile, readStoredSettings, type Db } from '../frontier/sqlite/crawl-file.ts';
import {
  CSV_COLUMNS,
  checkBatchSize,
  extractionColumnsOf,
  type CsvExportResult,
  type CsvLayoutOptions,
  type CsvRowSource,
  type ExtractedValue,
  type ExtractionColumn,
} from './csv-writer.ts';
import { writeExport, type FormatOption } from './export-format.ts';
import { hasRenders, hasTable } from '../analysis/sql.ts';
import { CONTENT_COLUMNS_SQL, refreshContentAnalysis } from '../analysis/near-duplicates.ts';
import { renderExportSelect } from './render-export-sql.ts';
import { exportPageSql, type ExportPageDialect } from './export-page-sql.ts';
import { refreshLinkScores } from '../analysis/link-score-thread.ts';

export {
  CSV_COLUMNS,
  DEFAULT_BATCH_SIZE,
  SCREAMING_FROG_HEADERS,
  extractionColumnsOf,
  type CsvExportResult,
  type CsvHeaderPreset,
  type CsvLayoutOptions,
  type CsvRowSource,
  type ExtractionColumn,
} from './csv-writer.ts';

export interface CsvExportOptions extends CsvLayoutOptions, FormatOption {
  /** Only rows matching this SQL condition over results r and urls u (a results view's filter), with its parameters. */
  where?: { sql: string; params?: Record<string, unknown> };
  /**
   * results (default): one row per fetch, in fetch order. urls: one row per URL known, fetched or not (in
   * discovery order), for views of URLs that were never fetched, such as links outside the scope.
   */
  rowsFrom?: 'results' | 'urls';
  /**
   * Fill Link Score's columns (analysis/link-score.ts): from the scores this process computed for the file, or
   * computed now in a worker thread. Default false: the columns are empty (the app's exports ask for them).
   */
  linkScores?: boolean;
  /**
   * Duplicate content (issue 18.1): fill the connection's content_dups (the content filters' `where` reads it) and
   * add the CONTENT_EXPORT_COLUMNS, with the file's content analysis options (analysis/near-duplicates.ts).
   */
  content?: boolean;
}

// Same rows as the crawl_results view (export-page-sql.ts), read by keyset pagination on results.seq (the rowid: a range
// search), or on urls.id for a view of URLs. Link Score's columns come from the connection's TEMP table link_scores
// (analysis/link-score-thread.ts).
const SQLITE_PAGE: ExportPageDialect = {
  table: (name) => name,
  linkScores: (urlId) => ({
    columns: 'ls.unique_inlinks, ls.link_score',
    join: `LEFT JOIN temp.link_scores ls ON ls.url_id = ${urlId}`,
  }),
  after: '?',
  last: '?',
  limit: '?',
};

/**
 * Writes the results of the crawl file at `dbPath` as CSV (RFC 4180, CRLF, UTF-8 with a BOM), or as XLSX with
 * `format: 'xlsx'`, to `out`: a file path
 * (written to `<out>.part` and renamed when complete, so the real name never holds a partial file) or a stream,
 * which is ended when the export completes. Exports the results that existed when it started.
 */
export async function exportCsv(
  dbPath: string,
  out: string | NodeJS.WritableStream,
  options: CsvExportOptions = {},
): Promise<CsvExportResult> {
  checkBatchSize(options.batchSize);
  if (typeof out === 'string' && path.resolve(out) === path.resolve(dbPath)) {
    throw new Error(`refusing to export ${dbPath} over itself; choose another output file`);
  }
  const db = openCrawlFile(dbPath, { readonly: true });
  try {
    // Link Score's columns (unique_inlinks, link_score): this connection's TEMP table, filled from the scores the
    // session computed for the file, or computed now in a worker thread. Empty when that fails.
    if (options.linkScores) await refreshLinkScores(db).catch(() => null);
    if (options.content) refreshContentAnalysis(db);
    return await writeExport(sqliteRowSource(db, options), out, options);
  } finally {
    db.close();
  }
}

/** The rows of a crawl file, a page at a time by keyset, up to the last row that existed when it was called. */
export function sqliteRowSource(db: Db, options: Pick<CsvExportOptions, 'where' | 'rowsFrom' | 'content'> = {}): CsvRowSource {
  // Results committed after this point are left out: a bounded export even while a crawl keeps adding rows,
  // without holding one read transaction open for the whole export (which would keep the WAL from being reset).
  const byUrl = options.rowsFrom === 'urls';
  const { last } = db
    .prepare(byUrl ? 'SELECT coalesce(max(id), 0) AS last FROM urls' : 'SELECT coalesce(max(seq), 0) AS last FROM results')
    .get() as { last: number };
  const page = db.prepare(exportPageSql(SQLITE_PAGE, byUrl ? 'urls' : 'results', options.where?.sql ?? null)).raw(true);
  const params = options.where?.params ?? {};
  // Custom extraction values of a page of rows, by the primary key (url_id, rule, n).
  const extractedOf = db.prepare<[string], ExtractedValue>(
    'SELECT url_id, rule, value FROM extracted WHERE url_id IN (SELECT value FROM json_each(?)) ORDER BY url_id, rule, n',
  );
  const KEY = CSV_COLUMNS.length + 1; // after the CSV's columns and the url id
  // A rendered crawl's render columns, by renders' primary key (url_id), a page of rows at a time.
  const rendersOf = crawlRendered(db) ? db.prepare<[string], unknown[]>(RENDERS_SQL).raw(true) : null;
  // Duplicate content's columns, by content's primary key, a page of rows at a time (issue 18.1).
  const contentOf = options.content && hasTable(db, 'content') ? db.prepare<[string], unknown[]>(CONTENT_COLUMNS_SQL).raw(true) : null;
  let after = 0;
  return {
    ...(rendersOf ? { renders: (urlIds: number[]) => rendersOf.all(JSON.stringify(urlIds)) } : {}),
    ...(contentOf ? { content: (urlIds: number[]) => contentOf.all(JSON.stringify(urlIds)) } : {}),
    rules: extractionColumns(db),
    nextPage(limit) {
      const batch = (options.where ? page.all(after, last, params, limit) : page.all(after, last, limit)) as unknown[][];
      if (batch.length) after = batch[batch.length - 1]![KEY] as number;
      return batch;
    },
    extracted: (urlIds) => extractedOf.all(JSON.stringify(urlIds)),
  };
}

// RENDER_EXPORT_COLUMNS of a page of URLs, after each one's url id; the lists as their lengths.
const RENDERS_SQL = `SELECT ${renderExportSelect((c) => `json_array_length(${c})`)} FROM renders WHERE url_id IN (SELECT value FROM json_each(?))`;

/** Whether the crawl rendered pages (its export then has the render columns): a file older than renders did not. */
export function crawlRendered(db: Db): boolean {
  return hasRenders(db) && (db.prepare('SELECT EXISTS (SELECT 1 FROM renders) AS yes').get() as { yes: number }).yes === 1;
}

/** The crawl's extraction rules as CSV columns: the rule's name, unless a built-in column has it already. */
export function extractionColumns(db: Db): ExtractionColumn[] {
  return extractionColumnsOf(readStoredSettings(db));
}
