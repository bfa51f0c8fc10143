// Reports and charts: status-code distribution, depth distribution, response-time histogram, and pages and errors
// over time, each also as CSV text, written once for a crawl file and a crawl in the PostgreSQL store (chartQ: the
// code yields its queries, run on either; ChartTarget is what the two say differently). A full computation is one
// covering scan of a narrow index (a crawl file's results_status holds status, media type, depth and response time,
// its results_fetched_at time and status; the store's results_charts all of them). To update live, pass the previous
// answer's `last_seq` as `afterSeq` and add the counts: results rows are only ever appended, so the rows after a seq
// are exactly the new ones, read by primary key range. Every answer counts up to a settled seq (SeqRange.upTo), the
// highest below which no row can still come: a crawl file's last row, the store's from pg-settled.ts.
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { neutraliseCell } from '../export/csv-cell.ts';
import { indexedBy, prepared, readTransaction } from './sql.ts';
import { all, get, runOnFile, type Q } from './queries.ts';
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { inCrawl, runOnStore } from './pg-explorer.ts';
import { settledSeq } from './pg-settled.ts';
import type {
  ChartData,
  ChartQuery,
  DepthDistribution,
  OverTime,
  ResponseTimeHistogram,
  StatusDistribution,
} from '../../../shared/analysis.ts';

export interface Since {
  /** Count only results rows with a seq above this (a previous answer's last_seq): the change since then. */
  afterSeq?: number | null;
}

/** The response-time histogram's bucket bounds in ms, when none are given. */
export const DEFAULT_RESPONSE_TIME_BOUNDS_MS: readonly number[] = [0, 100, 200, 500, 1000, 2000, 5000, 10_000];
/** Bucket widths over-time picks from (the smallest giving at most maxBuckets buckets). */
export const TIME_BUCKETS_MS: readonly number[] = [
  1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000,
  43_200_000, 86_400_000,
];
export const DEFAULT_MAX_BUCKETS = 300;

function afterSeqOf(since: Since): number | null {
  const after = since.afterSeq ?? null;
  if (after !== null && (!Number.isInteger(after) || after < 0))
    throw new RangeError(`afterSeq must be a whole number of at least 0 (got ${String(after)})`);
  return after;
}

/**
 * Where the charts are asked (the SQL below is written once): a crawl file names the index a full computation's
 * plan is built on (it has no statistics) and reads the rows after a seq by rowid; PostgreSQL plans both itself
 * (the store's results_charts covers every chart: pg-schema.ts).
 */
export interface ChartTarget {
  hint(index: string): string;
  /** What makes a seq range a primary key range: SQLite's NOT INDEXED (a covering index would be read whole). */
  bySeq: string;
}

/** A crawl in the PostgreSQL store, read with its schema on the search_path (pg-explorer.ts inCrawl). */
export const STORE_CHARTS: ChartTarget = { hint: () => '', bySeq: '' };

export function fileCharts(db: Db): ChartTarget {
  return { hint: (index) => indexedBy(db, index), bySeq: 'NOT INDEXED' };
}

/**
 * The rows counted: up to `upTo` (the highest settled seq: a crawl file's last row; in the store, pg-settled.ts),
 * the whole crawl through a covering index or, after a seq, that range of the primary key.
 */
export interface SeqRange {
  after: number | null;
  upTo: number;
}

function source(t: ChartTarget, index: string, range: SeqRange): { from: string; params: number[] } {
  return range.after === null
    ? { from: `FROM results r ${t.hint(index)} WHERE r.seq <= ?`, params: [range.upTo] }
    : { from: `FROM results r ${t.bySeq} WHERE r.seq > ? AND r.seq <= ?`, params: [range.after, range.upTo] };
}

/** The charts' statements on a target, with their parameters: the whole crawl (after null) or the rows after a seq. */
export function chartSql(t: ChartTarget, range: SeqRange) {
  const status = source(t, 'results_status', range);
  return {
    // Rows without a status ("no response") first, as SQLite orders NULL and PostgreSQL does when told.
    status: {
      sql: `SELECT r.status_code AS status_code, count(*) AS count ${status.from} GROUP BY r.status_code ORDER BY r.status_code NULLS FIRST`,
      params: status.params,
    },
    depth: {
      sql: `SELECT r.crawl_depth AS depth, count(*) AS count ${status.from} GROUP BY r.crawl_depth ORDER BY r.crawl_depth`,
      params: status.params,
    },
    // The bounds are checked whole numbers: safe to write into the SQL, one statement per set of bounds.
    histogram: (bounds: readonly number[]) => {
      const cells = bounds.map((from, i) => {
        const to = bounds[i + 1];
        return `count(*) FILTER (WHERE r.response_time_ms >= ${from}${to === undefined ? '' : ` AND r.response_time_ms < ${to}`}) AS b${i}`;
      });
      return {
        sql: `SELECT ${cells.join(', ')}, count(*) FILTER (WHERE r.response_time_ms IS NULL) AS without_time, count(*) AS total ${status.from}`,
        params: status.params,
      };
    },
    // Over time reads by time whatever the range: from a time on (the last bucket shown), up to the settled seq.
    span: (fromMs: number) => ({
      sql: `SELECT min(r.fetched_at) AS first, max(r.fetched_at) AS last FROM results r ${t.hint('results_fetched_at')}
       WHERE r.fetched_at >= ? AND r.seq <= ?`,
      params: [fromMs, range.upTo],
    }),
    // The bucket is a checked whole number, written into the SQL: bound, better-sqlite3 passes a number as a
    // REAL and the division would no longer group.
    overTime: (bucket: number, fromMs: number) => ({
      sql: `SELECT r.fetched_at / ${bucket} AS b, count(*) AS pages, count(*) FILTER (WHERE r.status_code IS NULL OR r.status_code >= 400) AS errors
       FROM results r ${t.hint('results_fetched_at')} WHERE r.fetched_at >= ? AND r.seq <= ? GROUP BY b ORDER BY b`,
      params: [fromMs, range.upTo],
    }),
  };
}

/** The highest seq of a crawl file: its rows are committed in seq order by its one writer, so all below are there. */
export function fileLastSeq(db: Db): number {
  return (prepared(db, 'SELECT coalesce(max(seq), 0) AS s FROM results').get() as { s: number }).s;
}

/** The last seq an answer counted to: its bound, or the seq asked after when that is higher (nothing new then). */
const lastOf = (range: SeqRange) => Math.max(range.upTo, range.after ?? 0);

/** How many results rows have each status code. */
function* statusQ(t: ChartTarget, range: SeqRange): Q<StatusDistribution> {
  const { sql, params } = chartSql(t, range).status;
  const rows = yield* all<{ status_code: number | null; count: number }>(sql, ...params);
  return {
    kind: 'status',
    rows: rows.map((r) => ({ ...r, label: r.status_code === null ? 'no response' : String(r.status_code) })),
    total: rows.reduce((n, r) => n + r.count, 0),
    last_seq: lastOf(range),
  };
}

/** How many results rows were found at each depth (link hops from a seed). */
function* depthQ(t: ChartTarget, range: SeqRange): Q<DepthDistribution> {
  const { sql, params } = chartSql(t, range).depth;
  const rows = yield* all<{ depth: number; count: number }>(sql, ...params);
  return { kind: 'depth', rows, total: rows.reduce((n, r) => n + r.count, 0), last_seq: lastOf(range) };
}

function checkBounds(bounds: readonly number[]): void {
  if (bounds.length < 1 || bounds.length > 100) throw new RangeError('give 1 to 100 response-time bucket bounds');
  bounds.forEach((b, i) => {
    if (!Number.isInteger(b) || b < 0 || (i > 0 && b <= bounds[i - 1]!)) {
      throw new RangeError(`response-time bucket bounds must be whole numbers of ms, ascending (got ${bounds.join(', ')})`);
    }
  });
}

const ms = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000} s` : `${n} ms`);

/** Response times in fixed buckets: [bounds[0], bounds[1]), …, [last bound, ∞). Times below bounds[0] are not counted. */
function* histogramQ(t: ChartTarget, range: SeqRange, bounds: readonly number[]): Q<ResponseTimeHistogram> {
  const { sql, params } = chartSql(t, range).histogram(bounds);
  const values = (yield* get<Record<string, number>>(sql, ...params))!;
  const rows = bounds.map((from, i) => {
    const to = bounds[i + 1] ?? null;
    return { from_ms: from, to_ms: to, label: to === null ? `${ms(from)} or more` : `${ms(from)} to ${ms(to)}`, count: values[`b${i}`]! };
  });
  return { kind: 'response-time', rows, without_time: values['without_time']!, total: values['total']!, last_seq: lastOf(range) };
}

export interface OverTimeOptions {
  /** Bucket width in ms (at least 1000); by default the smallest of TIME_BUCKETS_MS giving at most maxBuckets. */
  bucketMs?: number;
  /** Only rows fetched at or after this time (epoch ms), e.g. the start of the last bucket already shown. */
  fromMs?: number | null;
  maxBuckets?: number;
  /** The time of the answer (epoch ms; now by default): a bucket ending after it is still filling (open_bucket). */
  nowMs?: number;
}

function checkOverTime(options: OverTimeOptions): void {
  const maxBuckets = options.maxBuckets ?? DEFAULT_MAX_BUCKETS;
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1 || maxBuckets > 10_000)
    throw new RangeError(`maxBuckets must be a whole number from 1 to 10000 (got ${String(maxBuckets)})`);
  const fromMs = options.fromMs ?? null;
  if (fromMs !== null && !Number.isFinite(fromMs)) throw new RangeError('fromMs must be a time in ms');
  if (options.bucketMs !== undefined && (!Number.isInteger(options.bucketMs) || options.bucketMs < 1000)) {
    throw new RangeError(`bucketMs must be a whole number of at least 1000 (got ${String(options.bucketMs)})`);
  }
}

/**
 * Results rows (pages) and errors (no response, or a status of 400 or more) per time bucket of fetched_at, and
 * pages per second in each. To update live, ask again from the last bucket's `at` and replace from there.
 */
function* overTimeQ(t: ChartTarget, upTo: number, options: OverTimeOptions): Q<OverTime> {
  checkOverTime(options);
  const maxBuckets = options.maxBuckets ?? DEFAULT_MAX_BUCKETS;
  const from = options.fromMs ?? -1;
  const sql = chartSql(t, { after: null, upTo });
  const spanSql = sql.span(from);
  const span = (yield* get<{ first: number | null; last: number | null }>(spanSql.sql, ...spanSql.params))!;
  const bucket =
    options.bucketMs ??
    (span.first === null || span.last === null
      ? TIME_BUCKETS_MS[0]!
      : (TIME_BUCKETS_MS.find((b) => Math.floor(span.last! / b) - Math.floor(span.first! / b) + 1 <= maxBuckets) ??
        TIME_BUCKETS_MS[TIME_BUCKETS_MS.length - 1]!));
  const counted = sql.overTime(bucket, from);
  const buckets = yield* all<{ b: number; pages: number; errors: number }>(counted.sql, ...counted.params);
  const rows: OverTime['rows'] = [];
  if (buckets.length > 0) {
    const first = buckets[0]!.b;
    const last = buckets[buckets.length - 1]!.b;
    // Empty buckets between the first and the last are shown as zero; more than maxBuckets keeps the latest.
    const start = Math.max(first, last - maxBuckets + 1);
    const byBucket = new Map(buckets.map((c) => [c.b, c]));
    for (let b = start; b <= last; b++) {
      const c = byBucket.get(b);
      const pages = c?.pages ?? 0;
      rows.push({ at: b * bucket, pages, errors: c?.errors ?? 0, pages_per_second: pages / (bucket / 1000) });
    }
  }
  // The last bucket is still filling while its time runs: its rate so far would read as a dip.
  const lastRow = rows[rows.length - 1];
  const open = lastRow !== undefined && lastRow.at + bucket > (options.nowMs ?? Date.now());
  return { kind: 'over-time', bucket_ms: bucket, rows, open_bucket: open, last_seq: upTo };
}

/**
 * A chart's data, as the workbench asks for it (ChartQuery), on a target up to its settled seq `upTo`: the code both
 * stores run (a crawl file's in one read transaction, the store's in one snapshot).
 */
export function chartQ(t: ChartTarget, query: ChartQuery, upTo: number): Q<ChartData> {
  const range = { after: afterSeqOf({ afterSeq: query.afterSeq }), upTo };
  switch (query.kind) {
    case 'status':
      return statusQ(t, range);
    case 'depth':
      return depthQ(t, range);
    case 'response-time':
      return histogramQ(t, range, DEFAULT_RESPONSE_TIME_BOUNDS_MS);
    case 'over-time':
      return overTimeQ(t, upTo, query.bucketMs === null ? { fromMs: query.fromMs } : { fromMs: query.fromMs, bucketMs: query.bucketMs });
    default:
      throw new Error(`unknown chart "${String((query as { kind: unknown }).kind)}"`);
  }
}

/** A chart of a crawl file, in one read transaction: every query sees the same rows, even mid-crawl. */
export function fileChartData(db: Db, query: ChartQuery): ChartData {
  return readTransaction(db, () => runOnFile(db, chartQ(fileCharts(db), query, fileLastSeq(db))));
}

/**
 * A chart of a crawl in the PostgreSQL store: the same code, up to the seq settled before its snapshot (pg-settled.ts),
 * in one snapshot with the crawl's schema on the search_path.
 */
export async function postgresChartData(c: PgQuerier, crawlId: string, query: ChartQuery): Promise<ChartData> {
  const upTo = await settledSeq(c, crawlId);
  return inCrawl(c, crawlId, async () => {
    // One process per chart: a whole chart's count over results_charts at a million URLs took 250-550 ms with
    // PostgreSQL's two parallel workers and 110-260 ms without them (2 cores, under load); the server is the one
    // the nodes write to, and a live update reads a few rows anyway.
    await c.query('SET LOCAL max_parallel_workers_per_gather = 0');
    return runOnStore(c, chartQ(STORE_CHARTS, query, upTo));
  });
}

/** Runs one chart's code on a crawl file's connection in a read transaction, up to its last row. */
function onFile<T>(db: Db, code: (t: ChartTarget, upTo: number) => Q<T>): T {
  return readTransaction(db, () => runOnFile(db, code(fileCharts(db), fileLastSeq(db))));
}

/** How many results rows of a crawl file have each status code. */
export function statusDistribution(db: Db, since: Since = {}): StatusDistribution {
  const after = afterSeqOf(since);
  return onFile(db, (t, upTo) => statusQ(t, { after, upTo }));
}

/** How many results rows of a crawl file were found at each depth. */
export function depthDistribution(db: Db, since: Since = {}): DepthDistribution {
  const after = afterSeqOf(since);
  return onFile(db, (t, upTo) => depthQ(t, { after, upTo }));
}

/** A crawl file's response times in fixed buckets (histogramQ). */
export function responseTimeHistogram(db: Db, options: Since & { boundsMs?: readonly number[] } = {}): ResponseTimeHistogram {
  const bounds = options.boundsMs ?? DEFAULT_RESPONSE_TIME_BOUNDS_MS;
  checkBounds(bounds);
  const after = afterSeqOf(options);
  return onFile(db, (t, upTo) => histogramQ(t, { after, upTo }, bounds));
}

/** A crawl file's pages and errors over time (overTimeQ). */
export function overTime(db: Db, options: OverTimeOptions = {}): OverTime {
  return onFile(db, (t, upTo) => overTimeQ(t, upTo, options));
}

/** A chart's data as CSV text: UTF-8 with a byte-order mark, CRLF line ends, text cells neutralised. */
export function chartCsv(data: ChartData): string {
  const [header, rows] = chartTable(data);
  return stringify(
    [header, ...rows.map((row) => row.map((v) => (v === null ? '' : typeof v === 'number' ? String(v) : neutraliseCell(v))))],
    {
      bom: true,
      record_delimiter: 'windows',
      quote_record_delimiter: true,
    },
  );
}

type Cell = string | number | null;

/**
 * A chart's data as a table: its header and rows, numbers as numbers (what the XLSX export writes as numeric
 * cells, and chartCsv as their digits), text as it is (each writer neutralises it).
 */
export function chartTable(data: ChartData): [string[], Cell[][]] {
  switch (data.kind) {
    case 'status':
      return [['status_code', 'count'], data.rows.map((r) => [r.status_code ?? r.label, r.count])];
    case 'depth':
      return [['depth', 'count'], data.rows.map((r) => [r.depth, r.count])];
    case 'response-time':
      return [
        ['from_ms', 'to_ms', 'count'],
        [
          ...data.rows.map((r): Cell[] => [r.from_ms, r.to_ms, r.count]),
          ...(data.without_time > 0 ? [['no response', null, data.without_time] as Cell[]] : []),
        ],
      ];
    case 'over-time':
      return [
        ['time', 'pages', 'errors', 'pages_per_second'],
        data.rows.map((r) => [new Date(r.at).toISOString(), r.pages, r.errors, Math.round(r.pages_per_second * 1000) / 1000]),
      ];
  }
}
