// How the Reports charts are laid out, with no uPlot in it (ReportsView.tsx draws): where the time axis puts its
// ticks so their labels never run together, room for its last label at the right edge, which bar labels fit, the
// least height a bar of one URL gets, the throughput legend when nothing is hovered, and the live chart without
// the bucket that is still filling.
import type { ChartData, OverTime } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { i18next } from '../i18n/i18n.ts';

/** Steps of the time axis in seconds (buckets are 1 s or more). */
export const TIME_INCRS_S: readonly number[] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];
/** Width of a character of the axis font (12 px system sans), rounded up: labels are measured by their length. */
export const AXIS_CHAR_PX = 7.5;
/** Clear space between two axis labels, in CSS pixels. */
export const AXIS_LABEL_GAP_PX = 16;

/** The least distance between two ticks whose labels are `sample`-long: the label's width and a gap. */
export function labelSpacePx(sample: string): number {
  return Math.ceil(sample.length * AXIS_CHAR_PX) + AXIS_LABEL_GAP_PX;
}

/**
 * Room right of the plot for the time axis's last label, centred on a tick that may fall on the plot's right edge:
 * half a label and a little (uPlot's own, half its y axis's width, cut "12:03:04 PM" short at the chart's edge).
 */
export function timeAxisRightPx(sample: string): number {
  return Math.ceil((sample.length * AXIS_CHAR_PX) / 2) + 4;
}

/**
 * Ticks of the time axis from `min` to `max` (seconds): the smallest step of TIME_INCRS_S that puts them at least
 * `spacePx` apart over `widthPx`, on multiples of the step.
 */
export function timeSplits(min: number, max: number, widthPx: number, spacePx: number): number[] {
  if (!(max > min) || !(widthPx > 0)) return Number.isFinite(min) ? [min] : [];
  const pxPerSecond = widthPx / (max - min);
  // Past the largest step (a span of years: uPlot's range for a single point), whole multiples of it.
  const largest = TIME_INCRS_S[TIME_INCRS_S.length - 1]!;
  const step = TIME_INCRS_S.find((s) => s * pxPerSecond >= spacePx) ?? largest * Math.ceil(spacePx / pxPerSecond / largest);
  const out: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) out.push(t);
  return out;
}

/**
 * The time axis's range for the times drawn (seconds): first to last, or a second either side of a single one
 * (uPlot would otherwise stretch a single time over a thousand days).
 */
export function timeRange(xs: ArrayLike<number>, min: number, max: number): [number, number] {
  if (xs.length === 0) return [min, max];
  const first = xs[0]!;
  const last = xs[xs.length - 1]!;
  return last - first < 1 ? [first - 1, last + 1] : [first, last];
}

/** Every how many bars a label is written so that labels of `maxChars` characters do not run together. */
export function categoryStride(count: number, widthPx: number, maxChars: number): number {
  if (count <= 1 || !(widthPx > 0)) return 1;
  const perBar = widthPx / count;
  return Math.max(1, Math.ceil((maxChars * AXIS_CHAR_PX + AXIS_LABEL_GAP_PX / 2) / perBar));
}

/** The least height of a bar that counts anything, as a share of the chart's top: a bar of one URL stays visible. */
export const MIN_BAR_SHARE = 0.02;

/** Bar heights to draw: any count above zero is at least MIN_BAR_SHARE of the largest (zero stays zero). */
export function visibleBarValues(values: readonly number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (v > 0 ? Math.max(v, max * MIN_BAR_SHARE) : v));
}

/**
 * The data the chart draws: while the crawl runs, the over-time chart leaves out its last bucket when it is still
 * filling (a second half over reads as half the rate); a finished crawl's last bucket is drawn as counted.
 */
export function drawnChartData(data: ChartData | null, live: boolean): ChartData | null {
  if (!data || data.kind !== 'over-time' || !live || !data.open_bucket || data.rows.length === 0) return data;
  return { ...data, rows: data.rows.slice(0, -1), open_bucket: false };
}

/**
 * The throughput chart's legend: the hovered bucket, or when nothing is hovered the latest one, named so;
 * never "--".
 */
export function overTimeLegend(
  data: OverTime | null,
  hovered: number | null,
  time: (ms: number) => string = (ms) => new Date(ms).toLocaleTimeString(),
): string {
  const rows = data?.rows ?? [];
  const t = i18next.getFixedT(null, 'analysis');
  if (rows.length === 0) return t('charts.noPages');
  const i = hovered !== null && hovered >= 0 && hovered < rows.length ? hovered : rows.length - 1;
  const r = rows[i]!;
  const rate = Math.round(r.pages_per_second * 10) / 10;
  const what = t('charts.legend', { time: time(r.at), rate: rate.toLocaleString(), errors: formatInt(r.errors), count: r.errors });
  if (i !== hovered) {
    const width = (data?.bucket_ms ?? 1000) / 1000;
    return width === 1 ? t('charts.latestSecond', { what }) : t('charts.latestSeconds', { seconds: width, what });
  }
  return what;
}
