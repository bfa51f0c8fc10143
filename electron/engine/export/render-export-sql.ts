// Where the render columns of an export (RENDER_EXPORT_COLUMN_INFO, shared/analysis.ts) come from in a store's renders
// table, so the crawl file's export (csv-export.ts) and the PostgreSQL store's (pg-csv-export.ts) select the same
// values in the same order from the one declaration of the columns. Only the length of a JSON list differs between them.
import { RENDER_EXPORT_COLUMNS, type RenderExportColumn } from '../../../shared/analysis.ts';

/** Each render column's renders column; a JSON list (console errors, resources...) is exported as its length. */
const RENDER_EXPORT_SOURCE: Record<RenderExportColumn, { column: string; list?: true }> = {
  raw_title: { column: 'raw_title' },
  raw_meta_description: { column: 'raw_meta_description' },
  raw_h1: { column: 'raw_h1' },
  raw_h1_count: { column: 'raw_h1_count' },
  raw_h2: { column: 'raw_h2' },
  raw_h2_count: { column: 'raw_h2_count' },
  raw_canonical: { column: 'raw_canonical' },
  raw_meta_robots: { column: 'raw_meta_robots' },
  raw_lang: { column: 'raw_lang' },
  raw_hreflang: { column: 'raw_hreflang' },
  raw_word_count: { column: 'raw_word_count' },
  rendered_links: { column: 'rendered_links' },
  js_redirect: { column: 'js_redirect' },
  raw_indexability: { column: 'raw_indexability' },
  render_ms: { column: 'render_ms' },
  render_error: { column: 'error' },
  console_errors: { column: 'console_errors', list: true },
  page_errors: { column: 'page_errors', list: true },
  failed_resources: { column: 'failed_resources', list: true },
  blocked_resources: { column: 'blocked_resources', list: true },
};

/**
 * The SELECT list of RENDER_EXPORT_COLUMNS over the renders table, in their order, after the url id (what a
 * CsvRowSource's renders() gives). `listLength` is the store's SQL for the length of a JSON list column.
 */
export function renderExportSelect(listLength: (column: string) => string): string {
  const cells = RENDER_EXPORT_COLUMNS.map((c) => {
    const { column, list } = RENDER_EXPORT_SOURCE[c];
    return list ? `coalesce(${listLength(column)}, 0)` : column;
  });
  return ['url_id', ...cells].join(', ');
}
