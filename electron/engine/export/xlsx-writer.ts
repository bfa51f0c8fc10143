// The XLSX side of the results export, beside csv-writer.ts and from the same CsvRowSource (a crawl file's or a
// crawl in the PostgreSQL store's), with the same columns, header presets and rows: one worksheet, its header row
// frozen, an autofilter over the columns, numbers as numeric cells (sortable and summable in Excel), text
// neutralised against formulas by the CSV's rule (csv-cell.ts). Written with exceljs's streaming WorkbookWriter:
// inline strings (no shared-strings table, which would hold every distinct text in memory) and each row committed
// as it is added, the store read a page at a time at the pace the output takes it, so memory does not grow with the
// size of the crawl.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import { neutraliseCell } from './csv-cell.ts';
import {
  checkBatchSize,
  columnLayout,
  recordPages,
  toFileOrStream,
  type CsvExportResult,
  type CsvLayoutOptions,
  type CsvRowSource,
} from './csv-writer.ts';

/** Rows of one worksheet, the header included: Excel's limit. An export with more goes on in a further sheet. */
export const XLSX_MAX_ROWS = 1_048_576;
/** The most characters a cell holds in Excel; a longer text is cut there (Excel would call the file damaged). */
export const XLSX_MAX_CELL_CHARS = 32_767;

export interface XlsxLayoutOptions extends CsvLayoutOptions {
  /** Rows per worksheet, the header included (tests make it small); at most XLSX_MAX_ROWS. */
  maxRowsPerSheet?: number;
}

/** A value as an XLSX cell: null stays empty, a finite number stays a number, anything else is neutralised text. */
export function xlsxCell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  const text = neutraliseCell(Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
  return text.length > XLSX_MAX_CELL_CHARS ? text.slice(0, XLSX_MAX_CELL_CHARS) : text;
}

/** The column's letters in A1 notation: 1 → A, 27 → AA. */
export function columnLetters(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

// Column widths in characters: the header's, or wider for the columns that hold URLs and sentences.
const WIDE: Record<string, number> = { url: 60, Address: 60, title: 40, 'Title 1': 40, redirect_url: 50, 'Redirect URL': 50, error: 30 };

/**
 * Writes the source's rows as XLSX to `out`: a file path (written to `<out>.part` and renamed when complete) or a
 * stream, ended when the export completes. Checks the columns before anything is written. Does not close the source.
 */
export async function writeXlsxExport(
  source: CsvRowSource,
  out: string | NodeJS.WritableStream,
  options: XlsxLayoutOptions = {},
): Promise<CsvExportResult> {
  const batchSize = checkBatchSize(options.batchSize);
  const layout = columnLayout(source.rules, options, source.renders !== undefined, source.content !== undefined);
  return writeXlsxTable(layout.header, recordPages(source, batchSize, layout), out, options);
}

export interface XlsxTableOptions {
  /** Rows per worksheet, the header included (tests make it small); at most XLSX_MAX_ROWS. */
  maxRowsPerSheet?: number;
  /** The first worksheet's name (Excel's limit: 31 characters); a further one is "<name> (2)" and so on. */
  sheetName?: string;
}

/**
 * Any table as XLSX, the way the results export writes it: `header`, then `pages` of records (each cell as xlsxCell
 * takes it: null, a number, or text to neutralise), to a file path (through `<out>.part`) or a stream, ended when
 * done. Every export offered as XLSX (the results, a view, a chart's data, a comparison) goes through here, so
 * they share the frozen header, the autofilter, the typed numbers, the neutralised text and the backpressure.
 */
export async function writeXlsxTable(
  header: readonly string[],
  pages: AsyncIterable<readonly unknown[][]> | Iterable<readonly unknown[][]>,
  out: string | NodeJS.WritableStream,
  options: XlsxTableOptions = {},
): Promise<CsvExportResult> {
  const perSheet = options.maxRowsPerSheet ?? XLSX_MAX_ROWS;
  if (!Number.isInteger(perSheet) || perSheet < 2 || perSheet > XLSX_MAX_ROWS) {
    throw new RangeError(`maxRowsPerSheet must be a whole number from 2 to ${XLSX_MAX_ROWS}, got ${options.maxRowsPerSheet}`);
  }
  const sheetName = options.sheetName ?? 'Results';
  return toFileOrStream(out, async (dest) => {
    let failed: Error | null = null;
    const fail = (err: Error) => {
      failed ??= err;
    };
    dest.on('error', fail);
    // Loaded when an XLSX is asked for (the CLI's bundle leaves it out: scripts/build-node.mjs), not at every start.
    // By require, not import(): the bundles run through vm.Script (scripts/load-bundle.mjs), where Node 20 loses
    // the dynamic-import callback of a script compiled from its code cache.
    const excel = createRequire(import.meta.url)('exceljs') as typeof ExcelJS;
    const book = new excel.stream.xlsx.WorkbookWriter({
      stream: dest as unknown as import('node:stream').Stream,
      useSharedStrings: false,
      // Styles cost exceljs a look-up per cell (more than doubling its time per row): the header is told by its
      // frozen row and filter buttons instead of a bold font.
      useStyles: false,
    });
    book.creator = 'Trawl';
    // The archiver behind the workbook (not in exceljs's types): its errors, and abort when the export fails.
    const zip = (book as unknown as { zip: NodeJS.EventEmitter & { abort(): void } }).zip;
    zip.on('error', fail);
    const width = header.length;
    const lastColumn = columnLetters(width);
    const columns = header.map((h) => ({ width: WIDE[h] ?? Math.min(Math.max(h.length + 2, 10), 30) }));

    let sheet: ExcelJS.Worksheet | null = null;
    let sheetRows = 0;
    let sheets = 0;
    const closeSheet = () => {
      if (!sheet) return;
      sheet.autoFilter = `A1:${lastColumn}${sheetRows}`;
      (sheet as unknown as { commit(): void }).commit();
    };
    const openSheet = () => {
      closeSheet();
      sheets++;
      sheet = book.addWorksheet(sheets === 1 ? sheetName : `${sheetName} (${sheets})`, {
        views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
      });
      sheet.columns = columns;
      sheet.addRow([...header]).commit();
      sheetRows = 1;
      return sheet;
    };

    let rows = 0;
    let current = openSheet();
    try {
      for await (const page of pages) {
        for (const record of page) {
          if (sheetRows === perSheet) current = openSheet();
          current.addRow(record.map(xlsxCell)).commit();
          sheetRows++;
          rows++;
        }
        await drained(current, dest, () => failed);
        if (failed) throw failed;
      }
      closeSheet();
      await book.commit();
    } catch (err) {
      // The zip stays unfinished; a file path's .part is removed by toFileOrStream, a stream is cut short.
      zip.abort();
      throw err;
    }
    if (failed) throw failed;
    return { rows };
  });
}

/** Records in pages of `size` (for writeXlsxTable's backpressure, which it applies once a page). */
export function* inPages<T>(records: Iterable<T>, size = 1000): Generator<T[]> {
  let page: T[] = [];
  for (const record of records) {
    page.push(record);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** The XML waiting for the zip's compression, in bytes, past which the writer waits for it. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * Backpressure, once a page. exceljs's sheet stream writes into the zip entry without asking whether it is full,
 * and the zip compresses in Node's thread pool: unchecked, a fast store fills memory with XML. So the writer waits
 * while the zip entry holds more than MAX_PENDING_BYTES (the entry never says when it has room: looked at every
 * few milliseconds), then while the output holds more than it asked for. The entry is exceljs's and archiver's own
 * (not in their types): were a version of them to lose it, the writer would still let the compression run a turn of
 * the event loop a page, and the scale test's memory bound would say so.
 */
async function drained(sheet: ExcelJS.Worksheet, dest: NodeJS.WritableStream, failed: () => Error | null): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const entry = (sheet as unknown as { _stream?: { pipes?: { _writableState?: { length?: number } }[] } })._stream?.pipes?.[0];
  while (!failed() && (entry?._writableState?.length ?? 0) > MAX_PENDING_BYTES) await new Promise((resolve) => setTimeout(resolve, 5));
  const out = dest as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
  while (!failed() && out.writableNeedDrain && !out.destroyed) {
    const stop = new AbortController();
    await Promise.race(['drain', 'close', 'error'].map((event) => once(out, event, { signal: stop.signal }).catch(() => undefined)));
    stop.abort();
  }
}
