// Inside the running crawl: the URLs still queued (urls.state 0), grouped by host (hosts.queued keeps the count)
// and, within a host, by path prefix, and searchable. Reads through the frontier's own queue index (urls_queue:
// host, then discovery order, queued URLs only), so nothing here walks fetched URLs; grouping a host's queue reads
// that host's queued rows once.
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { HELD, UrlState } from '../frontier/model.ts';
import { checkLimit, checkOffset, indexedBy, likePattern, prepared, readTransaction } from './sql.ts';
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

/** Hosts with URLs queued, most queued first; `text` filters on the origin. */
export function queueHosts(db: Db, page: { offset?: number; limit?: number; text?: string | null } = {}): QueueHostsPage {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? 100;
  checkOffset(offset);
  checkLimit(limit);
  const hasText = typeof page.text === 'string' && page.text.length > 0;
  const where = `WHERE queued > 0${hasText ? " AND origin LIKE @text ESCAPE '\\'" : ''}`;
  const params = hasText ? { text: likePattern(page.text as string) } : {};
  return readTransaction(db, () => {
    const totals = prepared(db, `SELECT count(*) AS total, coalesce(sum(queued), 0) AS queued FROM hosts ${where}`).get(params) as {
      total: number;
      queued: number;
    };
    const all = prepared(db, 'SELECT coalesce(sum(queued), 0) AS queued FROM hosts WHERE queued > 0').get() as { queued: number };
    const rows = prepared(
      db,
      `SELECT id AS host_id, origin, queued, in_flight, CASE WHEN next_fetch_at >= ${HELD} THEN NULL ELSE next_fetch_at END AS next_fetch_at
       FROM hosts ${where} ORDER BY queued DESC, id LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit, offset }) as QueueHost[];
    return { total: totals.total, queued: all.queued, offset, rows };
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
const PREFIX_SQL = `
WITH q AS (
  SELECT CASE WHEN instr(p0, '?') > 0 THEN substr(p0, 1, instr(p0, '?') - 1) ELSE p0 END AS p, pr
  FROM (SELECT substr(u.url, @skip) AS p0, u.priority AS pr FROM urls u %HINT% WHERE u.host_id = @host AND u.state = ${UrlState.queued} %UNDER%)
),
s1 AS (SELECT p, pr, instr(substr(p, 2), '/') AS i1 FROM q),
s2 AS (SELECT p, pr, i1, CASE WHEN i1 = 0 THEN 0 ELSE instr(substr(p, i1 + 2), '/') END AS i2 FROM s1)
SELECT CASE WHEN i1 = 0 THEN '/' WHEN @segments = 1 OR i2 = 0 THEN substr(p, 1, i1 + 1) ELSE substr(p, 1, i1 + 1 + i2) END AS prefix,
       count(*) AS count, sum(pr > 0) AS deprioritised
FROM s2 GROUP BY prefix ORDER BY (sum(pr > 0) = count(*)), count DESC, prefix LIMIT @limit`;

/** The SQL that groups a host's queue by path prefix (with or without `under`), for plan checks. */
export function prefixSql(db: Db, under: boolean): string {
  return PREFIX_SQL.replace('%HINT%', indexedBy(db, 'urls_queue')).replace(
    '%UNDER%',
    under ? 'AND substr(u.url, 1, length(@under)) = @under' : '',
  );
}

/**
 * A host's queued URLs grouped by the directory of their first one or two path segments, largest first; groups
 * pushed back whole by "Later" (deprioritised) last, as the host's claims take them.
 */
export function queuePrefixes(db: Db, q: PrefixQuery): PrefixGroups | null {
  const segments = q.segments ?? 1;
  if (segments !== 1 && segments !== 2) throw new RangeError(`segments must be 1 or 2 (got ${String(segments)})`);
  const limit = q.limit ?? 100;
  checkLimit(limit);
  const under = typeof q.under === 'string' && q.under.length > 0 ? q.under : null;
  if (under !== null && !under.startsWith('/')) throw new RangeError(`under must be a path starting with "/" (got "${under}")`);
  return readTransaction(db, () => {
    const host = prepared(db, 'SELECT id, origin, queued FROM hosts WHERE id = ?').get(q.hostId) as
      | { id: number; origin: string; queued: number }
      | undefined;
    if (!host) return null;
    const params: Record<string, unknown> = { host: host.id, skip: host.origin.length + 1, segments, limit: limit + 1 };
    if (under !== null) params.under = host.origin + under;
    // A group's deprioritised count is said only when some are.
    const rows = (prepared(db, prefixSql(db, under !== null)).all(params) as Required<PrefixGroup>[]).map(
      ({ deprioritised, ...g }): PrefixGroup => (deprioritised > 0 ? { ...g, deprioritised } : g),
    );
    const counted =
      under === null
        ? rows.length > limit
          ? (
              prepared(
                db,
                `SELECT count(*) AS n FROM urls ${indexedBy(db, 'urls_queue')} WHERE host_id = ? AND state = ${UrlState.queued}`,
              ).get(host.id) as { n: number }
            ).n
          : rows.reduce((n, g) => n + g.count, 0)
        : (
            prepared(
              db,
              `SELECT count(*) AS n FROM urls u ${indexedBy(db, 'urls_queue')} WHERE u.host_id = ? AND u.state = ${UrlState.queued} AND substr(u.url, 1, length(?)) = ?`,
            ).get(host.id, params.under, params.under) as { n: number }
          ).n;
    return {
      host_id: host.id,
      origin: host.origin,
      queued: host.queued,
      counted,
      groups: rows.slice(0, limit),
      truncated: rows.length > limit,
    };
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

/** The search's SQL for the given terms (see queueSearch), for plan checks. */
export function queueSearchSql(db: Db, terms: readonly string[]): string {
  return `SELECT u.id AS url_id, u.url, u.host_id, u.depth, u.kind, u.check_only, u.attempts, u.discovered_at, u.priority FROM urls u ${indexedBy(db, 'urls_queue')}
     WHERE ${terms.join(' AND ')} ORDER BY u.host_id, u.id LIMIT @limit`;
}

/**
 * Queued URLs in claim order (host, then discovery), containing `text`; paged by key. A search stops as soon as the
 * page is full, so it reads at most the queue up to the last match returned.
 */
export function queueSearch(db: Db, q: QueueSearch = {}): QueueSearchPage {
  const limit = q.limit ?? 100;
  checkLimit(limit);
  const terms = [`u.state = ${UrlState.queued}`, '(u.host_id, u.id) > (@afterHost, @afterId)'];
  const params: Record<string, unknown> = { afterHost: q.after?.host_id ?? -1, afterId: q.after?.url_id ?? -1, limit: limit + 1 };
  if (typeof q.text === 'string' && q.text.length > 0) {
    terms.push("u.url LIKE @text ESCAPE '\\'");
    params.text = likePattern(q.text);
  }
  if (q.hostId !== null && q.hostId !== undefined) {
    terms.push('u.host_id = @host');
    params.host = q.hostId;
    if (typeof q.under === 'string' && q.under.length > 0) {
      terms.push('substr(u.url, 1, length(@under)) = @under');
      const origin = (prepared(db, 'SELECT origin FROM hosts WHERE id = ?').get(q.hostId) as { origin: string } | undefined)?.origin ?? '';
      params.under = origin + q.under;
    }
  }
  const rows = prepared(db, queueSearchSql(db, terms)).all(params) as (Omit<QueuedUrl, 'check_only' | 'later'> & {
    check_only: number;
    priority: number;
  })[];
  const out = rows
    .slice(0, limit)
    .map(({ priority, ...r }): QueuedUrl => ({ ...r, check_only: r.check_only === 1, ...(priority > 0 ? { later: true } : {}) }));
  const last = out[out.length - 1];
  return { rows: out, next: rows.length > limit && last ? { host_id: last.host_id, url_id: last.url_id } : null };
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
    const search = { text: q.text, hostId: q.hostId, under: q.hostId === null ? null : q.under, after: null, limit: q.limit };
    const urls = queueSearch(db, search);
    return { hosts, prefixes: q.hostId !== null && prefixes === null ? null : prefixes, urls, matching: queueMatching(db, search) };
  });
}

/** How many queued URLs a search's criteria match in all. */
function queueMatching(db: Db, q: QueueSearch): number {
  const hasText = typeof q.text === 'string' && q.text.length > 0;
  if (!hasText && (q.hostId === null || q.hostId === undefined)) {
    return (prepared(db, 'SELECT coalesce(sum(queued), 0) AS n FROM hosts WHERE queued > 0').get() as { n: number }).n;
  }
  const terms = [`u.state = ${UrlState.queued}`];
  const params: Record<string, unknown> = {};
  if (hasText) {
    terms.push("u.url LIKE @text ESCAPE '\\'");
    params.text = likePattern(q.text as string);
  }
  if (q.hostId !== null && q.hostId !== undefined) {
    terms.push('u.host_id = @host');
    params.host = q.hostId;
    if (typeof q.under === 'string' && q.under.length > 0) {
      terms.push('substr(u.url, 1, length(@under)) = @under');
      const origin = (prepared(db, 'SELECT origin FROM hosts WHERE id = ?').get(q.hostId) as { origin: string } | undefined)?.origin ?? '';
      params.under = origin + q.under;
    }
  }
  return (
    prepared(db, `SELECT count(*) AS n FROM urls u ${indexedBy(db, 'urls_queue')} WHERE ${terms.join(' AND ')}`).get(params) as {
      n: number;
    }
  ).n;
}
