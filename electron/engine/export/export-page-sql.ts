// The results export's page statement, written once for both stores: a crawl file's (csv-export.ts) and a crawl in the
// PostgreSQL store's (pg-csv-export.ts) differ only in how they name their tables, where Link Score's columns come from
// and how they write parameters. A page is read by keyset (results.seq, or urls.id for a view of URLs) up to the last
// key that existed when the export started; a view's filter (result-filters.ts viewWhere) narrows it.

/** What a store says its own way in the export's page statement. */
export interface ExportPageDialect {
  /** A table as the statement names it. */
  table(name: 'results' | 'urls' | 'links'): string;
  /**
   * Link Score's columns (unique_inlinks, link_score) of the URL whose id is `urlId`, and the join that brings them:
   * a crawl file's TEMP table (analysis/link-score-thread.ts); none in the store, where Link Score is not computed.
   */
  linkScores(urlId: string): { columns: string; join: string };
  /** The placeholders of the keyset's lower and upper bounds and of the page size. */
  after: string;
  last: string;
  limit: string;
}

/** The rows an export reads (results r with their urls u, or urls u with their results r) and the key it pages by. */
export function exportRows(d: Pick<ExportPageDialect, 'table'>, rowsFrom: 'results' | 'urls'): { from: string; key: string } {
  return rowsFrom === 'urls'
    ? { from: `${d.table('urls')} u LEFT JOIN ${d.table('results')} r ON r.url_id = u.id`, key: 'u.id' }
    : { from: `${d.table('results')} r JOIN ${d.table('urls')} u ON u.id = r.url_id`, key: 'r.seq' };
}

/**
 * The keys of the rows a view's filter (`where`) keeps, up to the last key `last` (a placeholder), in no order: for a
 * store that evaluates the filter once and then pages through its keys (pg-csv-export.ts).
 */
export function exportKeysSql(d: Pick<ExportPageDialect, 'table'>, rowsFrom: 'results' | 'urls', where: string, last: string): string {
  const { from, key } = exportRows(d, rowsFrom);
  // Every results row has its URL: a filter of results that names no column of u needs no join (at a million URLs
  // the join took half of the HTML view's 2.1 s).
  const rows = rowsFrom === 'results' && !/\bu\./.test(where) ? `${d.table('results')} r` : from;
  return `SELECT ${key} FROM ${rows} WHERE ${key} <= ${last} AND (${where})`;
}

/**
 * The statement of one page of the export: the CSV's columns (CSV_COLUMNS), then the url id (for extracted values and
 * the other columns read by URL), then the keyset. `rowsFrom` results: one row per fetch, in fetch order; urls: one row
 * per URL known, fetched or not, in discovery order (the external view's URLs, most never fetched). `where`: a
 * condition over results r and urls u. inlinks counts distinct linking pages (links has one row per from_id, to_id).
 */
export function exportPageSql(d: ExportPageDialect, rowsFrom: 'results' | 'urls', where: string | null): string {
  const byUrl = rowsFrom === 'urls';
  const urlId = byUrl ? 'u.id' : 'r.url_id';
  const scores = d.linkScores(urlId);
  const { from, key } = exportRows(d, rowsFrom);
  return `
SELECT u.url, u.kind, r.status_code, r.content_type, r.size_bytes, r.response_time_ms, ${byUrl ? 'coalesce(r.crawl_depth, u.depth)' : 'r.crawl_depth'},
       r.indexability, r.indexability_reason, r.title, r.meta_description, r.h1, r.h1_count, r.h2, r.h2_count,
       r.canonical, r.lang, r.hreflang, r.meta_robots, r.x_robots_tag, r.meta_refresh, r.word_count,
       (SELECT count(*) FROM ${d.table('links')} l WHERE l.to_id = u.id) AS inlinks,
       ${scores.columns},
       ${byUrl ? 'coalesce(r.outlinks, 0)' : 'r.outlinks'}, r.redirect_url, r.attempts, r.robots_disallowed, r.error, u.id, ${key}
FROM ${from} ${scores.join}
WHERE ${key} > ${d.after} AND ${key} <= ${d.last}${where ? ` AND (${where})` : ''}
ORDER BY ${key}
LIMIT ${d.limit}`;
}
