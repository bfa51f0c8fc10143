// The site structure: the crawl's URLs as a folder tree (host, then the path's folders), each folder with its URLs
// (own and below), a bar of its indexable and non-indexable shares, a bar of its status classes, and its least and
// mean crawl depth. A folder's children are asked for when it is expanded (the largest first, the rest summed as
// "N more folders"); while the crawl runs the hosts and every expanded folder are asked for again together, at
// most every few seconds. A click on a folder's name lists its URLs in the explorer. Exports: the whole tree as CSV
// (the host writes it), and the tree as shown as an SVG or PNG picture (drawn here, its colours those of the theme in
// use).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SiteStructure, StructureFolder, StructureLevel, StructureStats } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { hostText } from '../i18n/host-messages.ts';
import { useBusyCommand } from '../components/use-command.ts';
import { useHasCrawl, useLiveQuery } from './use-live.ts';
import { requestExplorer } from './explorer-request.ts';
import { downloadSvg, downloadSvgAsPng, ExportButton } from './picture-export.tsx';

/** The most children listed per folder (the rest summed in one row). */
export const STRUCTURE_LIMIT = 50;
/** While the crawl runs, the tree is asked for again at most this often. */
export const STRUCTURE_REFRESH_MS = 3_000;
const BAR_WIDTH = 120;
const BAR_HEIGHT = 10;

type Segment = { key: string; value: number };

const indexSegments = (s: StructureStats): Segment[] => [
  { key: 'indexable', value: s.indexable },
  { key: 'nonIndexable', value: s.nonIndexable },
  { key: 'other', value: s.urls - s.indexable - s.nonIndexable },
];
const statusSegments = (s: StructureStats): Segment[] => [
  { key: '2xx', value: s.status['2xx'] },
  { key: '3xx', value: s.status['3xx'] },
  { key: '4xx', value: s.status['4xx'] },
  { key: '5xx', value: s.status['5xx'] },
  { key: 'none', value: s.status.none },
];

/** The segments' rectangles across `width`, in order, each at least a pixel wide when it has any URL. */
export function barRects(segments: readonly Segment[], width: number): { key: string; x: number; w: number }[] {
  const total = segments.reduce((n, s) => n + s.value, 0);
  if (total === 0) return [];
  const out: { key: string; x: number; w: number }[] = [];
  let x = 0;
  for (const s of segments) {
    if (s.value <= 0) continue;
    const w = Math.max(1, (s.value / total) * width);
    out.push({ key: s.key, x, w });
    x += w;
  }
  return out;
}

function Bar({ segments, title, kind }: { segments: Segment[]; title: string; kind: string }) {
  return (
    <svg className="structure-bar" data-bar={kind} width={BAR_WIDTH} height={BAR_HEIGHT} role="img" aria-label={title}>
      <title>{title}</title>
      <rect className="seg-track" x={0} y={0} width={BAR_WIDTH} height={BAR_HEIGHT} />
      {barRects(segments, BAR_WIDTH).map((r) => (
        <rect key={r.key} className={`seg seg-${r.key}`} data-seg={r.key} x={r.x} y={0} width={r.w} height={BAR_HEIGHT} />
      ))}
    </svg>
  );
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '0%');
const depthText = (s: StructureStats) => (s.minDepth === null || s.avgDepth === null ? '' : `${s.minDepth} / ${s.avgDepth.toFixed(1)}`);

/** A row as drawn: a folder, or the "N more folders" of a level. */
interface Row {
  kind: 'folder' | 'more';
  level: number;
  folder?: StructureFolder;
  stats: StructureStats;
  name: string;
  folders: number;
  key: string;
}

/** The rows shown: each host, and below each expanded folder its children, depth first. */
function visibleRows(
  hosts: StructureLevel | null,
  levelOf: (path: string) => StructureLevel | undefined,
  expanded: ReadonlySet<string>,
  moreName: (n: number) => string,
): Row[] {
  const rows: Row[] = [];
  const walk = (level: StructureLevel, depth: number) => {
    for (const f of level.children) {
      rows.push({ kind: 'folder', level: depth, folder: f, stats: f, name: f.name, folders: f.folders, key: f.path });
      const below = expanded.has(f.path) ? levelOf(f.path) : undefined;
      if (below) walk(below, depth + 1);
    }
    if (level.more)
      rows.push({
        kind: 'more',
        level: depth,
        stats: level.more,
        name: moreName(level.more.folders),
        folders: level.more.folders,
        key: `${level.path ?? ''}\u0000more`,
      });
  };
  if (hosts) walk(hosts, 0);
  return rows;
}

export function StructureView() {
  const api = useApi();
  const store = useCrawlStore();
  const hasCrawl = useHasCrawl();
  const crawlKey = useCrawl((s) => s.crawlKey);
  const { t } = useTranslation('analysis');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const expandedRef = useRef(expanded);
  expandedRef.current = expanded;
  // Levels fetched when a folder was expanded, until the next refresh brings them with the rest.
  const [fetched, setFetched] = useState<ReadonlyMap<string, { level: StructureLevel; seq: number }>>(() => new Map());
  useEffect(() => {
    setExpanded(new Set());
    setFetched(new Map());
  }, [crawlKey]);
  const tree = useLiveQuery<SiteStructure>(
    'structure',
    () => api.siteStructure({ paths: [...expandedRef.current], limit: STRUCTURE_LIMIT }),
    STRUCTURE_REFRESH_MS,
    { enabled: hasCrawl },
  );
  const data = tree.data;
  const levelOf = useCallback(
    (path: string): StructureLevel | undefined => {
      const own = fetched.get(path);
      const refreshed = data?.levels.find((l) => l.path === path);
      if (own && (!refreshed || own.seq > (data?.lastSeq ?? 0))) return own.level;
      return refreshed;
    },
    [data, fetched],
  );
  const toggle = async (path: string) => {
    if (expanded.has(path)) {
      const next = new Set(expanded);
      next.delete(path);
      setExpanded(next);
      return;
    }
    setExpanded(new Set(expanded).add(path));
    if (levelOf(path)) return;
    try {
      const answer = await api.siteStructure({ paths: [path], limit: STRUCTURE_LIMIT });
      const level = answer.levels[0];
      if (level) setFetched((m) => new Map(m).set(path, { level, seq: answer.lastSeq }));
    } catch (err) {
      notify(store, 'error', hostText(err instanceof Error ? err.message : String(err)));
    }
  };
  const rows = visibleRows(data?.hosts ?? null, levelOf, expanded, (n) => t('structure.more', { count: n, n: formatInt(n) }));
  const [csvBusy, runCsv] = useBusyCommand();
  const exportCsv = async () => {
    const result = await runCsv(t('structure.csvCommand'), () => api.exportStructureCsv());
    if (!result) return;
    if (!result.ok)
      notify(store, /cancel/i.test(result.error) ? 'info' : 'error', t('structure.csvFailed', { error: hostText(result.error) }));
    else
      notify(
        store,
        'info',
        result.file ? t('structure.saved', { n: formatInt(result.rows ?? 0), file: result.file }) : t('structure.downloadStarted'),
      );
  };
  const tableRef = useRef<HTMLDivElement>(null);
  /** The rows shown as one picture, in the theme's colours (null before the tree is there). */
  const picture = () =>
    tableRef.current
      ? structureSvg(rows, themeColours(tableRef.current), {
          title: t('structure.title'),
          urls: t('structure.columns.urls'),
          depth: t('structure.columns.depth'),
        })
      : null;
  const exportSvg = () => {
    const svg = picture();
    if (!svg) return;
    downloadSvg(svg, 'site-structure.svg');
    notify(store, 'info', t('structure.svgSaved'));
  };
  const exportPng = async () => {
    const svg = picture();
    if (svg && (await downloadSvgAsPng(svg, 'site-structure.png'))) notify(store, 'info', t('structure.pngSaved'));
  };
  const total = data?.total;
  return (
    <section className="panel analysis-panel structure-view" aria-label={t('structure.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('structure.title')}</h2>
        <span className="panel-note" data-testid="structure-total" data-value={total?.urls}>
          {total
            ? t('structure.totals', {
                count: total.urls,
                n: formatInt(total.urls),
                indexable: formatInt(total.indexable),
                non: formatInt(total.nonIndexable),
              })
            : ''}
        </span>
        <Legend />
        <div className="results-tools">
          <ExportButton
            testId="structure-csv"
            title={t('structure.csvCommand')}
            disabled={csvBusy || !data}
            onClick={() => void exportCsv()}
          >
            {t('structure.csv')}
          </ExportButton>
          <ExportButton testId="structure-svg" title={t('structure.svgCommand')} disabled={!data} onClick={exportSvg}>
            {t('structure.svg')}
          </ExportButton>
          <ExportButton testId="structure-png" title={t('structure.pngCommand')} disabled={!data} onClick={() => void exportPng()}>
            {t('structure.png')}
          </ExportButton>
        </div>
      </div>
      {tree.error && <div className="analysis-error">{tree.error}</div>}
      <div className="structure-table" ref={tableRef} data-testid="structure-table">
        {!hasCrawl ? (
          <div className="analysis-empty">{t('structure.noCrawl')}</div>
        ) : (
          <table className="structure-grid" role="treegrid" aria-label={t('structure.tableLabel')}>
            <thead>
              <tr>
                <th scope="col">{t('structure.columns.folder')}</th>
                <th scope="col" className="num">
                  {t('structure.columns.urls')}
                </th>
                <th scope="col" className="num">
                  {t('structure.columns.own')}
                </th>
                <th scope="col">{t('structure.columns.indexability')}</th>
                <th scope="col">{t('structure.columns.status')}</th>
                <th scope="col" className="num">
                  {t('structure.columns.depth')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <StructureRow
                  key={r.key}
                  row={r}
                  expanded={r.folder ? expanded.has(r.folder.path) : false}
                  onToggle={(path) => void toggle(path)}
                  onOpen={(path) => requestExplorer({ prefix: path, crawlKey })}
                />
              ))}
              {data && rows.length === 0 && (
                <tr>
                  <td colSpan={6} className="analysis-empty">
                    {t('structure.empty')}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

function StructureRow({
  row,
  expanded,
  onToggle,
  onOpen,
}: {
  row: Row;
  expanded: boolean;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
}) {
  const { t } = useTranslation('analysis');
  const s = row.stats;
  const f = row.folder;
  const other = s.urls - s.indexable - s.nonIndexable;
  return (
    <tr
      className={`structure-row structure-${row.kind}`}
      data-folder={f?.path}
      data-more={row.kind === 'more' ? row.folders : undefined}
      data-urls={s.urls}
      data-level={row.level}
      aria-level={row.level + 1}
    >
      <td className="structure-name" style={{ paddingLeft: `${row.level * 16 + 4}px` }}>
        {f && f.folders > 0 ? (
          <button
            type="button"
            className="structure-toggle"
            aria-expanded={expanded}
            aria-label={t(expanded ? 'structure.collapse' : 'structure.expand', { name: f.name })}
            onClick={() => onToggle(f.path)}
          >
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="structure-toggle-space" aria-hidden="true" />
        )}
        {f ? (
          <button
            type="button"
            className="structure-open"
            title={t('structure.open', { n: formatInt(s.urls), path: f.path })}
            onClick={() => onOpen(f.path)}
          >
            {f.name}
          </button>
        ) : (
          <span className="structure-more-name" title={t('structure.moreTitle')}>
            {row.name}
          </span>
        )}
      </td>
      <td className="num" data-col="urls">
        {formatInt(s.urls)}
      </td>
      <td className="num" data-col="own">
        {formatInt(s.own)}
      </td>
      <td>
        <span className="structure-bar-cell">
          <Bar
            kind="indexability"
            segments={indexSegments(s)}
            title={t('structure.barTitle', {
              indexable: formatInt(s.indexable),
              ip: percent(s.indexable, s.urls),
              non: formatInt(s.nonIndexable),
              np: percent(s.nonIndexable, s.urls),
              other: formatInt(other),
            })}
          />
          <span className="structure-share">{percent(s.indexable, s.urls)}</span>
        </span>
      </td>
      <td>
        <Bar
          kind="status"
          segments={statusSegments(s)}
          title={t('structure.statusTitle', {
            s2: formatInt(s.status['2xx']),
            s3: formatInt(s.status['3xx']),
            s4: formatInt(s.status['4xx']),
            s5: formatInt(s.status['5xx']),
            none: formatInt(s.status.none),
          })}
        />
      </td>
      <td className="num" data-col="depth">
        {depthText(s)}
      </td>
    </tr>
  );
}

const LEGEND_KEYS = ['indexable', 'nonIndexable', 'other', '2xx', '3xx', '4xx', '5xx', 'none'] as const;

function Legend() {
  const { t } = useTranslation('analysis');
  return (
    <span className="structure-legend" aria-label={t('structure.legend')}>
      {LEGEND_KEYS.map((k) => (
        <span key={k} className="legend-key">
          <svg width={10} height={10} aria-hidden="true">
            <rect className={`seg seg-${k}`} width={10} height={10} />
          </svg>
          {t(`structure.keys.${k}`)}
        </span>
      ))}
    </span>
  );
}

/** The theme's colours in use, resolved (light or dark): the exported picture stands alone, without the stylesheet. */
function themeColours(el: HTMLElement): Record<string, string> {
  const probe = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  probe.style.position = 'absolute';
  probe.style.visibility = 'hidden';
  el.append(probe);
  const out: Record<string, string> = {};
  for (const key of [...LEGEND_KEYS, 'track']) {
    const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    rect.setAttribute('class', key === 'track' ? 'seg-track' : `seg seg-${key}`);
    probe.append(rect);
    out[key] = getComputedStyle(rect).fill;
  }
  const style = getComputedStyle(el);
  out.text = style.color;
  out.background = getComputedStyle(el.closest('.panel') ?? el).backgroundColor;
  probe.remove();
  return out;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The rows shown as one SVG picture: names indented by level, URL counts, both bars, depth. */
export function structureSvg(
  rows: readonly Row[],
  colours: Record<string, string>,
  labels: { title: string; urls: string; depth: string },
): string {
  const rowH = 22;
  const nameW = 360;
  const width = nameW + 80 + BAR_WIDTH + 20 + BAR_WIDTH + 20 + 90;
  const height = (rows.length + 2) * rowH;
  const text = (x: number, y: number, s: string, anchor = 'start') =>
    `<text x="${x}" y="${y}" text-anchor="${anchor}" fill="${colours.text}">${escapeXml(s)}</text>`;
  const bar = (x: number, y: number, segments: Segment[]) =>
    [
      `<rect x="${x}" y="${y}" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" fill="${colours.track}"/>`,
      ...barRects(segments, BAR_WIDTH).map(
        (r) => `<rect x="${(x + r.x).toFixed(2)}" y="${y}" width="${r.w.toFixed(2)}" height="${BAR_HEIGHT}" fill="${colours[r.key]}"/>`,
      ),
    ].join('');
  const body = rows.map((r, i) => {
    const y = (i + 2) * rowH;
    const name = r.name.length > 48 ? `${r.name.slice(0, 47)}…` : r.name;
    return [
      text(8 + r.level * 16, y, name),
      text(nameW + 70, y, formatInt(r.stats.urls), 'end'),
      bar(nameW + 80, y - BAR_HEIGHT + 1, indexSegments(r.stats)),
      bar(nameW + 80 + BAR_WIDTH + 20, y - BAR_HEIGHT + 1, statusSegments(r.stats)),
      text(width - 8, y, depthText(r.stats), 'end'),
    ].join('');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">
<rect width="100%" height="100%" fill="${colours.background}"/>
${text(8, rowH - 4, labels.title)}${text(nameW + 70, rowH - 4, labels.urls, 'end')}${text(width - 8, rowH - 4, labels.depth, 'end')}
${body.join('\n')}
</svg>
`;
}
