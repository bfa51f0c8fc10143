// Images (issue 18.3) as tables: the uses an Images filter lists (its tab export: --export-tabs, the explorer's "Export
// this view") and the bulk report of images missing alt text, a row per use of an image on a page: the image, the
// page, the alt's state and text, dimensions, and the image's own status and size when the crawl checked it. Read by
// keyset over image_uses (the filter's index range, then each use's image, page and checked rows by key), a page at
// a time, so memory does not grow with the crawl.
import type { ExportFormat, FilterId } from '../../../shared/analysis.ts';
import { writeCsvTable } from '../export/csv-writer.ts';
import { writeXlsxTable } from '../export/xlsx-writer.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { type FilterTarget, imageUsesWhere } from './result-filters.ts';
import { prepared } from './sql.ts';

export const IMAGE_USE_COLUMNS = [
  'image',
  'page',
  'alt_state',
  'alt',
  'alt_length',
  'width',
  'height',
  'checked',
  'status_code',
  'size_bytes',
  'content_type',
] as const;

/** What an alt attribute is: missing (no attribute), empty (alt=""), or present. */
export function altState(alt: string | null): 'missing' | 'empty' | 'present' {
  return alt === null ? 'missing' : alt === '' ? 'empty' : 'present';
}

/** Uses read a page at a time (the ids of a page, then their rows). */
export const IMAGE_PAGE_ROWS = 1000;

/**
 * The statements a table of an Images filter runs, in the target's dialect (a crawl file's, or a crawl's in the store):
 * the uses' ids (the filter's index range, by keyset), then the rows by key: one use (`row`, a crawl file's look-up)
 * or a page of uses (`rows`, @keys: one statement a page for the store, each a round trip). The rows end with the
 * use's id. With `text`, only the uses whose image, page or alt contain it, as the explorer lists them (@text, bound
 * to `textValue` of the text searched).
 */
export function imageUsesSql(
  target: Db | FilterTarget,
  filter: FilterId,
  text = false,
): { ids: string; row: string; rows: string; textValue(text: string): string } | null {
  const w = imageUsesWhere(target, filter);
  if (w === null) return null;
  const from = text
    ? `image_uses iu ${w.hint} JOIN images im ON im.id = iu.image_id JOIN urls pu ON pu.id = iu.page_id`
    : `image_uses iu ${w.hint}`;
  const rows = `SELECT im.url, pu.url, iu.alt, iu.alt_len, iu.width, iu.height, ir.url_id IS NOT NULL, ir.status_code, ir.size_bytes, ir.content_type, iu.id
      FROM image_uses iu JOIN images im ON im.id = iu.image_id JOIN urls pu ON pu.id = iu.page_id ${w.resultJoin}`;
  return {
    ids: `SELECT iu.id FROM ${from} WHERE (${w.where})${text ? ` AND ${w.text}` : ''} AND iu.id > @after ORDER BY iu.id LIMIT @limit`,
    row: `${rows} WHERE iu.id = ?`,
    rows: `${rows} WHERE ${w.d.rows.inKeys('iu.id', '@keys')}`,
    textValue: (searched) => w.d.rows.search.value(searched),
  };
}

/** A use's row as imageUsesSql reads it, as a table's record (IMAGE_USE_COLUMNS). */
export function imageUseRecord(r: readonly unknown[]): unknown[] {
  const [image, pageUrl, alt, altLen, width, height, checked, status, size, type] = r;
  // A checked image's row was found: SQLite says 1, PostgreSQL true.
  return [image, pageUrl, altState(alt as string | null), alt, altLen, width, height, checked ? 'yes' : 'no', status, size, type];
}

/**
 * The uses an Images filter lists (those matching `text` when given, as in the explorer), as table rows
 * (IMAGE_USE_COLUMNS), a page at a time in record order.
 */
export function* imageUsePages(db: Db, filter: FilterId, pageRows = IMAGE_PAGE_ROWS, text?: string): Generator<unknown[][]> {
  const hasText = text !== undefined && text !== '';
  const sql = imageUsesSql(db, filter, hasText);
  if (sql === null) return;
  const ids = prepared(db, sql.ids).pluck(true);
  const row = prepared(db, sql.row).raw(true);
  const params = hasText ? { text: sql.textValue(text) } : {};
  for (let after = 0; ; ) {
    const keys = ids.all({ ...params, after, limit: pageRows }) as number[];
    if (keys.length === 0) return;
    const page: unknown[][] = [];
    for (const id of keys) {
      const r = row.get(id) as unknown[] | undefined;
      if (r) page.push(imageUseRecord(r));
    }
    yield page;
    if (keys.length < pageRows) return;
    after = keys[keys.length - 1]!;
  }
}

/** Pages of an Images filter's uses as CSV (or XLSX), to a file path or a stream. */
export function writeImageUsePages(
  filter: FilterId,
  pages: Iterable<unknown[][]> | AsyncIterable<unknown[][]>,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  return format === 'xlsx'
    ? writeXlsxTable(IMAGE_USE_COLUMNS, pages, out, { sheetName: filter.slice(0, 31) })
    : writeCsvTable(IMAGE_USE_COLUMNS, pages, out);
}

/** An Images filter's uses (those matching `text` when given) as CSV (or XLSX), to a file path or a stream. */
export function writeImageUses(
  db: Db,
  filter: FilterId,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
  text?: string,
): Promise<{ rows: number }> {
  return writeImageUsePages(filter, imageUsePages(db, filter, IMAGE_PAGE_ROWS, text), out, format);
}
