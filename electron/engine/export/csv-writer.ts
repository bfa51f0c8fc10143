// The CSV side of the results export, whatever store the rows come from: the column layout and header names
// (Trawl's or Screaming Frog's), extraction-rule columns, cell neutralisation, backpressure, and the `.part` file
// renamed when complete. A store supplies a CsvRowSource (csv-export.ts: a SQLite crawl file; pg-csv-export.ts: a
// crawl in the PostgreSQL store) that hands out pages of rows, so memory does not grow with the size of the crawl.
import fs from 'node:fs';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CONTENT_EXPORT_COLUMNS,
  EXPORT_COLUMN_INFO,
  EXPORT_COLUMNS,
  isContentFilter,
  RENDER_EXPORT_COLUMN_INFO,
  RENDER_EXPORT_COLUMNS,
  type ExportColumn,
  type RenderExportColumn,
} from '../../../shared/analysis.ts';
import { neutraliseCell } from './csv-cell.ts';

/** The CSV columns, in order; also the header line. Declared once, in the contract the export view picks columns from. */
export const CSV_COLUMNS = EXPORT_COLUMNS;

export const DEFAULT_BATCH_SIZE = 1000;

/** What an export file starts with: UTF-8's byte order mark, so that spreadsheets read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** A field that must be quoted (RFC 4180): a comma, a quote, or a line break of either kind (a lone CR or LF too). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV record, RFC 4180 with CRLF: what csv-stringify wrote with the options the exports used (`bom`,
 * `record_delimiter: 'windows'`, `quote_record_delimiter`), byte for byte (the fuzz test compares them). Written
 * here because the generic streaming stringifier, a Transform stream called per record, was most of the time of
 * an export: a tenth of a second for a 1,200-page crawl, paid after every CLI crawl with --out.
 */
export function csvRecord(cells: readonly string[]): string {
  let out = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (i > 0) out += ',';
    out += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${out}\r\n`;
}

/**
 * Headers of the Screaming Frog-compatible preset, for the columns that have an equivalent there (the sf of
 * EXPORT_COLUMN_INFO and RENDER_EXPORT_COLUMN_INFO).
 */
export const SCREAMING_FROG_HEADERS: Partial<Record<ExportColumn | RenderExportColumn, string>> = Object.fromEntries(
  [...EXPORT_COLUMN_INFO, ...RENDER_EXPORT_COLUMN_INFO].flatMap((c) => ('sf' in c ? [[c.id, c.sf]] : [])),
);

/**
 * Values the Screaming Frog preset writes as Screaming Frog does, by column: Indexability is "Indexable" or
 * "Non-Indexable", Indexability Status is capitalised as its Internal tab shows it ("Canonicalised", "Client
 * Error", "Blocked by Robots.txt"; "noindex" stays the directive). Trawl's own values are the keys
 * (electron/engine/frontier/indexability.ts); any other value is written as it is.
 */
export const SCREAMING_FROG_VALUES: Partial<Record<ExportColumn, Readonly<Record<string, string>>>> = {
  indexability: { indexable: 'Indexable', 'non-indexable': 'Non-Indexable' },
  indexability_reason: {
    noindex: 'noindex',
    canonicalised: 'Canonicalised',
    redirected: 'Redirected',
    'client error': 'Client Error',
    'server error': 'Server Error',
    'blocked by robots.txt': 'Blocked by Robots.txt',
    'no response': 'No Response',
    'incomplete response': 'Incomplete Response',
  },
};

/** A value as the Screaming Frog preset writes it in `column` (an unusual status as "Status 199", as its other reasons). */
export function screamingFrogValue(column: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const mapped = SCREAMING_FROG_VALUES[column as ExportColumn]?.[value];
  if (mapped !== undefined) return mapped;
  if (column === 'indexability_reason' && /^status \d+$/.test(value)) return `S${value.slice(1)}`;
  return value;
}

export type CsvHeaderPreset = 'trawl' | 'screaming-frog';

/** What every store's export takes: page size, columns and header names. */
export interface CsvLayoutOptions {
  /** Rows read from the store per query. */
  batchSize?: number;
  /** The columns, in this order: names of CSV_COLUMNS and of the crawl's extraction rules. Default: all. */
  columns?: readonly string[];
  /**
   * Header names: Trawl's own, or Screaming Frog's where there is an equivalent (Address, Status Code, Title 1...),
   * with response times then in seconds and indexability as Screaming Frog writes them ("Non-Indexable", "Canonicalised").
   */
  headerPreset?: CsvHeaderPreset;
}

export interface CsvExportResult {
  /** Data rows written (the header line not counted). */
  rows: number;
}

/** An extraction rule as a CSV column: the rule's name in the store, and the column's header. */
export interface ExtractionColumn {
  name: string;
  column: string;
}

/** One extracted value (a row of the extracted table). */
export interface ExtractedValue {
  url_id: number;
  rule: string;
  value: string;
}

/**
 * Where the rows come from. A source reads the rows that existed when it was opened, in export order, a page at
 * a time; it keeps its own position between pages.
 */
export interface CsvRowSource {
  /** The crawl's extraction rules, as columns after CSV_COLUMNS (extractionColumnsOf the crawl's settings). */
  readonly rules: readonly ExtractionColumn[];
  /**
   * The next `limit` rows after the previous page (fewer only at the end). Each row holds the values of
   * CSV_COLUMNS in order, then the row's url id; anything after that (such as the source's keyset) is ignored.
   * Numbers must be JS numbers: a numeric string would be written as text.
   */
  nextPage(limit: number): unknown[][] | Promise<unknown[][]>;
  /** The extracted values of these URLs, ordered by url_id, rule, n. Only asked for when there are rules. */
  extracted(urlIds: number[]): ExtractedValue[] | Promise<ExtractedValue[]>;
  /**
   * A rendered crawl's: the RENDER_EXPORT_COLUMNS of these URLs' renders, each row its url id then the values in
   * order (a URL not rendered has none). Absent when the crawl rendered nothing: those columns are then left out.
   */
  renders?(urlIds: number[]): unknown[][] | Promise<unknown[][]>;
  /**
   * Duplicate content's (issue 18.1): the CONTENT_EXPORT_COLUMNS of these URLs, each row its url id then the values in
   * order. Absent unless the export asks for them (a content filter's view): those columns are then left out.
   */
  content?(urlIds: number[]): unknown[][] | Promise<unknown[][]>;
}

/** The crawl's extraction rules (settings.extraction) as CSV columns: the rule's name, unless a built-in column has it. */
export function extractionColumnsOf(settings: unknown): ExtractionColumn[] {
  const rules = (settings as { extraction?: { name: string }[] } | null)?.extraction ?? [];
  const builtIn = new Set<string>([...CSV_COLUMNS, ...RENDER_EXPORT_COLUMNS, ...CONTENT_EXPORT_COLUMNS].map((c) => c.toLowerCase()));
  return rules.map(({ name }) => ({ name, column: builtIn.has(name.toLowerCase()) ? `${name} (extracted)` : name }));
}

/**
 * Every column a view of the results can export (the explorer's "Export this view", a tab of --export-tabs), in the
 * order a tab export writes them: CSV_COLUMNS, a rendered crawl's render columns, the extraction rules' columns, and a
 * content filter's CONTENT_EXPORT_COLUMNS.
 */
export function viewColumnsOf(filter: string, rendered: boolean, rules: readonly ExtractionColumn[]): string[] {
  return [
    ...CSV_COLUMNS,
    ...(rendered ? RENDER_EXPORT_COLUMNS : []),
    ...rules.map((r) => r.column),
    ...(isContentFilter(filter) ? CONTENT_EXPORT_COLUMNS : []),
  ];
}

/** The batch size asked for, or the default; a RangeError unless it is a whole number of at least 1. */
export function checkBatchSize(batchSize: number | undefined): number {
  const n = batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`batchSize must be a whole number of at least 1, got ${batchSize}`);
  return n;
}

/**
 * Writes the source's rows as CSV (RFC 4180, CRLF, UTF-8 with a BOM) to `out`: a file path (written to
 * `<out>.part` and renamed when complete, so the real name never holds a partial file) or a stream, which is
 * ended when the export completes. Checks the columns before anything is written. Does not close the source.
 */
export async function writeCsvExport(
  source: CsvRowSource,
  out: string | NodeJS.WritableStream,
  options: CsvLayoutOptions = {},
): Promise<CsvExportResult> {
  const batchSize = checkBatchSize(options.batchSize);
  const layout = columnLayout(source.rules, options, source.renders !== undefined, source.content !== undefined);
  return toFileOrStream(out, (dest) => writeRows(source, dest, batchSize, layout));
}

/**
 * Runs `write` on `out`: a stream as it is, or a file path through `<out>.part`, renamed when `write` succeeded and
 * removed when it failed, so the real name never holds a partial file. Shared by every export format.
 */
export async function toFileOrStream<R>(
  out: string | NodeJS.WritableStream,
  write: (dest: NodeJS.WritableStream) => Promise<R>,
): Promise<R> {
  if (typeof out !== 'string') return write(out);
  const part = `${out}.part`;
  const file = fs.createWriteStream(part);
  try {
    const result = await write(file);
    await fs.promises.rename(part, out);
    return result;
  } catch (err) {
    // A failure while reading leaves the file stream open, or still opening (a source that fails at once): close it,
    // and wait until it is closed, before removing the partial file. Removed while the stream was still opening, the
    // file was then made by the open and left behind.
    file.destroy();
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
    await fs.promises.rm(part, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** The columns an export writes: their header names, which cells of the full record, and Screaming Frog's seconds. */
export interface Layout {
  header: string[];
  pick: number[] | null;
  /** The Screaming Frog preset: response times in seconds, its values in the columns of SCREAMING_FROG_VALUES. */
  seconds: boolean;
}

async function writeRows(source: CsvRowSource, dest: NodeJS.WritableStream, batchSize: number, layout: Layout): Promise<CsvExportResult> {
  // Text goes through a PassThrough so that the destination's errors and end arrive as pipeline's, as before.
  const csv = new PassThrough();
  const done = pipeline(csv, dest);
  // Failures are observed where the writer waits (below); this only keeps an early one from being "unhandled".
  done.catch(() => undefined);

  // A page of records is written as one string.
  let text = CSV_BOM + csvRecord(layout.header);
  const flush = async (): Promise<void> => {
    const chunk = text;
    text = '';
    // Backpressure: stop reading from the store until the output has taken what is buffered.
    if (!csv.write(chunk)) await Promise.race([once(csv, 'drain'), done]);
  };
  let rows = 0;
  for await (const page of recordPages(source, batchSize, layout)) {
    for (const record of page) {
      text += csvRecord(record.map(csvCell));
      rows++;
    }
    await flush();
  }
  // An export without rows still has its header.
  if (text !== '') await flush();
  csv.end();
  await done;
  return { rows };
}

/**
 * The export's records a page at a time, in the layout's columns, each cell as the store gave it (null, a number,
 * text; Screaming Frog's response time in seconds; several extracted values of one rule joined a line each): what
 * every format writes, each with its own cell rule (csvCell, xlsx-writer's cell).
 */
export async function* recordPages(source: CsvRowSource, batchSize: number, layout: Layout): AsyncGenerator<unknown[][]> {
  const rules = source.rules;
  for (;;) {
    const batch = await source.nextPage(batchSize);
    const values = rules.length && batch.length ? groupExtracted(await source.extracted(batch.map((row) => row[URL_ID] as number))) : null;
    const renders =
      source.renders && batch.length
        ? new Map((await source.renders(batch.map((row) => row[URL_ID] as number))).map((r) => [r[0] as number, r.slice(1)]))
        : null;
    const content =
      source.content && batch.length
        ? new Map((await source.content(batch.map((row) => row[URL_ID] as number))).map((r) => [r[0] as number, r.slice(1)]))
        : null;
    const page: unknown[][] = [];
    for (const row of batch) {
      const full: unknown[] = row.slice(0, CSV_COLUMNS.length);
      // The Screaming Frog preset: response time in seconds, indexability in its words.
      if (layout.seconds) for (let i = 0; i < CSV_COLUMNS.length; i++) full[i] = screamingFrogCell(i, row[i]);
      if (renders) {
        const mine = renders.get(row[URL_ID] as number);
        for (let i = 0; i < RENDER_EXPORT_COLUMNS.length; i++) full.push(mine?.[i] ?? null);
      }
      if (content) {
        const mine = content.get(row[URL_ID] as number);
        for (let i = 0; i < CONTENT_EXPORT_COLUMNS.length; i++) full.push(mine?.[i] ?? null);
      }
      if (values) {
        const mine = values.get(row[URL_ID] as number);
        // Several values of one rule share its cell, a line each (Excel shows them as lines of the cell).
        for (const r of rules) full.push(mine?.get(r.name)?.join('\n') ?? null);
      }
      page.push(layout.pick ? layout.pick.map((i) => full[i]) : full);
    }
    if (page.length) yield page;
    if (batch.length < batchSize) return;
  }
}

const RESPONSE_TIME = CSV_COLUMNS.indexOf('response_time_ms');
const URL_ID = CSV_COLUMNS.length;

/** Cell `i` of CSV_COLUMNS as the Screaming Frog preset writes it. */
function screamingFrogCell(i: number, value: unknown): unknown {
  return i === RESPONSE_TIME ? seconds(value) : screamingFrogValue(CSV_COLUMNS[i]!, value);
}

function seconds(ms: unknown): number | null {
  return typeof ms === 'number' ? Math.round(ms) / 1000 : null;
}

/** Which of the full record's cells are written, under which header names. Throws naming an unknown column. */
export function columnLayout(rules: readonly { column: string }[], options: CsvLayoutOptions, rendered = false, content = false): Layout {
  const all = [
    ...CSV_COLUMNS,
    ...(rendered ? RENDER_EXPORT_COLUMNS : []),
    ...(content ? CONTENT_EXPORT_COLUMNS : []),
    ...rules.map((r) => r.column),
  ];
  let pick: number[] | null = null;
  if (options.columns) {
    if (options.columns.length === 0) throw new Error('choose at least one column to export');
    const unknown = options.columns.filter((c) => !all.includes(c));
    if (unknown.length)
      throw new Error(
        `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')}; the columns are ${all.join(', ')}`,
      );
    pick = options.columns.map((c) => all.indexOf(c));
  }
  const sf = options.headerPreset === 'screaming-frog';
  const name = (c: string) => (sf ? (SCREAMING_FROG_HEADERS[c as ExportColumn | RenderExportColumn] ?? c) : c);
  const header = (pick ?? all.map((_, i) => i)).map((i) => name(all[i]!));
  return { header, pick, seconds: sf };
}

/** A page's extracted values by url id, then by rule, in the order given. */
function groupExtracted(rows: ExtractedValue[]): Map<number, Map<string, string[]>> {
  const out = new Map<number, Map<string, string[]>>();
  for (const { url_id, rule, value } of rows) {
    let byRule = out.get(url_id);
    if (!byRule) out.set(url_id, (byRule = new Map()));
    const list = byRule.get(rule);
    if (list) list.push(value);
    else byRule.set(rule, [value]);
  }
  return out;
}

/** null → empty; numbers as they are (a negative number is a number); anything textual neutralised. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return neutraliseCell(value);
  if (Buffer.isBuffer(value)) return neutraliseCell(value.toString('utf8'));
  return neutraliseCell(String(value));
}

/**
 * Any table as CSV, the way the results export writes it (a BOM, RFC 4180 with CRLF, text neutralised against
 * formulas): `header`, then `pages` of records, to a file path (through `<out>.part`) or a stream, ended when done;
 * a page is written as one string, and the next is read only once the output has taken it (backpressure).
 */
export async function writeCsvTable(
  header: readonly string[],
  pages: AsyncIterable<readonly unknown[][]> | Iterable<readonly unknown[][]>,
  out: string | NodeJS.WritableStream,
): Promise<CsvExportResult> {
  return toFileOrStream(out, async (dest) => {
    const csv = new PassThrough();
    const done = pipeline(csv, dest);
    done.catch(() => undefined);
    let rows = 0;
    const write = async (chunk: string) => {
      if (!csv.write(chunk)) await Promise.race([once(csv, 'drain'), done]);
    };
    await write(CSV_BOM + csvRecord(header));
    for await (const page of pages) {
      let text = '';
      for (const record of page) text += csvRecord(record.map(csvCell));
      rows += page.length;
      await write(text);
    }
    csv.end();
    await done;
    return { rows };
  });
}
