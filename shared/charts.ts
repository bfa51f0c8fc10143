// The Reports view's charts as the renderer sees them: what chartData takes and answers (computed in SQL by
// electron/engine/analysis/charts-data.ts). No node:, no electron: the renderer imports this.

export const CHART_KINDS = ['status', 'depth', 'response-time', 'over-time'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

export interface StatusDistribution {
  kind: 'status';
  /** By status code ascending; "no response" (status_code null) first. */
  rows: { status_code: number | null; label: string; count: number }[];
  total: number;
  /** The highest results.seq counted: pass as afterSeq to get only what came after. */
  last_seq: number;
}

export interface DepthDistribution {
  kind: 'depth';
  rows: { depth: number; count: number }[];
  total: number;
  last_seq: number;
}

export interface ResponseTimeHistogram {
  kind: 'response-time';
  /** One row per bucket [from_ms, to_ms); the last one has no upper bound (to_ms null). */
  rows: { from_ms: number; to_ms: number | null; label: string; count: number }[];
  /** Rows without a response time (no response at all). */
  without_time: number;
  total: number;
  last_seq: number;
}

export interface OverTime {
  kind: 'over-time';
  bucket_ms: number;
  /** Consecutive buckets (empty ones included) from the first row fetched (or fromMs) to the last. */
  rows: { at: number; pages: number; errors: number; pages_per_second: number }[];
  /**
   * The last row's bucket had not ended when this was answered: its count is partial, and its rate would show a
   * false dip (the live chart leaves it out until it ends).
   */
  open_bucket?: boolean;
  last_seq: number;
}

export type ChartData = StatusDistribution | DepthDistribution | ResponseTimeHistogram | OverTime;

/**
 * One chart's data. afterSeq (status, depth, response-time): only the rows after a previous answer's last_seq,
 * to add to it. fromMs (over-time): only the buckets from this time on, to replace from there.
 */
export interface ChartQuery {
  kind: ChartKind;
  afterSeq: number | null;
  fromMs: number | null;
  /** over-time: the bucket width of the answer being updated (its bucket_ms); null picks one for the span. */
  bucketMs: number | null;
}
