// Crawl comparison: two crawl files of the same site, and the URLs added, removed and changed between them (status
// code, title, meta description, canonical, indexability, word count beyond a threshold). The old file is the
// main database of a read-only connection and the new one is attached to it, read-only too; URLs are matched by
// url_key (urls_key, an index in each file) and then by their text, and the old and new rows are walked by
// results.seq in pages, so two files of a million URLs never need to fit in memory. Works while either is being
// crawled: each pass stops at the last row that existed when it began.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type Database from 'better-sqlite3';
import { openCrawlFile, readMeta, type Db } from '../frontier/sqlite/crawl-file.ts';
import { neutraliseCell } from '../export/csv-cell.ts';
import { inPages, writeXlsxTable } from '../export/xlsx-writer.ts';
import { checkLimit, indexedBy, readTransaction } from './sql.ts';
import { UrlState } from '../frontier/model.ts';
import {
  CHANGE_KINDS,
  COMPARED_FIELDS,
  REMOVED_REASONS,
  type RemovedReason,
  type ChangeKind,
  type ComparedField,
  type ComparisonPage,
  type ComparisonRow,
  type ComparisonSummary,
  type ExportFormat,
  type FieldValues,
} from '../../../shared/analysis.ts';

// The comparison's answers (fields, kinds, rows, pages, summary) are the renderer's too: they live in
// shared/analysis.ts. The CLI (electron/cli/compare-command.ts) takes the summary from here.
export type { ComparisonSummary } from '../../../shared/analysis.ts';

/** How much a word count must move to count as a change: more than `percent` % of the old count, or than `words`. */
export type WordThreshold = { percent: number } | { words: number };
export const DEFAULT_WORD_THRESHOLD: WordThreshold = { percent: 10 };

export interface CompareOptions {
  wordThreshold?: WordThreshold;
  /** What the summary calls each crawl, when not its file (a crawl of the store is compared through a copy). */
  names?: { old: string; new: string };
  /** Runs once when the comparison is closed (the copies of store crawls go then). */
  onClose?: () => void;
}

/** The attached schema holding the new crawl. */
const NEW = 'newer';

/** The results columns a comparison reads of each page (FieldValues), besides its keys. */
export const COMPARED_COLUMNS = [
  'status_code',
  'title',
  'meta_description',
  'canonical',
  'indexability',
  'indexability_reason',
  'word_count',
] as const satisfies readonly (keyof FieldValues)[];

const fieldsOf = (alias: string) => COMPARED_COLUMNS.map((c) => `${alias}.${c} AS ${alias}_${c}`).join(', ');

/** The SQL condition of each field's change between ra (old) and rb (new); the word count against the threshold. */
function changeSql(threshold: WordThreshold): Record<ComparedField, string> {
  const words =
    'percent' in threshold
      ? `abs(rb.word_count - ra.word_count) * 100.0 > ${threshold.percent} * ra.word_count`
      : `abs(rb.word_count - ra.word_count) > ${threshold.words}`;
  return {
    status_code: 'ra.status_code IS NOT rb.status_code',
    title: 'ra.title IS NOT rb.title',
    meta_description: 'ra.meta_description IS NOT rb.meta_description',
    canonical: 'ra.canonical IS NOT rb.canonical',
    indexability: 'ra.indexability IS NOT rb.indexability',
    word_count: `((ra.word_count IS NULL) <> (rb.word_count IS NULL) OR ${words})`,
  };
}

function checkThreshold(t: WordThreshold): void {
  const value = 'percent' in t ? t.percent : 'words' in t ? t.words : NaN;
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`the word count threshold must be a number of at least 0 (got ${String(value)})`);
}

export interface ComparisonSql {
  changed: string;
  removed: string;
  added: string;
  summaryOld: string;
  summaryNew: string;
}

/** An open comparison of two crawl files: summary, pages of each kind, the rows one by one, CSV export. */
export class CrawlComparison {
  readonly sql: ComparisonSql;
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    private readonly db: Db,
    readonly oldFile: string,
    readonly newFile: string,
    readonly wordThreshold: WordThreshold,
    // The new file's own connection, kept while its upgraded copy is attached (an older version's file); else null.
    private readonly newCopy: Db | null = null,
    private readonly names: { old: string; new: string } = { old: oldFile, new: newFile },
    private onClose: (() => void) | null = null,
  ) {
    this.sql = this.buildSql();
  }

  /**
   * Opens `oldFile` read-only and attaches `newFile` read-only; both are checked to be crawl files (a file of an
   * older schema version is read through an upgraded copy, as any read-only open does, and never changed). Throws
   * CrawlFileError naming the file that is not.
   */
  static open(oldFile: string, newFile: string, options: CompareOptions = {}): CrawlComparison {
    const threshold = options.wordThreshold ?? DEFAULT_WORD_THRESHOLD;
    checkThreshold(threshold);
    const checked = openCrawlFile(newFile, { readonly: true });
    // What the check opened is attached: the file itself, or its upgraded copy (which lives while that connection does).
    const attach = checked.name;
    const newCopy = attach === newFile ? (checked.close(), null) : checked;
    let db: Db | undefined;
    try {
      db = openCrawlFile(oldFile, { readonly: true });
      db.prepare(`ATTACH DATABASE ? AS ${NEW}`).run(attach);
      // Each pass looks rows up in both files by key: a page cache as a crawl's own connection has (32 MB each).
      db.pragma('main.cache_size = -32000');
      db.pragma(`${NEW}.cache_size = -32000`);
      return new CrawlComparison(db, oldFile, newFile, threshold, newCopy, options.names, options.onClose ?? null);
    } catch (err) {
      db?.close();
      newCopy?.close();
      throw err;
    }
  }

  private buildSql(): ComparisonSql {
    const change = changeSql(this.wordThreshold);
    const anyChange = COMPARED_FIELDS.map((f) => change[f]).join(' OR ');
    const flags = COMPARED_FIELDS.map((f) => `(${change[f]}) AS c_${f}`).join(', ');
    const keyA = indexedBy(this.db, 'urls_key', 'main');
    const keyB = indexedBy(this.db, 'urls_key', NEW);
    // The same URL in the other file: by url_key (an index), then by text (two URLs may share a key).
    const inNew = `JOIN ${NEW}.urls ub ${keyB} ON ub.url_key = ua.url_key AND ub.url = ua.url JOIN ${NEW}.results rb ON rb.url_id = ub.id`;
    const fetchedInNew = `EXISTS (SELECT 1 FROM ${NEW}.urls ub ${keyB} JOIN ${NEW}.results rb ON rb.url_id = ub.id WHERE ub.url_key = ua.url_key AND ub.url = ua.url)`;
    const fetchedInOld = `EXISTS (SELECT 1 FROM main.urls ua ${keyA} JOIN main.results ra ON ra.url_id = ua.id WHERE ua.url_key = ub.url_key AND ua.url = ub.url)`;
    return {
      changed: `SELECT ra.seq AS k, ua.url AS url, ${fieldsOf('ra')}, ${fieldsOf('rb')}, ${flags}
        FROM main.results ra JOIN main.urls ua ON ua.id = ra.url_id ${inNew}
        WHERE ra.seq > @after AND ra.seq <= @last AND (${anyChange}) ORDER BY ra.seq LIMIT @limit`,
      // With what the newer crawl knew of the URL (its state, null when it never met it): why it is gone.
      removed: `SELECT ra.seq AS k, ua.url AS url, ${fieldsOf('ra')},
        (SELECT ub.state FROM ${NEW}.urls ub ${keyB} WHERE ub.url_key = ua.url_key AND ub.url = ua.url LIMIT 1) AS new_state
        FROM main.results ra JOIN main.urls ua ON ua.id = ra.url_id
        WHERE ra.seq > @after AND ra.seq <= @last AND NOT ${fetchedInNew} ORDER BY ra.seq LIMIT @limit`,
      added: `SELECT rb.seq AS k, ub.url AS url, ${fieldsOf('rb')}
        FROM ${NEW}.results rb JOIN ${NEW}.urls ub ON ub.id = rb.url_id
        WHERE rb.seq > @after AND rb.seq <= @last AND NOT ${fetchedInOld} ORDER BY rb.seq LIMIT @limit`,
      // One pass over the old rows: each found in the new file or not, and what changed.
      summaryOld: `SELECT count(*) AS old_urls, count(*) - count(rb.seq) AS removed,
        count(*) FILTER (WHERE rb.seq IS NOT NULL AND (${anyChange})) AS changed,
        ${COMPARED_FIELDS.map((f) => `count(*) FILTER (WHERE rb.seq IS NOT NULL AND ${change[f]}) AS "${f}"`).join(', ')}
        FROM main.results ra JOIN main.urls ua ON ua.id = ra.url_id
        LEFT JOIN ${NEW}.urls ub ${keyB} ON ub.url_key = ua.url_key AND ub.url = ua.url LEFT JOIN ${NEW}.results rb ON rb.url_id = ub.id`,
      summaryNew: `SELECT count(*) AS new_urls, count(*) FILTER (WHERE NOT ${fetchedInOld}) AS added
        FROM ${NEW}.results rb JOIN ${NEW}.urls ub ON ub.id = rb.url_id`,
    };
  }

  private statement(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  private lastSeq(schema: 'main' | typeof NEW): number {
    return (this.statement(`SELECT coalesce(max(seq), 0) AS s FROM ${schema}.results`).get() as { s: number }).s;
  }

  /** Counts of each kind of change, and per field; reads both files whole (by index), in one read transaction. */
  summary(): ComparisonSummary {
    return readTransaction(this.db, () => {
      const old = this.statement(this.sql.summaryOld).get() as { old_urls: number; removed: number; changed: number } & Record<
        ComparedField,
        number
      >;
      const neu = this.statement(this.sql.summaryNew).get() as { new_urls: number; added: number };
      const byField = Object.fromEntries(COMPARED_FIELDS.map((f) => [f, old[f]])) as Record<ComparedField, number>;
      return {
        old_file: this.names.old,
        new_file: this.names.new,
        old_urls: old.old_urls,
        new_urls: neu.new_urls,
        added: neu.added,
        removed: old.removed,
        changed: old.changed,
        by_field: byField,
        old_seeds: seedsOf(readMeta(this.db, 'settings')),
        new_seeds: seedsOf(
          (this.statement(`SELECT value FROM ${NEW}.meta WHERE key = 'settings'`).get() as { value: string } | undefined)?.value ?? null,
        ),
      };
    });
  }

  /** A page of one kind of change, in the crawl's fetch order (old file's for removed and changed, new file's for added). */
  page(kind: ChangeKind, options: { after?: number | null; limit?: number; last?: number } = {}): ComparisonPage {
    if (!(CHANGE_KINDS as readonly string[]).includes(kind))
      throw new Error(`unknown change kind "${String(kind)}"; kinds: ${CHANGE_KINDS.join(', ')}`);
    const limit = options.limit ?? 100;
    checkLimit(limit);
    return readTransaction(this.db, () => {
      const last = options.last ?? this.lastSeq(kind === 'added' ? NEW : 'main');
      const rows = this.statement(this.sql[kind]).all({ after: options.after ?? 0, last, limit: limit + 1 }) as Record<string, unknown>[];
      const out = rows.slice(0, limit);
      const lastRow = out[out.length - 1];
      return { rows: out.map((r) => comparisonRow(kind, r)), next: rows.length > limit && lastRow ? (lastRow.k as number) : null };
    });
  }

  /** Every row of the given kinds (all by default), a page at a time; rows appended after it starts are left out. */
  *rows(kinds: readonly ChangeKind[] = CHANGE_KINDS, pageSize = 1000): Generator<ComparisonRow> {
    for (const kind of kinds) {
      const last = this.lastSeq(kind === 'added' ? NEW : 'main');
      let after: number | null = 0;
      while (after !== null) {
        const page = this.page(kind, { after, limit: pageSize, last });
        yield* page.rows;
        after = page.next;
      }
    }
  }

  /**
   * Writes every change as CSV (UTF-8 with a BOM, CRLF, text cells neutralised), or with `format: 'xlsx'` as an XLSX
   * workbook (xlsx-writer.ts: the same columns and cells, numbers as numbers, a frozen header row, an autofilter):
   * to a file path (written to `<out>.part` and renamed when complete) or a stream (ended when done). Added, then
   * removed, then changed.
   */
  async exportCsv(out: string | NodeJS.WritableStream, options: { format?: ExportFormat } = {}): Promise<{ rows: number }> {
    if (typeof out === 'string') {
      for (const f of [this.oldFile, this.newFile]) {
        if (path.resolve(out) === path.resolve(f))
          throw new Error(`refusing to write the comparison over ${f}; choose another output file`);
      }
    }
    if (options.format === 'xlsx') {
      return writeXlsxTable(COMPARISON_CSV_COLUMNS, inPages(comparisonRecords(this.rows())), out, { sheetName: 'Comparison' });
    }
    if (typeof out !== 'string') return writeComparisonCsv(this.rows(), out);
    const part = `${out}.part`;
    try {
      const result = await writeComparisonCsv(this.rows(), fs.createWriteStream(part));
      await fs.promises.rename(part, out);
      return result;
    } catch (err) {
      await fs.promises.rm(part, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  /** SQLite's plan for one of the comparison's queries (EXPLAIN QUERY PLAN, one step a line part), for checks. */
  explain(which: keyof ComparisonSql): string {
    const st = this.db.prepare(`EXPLAIN QUERY PLAN ${this.sql[which]}`);
    const rows = (which.startsWith('summary') ? st.all() : st.all({ after: 0, last: 0, limit: 1 })) as { detail: string }[];
    return rows.map((r) => r.detail).join(' | ');
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
    if (this.newCopy?.open) this.newCopy.close();
    const onClose = this.onClose;
    this.onClose = null;
    onClose?.();
  }
}

function seedsOf(settingsJson: string | null): string[] {
  try {
    const seeds = (JSON.parse(settingsJson ?? '{}') as { seeds?: unknown }).seeds;
    return Array.isArray(seeds) ? seeds.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

function values(r: Record<string, unknown>, alias: string): FieldValues {
  return {
    status_code: r[`${alias}_status_code`] as number | null,
    title: r[`${alias}_title`] as string | null,
    meta_description: r[`${alias}_meta_description`] as string | null,
    canonical: r[`${alias}_canonical`] as string | null,
    indexability: r[`${alias}_indexability`] as string | null,
    indexability_reason: r[`${alias}_indexability_reason`] as string | null,
    word_count: r[`${alias}_word_count`] as number | null,
  };
}

function comparisonRow(kind: ChangeKind, r: Record<string, unknown>): ComparisonRow {
  const url = r.url as string;
  if (kind === 'added') return { change: kind, url, fields: [], old: null, new: values(r, 'rb'), removed_reason: null };
  if (kind === 'removed')
    return { change: kind, url, fields: [], old: values(r, 'ra'), new: null, removed_reason: removedReason(r.new_state as number | null) };
  return {
    change: kind,
    url,
    fields: COMPARED_FIELDS.filter((f) => r[`c_${f}`] === 1),
    old: values(r, 'ra'),
    new: values(r, 'rb'),
    removed_reason: null,
  };
}

/** Why a URL is gone from the newer crawl, by its state there (null: the newer crawl never met it). */
export function removedReason(state: number | null): RemovedReason {
  switch (state) {
    case null:
      return 'not-linked';
    case UrlState.outOfScope:
      return 'out-of-scope';
    case UrlState.tooDeep:
      return 'too-deep';
    case UrlState.nofollow:
      return 'nofollow';
    case UrlState.redirectCut:
      return 'redirect-cut';
    default:
      // Queued or claimed (done and failed have a results row, so are never removed).
      return 'not-reached';
  }
}

/** The comparison CSV's columns, in order; also its header line. */
export const COMPARISON_CSV_COLUMNS = [
  'change',
  'url',
  'changed_fields',
  ...COMPARED_COLUMNS.flatMap((f) => [`old_${f}`, `new_${f}`]),
  // Why a removed URL is gone (REMOVED_REASONS' words); empty for the others.
  'removed_reason',
] as const;

/** The comparison's records, each cell as the store gave it (null, a number, text): what the XLSX export writes. */
function* comparisonRecords(rows: Iterable<ComparisonRow>): Generator<(string | number | null)[]> {
  for (const row of rows) {
    const out: (string | number | null)[] = [row.change, row.url, row.fields.join(' ') || null];
    for (const f of COMPARED_COLUMNS) out.push(row.old?.[f] ?? null, row.new?.[f] ?? null);
    out.push(row.removed_reason ? REMOVED_REASONS[row.removed_reason] : null);
    yield out;
  }
}

function csvRecord(row: ComparisonRow): string[] {
  const cell = (v: string | number | null | undefined) =>
    v === null || v === undefined ? '' : typeof v === 'number' ? String(v) : neutraliseCell(v);
  const out = [row.change, cell(row.url), row.fields.join(' ')];
  for (const f of COMPARED_COLUMNS) out.push(cell(row.old?.[f]), cell(row.new?.[f]));
  out.push(row.removed_reason ? REMOVED_REASONS[row.removed_reason] : '');
  return out;
}

async function writeComparisonCsv(rows: Iterable<ComparisonRow>, dest: NodeJS.WritableStream): Promise<{ rows: number }> {
  const csv = stringify({ bom: true, record_delimiter: 'windows', quote_record_delimiter: true });
  const done = pipeline(csv, dest);
  done.catch(() => undefined);
  const write = async (record: string[]) => {
    if (!csv.write(record)) await Promise.race([once(csv, 'drain'), done]);
  };
  await write([...COMPARISON_CSV_COLUMNS]);
  let n = 0;
  for (const row of rows) {
    await write(csvRecord(row));
    n++;
  }
  csv.end();
  await done;
  return { rows: n };
}
