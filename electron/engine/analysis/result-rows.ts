// The SQL of a results row (ResultRow in shared/crawler-api.ts), written once for every reader of result rows: the
// Results table of a crawl file and of a cluster crawl (session/crawl-file-results.ts, session/cluster-results.ts)
// and the Results explorer's filters (result-filters.ts). The columns, the status classes, the sort order (text
// without case, empty cells last whichever the direction, ties in fetch order), the text search and the merge of
// custom extraction values are here; SQLite and PostgreSQL differ only in what a ResultsDialect says.
import type { ResultRow, ResultSortColumn, ResultsQuery, StatusClass } from '../../../shared/crawler-api.ts';
import { RESULT_SORT_COLUMNS } from '../../../shared/crawler-api.ts';
import { asciiLower, likePattern } from './sql.ts';
import { URL_ORDER_PREFIX } from '../frontier/postgres/pg-schema.ts';

/**
 * A search for a text anywhere in a column, whatever the case of ASCII letters and only theirs: the condition on a
 * column, with the parameter `p` bound to `value(text)`. Both stores find the same rows: SQLite's LIKE folds ASCII
 * letters only, and so does PostgreSQL's lower() in the C collation (in the database's collation, "école" would also
 * find "ÉCOLE" in the store and not in a file).
 */
export interface TextSearch {
  contains(column: string, p: string): string;
  value(text: string): string;
}

/** A crawl file's search: LIKE, its pattern's wildcards escaped. */
export const SQLITE_SEARCH: TextSearch = {
  contains: (column, p) => `${column} LIKE ${p} ESCAPE '\\'`,
  value: likePattern,
};

/**
 * The store's search: LIKE over the column lower-cased in the C collation, the pattern lower-cased the same way. ILIKE
 * in that collation finds the same rows (it lower-cases both sides that way, then matches), at a higher cost: at a
 * million URLs a pass over the URLs took 265-272 ms against 328-342 ms, over 800,000 titles 299-314 against 494-510 ms.
 * Still a LIKE, so the planner estimates how many rows match from the pattern, as ILIKE's: `strpos(...) > 0` was as
 * fast alone, but taken to match a third of the URLs, the URLs' subquery was not hashed but scanned again and again,
 * and the Results table's first page of a search took 86 s. (The database's own collation folds each character
 * through its locale: twice ILIKE's cost in C.)
 */
export const POSTGRES_SEARCH: TextSearch = {
  contains: (column, p) => `lower(${column} COLLATE "C") LIKE ${p} ESCAPE '\\'`,
  value: (text) => likePattern(asciiLower(text)),
};

/** Where SQLite's SQL and PostgreSQL's part. */
export interface ResultsDialect {
  /** A table as the query names it: `results`, or in the store, qualified by the crawl's schema. */
  table(name: 'results' | 'urls' | 'links' | 'extracted' | 'hosts'): string;
  /** The expression compared (sorted) without regard to case. */
  noCase(expr: string): string;
  /**
   * The ORDER BY terms of a sort by URL (u.url) that an index serves, in direction `dir`; null: noCase(u.url), as
   * any other text column.
   */
  urlOrder(dir: 'ASC' | 'DESC'): string | null;
  /** The search for a text in a column, ASCII letters in either case (SQLITE_SEARCH; POSTGRES_SEARCH). */
  search: TextSearch;
  /** The placeholder of the n-th parameter (from 1); a placeholder may appear more than once. */
  param(n: number): string;
  /** The condition "`key` is one of the keys" for a list of keys passed as one parameter `p`... */
  inKeys(key: string, p: string): string;
  /** ...and the value of that parameter. */
  keysValue(keys: readonly number[]): unknown;
  /** A URL's Link Score or unique inlinks (link-score.ts), by its id: the crawl file's TEMP table; none in the store. */
  linkScore(column: 'link_score' | 'unique_inlinks', urlId: string): string;
  /**
   * A sort of the results (r) by a Link Score column through a join of the scores' table (`join`, after the FROM's
   * tables; `order`, the sort's expression) rather than linkScore's lookup per row; null: the lookup.
   */
  linkScoreSort(column: 'link_score' | 'unique_inlinks'): { join: string; order: string } | null;
  /**
   * A page of the Results table sorted by a column other than the fetch order or the URL sorts its keys first, then
   * reads only those rows whole (resultsPageSql).
   */
  pageKeysFirst: boolean;
}

/**
 * The results of a crawl in the store kept in the order of their Link Scores (pg-schema.ts LINK_SCORES_ORDER_DDL):
 * the crawl's schema, whose link_scores_order has each results row up to seq `through` with its scores, indexed by
 * each score and seq in either direction.
 */
export interface OrderedScores {
  schema: string;
  through: number;
}

/**
 * The keys (k, results.seq) and sort values (o) of a page of results rows sorted by a Link Score column, NULLs last
 * and then by seq as orderSql sorts, from the results kept in that order: not sorted, the caller orders them (orderSql
 * over o and k). `from`: the results (r) and any tables joined to them; `cond`: the rows' condition, or null for all.
 *
 * The rows come in the page's order from an index of the kept order, each joined to its results row and matched, so
 * the first page of 800,000 results takes milliseconds (a condition that matches few rows is read first and the rows
 * sorted, as PostgreSQL judges). `text`: the condition searches a text, which reads every results row whatever the
 * order; each row it matches then looks its place up, and the page is sorted. PostgreSQL, left to judge, hashed the
 * whole order with the matches instead (a rare term's page 0.62-0.64 s against 0.30 s, a common one's 0.85-1.1 s
 * against 0.76-0.81 s, at 800,000 results). The rows after `through` (a node's since the order was kept) sort last,
 * as their seq is above every kept row's, and are read, after those, only when the page reaches past them. Where it
 * starts past them (no kept row on the page but the offset is not 0) the kept rows that match are counted.
 */
export function orderedScoreKeysSql(
  o: OrderedScores,
  column: 'link_score' | 'unique_inlinks',
  descending: boolean,
  from: string,
  cond: string | null,
  limit: string,
  offset: string,
  text = false,
): string {
  const and = cond ? ` AND ${cond}` : '';
  // As bigint wherever they appear: PostgreSQL deduces one type for a parameter from all its uses.
  [limit, offset] = [`CAST(${limit} AS bigint)`, `CAST(${offset} AS bigint)`];
  // OFFSET 0: the lateral look-up stays one (PostgreSQL would otherwise make it a join of its own choosing again).
  const kept = text
    ? `FROM ${from} CROSS JOIN LATERAL (SELECT lo.seq, lo.link_score, lo.unique_inlinks FROM ${o.schema}.link_scores_order lo
         WHERE lo.seq = r.seq OFFSET 0) lo WHERE r.seq <= ${o.through}${and}`
    : `FROM ${o.schema}.link_scores_order lo JOIN ${from} ON r.seq = lo.seq WHERE lo.seq <= ${o.through}${and}`;
  return `WITH s AS MATERIALIZED (SELECT r.seq AS k, lo.${column} AS o ${kept}
      ORDER BY lo.${column} ${descending ? 'DESC' : 'ASC'} NULLS LAST, lo.seq LIMIT ${limit} OFFSET ${offset})
    SELECT k, o FROM s
    UNION ALL
    SELECT k, o FROM (SELECT r.seq AS k, CAST(NULL AS double precision) AS o FROM ${from} WHERE r.seq > ${o.through}${and}
      ORDER BY r.seq LIMIT ${limit} - (SELECT count(*) FROM s)
      OFFSET (CASE WHEN ${offset} = 0 OR EXISTS (SELECT 1 FROM s) THEN 0
              ELSE greatest(0, ${offset} - (SELECT count(*) ${kept})) END)) t
    WHERE (SELECT count(*) FROM s) < ${limit} AND EXISTS (SELECT 1 FROM ${o.schema}.results WHERE seq > ${o.through})`;
}

/** The sorts linkScoreSort serves. */
export const isLinkScoreSort = (sort: ResultSortColumn): sort is 'link_score' | 'unique_inlinks' =>
  sort === 'link_score' || sort === 'unique_inlinks';

/** A crawl file. Parameters are named (@p1, @p2...): bind them with sqliteParams. */
export const SQLITE_RESULTS: ResultsDialect = {
  table: (name) => name,
  noCase: (expr) => `${expr} COLLATE NOCASE`,
  urlOrder: () => null,
  search: SQLITE_SEARCH,
  param: (n) => `@p${n}`,
  inKeys: (key, p) => `${key} IN (SELECT value FROM json_each(${p}))`,
  keysValue: (keys) => JSON.stringify(keys),
  // Every crawl-file connection has the TEMP table (crawl-file.ts), filled by link-score-thread.ts.
  linkScore: (column, urlId) => `(SELECT ls.${column} FROM temp.link_scores ls WHERE ls.url_id = ${urlId})`,
  // SQLite looks each row's score up by key either way (its sorts by score take 56-340 ms at 800,000 results).
  linkScoreSort: () => null,
  // SQLite sorts the rows it reads by key alone either way: 230-250 ms for the first 100 of 800,000 by depth or title.
  pageKeysFirst: false,
};

/**
 * The store's index of URLs in sort order (pg-schema.ts, urls_url_order) holds their first characters: ordered by
 * them, then by the whole URL, the rows come in the whole URL's order (in code point order a prefix sorts as its
 * string does), and only URLs that share the prefix are sorted further.
 */
const URL_ORDER_KEY = `left(lower(u.url), ${URL_ORDER_PREFIX}) COLLATE "C"`;

/**
 * A crawl's schema (crawlSchema(id), quoted) in the PostgreSQL store. Text sorts without case in code point order
 * (COLLATE "C"), as SQLite's NOCASE does, whatever the database's collation.
 */
export function postgresResults(schema: string, linkScores = false): ResultsDialect {
  return {
    table: (name) => `${schema}.${name}`,
    noCase: (expr) => `lower(${expr}) COLLATE "C"`,
    // A URL is never NULL: no NULLS LAST, which a backward walk of the index would not give.
    urlOrder: (dir) => `${URL_ORDER_KEY} ${dir}, lower(u.url) COLLATE "C" ${dir}`,
    search: POSTGRES_SEARCH,
    param: (n) => `$${n}`,
    inKeys: (key, p) => `${key} = ANY(${p}::bigint[])`,
    keysValue: (keys) => keys,
    // Link Score from the reading connection's TEMP table, once pg-link-score.ts made it (else none).
    linkScore: (column, urlId) =>
      linkScores
        ? `(SELECT ls.${column} FROM pg_temp.link_scores ls WHERE ls.url_id = ${urlId})`
        : column === 'link_score'
          ? 'CAST(NULL AS real)'
          : 'CAST(NULL AS integer)',
    // Sorted through a lookup per row, 800,000 results took 0.8-1.2 s to give their first 100 by Link Score; merged
    // with the scores' table (both read in URL id order), 0.25-0.36 s.
    linkScoreSort: (column) =>
      linkScores ? { join: 'LEFT JOIN pg_temp.link_scores ls ON ls.url_id = r.url_id', order: `ls.${column}` } : null,
    // Sorted with their URLs and every column, the first 100 of 800,000 rows by depth, status or response time took
    // 1.1-1.6 s; their keys sorted first (from results_charts), then 100 rows read: the page in 0.26-0.46 s.
    pageKeysFirst: true,
  };
}

/** SQLite's named parameters (@p1, @p2...) from the values of a statement built with SQLITE_RESULTS. */
export function sqliteParams(values: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]));
}

/** A statement and its parameters' values, in order. */
export interface BoundSql {
  sql: string;
  values: unknown[];
}

/** The status codes of each status class. */
export const STATUS_RANGES: Record<Exclude<StatusClass, 'none'>, readonly [number, number]> = {
  '2xx': [200, 299],
  '3xx': [300, 399],
  '4xx': [400, 499],
  '5xx': [500, 599],
};

/** The number of distinct pages linking to the URL `id` (links has one row per (from_id, to_id), indexed by to_id). */
const inlinksOf = (d: ResultsDialect, id: string) => `(SELECT count(*) FROM ${d.table('links')} l WHERE l.to_id = ${id})`;

type RowColumn = Exclude<keyof ResultRow, 'extracted'>;

/**
 * ResultRow's columns over results (r) and urls (u): the crawl_results view's. `over` replaces some columns'
 * expressions (the explorer's view of URLs that may have no results row).
 */
export function resultRowColumns(d: ResultsDialect = SQLITE_RESULTS, over: Partial<Record<RowColumn, string>> = {}): string {
  const columns: Record<RowColumn, string> = {
    seq: 'r.seq',
    url: 'u.url',
    kind: 'u.kind',
    status_code: 'r.status_code',
    content_type: 'r.content_type',
    size_bytes: 'r.size_bytes',
    response_time_ms: 'r.response_time_ms',
    crawl_depth: 'r.crawl_depth',
    indexability: 'r.indexability',
    indexability_reason: 'r.indexability_reason',
    title: 'r.title',
    meta_description: 'r.meta_description',
    h1: 'r.h1',
    h1_count: 'r.h1_count',
    h2: 'r.h2',
    h2_count: 'r.h2_count',
    canonical: 'r.canonical',
    lang: 'r.lang',
    hreflang: 'r.hreflang',
    meta_robots: 'r.meta_robots',
    x_robots_tag: 'r.x_robots_tag',
    meta_refresh: 'r.meta_refresh',
    word_count: 'r.word_count',
    inlinks: inlinksOf(d, 'u.id'),
    outlinks: 'r.outlinks',
    redirect_url: 'r.redirect_url',
    attempts: 'r.attempts',
    robots_disallowed: 'r.robots_disallowed',
    error: 'r.error',
    link_score: d.linkScore('link_score', 'u.id'),
    unique_inlinks: d.linkScore('unique_inlinks', 'u.id'),
    ...over,
  };
  return Object.entries(columns)
    .map(([name, expr]) => `${expr} AS ${name}`)
    .join(', ');
}

/**
 * The SQL of each sortable column over results (r) and urls (u); text sorts without case. inlinks is the page's
 * selected column ('selected', when the query selects resultRowColumns) or counted ('counted', when it does not).
 */
export function resultSortSql(d: ResultsDialect, inlinks: 'selected' | 'counted'): Record<ResultSortColumn, string> {
  return {
    seq: 'r.seq',
    url: d.noCase('u.url'),
    status_code: 'r.status_code',
    content_type: d.noCase('r.content_type'),
    size_bytes: 'r.size_bytes',
    response_time_ms: 'r.response_time_ms',
    crawl_depth: 'r.crawl_depth',
    indexability: 'r.indexability',
    attempts: 'r.attempts',
    title: d.noCase('r.title'),
    word_count: 'r.word_count',
    inlinks: inlinks === 'selected' ? 'inlinks' : inlinksOf(d, 'r.url_id'),
    outlinks: 'r.outlinks',
    link_score: inlinks === 'selected' ? 'link_score' : d.linkScore('link_score', 'r.url_id'),
    unique_inlinks: inlinks === 'selected' ? 'unique_inlinks' : d.linkScore('unique_inlinks', 'r.url_id'),
  };
}

/**
 * The ORDER BY of a sort: empty cells (errors have no status, no title...) last whichever the direction; ties in `key`
 * order. `urlOrder`: the dialect's index-served sort by u.url (ResultsDialect.urlOrder), when sortSql sorts by it.
 */
export function orderSql(
  sort: ResultSortColumn,
  sortSql: string,
  descending: boolean,
  key = 'r.seq',
  urlOrder: ResultsDialect['urlOrder'] = () => null,
): string {
  const dir = descending ? 'DESC' : 'ASC';
  if (sort === 'seq') return `${key} ${dir}`;
  const byUrl = sort === 'url' ? urlOrder(dir) : null;
  return byUrl === null ? `${sortSql} ${dir} NULLS LAST, ${key} ASC` : `${byUrl}, ${key} ASC`;
}

/**
 * Rows whose URL, title or error contain the text bound as `p` (the dialect's search.value), whatever the case of
 * ASCII letters.
 * `urlId` names the row's URL id: r.url_id over results rows, u.id over URLs that may have none. The URLs are
 * matched in a subquery the database runs once (PostgreSQL hashes its ids, SQLite keeps them in an index of its
 * own) rather than each through the join, so a search of results rows reads no URL row but those it matches: at a
 * million URLs on the store a count took 0.57-0.63 s against 1.1-1.2 s through the join.
 */
export function textMatchSql(d: ResultsDialect, p: string, urlId = 'r.url_id'): string {
  const has = (column: string) => d.search.contains(column, p);
  return `(${urlId} IN (SELECT id FROM ${d.table('urls')} WHERE ${has('url')}) OR ${has('r.title')} OR ${has('r.error')})`;
}

/**
 * The total a page of rows tells without a count: a page with rows but fewer than it asked for is the last one (its
 * offset plus its rows), and a first page with none says there are none. Null when the rows must be counted. Read in
 * the count's snapshot, it is the count's answer: a search that matches few rows, which read every row once for the
 * page and again for the count, then reads them once.
 */
export function totalFromPage(offset: number, limit: number, rows: number): number | null {
  if (rows >= limit) return null;
  return rows > 0 || offset === 0 ? offset + rows : null;
}

/** The status codes of a class; unknown classes are refused. */
export function statusRange(statusClass: unknown): readonly [number, number] {
  const range =
    typeof statusClass === 'string' && Object.hasOwn(STATUS_RANGES, statusClass)
      ? STATUS_RANGES[statusClass as keyof typeof STATUS_RANGES]
      : undefined;
  if (!range) throw new Error(`unknown status class "${String(statusClass)}"`);
  return range;
}

export function checkSort(sort: unknown): asserts sort is ResultSortColumn {
  if (!(RESULT_SORT_COLUMNS as readonly unknown[]).includes(sort)) throw new Error(`cannot sort results by "${String(sort)}"`);
}

function checkResultsQuery(q: ResultsQuery): void {
  checkSort(q.sort);
  if (!Number.isInteger(q.offset) || q.offset < 0) throw new RangeError(`offset must be a whole number of at least 0 (got ${q.offset})`);
  if (!Number.isInteger(q.limit) || q.limit < 1) throw new RangeError(`limit must be a whole number of at least 1 (got ${q.limit})`);
}

/**
 * The two statements of a page of the Results table: the total of rows matching, and the page's rows (no extracted
 * values yet). `ordered`: Link Scores kept in their order, which a sort by them walks.
 */
export function resultsPageSql(
  d: ResultsDialect,
  q: ResultsQuery,
  ordered: OrderedScores | null = null,
): { count: BoundSql; page: BoundSql } {
  checkResultsQuery(q);
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return d.param(values.length);
  };
  const terms: string[] = [];
  const hasText = typeof q.text === 'string' && q.text.length > 0;
  if (hasText) terms.push(textMatchSql(d, bind(d.search.value(q.text as string))));
  if (q.statusClass === 'none') terms.push('r.status_code IS NULL');
  else if (q.statusClass !== null && q.statusClass !== undefined) {
    const [min, max] = statusRange(q.statusClass);
    terms.push(`r.status_code BETWEEN ${bind(min)} AND ${bind(max)}`);
  }
  const where = terms.length ? `WHERE ${terms.join(' AND ')}` : '';
  const results = `${d.table('results')} r`;
  const byScore = isLinkScoreSort(q.sort) ? d.linkScoreSort(q.sort) : null;
  const from = `FROM ${results} JOIN ${d.table('urls')} u ON u.id = r.url_id`;
  // The page's keys sorted first, as the explorer's are, then only their rows read whole: sorted with their URLs and
  // every column, the whole rows took 1.0-1.3 s at 800,000 results (a sort by URL walks its index; by seq, the key,
  // unless a search reads every row: its keys alone come from the store's narrow index, 600 ms -> about 330).
  const keysFirst =
    byScore ??
    (d.pageKeysFirst && q.sort !== 'url' && (q.sort !== 'seq' || hasText)
      ? { join: '', order: resultSortSql(d, 'counted')[q.sort] }
      : null);
  const order = orderSql(q.sort, keysFirst?.order ?? resultSortSql(d, 'selected')[q.sort], q.descending, 'r.seq', d.urlOrder);
  const counted = [...values];
  const limit = bind(q.limit);
  const offset = bind(q.offset);
  // Scores kept in their order (a crawl in the store: pg-link-score.ts) are walked in it.
  const keys =
    byScore && ordered && isLinkScoreSort(q.sort)
      ? orderedScoreKeysSql(ordered, q.sort, q.descending, results, terms.join(' AND ') || null, limit, offset, hasText)
      : `SELECT r.seq AS k, ${keysFirst?.order} AS o FROM ${results} ${keysFirst?.join} ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  const page = keysFirst
    ? `SELECT ${resultRowColumns(d)} FROM (${keys}) p
       JOIN ${results} ON r.seq = p.k JOIN ${d.table('urls')} u ON u.id = r.url_id ORDER BY ${orderSql(q.sort, 'p.o', q.descending, 'p.k')}`
    : `SELECT ${resultRowColumns(d)} ${from} ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  return {
    // Every result has its URL row, and the text reads the URLs in a subquery of its own: the count skips the join.
    count: { sql: `SELECT count(*) AS total FROM ${results} ${where}`, values: counted },
    page: { sql: page, values },
  };
}

/** A custom extraction value of the row with key `key` (its results.seq or its url id). */
export interface ExtractedOfRow {
  key: number;
  rule: string;
  value: string;
}

/**
 * The custom extraction values of a page of rows, by results.seq or by url id (one parameter: the page's keys),
 * in each row's rule and value order: through extracted's primary key (url_id, rule, n).
 */
export function extractedSql(d: ResultsDialect, by: 'seq' | 'url_id'): string {
  return by === 'seq'
    ? `SELECT r.seq AS key, e.rule AS rule, e.value AS value FROM ${d.table('results')} r JOIN ${d.table('extracted')} e ON e.url_id = r.url_id
       WHERE ${d.inKeys('r.seq', d.param(1))} ORDER BY r.seq, e.rule, e.n`
    : `SELECT e.url_id AS key, e.rule AS rule, e.value AS value FROM ${d.table('extracted')} e
       WHERE ${d.inKeys('e.url_id', d.param(1))} ORDER BY e.url_id, e.rule, e.n`;
}

/**
 * Puts the values found into their rows' `extracted`, under `nameOf(rule)` (values of rules it does not name are
 * left out). defineProperty: a rule may be named "__proto__".
 */
export function addExtracted(
  rowsByKey: ReadonlyMap<number, { extracted: Record<string, string[]> }>,
  found: Iterable<ExtractedOfRow>,
  nameOf: (rule: string) => string | undefined = (rule) => rule,
): void {
  for (const { key, rule, value } of found) {
    const extracted = rowsByKey.get(key)?.extracted;
    const name = nameOf(rule);
    if (extracted === undefined || name === undefined) continue;
    if (!Object.hasOwn(extracted, name))
      Object.defineProperty(extracted, name, { value: [], enumerable: true, writable: true, configurable: true });
    extracted[name]!.push(value);
  }
}
