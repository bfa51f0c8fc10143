// The crawl map (issue 18.6): the shortest-path tree from the seeds drawn with WebGL (sigma.js over a graphology
// graph), laid out and folded to at most DEFAULT_CRAWL_MAP_NODES nodes by the engine (crawl-map.ts), so a crawl of
// any size draws the same few thousand nodes. Nodes coloured by indexability or status class (a switch), sized by
// Link Score; a folded group ("+N more") in its own colour, sized by its count. Hover names the node; a click on a
// URL opens the explorer on it. What was folded is said above the map. Exports: the map as PNG (the WebGL layers
// drawn onto one canvas) and its nodes as CSV. Below it, inlinks and Link Score per crawl depth as box plots (the
// quartiles, the median, whiskers to the least and most, a dot at the mean), each as SVG, PNG and CSV.
import { useEffect, useMemo, useRef, useState } from 'react';
import Graph from 'graphology';
import Sigma from 'sigma';
import type { CrawlMap, DepthSpread, Spread } from '../../../shared/crawl-map.ts';
import { DEFAULT_CRAWL_MAP_NODES, crawlMapCsv, depthSpreadCsv } from '../../../shared/crawl-map.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { useTheme } from '../theme.ts';
import { useHasCrawl, useLiveQuery } from './use-live.ts';
import { requestExplorer } from './explorer-request.ts';
import { downloadBlob, downloadSvg, downloadSvgAsPng, ExportButton } from './picture-export.tsx';

/** While the crawl runs, the map is asked for again at most this often. */
export const CRAWL_MAP_REFRESH_MS = 10_000;

export type ColourBy = 'indexability' | 'status';
const INDEX_KEYS = ['indexable', 'non-indexable', 'other'] as const;
const STATUS_KEYS = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
/** Colour variables (styles/theme.css), resolved for WebGL and the exported pictures. */
const COLOUR_VARS = [...INDEX_KEYS, ...STATUS_KEYS, 'group', 'root', 'edge', 'bg', 'text', 'grid', 'box', 'mean'] as const;
type ColourKey = (typeof COLOUR_VARS)[number];
type Colours = Record<ColourKey, string>;

function resolveColours(el: HTMLElement): Colours {
  const probe = document.createElement('span');
  probe.hidden = true;
  el.append(probe);
  const out = {} as Colours;
  for (const key of COLOUR_VARS) {
    probe.style.color = `var(--map-${key})`;
    out[key] = getComputedStyle(probe).color;
  }
  probe.remove();
  return out;
}

export const statusClass = (status: number | null): (typeof STATUS_KEYS)[number] =>
  status === null || status < 200 || status > 599 ? 'none' : status < 300 ? '2xx' : status < 400 ? '3xx' : status < 500 ? '4xx' : '5xx';

/** A node's colour key under the switch. */
export function colourKey(map: CrawlMap, i: number, by: ColourBy): ColourKey {
  const kind = map.nodes.kind[i];
  if (kind === 'root') return 'root';
  if (kind === 'group') return 'group';
  return by === 'status' ? statusClass(map.nodes.status[i]!) : map.nodes.indexability[i]!;
}

/** A node's size in pixels: a URL by its Link Score, a group by its count (log), the root fixed. */
export function nodeSize(map: CrawlMap, i: number): number {
  const n = map.nodes;
  if (n.kind[i] === 'root') return 7;
  if (n.kind[i] === 'group') return 4 + Math.min(10, Math.log10(n.urls[i]! + 1) * 3);
  const s = n.linkScore[i];
  return s === null || s === undefined ? 3 : 2 + (s / 100) * 10;
}

export function CrawlMapView() {
  const api = useApi();
  const store = useCrawlStore();
  const hasCrawl = useHasCrawl();
  const crawlKey = useCrawl((s) => s.crawlKey);
  const { t } = useTranslation('analysis');
  const theme = useTheme();
  const [colourBy, setColourBy] = useState<ColourBy>('indexability');
  const [hovered, setHovered] = useState<number | null>(null);
  const [webglError, setWebglError] = useState<string | null>(null);
  // Drawn before the crawl's Link Scores were computed: asked for again in a moment, until it comes sized by them.
  const loaded = useLiveQuery<CrawlMap>('crawl-map', () => api.crawlMap({ maxNodes: DEFAULT_CRAWL_MAP_NODES }), CRAWL_MAP_REFRESH_MS, {
    enabled: hasCrawl,
    pending: (m) => m.scoresPending === true,
  });
  const map = loaded.data;
  const scoresPending = map?.scoresPending === true;
  const box = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma | null>(null);
  const mapRef = useRef<CrawlMap | null>(null);
  mapRef.current = map;
  const colourByRef = useRef(colourBy);
  colourByRef.current = colourBy;

  // The graph, drawn again when the map's data changes; its colours follow the switch and the theme.
  useEffect(() => {
    const el = box.current;
    if (!el || !map || map.nodes.kind.length === 0) return;
    const graph = new Graph({ type: 'directed', multi: false });
    const n = map.nodes;
    for (let i = 0; i < n.kind.length; i++) graph.addNode(String(i), { x: n.x[i]!, y: -n.y[i]!, size: nodeSize(map, i), label: null });
    for (let i = 1; i < n.kind.length; i++) graph.addEdge(String(n.parent[i]!), String(i), { size: 0.5 });
    let renderer: Sigma;
    try {
      renderer = new Sigma(graph, el, {
        renderLabels: false,
        renderEdgeLabels: false,
        hideEdgesOnMove: n.kind.length > 5000,
        zIndex: true,
        allowInvalidContainer: true,
      });
    } catch (err) {
      // No WebGL (a browser with it turned off): the map says so; the charts and the CSV still work.
      setWebglError(err instanceof Error ? err.message : String(err));
      return;
    }
    setWebglError(null);
    // The last frame's drawing time, for the tests and the benchmark (what the WebGL work costs).
    let began = 0;
    renderer.on('beforeRender', () => {
      began = performance.now();
    });
    renderer.on('afterRender', () => {
      el.dataset.renderMs = (performance.now() - began).toFixed(2);
      // Where the first seed is drawn (CSS pixels in the stage): what a test hovers and clicks.
      const seed = n.kind.length > 1 ? renderer.getNodeDisplayData('1') : undefined;
      if (seed) {
        const at = renderer.framedGraphToViewport(seed);
        el.dataset.seedX = at.x.toFixed(1);
        el.dataset.seedY = at.y.toFixed(1);
      }
    });
    renderer.on('enterNode', ({ node }) => setHovered(Number(node)));
    renderer.on('leaveNode', () => setHovered(null));
    renderer.on('clickNode', ({ node }) => {
      const m = mapRef.current;
      const i = Number(node);
      if (!m || m.nodes.kind[i] !== 'url') return;
      requestExplorer({ prefix: m.nodes.url[i]!, crawlKey });
    });
    sigma.current = renderer;
    el.dataset.order = String(graph.order);
    return () => {
      renderer.kill();
      sigma.current = null;
      delete el.dataset.order;
    };
  }, [map, crawlKey]);

  useEffect(() => {
    const renderer = sigma.current;
    const el = box.current;
    if (!renderer || !el || !map) return;
    const c = resolveColours(el);
    renderer.setSetting('defaultEdgeColor', c.edge);
    renderer.getGraph().updateEachNodeAttributes((node, attr) => ({ ...attr, color: c[colourKey(map, Number(node), colourBy)] }));
    renderer.refresh();
  }, [map, colourBy, theme]);

  const exportPng = () => {
    const renderer = sigma.current;
    const el = box.current;
    if (!renderer || !el) return;
    const c = resolveColours(el);
    // Drawn now, then copied in the same task: a WebGL layer's pixels are there until the frame is shown.
    renderer.refresh();
    const layers = renderer.getCanvases();
    const first = Object.values(layers)[0]!;
    const out = document.createElement('canvas');
    out.width = first.width;
    out.height = first.height;
    const ctx = out.getContext('2d')!;
    ctx.fillStyle = c.bg;
    ctx.fillRect(0, 0, out.width, out.height);
    for (const key of ['edges', 'nodes', 'labels', 'hovers', 'hoverNodes'] as const) {
      const layer = layers[key];
      if (layer) ctx.drawImage(layer, 0, 0);
    }
    out.toBlob((blob) => {
      if (blob) downloadBlob(blob, 'crawl-map.png');
      notify(store, 'info', t('crawlMap.pngSaved'));
    }, 'image/png');
  };
  const exportCsv = () => {
    if (!map) return;
    downloadBlob(new Blob([crawlMapCsv(map)], { type: 'text/csv;charset=utf-8' }), 'crawl-map.csv');
    // The same count as the header's (the drawn nodes); the CSV also has a row for the root.
    notify(store, 'info', t('crawlMap.csvSaved', { n: formatInt(map.nodes.kind.length - 1) }));
  };

  const f = map?.folded;
  const hoveredText = map && hovered !== null ? describeNode(map, hovered, t as unknown as T) : '';
  return (
    <section className="panel analysis-panel crawl-map-view" aria-label={t('crawlMap.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('crawlMap.title')}</h2>
        <span className="panel-note" data-testid="crawl-map-total" data-value={map?.total} data-nodes={map?.nodes.kind.length}>
          {map
            ? t('crawlMap.totals', {
                count: map.total,
                n: formatInt(map.total),
                nodes: formatInt(map.nodes.kind.length - 1),
                depth: map.maxDepth,
              })
            : ''}
          {scoresPending && <span data-testid="crawl-map-scores-pending">{t('crawlMap.scoresPending')}</span>}
        </span>
        <fieldset className="crawl-map-switch" aria-label={t('crawlMap.colourBy')}>
          <legend className="visually-hidden">{t('crawlMap.colourBy')}</legend>
          {(['indexability', 'status'] as const).map((by) => (
            <button
              key={by}
              type="button"
              className="btn btn-small"
              aria-pressed={colourBy === by}
              data-testid={`crawl-map-colour-${by}`}
              onClick={() => setColourBy(by)}
            >
              {t(`crawlMap.by.${by}`)}
            </button>
          ))}
        </fieldset>
        <div className="results-tools">
          <ExportButton testId="crawl-map-png" title={t('crawlMap.pngCommand')} disabled={!map} onClick={exportPng}>
            {t('crawlMap.png')}
          </ExportButton>
          <ExportButton testId="crawl-map-csv" title={t('crawlMap.csvCommand')} disabled={!map} onClick={exportCsv}>
            {t('crawlMap.csv')}
          </ExportButton>
        </div>
      </div>
      {loaded.error && <div className="analysis-error">{loaded.error}</div>}
      {webglError && <div className="analysis-error">{t('crawlMap.noWebgl', { error: webglError })}</div>}
      {!hasCrawl ? (
        <div className="analysis-empty">{t('crawlMap.noCrawl')}</div>
      ) : (
        <>
          <div className="crawl-map-notes">
            <span data-testid="crawl-map-folded" data-urls={f?.urls} data-groups={f?.groups} data-collapsed={f?.collapsed}>
              {f && map
                ? f.urls === 0
                  ? t('crawlMap.nothingFolded')
                  : t('crawlMap.folded', {
                      urls: formatInt(f.urls),
                      groups: formatInt(f.groups),
                      grouped: formatInt(f.groupedUrls),
                      collapsed: formatInt(f.collapsed),
                      below: formatInt(f.collapsedUrls),
                      depth: f.fullDepth ?? '-',
                    })
                : ''}
            </span>
            {map && !map.scored && <span>{t('crawlMap.noScores')}</span>}
            <Legend by={colourBy} />
          </div>
          <div className="crawl-map-stage">
            <div
              className="crawl-map-canvas"
              ref={box}
              data-testid="crawl-map-canvas"
              role="img"
              aria-label={t('crawlMap.canvasLabel', { n: formatInt(map ? map.nodes.kind.length - 1 : 0) })}
            />
            <output className="crawl-map-hover" data-testid="crawl-map-hover" aria-live="polite">
              {hoveredText || t('crawlMap.hoverHint')}
            </output>
          </div>
          {map && (
            <div className="charts crawl-map-charts">
              <DepthChart kind="inlinks" depths={map.depths} title={t('crawlMap.inlinksChart')} />
              <DepthChart kind="linkScore" depths={map.depths} title={t('crawlMap.scoreChart')} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The translation function as describeNode uses it (keys built at run time). */
type T = (key: string, options?: Record<string, unknown>) => string;

function describeNode(map: CrawlMap, i: number, t: T): string {
  const n = map.nodes;
  if (n.kind[i] === 'root') return t('crawlMap.root', { n: formatInt(map.total) });
  if (n.kind[i] === 'group') return t('crawlMap.group', { n: formatInt(n.urls[i]!), url: n.url[i]! });
  const parts: string[] = [
    n.url[i]!,
    n.status[i] === null ? t('crawlMap.noResponse') : String(n.status[i]),
    t(`crawlMap.keys.${n.indexability[i]!}`),
  ];
  parts.push(t('crawlMap.depth', { depth: n.depth[i]! }));
  if (n.linkScore[i] !== null) parts.push(t('crawlMap.score', { score: n.linkScore[i] }));
  if (n.urls[i]! > 1) parts.push(t('crawlMap.below', { n: formatInt(n.urls[i]! - 1) }));
  return parts.join(' · ');
}

function Legend({ by }: { by: ColourBy }) {
  const { t } = useTranslation('analysis');
  const keys = [...(by === 'status' ? STATUS_KEYS : INDEX_KEYS), 'group'] as const;
  return (
    <span className="crawl-map-legend" data-testid="crawl-map-legend">
      {keys.map((k) => (
        <span key={k} className="legend-key">
          <span className={`map-swatch map-${k}`} aria-hidden="true" />
          {t(`crawlMap.keys.${k}`)}
        </span>
      ))}
      <span className="legend-key">{t('crawlMap.sizeKey')}</span>
    </span>
  );
}

// ---- the depth charts: a box plot per crawl depth, drawn as SVG (the same picture is exported) ----

const CHART_W = 520;
const CHART_H = 240;
const PAD = { left: 52, right: 12, top: 12, bottom: 34 };

/** The value's height on the chart's scale: Link Score linear 0-100, inlinks on a log scale (a hub's thousands beside ones). */
export function chartScale(kind: 'inlinks' | 'linkScore', max: number): { y: (v: number) => number; ticks: number[] } {
  const h = CHART_H - PAD.top - PAD.bottom;
  if (kind === 'linkScore') return { y: (v) => PAD.top + h - (v / 100) * h, ticks: [0, 25, 50, 75, 100] };
  const top = Math.log10(Math.max(10, max) + 1);
  const ticks = [0];
  for (let p = 1; p <= Math.max(10, max); p *= 10) ticks.push(p);
  return { y: (v) => PAD.top + h - (Math.log10(v + 1) / top) * h, ticks };
}

/** The chart as a standalone SVG, its colours resolved (the exported picture has no stylesheet). */
export function depthChartSvg(
  depths: readonly DepthSpread[],
  kind: 'inlinks' | 'linkScore',
  c: Colours,
  labels: { title: string; x: string },
): string {
  const rows = depths.flatMap((d) => {
    const s = kind === 'inlinks' ? d.inlinks : d.linkScore;
    return s ? [{ depth: d.depth, s }] : [];
  });
  const max = Math.max(1, ...rows.map((r) => r.s.max));
  const { y, ticks } = chartScale(kind, max);
  const w = CHART_W - PAD.left - PAD.right;
  const step = w / Math.max(1, rows.length);
  const bw = Math.max(2, Math.min(28, step * 0.6));
  const esc = (s: string) => s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const parts: string[] = [];
  parts.push(`<rect width="${CHART_W}" height="${CHART_H}" fill="${c.bg}"/>`);
  for (const tk of ticks) {
    const ty = y(tk).toFixed(1);
    parts.push(`<line x1="${PAD.left}" x2="${CHART_W - PAD.right}" y1="${ty}" y2="${ty}" stroke="${c.grid}"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${ty}" dy="4" text-anchor="end" fill="${c.text}">${formatInt(tk)}</text>`);
  }
  const every = Math.max(1, Math.ceil(rows.length / 20));
  rows.forEach((r, i) => {
    const cx = PAD.left + step * (i + 0.5);
    const s: Spread = r.s;
    const x0 = (cx - bw / 2).toFixed(1);
    parts.push(
      `<g data-depth="${r.depth}"><title>${esc(`${r.depth}: min ${s.min}, p25 ${s.p25}, median ${s.median}, p75 ${s.p75}, max ${s.max}, mean ${s.mean}`)}</title>`,
      `<line x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${y(s.max).toFixed(1)}" y2="${y(s.min).toFixed(1)}" stroke="${c.text}"/>`,
      `<rect x="${x0}" y="${y(s.p75).toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.max(1, y(s.p25) - y(s.p75)).toFixed(1)}" fill="${c.box}" stroke="${c.text}"/>`,
      `<line x1="${x0}" x2="${(cx + bw / 2).toFixed(1)}" y1="${y(s.median).toFixed(1)}" y2="${y(s.median).toFixed(1)}" stroke="${c.text}" stroke-width="2"/>`,
      `<circle cx="${cx.toFixed(1)}" cy="${y(s.mean).toFixed(1)}" r="2.5" fill="${c.mean}"/></g>`,
    );
    if (i % every === 0)
      parts.push(`<text x="${cx.toFixed(1)}" y="${CHART_H - PAD.bottom + 14}" text-anchor="middle" fill="${c.text}">${r.depth}</text>`);
  });
  parts.push(`<text x="${PAD.left + w / 2}" y="${CHART_H - 4}" text-anchor="middle" fill="${c.text}">${esc(labels.x)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_W}" height="${CHART_H}" viewBox="0 0 ${CHART_W} ${CHART_H}" font-family="system-ui, sans-serif" font-size="11" role="img" aria-label="${esc(labels.title)}">${parts.join('')}</svg>`;
}

/** One chart's columns of the depth-spread CSV (depth, urls and its own six). */
function chartCsv(depths: readonly DepthSpread[], kind: 'inlinks' | 'linkScore'): string {
  const lines = depthSpreadCsv(depths)
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const cols = kind === 'inlinks' ? [0, 1, 2, 3, 4, 5, 6, 7] : [0, 1, 8, 9, 10, 11, 12, 13];
  return `\uFEFF${lines.map((l) => cols.map((i) => l.split(',')[i]).join(',')).join('\r\n')}\r\n`;
}

function DepthChart({ kind, depths, title }: { kind: 'inlinks' | 'linkScore'; depths: DepthSpread[]; title: string }) {
  const { t } = useTranslation('analysis');
  const theme = useTheme();
  const ref = useRef<HTMLElement>(null);
  const [colours, setColours] = useState<Colours | null>(null);
  useEffect(() => {
    if (ref.current) setColours(resolveColours(ref.current));
  }, [theme]);
  const svg = useMemo(
    () => (colours ? depthChartSvg(depths, kind, colours, { title, x: t('crawlMap.depthAxis') }) : ''),
    [colours, depths, kind, title, t],
  );
  const file = kind === 'inlinks' ? 'inlinks-by-depth' : 'link-score-by-depth';
  const empty = kind === 'linkScore' && depths.every((d) => d.linkScore === null);
  return (
    <figure className="chart-card" data-chart={`depth-${kind}`} ref={ref}>
      <figcaption className="chart-head">
        <span className="chart-title">{title}</span>
        <ExportButton
          testId={`depth-${kind}-svg`}
          title={t('crawlMap.chartSvg', { title })}
          onClick={() => downloadSvg(svg, `${file}.svg`)}
        >
          {t('crawlMap.svg')}
        </ExportButton>
        <ExportButton
          testId={`depth-${kind}-png`}
          title={t('crawlMap.chartPng', { title })}
          onClick={() => void downloadSvgAsPng(svg, `${file}.png`)}
        >
          {t('crawlMap.png')}
        </ExportButton>
        <ExportButton
          testId={`depth-${kind}-csv`}
          title={t('crawlMap.chartCsv', { title })}
          onClick={() => downloadBlob(new Blob([chartCsv(depths, kind)], { type: 'text/csv;charset=utf-8' }), `${file}.csv`)}
        >
          {t('crawlMap.csv')}
        </ExportButton>
      </figcaption>
      {empty ? (
        <div className="chart-empty">{t('crawlMap.noScores')}</div>
      ) : (
        // An image of the SVG built here: no markup is ever put into the page (test/renderer's security check).
        <img className="depth-chart" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={title} />
      )}
    </figure>
  );
}
