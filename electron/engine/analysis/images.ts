// Images (issue 18.3) as tables: the uses an Images filter lists (its tab export: --export-tabs, the explorer's "Export
// this view") and the bulk report of images missing alt text, a row per use of an image on a page: the image, the
// page, the alt's state and text, dimensions, and the image's own status and size when the crawl checked it. Read by
// keyset over image_uses (the filter's index range, then each use's image, page and checked rows by key), a page at
// a time, so memory does not grow with the crawl.
import type { ExportFormat, FilterId } from '../../../shared/analysis.ts';
import { writeCsvTable } from '../export/csv-writer.ts';
import { writeXlsxTable } from '../export/xlsx-writer.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { IMAGE_TEXT_SQL, imageUsesWhere } from './result-filters.ts';
import { likePattern, prepared } from './sql.ts';

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

const PAGE_ROWS = 1000;

/**
 * The statements a table of an Images filter runs: the uses' ids (the filter's index range, by keyset), then the rows
 * by key. With `text`, only the uses whose image, page or alt contain it, as the explorer lists them (@text).
 */
export function imageUsesSql(db: Db, filter: FilterId, text = false): { ids: string; rows: string } | null {
  const w = imageUsesWhere(db, filter);
  if (w === null) return null;
  const from = text
    ? `image_uses iu ${w.hint} JOIN images im ON im.id = iu.image_id JOIN urls pu ON pu.id = iu.page_id`
    : `image_uses iu ${w.hint}`;
  return {
    ids: `SELECT iu.id FROM ${from} WHERE (${w.where})${text ? ` AND ${IMAGE_TEXT_SQL}` : ''} AND iu.id > @after ORDER BY iu.id LIMIT @limit`,
    rows: `SELECT im.url, pu.url, iu.alt, iu.alt_len, iu.width, iu.height, ir.url_id IS NOT NULL, ir.status_code, ir.size_bytes, ir.content_type
      FROM image_uses iu JOIN images im ON im.id = iu.image_id JOIN urls pu ON pu.id = iu.page_id
      LEFT JOIN urls iuu ON iuu.url_key = im.url_key AND iuu.url = im.url LEFT JOIN results ir ON ir.url_id = iuu.id
      WHERE iu.id = ?`,
  };
}

/**
 * The uses an Images filter lists (those matching `text` when given, as in the explorer), as table rows
 * (IMAGE_USE_COLUMNS), a page at a time in record order.
 */
export function* imageUsePages(db: Db, filter: FilterId, pageRows = PAGE_ROWS, text?: string): Generator<unknown[][]> {
  const hasText = text !== undefined && text !== '';
  const sql = imageUsesSql(db, filter, hasText);
  if (sql === null) return;
  const ids = prepared(db, sql.ids).pluck(true);
  const row = prepared(db, sql.rows).raw(true);
  const params = hasText ? { text: likePattern(text) } : {};
  for (let after = 0; ; ) {
    const keys = ids.all({ ...params, after, limit: pageRows }) as number[];
    if (keys.length === 0) return;
    const page: unknown[][] = [];
    for (const id of keys) {
      const r = row.get(id) as
        | [string, string, string | null, number | null, string | null, string | null, number, ...unknown[]]
        | undefined;
      if (!r) continue;
      const [image, pageUrl, alt, altLen, width, height, checked, status, size, type] = r;
      page.push([image, pageUrl, altState(alt), alt, altLen, width, height, checked ? 'yes' : 'no', status, size, type]);
    }
    yield page;
    if (keys.length < pageRows) return;
    after = keys[keys.length - 1]!;
  }
}

/** An Images filter's uses (those matching `text` when given) as CSV (or XLSX), to a file path or a stream. */
export function writeImageUses(
  db: Db,
  filter: FilterId,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
  text?: string,
): Promise<{ rows: number }> {
  const pages = imageUsePages(db, filter, PAGE_ROWS, text);
  return format === 'xlsx'
    ? writeXlsxTable(IMAGE_USE_COLUMNS, pages, out, { sheetName: filter.slice(0, 31) })
    : writeCsvTable(IMAGE_USE_COLUMNS, pages, out);
}
