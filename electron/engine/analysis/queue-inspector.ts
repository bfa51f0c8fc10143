// Inside the running crawl: the URLs still queued (urls.state 0), grouped by host (hosts.queued keeps the count)
// and, within a host, by path prefix, and searchable. Reads through the frontier's own queue index (urls_queue:
// host, then discovery order, queued URLs only), so nothing here walks fetched URLs; grouping a host's queue reads
// that host's queued rows once.
// A crawl in the PostgreSQL store is read with the same SQL in its dialect (the postgres* functions at the end): its
// urls and hosts tables have the same columns, and its queue the same index (host, state, then discovery order),
// which there carries the columns shown (urls_queue_rows), so these reads never visit the table (issue 19.3).
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { HELD, UrlState } from '../frontier/model.ts';
import { checkLimit, checkOffset, indexedBy, prepared, readTransaction, withNumbers } from './sql.ts';
import { POSTGRES_SEARCH, SQLITE_SEARCH, type TextSearch } from './result-rows.ts';
import type {
  PrefixGroup,
  PrefixGroups,
  QueueCursor,
  QueuedUrl,
  QueueHost,
  QueueHostsPage,
  QueueScreen,
  QueueScreenQuery,
  QueueSearchPage,
} from '../../../shared/analysis.ts';

/** What differs between the two stores' SQL for the queue (the rest is written once, with @named parameters). */
interface QueueDialect {
  table(name: 'hosts' | 'urls'): string;
  /** The search for a text, ASCII letters in either case (result-rows.ts's TextSearch). */
  search: TextSearch;
  /** The position of `needle` in `text` (1-based, 0 when absent). */
  instr(text: string, needle: string): string;
  /** The index a crawl file's query names (SQLite has no statistics there); PostgreSQL plans with its own. */
  hint(index: string): string;
  /**
   * How a CTE of the prefix grouping is kept: PostgreSQL inlines a CTE used once, which copied each step's string
   * expressions into the next (the grouping key became dozens of strpos/substr calls per row, 0.5 s for a host's
   * 50,000 queued URLs); MATERIALIZED computes each step once per row. SQLite computes them once as written.
   */
  cte: 'AS' | 'AS MATERIALIZED';
}

const sqliteQueue = (db: Db): QueueDialect => ({
  table: (name) => name,
  search: SQLITE_SEARCH,
  instr: (text, needle) => `instr(${text}, ${needle})`,
  hint: (index) => indexedBy(db, index),
  cte: 'AS',
});

const postgresQueue = (crawlId: string): QueueDialect => {
  const schema = crawlSchema(crawlId);
  return {
    table: (name) => `${schema}.${name}`,
    search: POSTGRES_SEARCH,
    instr: (text, needle) => `strpos(${text}, ${needle})`,
    hint: () => '',
    cte: 'AS MATERIALIZED',
  };
};

/** The queue's hosts page: totals, the whole queue's size and a window of hosts, most queued first. */
function queueHostsSql(d: QueueDialect, page: { offset?: number; limit?: number; text?: string | null }) {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? 100;
  checkOffset(offset);
  checkLimit(limit);
  const hasText = typeof page.text === 'string' && page.text.length > 0;
  const hosts = d.table('hosts');
  const where = `WHERE queued > 0${hasText ? ` AND ${d.search.contains('origin', '@text')}` : ''}`;
  const params: Record<string, unknown> = hasText ? { text: d.search.value(page.text as string) } : {};
  return {
    offset,
    totals: { sql: `SELECT count(*) AS total, coalesce(sum(queued), 0) AS queued FROM ${hosts} ${where}`, params },
    all: { sql: `SELECT coalesce(sum(queued), 0) AS queued FROM ${hosts} WHERE queued > 0`, params: {} },
    rows: {
      sql: `SELECT id AS host_id, origin, queued, in_flight, CASE WHEN next_fetch_at >= ${HELD} THEN NULL ELSE next_fetch_at END AS next_fetch_at
       FROM ${hosts} ${where} ORDER BY queued DESC, id LIMIT @limit OFFSET @offset`,
      params: { ...params, limit, offset },
    },
  };
}

/** Hosts with URLs queued, most queued first; `text` filters on the origin. */
export function queueHosts(db: Db, page: { offset?: number; limit?: number; text?: string | null } = {}): QueueHostsPage {
  const q = queueHostsSql(sqliteQueue(db), page);
  return readTransaction(db, () => {
    const totals = prepared(db, q.totals.sql).get(q.totals.params) as { total: number; queued: number };
    const all = prepared(db, q.all.sql).get() as { queued: number };
    const rows = prepared(db, q.rows.sql).all(q.rows.params) as QueueHost[];
    return { total: totals.total, queued: all.queued, offset: q.offset, rows };
  });
}

export interface PrefixQuery {
  hostId: number;
  /** Directory depth of the groups: 1 ("/docs/") or 2 ("/docs/api/"). Default 1. */
  segments?: 1 | 2;
  /** Count only paths that start with this (e.g. "/docs/"), to drill into one group. */
  under?: string | null;
  /** Groups returned at most, largest first. Default 100. */
  limit?: number;
}

// A queued URL's path without its query (the URL is origin + path), and the directory prefix of its first one or
// two segments: "/docs/api/x?y" gives "/docs/" or "/docs/api/"; a file at the root gives "/".
function prefixSqlOf(d: QueueDialect, under: boolean): string {
  const instr = d.instr;
  return `
WITH q ${d.cte} (
  SELECT CASE WHEN ${instr('p0', "'?'")} > 0 THEN substr(p0, 1, ${instr('p0', "'?'")} - 1) ELSE p0 END AS p, pr
  FROM (SELECT substr(u.url, @skip) AS p0, u.priority AS pr FROM ${d.table('urls')} u ${d.hint('urls_queue')}
        WHERE u.host_id = @host AND u.state = ${UrlState.queued} ${under ? 'AND substr(u.url, 1, length(CAST(@under AS text))) = @under' : ''}) q0
),
s1 ${d.cte} (SELECT p, pr, ${instr('substr(p, 2)', "'/'")} AS i1 FROM q),
s2 ${d.cte} (SELECT p, pr, i1, CASE WHEN i1 = 0 THEN 0 ELSE ${instr('substr(p, i1 + 2)', "'/'")} END AS i2 FROM s1)
SELECT CASE WHEN i1 = 0 THEN '/' WHEN @segments = 1 OR i2 = 0 THEN substr(p, 1, i1 + 1) ELSE substr(p, 1, i1 + 1 + i2) END AS prefix,
       count(*) AS count, sum(CASE WHEN pr > 0 THEN 1 ELSE 0 END) AS deprioritised
FROM s2 GROUP BY 1 ORDER BY (sum(CASE WHEN pr > 0 THEN 1 ELSE 0 END) = count(*)), count(*) DESC, 1 LIMIT @limit`;
}

/** The SQL that groups a host's queue by path prefix (with or without `under`), for plan checks. */
export function prefixSql(db: Db, under: boolean): string {
  return prefixSqlOf(sqliteQueue(db), under);
}

/** A prefix query checked, with its parameters (the host's row is read first: `origin`). */
function prefixQueryOf(q: PrefixQuery) {
  const segments = q.segments ?? 1;
  if (segments !== 1 && segments !== 2) throw new RangeError(`segments must be 1 or 2 (got ${String(segments)})`);
  const limit = q.limit ?? 100;
  checkLimit(limit);
  const under = typeof q.under === 'string' && q.under.length > 0 ? q.under : null;
  if (under !== null && !under.startsWith('/')) throw new RangeError(`under must be a path starting with "/" (got "${under}")`);
  return { segments, limit, under };
}

interface HostRow {
  id: number;
  origin: string;
  queued: number;
}

/** The statements of a host's prefix groups, given its row. */
function prefixStatements(d: QueueDialect, host: HostRow, p: ReturnType<typeof prefixQueryOf>) {
  const params: Record<string, unknown> = { host: host.id, skip: host.origin.length + 1, segments: p.segments, limit: p.limit + 1 };
  if (p.under !== null) params.under = host.origin + p.under;
  const urls = `${d.table('urls')} u ${d.hint('urls_queue')}`;
  return {
    groups: { sql: prefixSqlOf(d, p.under !== null), params },
    count:
      p.under === null
        ? { sql: `SELECT count(*) AS n FROM ${urls} WHERE u.host_id = @host AND u.state = ${UrlState.queued}`, params: { host: host.id } }
        : {
            sql: `SELECT count(*) AS n FROM ${urls} WHERE u.host_id = @host AND u.state = ${UrlState.queued} AND substr(u.url, 1, length(CAST(@under AS text))) = @under`,
            params: { host: host.id, under: params.under },
          },
  };
}

/** The groups as the view shows them: a group's deprioritised count is said only when some are. */
function prefixGroups(
  host: HostRow,
  p: ReturnType<typeof prefixQueryOf>,
  found: Required<PrefixGroup>[],
  count: () => number | Promise<number>,
) {
  const rows = found.map(({ deprioritised, ...g }): PrefixGroup => (deprioritised > 0 ? { ...g, deprioritised } : g));
  const finish = (counted: number): PrefixGroups => ({
    host_id: host.id,
    origin: host.origin,
    queued: host.queued,
    counted,
    groups: rows.slice(0, p.limit),
    truncated: rows.length > p.limit,
  });
  // Without `under`, the groups' counts add up to the host's queue unless they were cut.
  if (p.under === null && rows.length <= p.limit) return finish(rows.reduce((n, g) => n + g.count, 0));
  const n = count();
  return typeof n === 'number' ? finish(n) : n.then(finish);
}

/**
 * A host's queued URLs grouped by the directory of their first one or two path segments, largest first; groups
 * pushed back whole by "Later" (deprioritised) last, as the host's claims take them.
 */
export function queuePrefixes(db: Db, q: PrefixQuery): PrefixGroups | null {
  const p = prefixQueryOf(q);
  return readTransaction(db, () => {
    const host = prepared(db, 'SELECT id, origin, queued FROM hosts WHERE id = ?').get(q.hostId) as HostRow | undefined;
    if (!host) return null;
    const st = prefixStatements(sqliteQueue(db), host, p);
    const found = prepared(db, st.groups.sql).all(st.groups.params) as Required<PrefixGroup>[];
    return prefixGroups(host, p, found, () => (prepared(db, st.count.sql).get(st.count.params) as { n: number }).n) as PrefixGroups;
  });
}

export interface QueueSearch {
  /** Case-insensitive text the URL contains; empty or absent lists every queued URL. */
  text?: string | null;
  /** Only this host's queue. */
  hostId?: number | null;
  /** Only paths starting with this (with hostId), as a prefix group gives. */
  under?: string | null;
  after?: QueueCursor | null;
  limit?: number;
}

function searchSqlOf(d: QueueDialect, terms: readonly string[]): string {
  return `SELECT u.id AS url_id, u.url, u.host_id, u.depth, u.kind, u.check_only, u.attempts, u.discovered_at, u.priority FROM ${d.table('urls')} u ${d.hint('urls_queue')}
     WHERE ${terms.join(' AND ')} ORDER BY u.host_id, u.id LIMIT @limit`;
}

/** The search's SQL for the given terms (see queueSearch), for plan checks. */
export function queueSearchSql(db: Db, terms: readonly string[]): string {
  return searchSqlOf(sqliteQueue(db), terms);
}

/** A search's criteria as SQL terms and parameters; `origin` is the chosen host's, for `under`. */
function searchTerms(d: QueueDialect, q: QueueSearch, origin: string | null) {
  const terms = [`u.state = ${UrlState.queued}`];
  const params: Record<string, unknown> = {};
  if (typeof q.text === 'string' && q.text.length > 0) {
    terms.push(d.search.contains('u.url', '@text'));
    params.text = d.search.value(q.text);
  }
  if (q.hostId !== null && q.hostId !== undefined) {
    terms.push('u.host_id = @host');
    params.host = q.hostId;
    if (typeof q.under === 'string' && q.under.length > 0) {
      terms.push('substr(u.url, 1, length(CAST(@under AS text))) = @under');
      params.under = (origin ?? '') + q.under;
    }
  }
  return { terms, params };
}

/** Whether the search needs the host's origin (a prefix within it). */
const needsOrigin = (q: QueueSearch) => q.hostId !== null && q.hostId !== undefined && typeof q.under === 'string' && q.under.length > 0;

type SearchRow = Omit<QueuedUrl, 'check_only' | 'later'> & { check_only: number; priority: number };

function searchStatement(d: QueueDialect, q: QueueSearch, origin: string | null) {
  const limit = q.limit ?? 100;
  checkLimit(limit);
  const { terms, params } = searchTerms(d, q, origin);
  terms.splice(1, 0, '(u.host_id, u.id) > (@afterHost, @afterId)');
  return {
    limit,
    sql: searchSqlOf(d, terms),
    params: { ...params, afterHost: q.after?.host_id ?? -1, afterId: q.after?.url_id ?? -1, limit: limit + 1 },
  };
}

function searchPage(rows: SearchRow[], limit: number): QueueSearchPage {
  const out = rows
    .slice(0, limit)
    .map(({ priority, ...r }): QueuedUrl => ({ ...r, check_only: r.check_only === 1, ...(priority > 0 ? { later: true } : {}) }));
  const last = out[out.length - 1];
  return { rows: out, next: rows.length > limit && last ? { host_id: last.host_id, url_id: last.url_id } : null };
}

const originSql = (d: QueueDialect) => `SELECT origin FROM ${d.table('hosts')} WHERE id = @host`;

/**
 * Queued URLs in claim order (host, then discovery), containing `text`; paged by key. A search stops as soon as the
 * page is full, so it reads at most the queue up to the last match returned.
 */
export function queueSearch(db: Db, q: QueueSearch = {}): QueueSearchPage {
  const d = sqliteQueue(db);
  const origin = needsOrigin(q)
    ? ((prepared(db, originSql(d)).get({ host: q.hostId }) as { origin: string } | undefined)?.origin ?? '')
    : null;
  const st = searchStatement(d, q, origin);
  return searchPage(prepared(db, st.sql).all(st.params) as SearchRow[], st.limit);
}

/** The statement counting what a search's criteria match in all (null: the whole queue, from the hosts' counts). */
function matchingStatement(d: QueueDialect, q: QueueSearch, origin: string | null) {
  const hasText = typeof q.text === 'string' && q.text.length > 0;
  if (!hasText && (q.hostId === null || q.hostId === undefined)) {
    return { sql: `SELECT coalesce(sum(queued), 0) AS n FROM ${d.table('hosts')} WHERE queued > 0`, params: {} };
  }
  const { terms, params } = searchTerms(d, q, origin);
  return { sql: `SELECT count(*) AS n FROM ${d.table('urls')} u ${d.hint('urls_queue')} WHERE ${terms.join(' AND ')}`, params };
}

/**
 * The queue inspector's screen in one read transaction: the hosts (with the header's total), the chosen host's
 * prefixes and the first URLs the list's criteria match, with how many match. Read apart, they disagreed while the
 * crawl ran (a header of 35 beside prefixes summing to 25).
 */
export function queueScreen(db: Db, q: QueueScreenQuery): QueueScreen {
  checkLimit(q.limit);
  return readTransaction(db, () => {
    const hosts = queueHosts(db, { offset: 0, limit: 200, text: '' });
    const prefixes =
      q.hostId === null ? null : queuePrefixes(db, { hostId: q.hostId, segments: q.under === null ? 1 : 2, under: q.under, limit: 100 });
    const search = screenSearch(q);
    const urls = queueSearch(db, search);
    const d = sqliteQueue(db);
    const origin = needsOrigin(search)
      ? ((prepared(db, originSql(d)).get({ host: search.hostId }) as { origin: string } | undefined)?.origin ?? '')
      : null;
    const m = matchingStatement(d, search, origin);
    const matching = (prepared(db, m.sql).get(m.params) as { n: number }).n;
    return { hosts, prefixes: q.hostId !== null && prefixes === null ? null : prefixes, urls, matching };
  });
}

const screenSearch = (q: QueueScreenQuery): QueueSearch => ({
  text: q.text,
  hostId: q.hostId,
  under: q.hostId === null ? null : q.under,
  after: null,
  limit: q.limit,
});

// ---- a crawl in the PostgreSQL store: the same statements, run there ----

/** `@name` parameters as PostgreSQL's `$n` (a name used twice is one parameter), with their values in order. */
export function positional(sql: string, params: Record<string, unknown>): { text: string; values: unknown[] } {
  const order: string[] = [];
  const text = sql.replace(/@([A-Za-z_]\w*)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for the parameter @${name}`);
    let i = order.indexOf(name);
    if (i === -1) i = order.push(name) - 1;
    return `$${i + 1}`;
  });
  return { text, values: order.map((n) => params[n]) };
}

async function pgAll<T extends object>(
  c: PgQuerier,
  st: { sql: string; params: Record<string, unknown> },
  numbers: readonly string[] = [],
): Promise<T[]> {
  const { text, values } = positional(st.sql, st.params);
  const { rows } = await c.query<T>(text, values);
  return rows.map((r) => withNumbers(r, numbers));
}

/** One read of the store that sees one state of it, as the crawl file's read transactions do. */
async function pgSnapshot<T>(c: PgQuerier, work: () => Promise<T>): Promise<T> {
  await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const out = await work();
    await c.query('COMMIT');
    return out;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function pgHosts(
  c: PgQuerier,
  d: QueueDialect,
  page: { offset?: number; limit?: number; text?: string | null },
): Promise<QueueHostsPage> {
  const q = queueHostsSql(d, page);
  const [totals] = await pgAll<{ total: number; queued: number }>(c, q.totals, ['total', 'queued']);
  const [all] = await pgAll<{ queued: number }>(c, q.all, ['queued']);
  const rows = await pgAll<QueueHost>(c, q.rows, ['host_id', 'queued', 'in_flight', 'next_fetch_at']);
  return { total: totals!.total, queued: all!.queued, offset: q.offset, rows };
}

async function pgPrefixes(c: PgQuerier, d: QueueDialect, q: PrefixQuery): Promise<PrefixGroups | null> {
  const p = prefixQueryOf(q);
  const [host] = await pgAll<HostRow>(
    c,
    { sql: `SELECT id, origin, queued FROM ${d.table('hosts')} WHERE id = @host`, params: { host: q.hostId } },
    ['id', 'queued'],
  );
  if (!host) return null;
  const st = prefixStatements(d, host, p);
  const found = await pgAll<Required<PrefixGroup>>(c, st.groups, ['count', 'deprioritised']);
  return prefixGroups(host, p, found, async () => (await pgAll<{ n: number }>(c, st.count, ['n']))[0]!.n);
}

async function pgOrigin(c: PgQuerier, d: QueueDialect, q: QueueSearch): Promise<string | null> {
  if (!needsOrigin(q)) return null;
  return (await pgAll<{ origin: string }>(c, { sql: originSql(d), params: { host: q.hostId } }))[0]?.origin ?? '';
}

async function pgSearch(c: PgQuerier, d: QueueDialect, q: QueueSearch): Promise<QueueSearchPage> {
  const st = searchStatement(d, q, await pgOrigin(c, d, q));
  const rows = await pgAll<SearchRow>(c, st, ['url_id', 'host_id', 'depth', 'check_only', 'attempts', 'discovered_at', 'priority']);
  return searchPage(rows, st.limit);
}

/** queueHosts of a crawl in the store. */
export function postgresQueueHosts(c: PgQuerier, crawlId: string, page: { offset?: number; limit?: number; text?: string | null } = {}) {
  return pgSnapshot(c, () => pgHosts(c, postgresQueue(crawlId), page));
}

/** queuePrefixes of a crawl in the store. */
export function postgresQueuePrefixes(c: PgQuerier, crawlId: string, q: PrefixQuery): Promise<PrefixGroups | null> {
  return pgSnapshot(c, () => pgPrefixes(c, postgresQueue(crawlId), q));
}

/** queueSearch of a crawl in the store. */
export function postgresQueueSearch(c: PgQuerier, crawlId: string, q: QueueSearch = {}): Promise<QueueSearchPage> {
  return pgSearch(c, postgresQueue(crawlId), q);
}

/** queueScreen of a crawl in the store, in one snapshot of it. */
export function postgresQueueScreen(c: PgQuerier, crawlId: string, q: QueueScreenQuery): Promise<QueueScreen> {
  checkLimit(q.limit);
  const d = postgresQueue(crawlId);
  return pgSnapshot(c, async () => {
    const hosts = await pgHosts(c, d, { offset: 0, limit: 200, text: '' });
    const prefixes =
      q.hostId === null
        ? null
        : await pgPrefixes(c, d, { hostId: q.hostId, segments: q.under === null ? 1 : 2, under: q.under, limit: 100 });
    const search = screenSearch(q);
    const urls = await pgSearch(c, d, search);
    const m = matchingStatement(d, search, await pgOrigin(c, d, search));
    const matching = (await pgAll<{ n: number }>(c, m, ['n']))[0]!.n;
    return { hosts, prefixes: q.hostId !== null && prefixes === null ? null : prefixes, urls, matching };
  });
}
