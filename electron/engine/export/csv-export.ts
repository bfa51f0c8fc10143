// Exports a crawl file's results as CSV: one row per fetch (pages, redirect hops and errors) in fetch order.
// Reads through its own read-only connection, a page of rows at a time, so it can run while a crawl is writing
// (WAL lets readers and the writer proceed together) and its memory does not grow with the size of the crawl.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { openCrawlFile, readStoredSettings, type Db } from '../frontier/crawl-file.ts';
import { neutraliseCell } from './csv-cell.ts';

/** The CSV columns, in order; also the header line. */
export const CSV_COLUMNS = [
  'url',
  'kind',
  'status_code',
  'content_type',
  'size_bytes',
  'response_time_ms',
  'crawl_depth',
  'indexability',
  'indexability_reason',
  'title',
  'meta_description',
  'h1',
  'h1_count',
  'h2',
  'h2_count',
  'canonical',
  'lang',
  'hreflang',
  'meta_robots',
  'x_robots_tag',
  'meta_refresh',
  'word_count',
  'inlinks',
  'outlinks',
  'redirect_url',
  'attempts',
  'robots_disallowed',
  'error',
] as const;

export const DEFAULT_BATCH_SIZE = 1000;

/** Headers of the Screaming Frog-compatible preset, for the columns that have an equivalent there. */
export const SCREAMING_FROG_HEADERS: Partial<Record<(typeof CSV_COLUMNS)[number], string>> = {
  url: 'Address',
  content_type: 'Content Type',
  status_code: 'Status Code',
  indexability: 'Indexability',
  indexability_reason: 'Indexability Status',
  title: 'Title 1',
  meta_description: 'Meta Description 1',
  meta_robots: 'Meta Robots 1',
  x_robots_tag: 'X-Robots-Tag 1',
  meta_refresh: 'Meta Refresh 1',
  canonical: 'Canonical Link Element 1',
  h1: 'H1-1',
  h2: 'H2-1',
  size_bytes: 'Size (bytes)',
  word_count: 'Word Count',
  crawl_depth: 'Crawl Depth',
  inlinks: 'Inlinks',
  outlinks: 'Outlinks',
  response_time_ms: 'Response Time',
  redirect_url: 'Redirect URL',
  lang: 'Language',
};

export type CsvHeaderPreset = 'trawl' | 'screaming-frog';

export interface CsvExportOptions {
  /** Rows read from SQLite per query. */
  batchSize?: number;
  /** The columns, in this order: names of CSV_COLUMNS and of the crawl's extraction rules. Default: all. */
  columns?: readonly string[];
  /**
   * Header names: Trawl's own, or Screaming Frog's where there is an equivalent (Address, Status Code, Title 1...),
   * with response times then in seconds as Screaming Frog writes them.
   */
  headerPreset?: CsvHeaderPreset;
  /** Only rows matching this SQL condition over results r and urls u (a results view's filter), with its parameters. */
  where?: { sql: string; params?: Record<string, unknown> };
  /**
   * results (default): one row per fetch, in fetch order. urls: one row per URL known, fetched or not (in
   * discovery order), for views of URLs that were never fetched, such as links outside the scope.
   */
  rowsFrom?: 'results' | 'urls';
}

export interface CsvExportResult {
  /** Data rows written (the header line not counted). */
  rows: number;
}

// Same rows as the crawl_results view, read by keyset pagination on results.seq (the rowid: a range search).
// inlinks counts distinct linking pages: links has one row per (from_id, to_id) and is indexed by to_id.
const PAGE_SQL = `
SELECT r.seq, u.url, u.kind, r.status_code, r.content_type, r.size_bytes, r.response_time_ms, r.crawl_depth,
       r.indexability, r.indexability_reason, r.title, r.meta_description, r.h1, r.h1_count, r.h2, r.h2_count,
       r.canonical, r.lang, r.hreflang, r.meta_robots, r.x_robots_tag, r.meta_refresh, r.word_count,
       (SELECT count(*) FROM links l WHERE l.to_id = u.id) AS inlinks,
       r.outlinks, r.redirect_url, r.attempts, r.robots_disallowed, r.error, u.id
FROM results r JOIN urls u ON u.id = r.url_id
WHERE r.seq > ? AND r.seq <= ? /*where*/
ORDER BY r.seq
LIMIT ?`;

// The same columns for every URL the crawl knows, fetched or not: by urls.id, with the results row when there is one.
const URLS_PAGE_SQL = `
SELECT u.id, u.url, u.kind, r.status_code, r.content_type, r.size_bytes, r.response_time_ms, coalesce(r.crawl_depth, u.depth),
       r.indexability, r.indexability_reason, r.title, r.meta_description, r.h1, r.h1_count, r.h2, r.h2_count,
       r.canonical, r.lang, r.hreflang, r.meta_robots, r.x_robots_tag, r.meta_refresh, r.word_count,
       (SELECT count(*) FROM links l WHERE l.to_id = u.id) AS inlinks,
       coalesce(r.outlinks, 0), r.redirect_url, r.attempts, r.robots_disallowed, r.error, u.id
FROM urls u LEFT JOIN results r ON r.url_id = u.id
WHERE u.id > ? AND u.id <= ? /*where*/
ORDER BY u.id
LIMIT ?`;

/**
 * Writes the results of the crawl file at `dbPath` as CSV (RFC 4180, CRLF, UTF-8 with a BOM) to `out`: a file path
 * (written to `<out>.part` and renamed when complete, so the real name never holds a partial file) or a stream,
 * which is ended when the export completes. Exports the results that existed when it started.
 */
export async function exportCsv(
  dbPath: string,
  out: string | NodeJS.WritableStream,
  options: CsvExportOptions = {},
): Promise<CsvExportResult> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a whole number of at least 1, got ${batchSize}`);
  }
  if (typeof out === 'string' && path.resolve(out) === path.resolve(dbPath)) {
    throw new Error(`refusing to export ${dbPath} over itself; choose another output file`);
  }
  const db = openCrawlFile(dbPath, { readonly: true });
  try {
    if (typeof out !== 'string') return await writeCsv(db, out, batchSize, options);
    const part = `${out}.part`;
    try {
      const result = await writeCsv(db, fs.createWriteStream(part), batchSize, options);
      await fs.promises.rename(part, out);
      return result;
    } catch (err) {
      await fs.promises.rm(part, { force: true }).catch(() => undefined);
      throw err;
    }
  } finally {
    db.close();
  }
}

async function writeCsv(db: Db, dest: NodeJS.WritableStream, batchSize: number, options: CsvExportOptions): Promise<CsvExportResult> {
  // Results committed after this point are left out: a bounded export even while a crawl keeps adding rows,
  // without holding one read transaction open for the whole export (which would keep the WAL from being reset).
  const byUrl = options.rowsFrom === 'urls';
  const { last } = db.prepare(byUrl ? 'SELECT coalesce(max(id), 0) AS last FROM urls' : 'SELECT coalesce(max(seq), 0) AS last FROM results').get() as { last: number };
  const rules = extractionColumns(db);
  const layout = columnLayout(rules, options);
  const pageSql = byUrl ? URLS_PAGE_SQL : PAGE_SQL;
  const page = db.prepare(options.where ? pageSql.replace('/*where*/', `AND (${options.where.sql})`) : pageSql).raw(true);
  const params = options.where?.params ?? {};
  // Custom extraction values of a page of rows, by the primary key (url_id, rule, n).
  const extractedOf = db.prepare<[string], { url_id: number; rule: string; value: string }>(
    'SELECT url_id, rule, value FROM extracted WHERE url_id IN (SELECT value FROM json_each(?)) ORDER BY url_id, rule, n',
  );

  const csv = stringify({
    bom: true,
    record_delimiter: 'windows',
    // With an explicit record_delimiter csv-stringify only quotes fields containing "\r\n"; a lone LF or CR
    // must be quoted too (RFC 4180), or the file gains rows.
    quote_record_delimiter: true,
  });
  const done = pipeline(csv, dest);
  // Failures are observed where the writer waits (below); this only keeps an early one from being "unhandled".
  done.catch(() => undefined);

  const write = async (record: string[]): Promise<void> => {
    // Backpressure: stop reading from SQLite until the output has taken what is buffered.
    if (!csv.write(record)) await Promise.race([once(csv, 'drain'), done]);
  };

  await write(layout.header);
  let rows = 0;
  let after = 0;
  for (;;) {
    const batch = (options.where ? page.all(after, last, params, batchSize) : page.all(after, last, batchSize)) as unknown[][];
    const values = rules.length ? extractedValues(extractedOf, batch.map((row) => row[CSV_COLUMNS.length + 1] as number)) : null;
    for (const row of batch) {
      after = row[0] as number;
      const full: string[] = [];
      for (let i = 0; i < CSV_COLUMNS.length; i++) full.push(cell(layout.seconds && i === RESPONSE_TIME ? seconds(row[i + 1]) : row[i + 1]));
      if (values) {
        const mine = values.get(row[CSV_COLUMNS.length + 1] as number);
        // Several values of one rule share its cell, a line each (Excel shows them as lines of the cell).
        for (const r of rules) full.push(cell(mine?.get(r.name)?.join('\n') ?? null));
      }
      await write(layout.pick ? layout.pick.map((i) => full[i]!) : full);
      rows++;
    }
    if (batch.length < batchSize) break;
  }
  csv.end();
  await done;
  return { rows };
}

const RESPONSE_TIME = CSV_COLUMNS.indexOf('response_time_ms');

function seconds(ms: unknown): number | null {
  return typeof ms === 'number' ? Math.round(ms) / 1000 : null;
}

/** Which of the full record's cells are written, under which header names. Throws naming an unknown column. */
function columnLayout(rules: { column: string }[], options: CsvExportOptions): { header: string[]; pick: number[] | null; seconds: boolean } {
  const all = [...CSV_COLUMNS, ...rules.map((r) => r.column)];
  let pick: number[] | null = null;
  if (options.columns) {
    if (options.columns.length === 0) throw new Error('choose at least one column to export');
    const unknown = options.columns.filter((c) => !all.includes(c));
    if (unknown.length) throw new Error(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')}; the columns are ${all.join(', ')}`);
    pick = options.columns.map((c) => all.indexOf(c));
  }
  const sf = options.headerPreset === 'screaming-frog';
  const name = (c: string) => (sf ? (SCREAMING_FROG_HEADERS[c as (typeof CSV_COLUMNS)[number]] ?? c) : c);
  const header = (pick ?? all.map((_, i) => i)).map((i) => name(all[i]!));
  return { header, pick, seconds: sf };
}

/** The crawl's extraction rules as CSV columns: the rule's name, unless a built-in column has it already. */
export function extractionColumns(db: Db): { name: string; column: string }[] {
  const settings = readStoredSettings(db) as { extraction?: { name: string }[] };
  const builtIn = new Set<string>(CSV_COLUMNS.map((c) => c.toLowerCase()));
  return (settings.extraction ?? []).map(({ name }) => ({ name, column: builtIn.has(name.toLowerCase()) ? `${name} (extracted)` : name }));
}

function extractedValues(
  query: { all(ids: string): { url_id: number; rule: string; value: string }[] },
  urlIds: number[],
): Map<number, Map<string, string[]>> {
  const out = new Map<number, Map<string, string[]>>();
  for (const { url_id, rule, value } of query.all(JSON.stringify(urlIds))) {
    let byRule = out.get(url_id);
    if (!byRule) out.set(url_id, (byRule = new Map()));
    const list = byRule.get(rule);
    if (list) list.push(value);
    else byRule.set(rule, [value]);
  }
  return out;
}

/** null → empty; numbers as they are (a negative number is a number); anything textual neutralised. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return neutraliseCell(value);
  if (Buffer.isBuffer(value)) return neutraliseCell(value.toString('utf8'));
  return neutraliseCell(String(value));
}
