// Reports and charts: status-code distribution, depth distribution, response-time histogram, and pages and errors
// over time, each also as CSV text. A full computation is one covering scan of a narrow index (results_status
// holds status, media type, depth and response time; results_fetched_at holds time and status). To update live,
// pass the previous answer's `last_seq` as `afterSeq` and add the counts: results rows are only ever appended,
// so the rows after a seq are exactly the new ones, read by rowid range.
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { neutraliseCell } from '../export/csv-cell.ts';
import { indexedBy, prepared, readTransaction } from './sql.ts';
import type { ChartData, DepthDistribution, OverTime, ResponseTimeHistogram, StatusDistribution } from '../../../shared/analysis.ts';

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

/** FROM clause: the whole crawl through `index` (a covering scan), or the rows after a seq by rowid range. */
function source(db: Db, index: string, after: number | null): string {
  return after === null ? `FROM results r ${indexedBy(db, index)}` : `FROM results r NOT INDEXED WHERE r.seq > ${after}`;
}

function lastSeq(db: Db): number {
  return (prepared(db, 'SELECT coalesce(max(seq), 0) AS s FROM results').get() as { s: number }).s;
}

/** The charts' queries on this connection: the whole crawl (after null) or the rows after a seq; for plan checks. */
export function chartSql(db: Db, after: number | null = null) {
  return {
    status: `SELECT r.status_code AS status_code, count(*) AS count ${source(db, 'results_status', after)} GROUP BY r.status_code ORDER BY r.status_code`,
    depth: `SELECT r.crawl_depth AS depth, count(*) AS count ${source(db, 'results_status', after)} GROUP BY r.crawl_depth ORDER BY r.crawl_depth`,
    // The bounds are checked whole numbers: safe to write into the SQL, one statement per set of bounds.
    histogram: (bounds: readonly number[]) => {
      const cells = bounds.map((from, i) => {
        const to = bounds[i + 1];
        return `count(*) FILTER (WHERE r.response_time_ms >= ${from}${to === undefined ? '' : ` AND r.response_time_ms < ${to}`})`;
      });
      return `SELECT ${cells.join(', ')}, count(*) FILTER (WHERE r.response_time_ms IS NULL), count(*) ${source(db, 'results_status', after)}`;
    },
    span: `SELECT min(r.fetched_at) AS first, max(r.fetched_at) AS last FROM results r ${indexedBy(db, 'results_fetched_at')} WHERE r.fetched_at >= ?`,
    // The bucket is a checked whole number, written into the SQL: bound, better-sqlite3 passes a number as a
    // REAL and the division would no longer group.
    overTime: (bucket: number) =>
      `SELECT r.fetched_at / ${bucket} AS b, count(*) AS pages, count(*) FILTER (WHERE r.status_code IS NULL OR r.status_code >= 400) AS errors
       FROM results r ${indexedBy(db, 'results_fetched_at')} WHERE r.fetched_at >= @from GROUP BY b ORDER BY b`,
  };
}

/** How many results rows have each status code. */
export function statusDistribution(db: Db, since: Since = {}): StatusDistribution {
  const after = afterSeqOf(since);
  return readTransaction(db, () => {
    const rows = prepared(db, chartSql(db, after).status).all() as {
      status_code: number | null;
      count: number;
    }[];
    return {
      kind: 'status',
      rows: rows.map((r) => ({ ...r, label: r.status_code === null ? 'no response' : String(r.status_code) })),
      total: rows.reduce((n, r) => n + r.count, 0),
      last_seq: lastSeq(db),
    };
  });
}

/** How many results rows were found at each depth (link hops from a seed). */
export function depthDistribution(db: Db, since: Since = {}): DepthDistribution {
  const after = afterSeqOf(since);
  return readTransaction(db, () => {
    const rows = prepared(db, chartSql(db, after).depth).all() as {
      depth: number;
      count: number;
    }[];
    return { kind: 'depth', rows, total: rows.reduce((n, r) => n + r.count, 0), last_seq: lastSeq(db) };
  });
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
export function responseTimeHistogram(db: Db, options: Since & { boundsMs?: readonly number[] } = {}): ResponseTimeHistogram {
  const bounds = options.boundsMs ?? DEFAULT_RESPONSE_TIME_BOUNDS_MS;
  checkBounds(bounds);
  const after = afterSeqOf(options);
  return readTransaction(db, () => {
    const values = prepared(db, chartSql(db, after).histogram(bounds)).raw(true).get() as number[];
    const rows = bounds.map((from, i) => {
      const to = bounds[i + 1] ?? null;
      return { from_ms: from, to_ms: to, label: to === null ? `${ms(from)} or more` : `${ms(from)} to ${ms(to)}`, count: values[i]! };
    });
    return { kind: 'response-time', rows, without_time: values[bounds.length]!, total: values[bounds.length + 1]!, last_seq: lastSeq(db) };
  });
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

/**
 * Results rows (pages) and errors (no response, or a status of 400 or more) per time bucket of fetched_at, and
 * pages per second in each. To update live, ask again from the last bucket's `at` and replace from there.
 */
export function overTime(db: Db, options: OverTimeOptions = {}): OverTime {
  const maxBuckets = options.maxBuckets ?? DEFAULT_MAX_BUCKETS;
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1 || maxBuckets > 10_000)
    throw new RangeError(`maxBuckets must be a whole number from 1 to 10000 (got ${String(maxBuckets)})`);
  const fromMs = options.fromMs ?? null;
  if (fromMs !== null && !Number.isFinite(fromMs)) throw new RangeError('fromMs must be a time in ms');
  if (options.bucketMs !== undefined && (!Number.isInteger(options.bucketMs) || options.bucketMs < 1000)) {
    throw new RangeError(`bucketMs must be a whole number of at least 1000 (got ${String(options.bucketMs)})`);
  }
  return readTransaction(db, () => {
    const sql = chartSql(db);
    const span = prepared(db, sql.span).get(fromMs ?? -1) as {
      first: number | null;
      last: number | null;
    };
    const bucket =
      options.bucketMs ??
      (span.first === null || span.last === null
        ? TIME_BUCKETS_MS[0]!
        : (TIME_BUCKETS_MS.find((b) => Math.floor(span.last! / b) - Math.floor(span.first! / b) + 1 <= maxBuckets) ??
          TIME_BUCKETS_MS[TIME_BUCKETS_MS.length - 1]!));
    const counted = prepared(db, sql.overTime(bucket)).all({ from: fromMs ?? -1 }) as { b: number; pages: number; errors: number }[];
    const rows: OverTime['rows'] = [];
    if (counted.length > 0) {
      const first = counted[0]!.b;
      const last = counted[counted.length - 1]!.b;
      // Empty buckets between the first and the last are shown as zero; more than maxBuckets keeps the latest.
      const start = Math.max(first, last - maxBuckets + 1);
      const byBucket = new Map(counted.map((c) => [c.b, c]));
      for (let b = start; b <= last; b++) {
        const c = byBucket.get(b);
        const pages = c?.pages ?? 0;
        rows.push({ at: b * bucket, pages, errors: c?.errors ?? 0, pages_per_second: pages / (bucket / 1000) });
      }
    }
    // The last bucket is still filling while its time runs: its rate so far would read as a dip.
    const lastRow = rows[rows.length - 1];
    const open = lastRow !== undefined && lastRow.at + bucket > (options.nowMs ?? Date.now());
    return { kind: 'over-time', bucket_ms: bucket, rows, open_bucket: open, last_seq: lastSeq(db) };
  });
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
