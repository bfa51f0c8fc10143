// "Export this view" on a crawl in the PostgreSQL store (issue 19): a filter's rows, searched, in the columns and header
// preset chosen, as CSV or XLSX: the bytes a crawl file's export of the same crawl writes (session/exports.ts
// exportView). The filter's condition is the crawl file's (result-filters.ts viewWhere, in the store's dialect), the
// rows those of the results export (export-page-sql.ts, written by csv-writer.ts or xlsx-writer.ts), read a page at a
// time by keyset through a connection of its own, each page a statement of its own (as exportCsvFromStore). An Images
// filter lists uses of images (images.ts), the external view URLs. What the store does not compute stays so: Link
// Score's columns are empty; duplicate content is computed from the store's signatures (pg-content.ts), as for the
// explorer.
// The bulk reports too: their code (analysis/bulk-reports.ts) with the store answering its queries.
import { type ExportFormat, isContentFilter, type ViewExport } from '../../../shared/analysis.ts';
import type { BulkReportId } from '../../../shared/bulk-reports.ts';
import { REPORT_PAGE_ROWS, reportCode, writeReportPages } from '../analysis/bulk-reports.ts';
import { enterCrawl, pgRows, recordsOnStore } from '../analysis/pg-explorer.ts';
import { IMAGE_PAGE_ROWS, IMAGE_USE_COLUMNS, imageUseRecord, imageUsesSql, writeImageUsePages } from '../analysis/images.ts';
import { positional } from '../analysis/queue-inspector.ts';
import { type FilterId, type FilterTarget, isImageFilter, viewRowsFrom, viewWhere } from '../analysis/result-filters.ts';
import { connect, loadPg, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { refreshStoreContent, storeCrawlKey } from '../analysis/pg-content.ts';
import { refreshStoreLinkScores } from '../analysis/pg-link-score.ts';
import { SETTLED_LINK_SCORES } from '../analysis/link-score-thread.ts';
import { extractionColumnsOf, viewColumnsOf } from './csv-writer.ts';
import { writeExport } from './export-format.ts';
import { crawlRendered, numberTypes, pgRowSource } from './pg-csv-export.ts';

/** Every column a view of `filter` can export from the crawl (csv-writer.ts viewColumnsOf), as for a crawl file. */
export async function storeViewColumns(c: PgQuerier, crawlId: string, filter: FilterId): Promise<string[]> {
  const { settings } = await readCrawl(c, crawlId);
  return viewColumnsOf(filter, await crawlRendered(c, crawlSchema(crawlId)), extractionColumnsOf(settings));
}

/**
 * One view of crawl `crawlId` in the store at `storeUrl` to `out`: a file path (through `<out>.part`, renamed when
 * complete) or a stream, ended when done. An unknown crawl is a StoreError, and nothing is written.
 */
export async function exportViewFromStore(
  storeUrl: string,
  crawlId: string,
  view: ViewExport,
  out: string | NodeJS.WritableStream,
  contentKey: string = storeCrawlKey(serverLabel(storeUrl), crawlId),
): Promise<{ rows: number }> {
  const client = await connect(storeUrl, { applicationName: 'trawl export' });
  try {
    // A content filter reads this connection's content_dups (made before the target is read, which then has it).
    await readCrawl(client, crawlId);
    if (isContentFilter(view.filter)) await refreshStoreContent(client, storeUrl, crawlId, contentKey);
    // Link Score's columns: the crawl's scores as they are now (waited for when stale, as a finished crawl file's).
    await refreshStoreLinkScores(client, storeUrl, crawlId, contentKey, SETTLED_LINK_SCORES);
    // The filters name the crawl's tables bare: its schema is on this connection's search_path from here on.
    const t = await enterCrawl(client, crawlId);
    const format = view.format ?? 'csv';
    if (isImageFilter(view.filter))
      return await writeImageUsePages(view.filter, imageUsePages(client, t, view.filter, view.text), out, format);
    const source = await pgRowSource(client, crawlId, {
      where: viewWhere(t, view.filter, view.text),
      rowsFrom: viewRowsFrom(view.filter),
      content: isContentFilter(view.filter),
      linkScores: true,
    });
    return await writeExport(source, out, { columns: view.columns, headerPreset: view.headerPreset, format });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The uses an Images filter lists in the store (those matching `text` when given), as table rows (IMAGE_USE_COLUMNS),
 * a page at a time in record order: the page's ids from the filter's condition by keyset, then their rows in one
 * statement (images.ts's SQL, in the store's dialect).
 */
async function* imageUsePages(c: PgQuerier, t: FilterTarget, filter: FilterId, text: string): AsyncGenerator<unknown[][]> {
  const hasText = text !== '';
  const sql = imageUsesSql(t, filter, hasText);
  if (sql === null) return;
  const types = numberTypes((await loadPg()).types);
  const params = hasText ? { text: sql.textValue(text) } : {};
  for (let after = 0; ; ) {
    const keys = (await pgRows<{ id: string }>(c, sql.ids, { ...params, after, limit: IMAGE_PAGE_ROWS })).map((r) => Number(r.id));
    if (keys.length === 0) return;
    const read = positional(sql.rows, { keys: t.sql.d.rows.keysValue(keys) });
    const { rows } = await c.query<unknown[]>({ text: read.text, values: read.values, rowMode: 'array', types });
    // The rows in the order of their ids; each ends with its use's id.
    const byId = new Map(rows.map((r) => [r[r.length - 1] as number, r]));
    yield keys.flatMap((id) => {
      const r = byId.get(id);
      return r ? [imageUseRecord(r)] : [];
    });
    if (keys.length < IMAGE_PAGE_ROWS) return;
    after = keys[keys.length - 1]!;
  }
}

/**
 * A bulk report of crawl `crawlId` in the store at `storeUrl` (as writeBulkReport writes a crawl file's) to `out`: a
 * file path (through `<out>.part`) or a stream, ended when done. Its queries are each a statement of their own, on a
 * connection of its own. An unknown crawl is a StoreError, and nothing is written.
 */
export async function exportBulkReportFromStore(
  storeUrl: string,
  crawlId: string,
  id: BulkReportId,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  const client = await connect(storeUrl, { applicationName: 'trawl export' });
  try {
    const t = await enterCrawl(client, crawlId);
    // Images missing alt text lists uses of images, as the Images filter of the same name.
    if (id === 'images-missing-alt')
      return await writeReportPages(id, IMAGE_USE_COLUMNS, imageUsePages(client, t, 'images-alt-missing', ''), out, format);
    const { header, code } = reportCode(t, id);
    return await writeReportPages(id, header, inPages(recordsOnStore(client, code), REPORT_PAGE_ROWS), out, format);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Records gathered into pages of `size`, as they come. */
async function* inPages(records: AsyncIterable<unknown[]>, size: number): AsyncGenerator<unknown[][]> {
  let page: unknown[][] = [];
  for await (const r of records) {
    page.push(r);
    if (page.length >= size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}
