// The results table of a cluster crawl, read from its schema in the PostgreSQL store: the same rows, filters and
// sort order as a crawl file's (crawl-session.ts's ResultsReader), in PostgreSQL's SQL. Text sorts case-
// insensitively (lower()), empty cells last whichever the direction, ties in fetch order.
import type { ResultRow, ResultSortColumn, ResultsPage, ResultsQuery, StatusClass } from '../../../shared/crawler-api.ts';
import { RESULT_SORT_COLUMNS } from '../../../shared/crawler-api.ts';
import { extractionColumnsOf } from '../export/csv-writer.ts';
import { likePattern } from '../analysis/sql.ts';
import type { PgClient } from '../frontier/postgres/pg-client.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';

const STATUS_RANGES: Record<Exclude<StatusClass, 'none'>, [number, number]> = {
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '5xx': [500, 599],
};

/** ResultRow's columns over results (r) and urls (u) of schema `s`. */
function rowColumns(s: string): string {
  return `r.seq AS seq, u.url AS url, u.kind AS kind, r.status_code AS status_code,
  r.content_type AS content_type, r.size_bytes AS size_bytes, r.response_time_ms AS response_time_ms,
  r.crawl_depth AS crawl_depth, r.indexability AS indexability, r.indexability_reason AS indexability_reason,
  r.title AS title, r.meta_description AS meta_description, r.h1 AS h1, r.h1_count AS h1_count, r.h2 AS h2,
  r.h2_count AS h2_count, r.canonical AS canonical, r.lang AS lang, r.hreflang AS hreflang,
  r.meta_robots AS meta_robots, r.x_robots_tag AS x_robots_tag, r.meta_refresh AS meta_refresh,
  r.word_count AS word_count, (SELECT count(*) FROM ${s}.links l WHERE l.to_id = u.id) AS inlinks,
  r.outlinks AS outlinks, r.redirect_url AS redirect_url, r.attempts AS attempts,
  r.robots_disallowed AS robots_disallowed, r.error AS error`;
}

/** The sort expression of each column; inlinks is the page's own output column. */
const SORT_SQL: Record<ResultSortColumn, string> = {
  seq: 'r.seq',
  url: 'lower(u.url)',
  status_code: 'r.status_code',
  content_type: 'lower(r.content_type)',
  size_bytes: 'r.size_bytes',
  response_time_ms: 'r.response_time_ms',
  crawl_depth: 'r.crawl_depth',
  indexability: 'r.indexability',
  attempts: 'r.attempts',
  title: 'lower(r.title)',
  word_count: 'r.word_count',
  inlinks: 'inlinks',
  outlinks: 'r.outlinks',
};

/** A page of a store crawl's results, counted and sorted by PostgreSQL. */
export async function queryStoreResults(client: PgClient, crawlId: string, q: ResultsQuery): Promise<ResultsPage> {
  if (!(RESULT_SORT_COLUMNS as readonly string[]).includes(q.sort)) throw new Error(`cannot sort results by "${String(q.sort)}"`);
  if (!Number.isInteger(q.offset) || q.offset < 0) throw new RangeError(`offset must be a whole number of at least 0 (got ${q.offset})`);
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new RangeError(`limit must be a whole number of at least 1 (got ${q.limit})`);
  const s = crawlSchema(crawlId);
  const rules = extractionColumnsOf((await readCrawl(client, crawlId)).settings).map((r) => r.name);

  const values: unknown[] = [];
  const terms: string[] = [];
  const hasText = typeof q.text === 'string' && q.text.length > 0;
  if (hasText) {
    values.push(likePattern(q.text));
    const p = `$${values.length}`;
    terms.push(`(u.url ILIKE ${p} ESCAPE '\\' OR r.title ILIKE ${p} ESCAPE '\\' OR r.error ILIKE ${p} ESCAPE '\\')`);
  }
  if (q.statusClass === 'none') terms.push('r.status_code IS NULL');
  else if (q.statusClass !== null && q.statusClass !== undefined) {
    const range = STATUS_RANGES[q.statusClass];
    if (!range) throw new Error(`unknown status class "${String(q.statusClass)}"`);
    values.push(range[0], range[1]);
    terms.push(`r.status_code BETWEEN $${values.length - 1} AND $${values.length}`);
  }
  const where = terms.length ? `WHERE ${terms.join(' AND ')}` : '';
  const from = `FROM ${s}.results r JOIN ${s}.urls u ON u.id = r.url_id`;
  const dir = q.descending ? 'DESC' : 'ASC';
  const order = q.sort === 'seq' ? `r.seq ${dir}` : `${SORT_SQL[q.sort]} ${dir} NULLS LAST, r.seq ASC`;

  // Every result has its URL row, so without a text filter (the only one on urls) the count skips the join.
  const count = await client.query<{ total: number }>(`SELECT count(*) AS total ${hasText ? from : `FROM ${s}.results r`} ${where}`, values);
  const page = await client.query<ResultRow>(
    `SELECT ${rowColumns(s)} ${from} ${where} ORDER BY ${order} LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
    [...values, q.limit, q.offset],
  );
  const rows = page.rows;
  for (const row of rows) row.extracted = {};
  if (rules.length && rows.length) {
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    const { rows: found } = await client.query<{ seq: number; rule: string; value: string }>(
      `SELECT r.seq AS seq, e.rule AS rule, e.value AS value FROM ${s}.results r JOIN ${s}.extracted e ON e.url_id = r.url_id
       WHERE r.seq = ANY($1::bigint[]) ORDER BY r.seq, e.rule, e.n`,
      [rows.map((r) => r.seq)],
    );
    for (const { seq, rule, value } of found) {
      const extracted = bySeq.get(seq)?.extracted;
      if (!extracted) continue;
      // defineProperty: a rule may be named "__proto__".
      if (!Object.hasOwn(extracted, rule)) Object.defineProperty(extracted, rule, { value: [], enumerable: true, writable: true, configurable: true });
      extracted[rule]!.push(value);
    }
  }
  return { total: count.rows[0]!.total, offset: q.offset, rows, extractionRules: rules };
}
