// Reports: status codes, depths, response times and throughput (pages/s and errors over time), drawn with uPlot.
// While the crawl runs each chart asks at most once a second for what came since its last answer (afterSeq, or
// the buckets from its last one) and adds it. Each has a CSV download of its whole data.
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, ChartKind, OverTime } from '../../../shared/analysis.ts';
import { formatTime } from '../format.ts';
import { useApi } from '../store/context.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { themeColors, useTheme } from '../theme.ts';
import { chartSeries, chartTotal, mergeChart } from './analysis-model.ts';
import type { ChartSeries } from './analysis-model.ts';
import {
  categoryStride,
  drawnChartData,
  labelSpacePx,
  overTimeLegend,
  timeAxisRightPx,
  timeRange,
  timeSplits,
  visibleBarValues,
} from './chart-layout.ts';
import { useHasCrawl, useLive, useLiveQuery } from './use-live.ts';
import { BulkReportsCard } from './BulkReportsCard.tsx';
import { useReportExport } from './use-report-export.ts';

/** Charts update at most this often while the crawl runs. */
export const CHART_REFRESH_MS = 1_000;
/** Past this many buckets the throughput chart is asked for whole again (wider buckets). */
const MAX_LIVE_BUCKETS = 300;

const ta = i18next.getFixedT(null, 'analysis');

/** The charts; each title is read in the language shown (reports.<key> in the 'analysis' strings). */
export const CHARTS: { kind: ChartKind; readonly title: string }[] = (
  [
    ['status', 'status'],
    ['depth', 'depth'],
    ['response-time', 'responseTime'],
    ['over-time', 'overTime'],
  ] as const
).map(([kind, key]) => ({
  kind,
  get title() {
    return ta(`reports.${key}`);
  },
}));

/** The query that updates `previous` (or gets it whole). */
export function chartQueryFor(kind: ChartKind, previous: ChartData | null) {
  if (!previous) return { kind, afterSeq: null, fromMs: null, bucketMs: null };
  if (previous.kind === 'over-time') {
    const last = previous.rows[previous.rows.length - 1];
    if (!last || previous.rows.length >= MAX_LIVE_BUCKETS) return { kind, afterSeq: null, fromMs: null, bucketMs: null };
    return { kind, afterSeq: null, fromMs: last.at, bucketMs: previous.bucket_ms };
  }
  return { kind, afterSeq: previous.last_seq, fromMs: null, bucketMs: null };
}

export function ReportsView() {
  const hasCrawl = useHasCrawl();
  const { t } = useTranslation('analysis');
  return (
    <section className="panel analysis-panel reports-view" aria-label={t('reports.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('reports.title')}</h2>
        <span className="panel-note">{t('reports.note')}</span>
      </div>
      {!hasCrawl ? (
        <div className="analysis-empty">{t('reports.noCrawl')}</div>
      ) : (
        <div className="charts">
          {CHARTS.map((c) => (
            <ChartCard key={c.kind} kind={c.kind} title={c.title} />
          ))}
          <BulkReportsCard />
        </div>
      )}
    </section>
  );
}

function ChartCard({ kind, title }: { kind: ChartKind; title: string }) {
  const api = useApi();
  const { t } = useTranslation('analysis');
  const [busy, exportAs] = useReportExport(title, (...format) => api.exportChartCsv(kind, ...format));
  const chart = useLiveQuery(`chart|${kind}`, (previous) => api.chartData(chartQueryFor(kind, previous)), CHART_REFRESH_MS, {
    merge: mergeChart,
  });
  const live = useLive();
  // While the crawl runs, the bucket still filling is left out (its partial rate would read as a dip).
  const drawn = useMemo(() => drawnChartData(chart.data, live), [chart.data, live]);
  const series = useMemo(() => chartSeries(drawn), [drawn]);
  const [hovered, setHovered] = useState<number | null>(null);
  const total = chart.data ? (chart.data.kind === 'over-time' ? chart.data.rows.reduce((n, r) => n + r.pages, 0) : chart.data.total) : null;
  return (
    <figure
      className="chart-card"
      data-chart={kind}
      data-total={total ?? undefined}
      data-buckets={chart.data?.kind === 'over-time' ? chart.data.rows.length : undefined}
      data-drawn={drawn?.kind === 'over-time' ? drawn.rows.length : undefined}
      data-open-bucket={chart.data?.kind === 'over-time' ? String(!!chart.data.open_bucket) : undefined}
      data-live={String(live)}
    >
      <figcaption className="chart-head">
        <span className="chart-title">{title}</span>
        <span className="panel-note">{chartTotal(chart.data)}</span>
        <button
          type="button"
          className="btn btn-small"
          data-testid={`chart-csv-${kind}`}
          title={t('reports.csvCommand', { title })}
          disabled={!!busy || !chart.data}
          onClick={() => void exportAs('csv')}
        >
          {t('reports.csv')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid={`chart-xlsx-${kind}`}
          title={t('reports.xlsxCommand', { title })}
          disabled={!!busy || !chart.data}
          onClick={() => void exportAs('xlsx')}
        >
          {t('reports.xlsx')}
        </button>
      </figcaption>
      {chart.error && <div className="analysis-error">{chart.error}</div>}
      <Plot kind={kind} series={series} onHover={setHovered} />
      {kind === 'over-time' && (
        <div className="chart-legend" data-testid="chart-legend" aria-live="off">
          <span className="legend-key">
            <span className="legend-swatch legend-pages" aria-hidden="true" />
            {t('charts.pagesPerSecond')}
          </span>
          <span className="legend-key">
            <span className="legend-swatch legend-errors" aria-hidden="true" />
            {t('charts.errors')}
          </span>
          <span className="legend-value" data-testid="chart-legend-value">
            {overTimeLegend(drawn as OverTime | null, hovered)}
          </span>
        </div>
      )}
      {chart.data && !series.hasData && <div className="chart-empty">{t('reports.noData')}</div>}
    </figure>
  );
}

function Plot({ kind, series, onHover }: { kind: ChartKind; series: ChartSeries; onHover: (index: number | null) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const labels = useRef<string[]>(series.labels);
  labels.current = series.labels;
  const hover = useRef(onHover);
  hover.current = onHover;
  const timeline = kind === 'over-time';
  // Drawn again in the theme's colours (styles/theme.css) when the theme changes.
  const theme = useTheme();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = themeColors();
    const bars = uPlot.paths.bars!({ size: [0.7, 80] });
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: 220,
      // The throughput legend is the card's own (it names the latest bucket when nothing is hovered).
      legend: { show: false },
      // The time axis's last label whole: room for half of it right of the plot.
      ...(timeline ? { padding: [null, () => timeAxisRightPx(formatTime(Date.now())), null, null] as uPlot.Padding } : {}),
      cursor: { drag: { x: false, y: false } },
      hooks: { setCursor: [(u) => hover.current(u.cursor.idx ?? null)] },
      scales: {
        x: timeline
          ? { time: true, range: (u, min, max) => timeRange(u.data[0], min, max) }
          : { time: false, range: () => [-0.5, Math.max(1, labels.current.length) - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        timeline
          ? {
              stroke: c.axis,
              grid: { stroke: c.grid },
              // Whole seconds at the least (buckets are 1 s or more), as clock times, far enough apart that the
              // labels never run together.
              splits: (u, _axis, min, max) => timeSplits(min, max, u.bbox.width / devicePixelRatio, labelSpacePx(formatTime(max * 1000))),
              values: (_u, splits) => splits.map((t) => formatTime(t * 1000)),
            }
          : {
              stroke: c.axis,
              grid: { show: false },
              splits: () => labels.current.map((_, i) => i),
              // Every label when they fit; else every second, third... so they do not run together.
              values: (u, splits) => {
                const longest = Math.max(0, ...labels.current.map((l) => l.length));
                const stride = categoryStride(labels.current.length, u.bbox.width / devicePixelRatio, longest);
                return splits.map((i) => (i % stride === 0 ? (labels.current[i] ?? '') : ''));
              },
            },
        { stroke: c.axis, grid: { stroke: c.grid }, size: 50 },
      ],
      series: timeline
        ? [
            {},
            { label: ta('charts.pagesPerSecond'), stroke: c.line, width: 2, fill: c.lineFill },
            { label: ta('charts.errors'), stroke: c.errors, width: 1.5 },
          ]
        : [{}, { label: ta('charts.urls'), stroke: c.line, fill: c.bar, paths: bars, points: { show: false } }],
    };
    const u = new uPlot(opts, [[], ...(timeline ? [[], []] : [[]])] as uPlot.AlignedData, el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: 220 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [timeline, theme]);

  useEffect(() => {
    // Bars: a count above zero is drawn at least a few pixels high, so a bar of one URL beside thousands shows.
    const values = series.series.map((s) => (timeline ? s.values : visibleBarValues(s.values)));
    plot.current?.setData([series.xs, ...values] as uPlot.AlignedData);
  }, [series, timeline, theme]);

  return <div className="plot" ref={box} data-theme={theme} />;
}
