// The hosts report, in the manner of Heritrix's: per host, URLs crawled and queued, in flight, bytes, errors, the
// politeness state and robots.txt. Read from the hosts table alone: the frontier keeps crawled, failed,
// http_errors and bytes there as it records rows (aggregating over results instead took 0.4 s at 300,000 rows).
// The workbench scrolls through every host a window at a time: the order of a query's hosts (their ids, sorted)
// and its totals are read once and kept while the file is unchanged, so a window costs a read of its rows by id
// (sorting the whole table for each deep OFFSET took 0.2 s a window at 100,000 hosts).
// A crawl in the PostgreSQL store is read with the same SQL in its dialect (postgresHostsReport): its hosts table
// has the same columns, which its nodes keep the same way.
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { dbNow } from '../frontier/postgres/pg-control.ts';
import { SQLITE_RESULTS, type ResultsDialect, postgresResults } from './result-rows.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { HELD, RobotsState } from '../frontier/model.ts';
import { checkLimit, checkOffset, inOrder, prepared, readTransaction, withNumbers } from './sql.ts';
import {
  HOST_SORT_COLUMNS,
  type HostReportRow,
  type HostSortColumn,
  type HostsReport,
  type PolitenessState,
} from '../../../shared/analysis.ts';

const HOST_SORT_SQL: Record<HostSortColumn, string> = {
  origin: 'origin',
  crawled: 'crawled',
  failed: 'failed',
  errors: '(failed + http_errors)',
  bytes: 'bytes',
  queued: 'queued',
  in_flight: 'in_flight',
  next_fetch_at: 'next_fetch_at',
};

export interface HostsReportQuery {
  sort?: HostSortColumn;
  descending?: boolean;
  offset?: number;
  limit?: number;
  /** Case-insensitive text found in the origin. */
  text?: string | null;
  /** Also hosts never fetched from and with nothing queued (hosts of out-of-scope links). Default false. */
  includeIdle?: boolean;
  /** The time politeness is judged at (epoch ms). Default Date.now(). */
  now?: number;
}

interface HostDbRow {
  host_id: number;
  origin: string;
  crawled: number;
  failed: number;
  http_errors: number;
  bytes: number;
  queued: number;
  in_flight: number;
  next_fetch_at: number;
  crawl_delay_ms: number;
  last_fetch_ms: number | null;
  robots_state: number;
  robots_status: number | null;
  robots_error: string | null;
  robots_failures: number;
}

const ROBOTS_STATE: Record<number, HostReportRow['robots']['state']> = {
  [RobotsState.unknown]: 'unknown',
  [RobotsState.fetching]: 'fetching',
  [RobotsState.known]: 'known',
};

type Totals = HostsReport['totals'];

/** One query's hosts in order and their totals, as of `version` of the file, read at `at` (ms). */
interface HostOrder {
  key: string;
  version: string;
  at: number;
  ids: number[];
  totals: Totals;
}

/**
 * While a crawl writes to the file, windows after the first reuse an order this young (the rows themselves are
 * read fresh): a scroll through a crawl that runs sorts the table at most once per this time, not once per window.
 */
export const HOST_ORDER_MAX_AGE_MS = 1_000;
/** Orders kept per connection (the last queries: a sort or a filter changed back and forth). */
const MAX_ORDERS = 4;
const orders = new WeakMap<Db, Map<string, HostOrder>>();
/** Orders read from the table so far, per connection (for tests). */
const orderReads = new WeakMap<Db, number>();

/** How many times the hosts' order was read from the table on this connection (a full read each). */
export function hostOrderReads(db: Db): number {
  return orderReads.get(db) ?? 0;
}

/** What changes when anything in the file does: commits by other connections, and this connection's own writes. */
function fileVersion(db: Db): string {
  const v = prepared(db, 'SELECT (SELECT data_version FROM pragma_data_version) AS d, total_changes() AS c').get() as {
    d: number;
    c: number;
  };
  return `${v.d}:${v.c}`;
}

/** The kept order of the query's hosts, if the file is unchanged since (or it is young enough for a window past the first). */
function keptOrder(db: Db, key: string, version: string, window: boolean): HostOrder | null {
  const kept = orders.get(db);
  const old = kept?.get(key);
  if (!kept || !old || (old.version !== version && !(window && Date.now() - old.at < HOST_ORDER_MAX_AGE_MS))) return null;
  kept.delete(key);
  kept.set(key, old);
  return old;
}

function keepOrder(db: Db, order: HostOrder): void {
  let kept = orders.get(db);
  if (!kept) orders.set(db, (kept = new Map()));
  kept.delete(order.key);
  kept.set(order.key, order);
  while (kept.size > MAX_ORDERS) kept.delete(kept.keys().next().value as string);
}

/** A query's parts in a dialect: its sort, filter (with the parameters from `first`), totals and columns. */
function reportSql(d: ResultsDialect, q: HostsReportQuery, first = 1) {
  const sort = q.sort ?? 'crawled';
  if (!(HOST_SORT_COLUMNS as readonly string[]).includes(sort)) throw new Error(`cannot sort hosts by "${String(sort)}"`);
  const terms: string[] = [];
  const values: unknown[] = [];
  if (!q.includeIdle) terms.push('(queued > 0 OR in_flight > 0 OR crawled > 0 OR failed > 0)');
  if (typeof q.text === 'string' && q.text.length > 0) {
    terms.push(d.search.contains('origin', d.param(first + values.length)));
    values.push(d.search.value(q.text));
  }
  const where = terms.length ? `WHERE ${terms.join(' AND ')}` : '';
  const hosts = d.table('hosts');
  return {
    sort,
    where,
    values,
    // Ties in origin order: the same in both stores, whose host ids follow the order each first met the hosts.
    order: `ORDER BY ${HOST_SORT_SQL[sort]} ${q.descending === false ? 'ASC' : 'DESC'}, origin ASC`,
    totals: `SELECT count(*) AS total, coalesce(sum(crawled), 0) AS crawled, coalesce(sum(failed), 0) AS failed,
         coalesce(sum(failed + http_errors), 0) AS errors, coalesce(sum(bytes), 0) AS bytes, coalesce(sum(queued), 0) AS queued,
         coalesce(sum(in_flight), 0) AS in_flight FROM ${hosts} ${where}`,
    columns: `id AS host_id, origin, crawled, failed, http_errors, bytes, queued, in_flight, next_fetch_at, crawl_delay_ms, last_fetch_ms,
         robots_state, robots_status, robots_error, robots_failures`,
    hosts,
  };
}

/** SQLite's named parameters for reportSql's positional ones (@p1, @p2...). */
const named = (values: unknown[]) => Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]));

/** A window of the hosts report, sorted, with totals; in one read transaction. */
export function hostsReport(db: Db, q: HostsReportQuery = {}): HostsReport {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  checkOffset(offset);
  checkLimit(limit);
  const now = q.now ?? Date.now();
  const r = reportSql(SQLITE_RESULTS, q);
  const params = named(r.values);
  const key = `${r.order} ${r.where} ${JSON.stringify(params)}`;
  return readTransaction(db, () => {
    const version = fileVersion(db);
    let order = keptOrder(db, key, version, offset > 0);
    if (!order && offset === 0) {
      // The first window of a changed file (a crawl that runs, refreshed): the top rows alone cost less than an order.
      const { total, ...totals } = prepared(db, r.totals).get(params) as Totals & { total: number };
      const rows = prepared(db, `SELECT ${r.columns} FROM hosts ${r.where} ${r.order} LIMIT @limit`).all({
        ...params,
        limit,
      }) as HostDbRow[];
      return { total, offset, rows: rows.map((row) => hostRow(row, now)), totals };
    }
    if (!order) {
      const { total: _, ...totals } = prepared(db, r.totals).get(params) as Totals & { total: number };
      const ids = prepared(db, `SELECT id FROM hosts ${r.where} ${r.order}`).pluck().all(params) as number[];
      orderReads.set(db, hostOrderReads(db) + 1);
      order = { key, version, at: Date.now(), ids, totals };
      keepOrder(db, order);
    }
    const ids = order.ids.slice(offset, offset + limit);
    // The window's rows by primary key, as they are now.
    const found = ids.length
      ? (prepared(db, `SELECT ${r.columns} FROM hosts WHERE id IN (SELECT value FROM json_each(@ids))`).all({
          ids: JSON.stringify(ids),
        }) as HostDbRow[])
      : [];
    const rows = inOrder(ids, found, (row) => row.host_id);
    return { total: order.ids.length, offset, rows: rows.map((row) => hostRow(row, now)), totals: { ...order.totals } };
  });
}

/** The host row's counters, which PostgreSQL returns as text. */
const NUMERIC = ['host_id', 'crawled', 'failed', 'http_errors', 'bytes', 'queued', 'in_flight', 'next_fetch_at', 'last_fetch_ms'] as const;

/**
 * The hosts report of a crawl in the PostgreSQL store: the same query in PostgreSQL's dialect, a window by OFFSET
 * (PostgreSQL sorts by the report's columns with its own statistics), politeness judged on the database's clock,
 * which the nodes keep their hosts' times on.
 */
export async function postgresHostsReport(c: PgQuerier, crawlId: string, q: HostsReportQuery = {}): Promise<HostsReport> {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  checkOffset(offset);
  checkLimit(limit);
  const d = postgresResults(crawlSchema(crawlId));
  const r = reportSql(d, q);
  const now = q.now ?? (await dbNow(c));
  const n = r.values.length;
  const { rows: t } = await c.query<Record<string, unknown>>(r.totals, r.values);
  const { total, ...totals } = withNumbers(t[0]!, ['total', 'crawled', 'failed', 'errors', 'bytes', 'queued', 'in_flight']) as Totals & {
    total: number;
  };
  const { rows } = await c.query<HostDbRow>(
    `SELECT ${r.columns} FROM ${r.hosts} ${r.where} ${r.order} LIMIT ${d.param(n + 1)} OFFSET ${d.param(n + 2)}`,
    [...r.values, limit, offset],
  );
  return { total, offset, rows: rows.map((row) => hostRow(withNumbers(row, NUMERIC), now)), totals };
}

function hostRow(r: HostDbRow, now: number): HostReportRow {
  const held = r.next_fetch_at >= HELD;
  const state: PolitenessState = r.queued === 0 && r.in_flight === 0 ? 'idle' : held ? 'busy' : r.next_fetch_at > now ? 'waiting' : 'ready';
  return {
    host_id: r.host_id,
    origin: r.origin,
    crawled: r.crawled,
    failed: r.failed,
    http_errors: r.http_errors,
    errors: r.failed + r.http_errors,
    bytes: r.bytes,
    queued: r.queued,
    in_flight: r.in_flight,
    politeness: {
      state,
      next_fetch_at: held ? null : r.next_fetch_at,
      wait_ms: state === 'waiting' ? r.next_fetch_at - now : 0,
      crawl_delay_ms: r.crawl_delay_ms,
      last_fetch_ms: r.last_fetch_ms,
    },
    robots: {
      state: ROBOTS_STATE[r.robots_state] ?? 'unknown',
      status: r.robots_status,
      error: r.robots_error,
      failures: r.robots_failures,
    },
  };
}
