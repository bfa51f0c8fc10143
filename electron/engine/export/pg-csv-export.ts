// Exports a crawl in the PostgreSQL store as CSV (or XLSX): the same rows, columns and bytes as the SQLite export of the same
// data (csv-writer.ts writes both). Reads the crawl's schema a page at a time by keyset on results.seq, up to the
// last result that existed when it started, each page in its own statement: no transaction stays open for the
// whole export and memory does not grow with the size of the crawl.
//
// Rows a node commits after the export started are left out, as in the SQLite export. Unlike SQLite, PostgreSQL
// hands out seq values before commit, so a result whose transaction was still open at the start (a seq below the
// bound, committed moments later) is exported only if its page had not been read yet; a view's export takes its
// rows' keys at the start (pgRowSource), so such a row is not in it.
import type pg from 'pg';
import { connect, loadPg, type PgClient, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import { StoreError, serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import {
  CSV_COLUMNS,
  checkBatchSize,
  extractionColumnsOf,
  type CsvExportResult,
  type CsvLayoutOptions,
  type CsvRowSource,
  type ExtractedValue,
} from './csv-writer.ts';
import { writeExport, type FormatOption } from './export-format.ts';
import { renderExportSelect } from './render-export-sql.ts';
import { exportKeysSql, exportPageSql, exportRows, type ExportPageDialect } from './export-page-sql.ts';
import { positional } from '../analysis/queue-inspector.ts';
import { storeContentRows, storeCrawlKey } from '../analysis/pg-content.ts';
import { refreshStoreLinkScores } from '../analysis/pg-link-score.ts';
import { SETTLED_LINK_SCORES } from '../analysis/link-score-thread.ts';

/**
 * The PostgreSQL export's options: page size, columns, header names and format. The SQLite export's row filter and
 * rowsFrom are not taken: a view of a crawl in the store is exported from its filter (pg-view-export.ts).
 */
export type PgCsvExportOptions = CsvLayoutOptions &
  FormatOption & {
    /**
     * Link Score's columns filled (the app's export, as a crawl file's): computed from the store's link graph first
     * (pg-link-score.ts); without, empty (the command line's, as a crawl file's).
     */
    linkScores?: boolean;
  };

// bigint (int8) columns (seq, ids, size_bytes, count(*)) as JS numbers whatever the connection's own parsers, so
// they print as the SQLite export prints them (a numeric string would be written, and neutralised, as text).
const INT8 = 20;
export const numberTypes = (types: typeof pg.types) => ({
  getTypeParser: (oid: number, format?: string) => (oid === INT8 ? (v: string) => Number(v) : types.getTypeParser(oid, format as 'text')),
});

/**
 * Writes the results of crawl `crawlId` in the store at `storeUrl` as CSV (RFC 4180, CRLF, UTF-8 with a BOM) to
 * `out`: a file path (written to `<out>.part` and renamed when complete) or a stream, ended when the export
 * completes. A crawl that does not exist is a StoreError, and nothing is written.
 */
export async function exportCsvFromStore(
  storeUrl: string,
  crawlId: string,
  out: string | NodeJS.WritableStream,
  options: PgCsvExportOptions = {},
): Promise<CsvExportResult> {
  checkOptions(options);
  const client = await connect(storeUrl, { applicationName: 'trawl export' });
  try {
    if (options.linkScores) {
      await readCrawl(client, crawlId);
      await refreshStoreLinkScores(client, storeUrl, crawlId, storeCrawlKey(serverLabel(storeUrl), crawlId), SETTLED_LINK_SCORES);
    }
    return await exportCsvFromClient(client, crawlId, out, options);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** exportCsvFromStore through a connection the caller holds (and keeps: it is not closed). */
export async function exportCsvFromClient(
  client: PgClient,
  crawlId: string,
  out: string | NodeJS.WritableStream,
  options: PgCsvExportOptions = {},
): Promise<CsvExportResult> {
  checkOptions(options);
  const source = await pgRowSource(client, crawlId, { linkScores: options.linkScores === true });
  return writeExport(source, out, options);
}

function checkOptions(options: PgCsvExportOptions): void {
  checkBatchSize(options.batchSize);
  // The SQLite export's row filter is SQL over the crawl file, and rowsFrom 'urls' serves one of its views: neither
  // is taken here (pg-view-export.ts exports a view from its filter). Checked at run time too, for callers that pass
  // the SQLite export's options through.
  const { where, rowsFrom } = options as { where?: unknown; rowsFrom?: unknown };
  if (where !== undefined)
    throw new Error('a row filter (where) is not supported when exporting from the PostgreSQL store, only from a crawl file');
  if (rowsFrom !== undefined && rowsFrom !== 'results') {
    throw new Error(
      `rowsFrom "${String(rowsFrom)}" is not supported when exporting from the PostgreSQL store, only from a crawl file (the store exports results)`,
    );
  }
}

/**
 * A view's rows (pg-view-export.ts): only those matching `where`, a condition over results r and urls u whose tables
 * are named bare (result-filters.ts viewWhere in the store's dialect), so the connection must have the crawl's schema
 * on its search_path; its parameters are @named. rowsFrom 'urls': one row per URL known (the external view).
 * content: the CONTENT_EXPORT_COLUMNS, from the connection's content_dups (pg-content.ts, made current by the caller).
 */
export interface PgViewRows {
  where?: { sql: string; params: Record<string, unknown> } | null;
  rowsFrom?: 'results' | 'urls';
  content?: boolean;
  /** Link Score's columns from the connection's link_scores (pg-link-score.ts, made current by the caller); else empty. */
  linkScores?: boolean;
}

/**
 * The results of a crawl in the store, a page at a time by keyset on results.seq (urls.id for a view of URLs), up to
 * the last key that existed when it was called; a view's rows by the keys its filter kept then, in a TEMP table of
 * the connection (the server's memory or disk, not this process's). Checks the crawl exists (its registry row and its
 * tables) before anything is read.
 */
export async function pgRowSource(client: PgClient, crawlId: string, view: PgViewRows = {}): Promise<CsvRowSource> {
  const crawl = await readCrawl(client, crawlId);
  const s = crawlSchema(crawlId);
  const NUMBER_TYPES = numberTypes((await loadPg()).types);
  const { rows: present } = await client.query<{ ok: boolean }>(
    `SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AS ok`,
    [`${s}.results`, `${s}.extracted`],
  );
  if (!present[0]!.ok)
    throw new StoreError(`crawl "${crawlId}" is in the registry but its tables (schema ${s}) are missing from this store`);
  const byUrl = view.rowsFrom === 'urls';
  const { rows: bound } = await client.query<{ last: number }>({
    text: byUrl ? `SELECT coalesce(max(id), 0) AS last FROM ${s}.urls` : `SELECT coalesce(max(seq), 0) AS last FROM ${s}.results`,
    types: NUMBER_TYPES,
  });
  const last = bound[0]!.last;

  // The crawl file's page statement (export-page-sql.ts) with the schema's tables; count(*) is bigint: NUMBER_TYPES
  // reads it as a number, as SQLite gives it.
  const rowsFrom = byUrl ? 'urls' : 'results';
  const dialect = storePage(s, view.linkScores === true);
  let where = view.where?.sql ?? null;
  let params = view.where?.params ?? {};
  /** A view's next keys after a key, and the last of them: the page's rows (the view's, in key order). */
  let pageKeys: ((after: number, limit: number) => Promise<{ keys: number[]; upto: number }>) | null = null;
  if (where !== null) {
    // A view's filter is evaluated once, its keys kept in a TEMP table; each page then reads its next keys and their
    // rows by key. Paged by keyset with the filter in each page's statement, PostgreSQL found a sparse view's rows
    // through an index in another order (the duplicate titles: by their hashes) and sorted every row left at each
    // page: at a million URLs the 26 pages of the 26,191 duplicate titles took 5.5-9 s, now under 1 s.
    await client.query(EXPORT_KEYS_TEMP_TABLE);
    await client.query('TRUNCATE pg_temp.export_keys');
    const fill = positional(`INSERT INTO pg_temp.export_keys ${exportKeysSql(dialect, rowsFrom, where, '@last')}`, { ...params, last });
    await client.query(fill.text, fill.values);
    const key = exportRows(dialect, rowsFrom).key;
    where = `${key} <= @upto AND ${key} = ANY(@keys::bigint[])`;
    params = {};
    pageKeys = async (after, limit) => {
      const { rows } = await client.query<[number]>({
        text: 'SELECT k FROM pg_temp.export_keys WHERE k > $1 ORDER BY k LIMIT $2',
        values: [after, limit],
        rowMode: 'array',
        types: NUMBER_TYPES,
      });
      const keys = rows.map((row) => row[0]);
      return { keys, upto: keys.at(-1) ?? after };
    };
  }
  const pageSql = exportPageSql(dialect, rowsFrom, where);
  const extractedSql = `SELECT url_id, rule, value FROM ${s}.extracted WHERE url_id = ANY($1) ORDER BY url_id, rule, n`;
  // A rendering crawl's render columns (as the crawl file's export has them), a page of rows at a time by renders'
  // primary key. A crawl made before the store kept renders has no table, and rendered nothing it kept.
  const rendered = await crawlRendered(client, s);
  const rendersSql = `SELECT ${renderExportSelect((c) => `json_array_length(${c}::json)`)} FROM ${s}.renders WHERE url_id = ANY($1)`;
  const KEY = CSV_COLUMNS.length + 1;
  let after = 0;
  return {
    ...(rendered
      ? {
          async renders(urlIds: number[]) {
            const { rows } = await client.query<unknown[]>({ text: rendersSql, values: [urlIds], rowMode: 'array', types: NUMBER_TYPES });
            return rows;
          },
        }
      : {}),
    // Duplicate content's columns, from the connection's content_dups (pg-content.ts), a page of rows at a time.
    ...(view.content ? { content: (urlIds: number[]) => storeContentRows(client, crawlId, urlIds) } : {}),
    rules: extractionColumnsOf(crawl.settings),
    async nextPage(limit) {
      const { text, values } = positional(pageSql, { ...params, ...(pageKeys ? await pageKeys(after, limit) : {}), after, last, limit });
      const { rows } = await client.query<unknown[]>({ text, values, rowMode: 'array', types: NUMBER_TYPES });
      if (rows.length) after = rows[rows.length - 1]![KEY] as number;
      return rows;
    },
    async extracted(urlIds) {
      const { rows } = await client.query<ExtractedValue>({ text: extractedSql, values: [urlIds], types: NUMBER_TYPES });
      return rows;
    },
  };
}

/** The keys of a view's rows (pgRowSource): a TEMP table of the export's own connection. */
const EXPORT_KEYS_TEMP_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS export_keys (k bigint PRIMARY KEY)';

/** The export's page statement in schema `s`: its parameters @named (positional() numbers them). */
const storePage = (s: string, linkScores: boolean): ExportPageDialect => ({
  table: (name) => `${s}.${name}`,
  linkScores: (urlId) =>
    linkScores
      ? { columns: 'ls.unique_inlinks, ls.link_score', join: `LEFT JOIN pg_temp.link_scores ls ON ls.url_id = ${urlId}` }
      : { columns: 'NULL AS unique_inlinks, NULL AS link_score', join: '' },
  after: '@after',
  last: '@last',
  limit: '@limit',
});

/** Whether the crawl in schema `s` rendered pages (its export then has the render columns); one made before the store kept renders did not. */
export async function crawlRendered(client: PgQuerier, s: string): Promise<boolean> {
  const { rows: table } = await client.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${s}.renders`]);
  if (!table[0]!.ok) return false;
  const { rows } = await client.query<{ yes: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${s}.renders) AS yes`);
  return rows[0]!.yes;
}
