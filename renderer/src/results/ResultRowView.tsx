// One row of the results table, and the column set. Everything crawled is shown as text (React escapes it);
// nothing here is a link, so a crawled URL can never navigate the app.
import { memo } from 'react';
import type { ReactNode } from 'react';
import type { ResultRow, ResultSortColumn, StatusClass } from '../../../shared/crawler-api.ts';
import { formatBytes, formatInt, shortContentType } from '../format.ts';
import type { LayoutColumn } from './column-layout.ts';
import { i18next, useTranslation } from '../i18n/i18n.ts';

// Column labels and cell notes through the 'results' strings, in the language shown when they are drawn.
const tr = i18next.getFixedT(null, 'results');

/** A column of a virtual table (the live results, the explorer) over rows of type R. */
export interface Column<R = ResultRow, S extends string = ResultSortColumn> extends LayoutColumn {
  label: string;
  /** The host's sort key; null: not sortable. */
  sort: S | null;
  numeric?: boolean;
  cell: (row: R) => ReactNode;
  /** Full text on hover, for cells that are cut short. */
  title?: (row: R) => string | undefined;
  /** What assistive technology reads, when the cell shows less than it means. */
  ariaLabel?: (row: R) => string | undefined;
  /** A custom extraction rule's column. */
  extracted?: boolean;
}

/** The classes of a column's cells. */
export const cellClass = (c: Pick<Column<never>, 'id' | 'numeric' | 'extracted'>) =>
  `rcell c-${c.id}${c.numeric ? ' num' : ''}${c.extracted ? ' c-extracted' : ''}`;

export function statusClassOf(code: number | null): StatusClass {
  if (code === null) return 'none';
  if (code >= 500) return '5xx';
  if (code >= 400) return '4xx';
  if (code >= 300) return '3xx';
  return '2xx';
}

const orBlank = (v: string | null) => v ?? undefined;

/** The host's reasons a page is not indexable (electron/engine/frontier/indexability.ts), as keys of their words. */
const REASON_KEYS = {
  noindex: 'noindex',
  canonicalised: 'canonicalised',
  redirected: 'redirected',
  'client error': 'clientError',
  'server error': 'serverError',
  'blocked by robots.txt': 'blockedByRobots',
  'no response': 'noResponse',
  'incomplete response': 'incompleteResponse',
} as const;

/** Why a page is not indexable, in the language shown (a reason the interface does not know, as the host gave it). */
export function indexabilityReasonText(reason: string): string {
  if (Object.hasOwn(REASON_KEYS, reason)) return tr(`indexability.reasons.${REASON_KEYS[reason as keyof typeof REASON_KEYS]}`);
  const status = /^status (\d+)$/.exec(reason);
  return status ? tr('indexability.reasons.status', { code: status[1] }) : reason;
}

/** "indexable", "non-indexable: noindex"; blank for resources, checked links and rows without a verdict. */
export function indexabilityText(r: Pick<ResultRow, 'indexability' | 'indexability_reason'>): string {
  if (r.indexability === null) return '';
  const verdict =
    r.indexability === 'indexable'
      ? tr('indexability.indexable')
      : r.indexability === 'non-indexable'
        ? tr('indexability.nonIndexable')
        : r.indexability;
  return r.indexability_reason
    ? tr('indexability.withReason', { verdict, reason: indexabilityReasonText(r.indexability_reason) })
    : verdict;
}

/** The page's robots directives from both places: meta robots as written, the X-Robots-Tag header marked so. */
export function directivesText(r: Pick<ResultRow, 'meta_robots' | 'x_robots_tag'>): string {
  const parts: string[] = [];
  if (r.meta_robots) parts.push(r.meta_robots);
  if (r.x_robots_tag) parts.push(tr('cells.header', { value: r.x_robots_tag }));
  return parts.join('; ');
}

function directivesTitle(r: ResultRow): string | undefined {
  const lines: string[] = [];
  if (r.meta_robots) lines.push(`meta robots: ${r.meta_robots}`);
  if (r.x_robots_tag) lines.push(`X-Robots-Tag: ${r.x_robots_tag}`);
  return lines.length ? lines.join('\n') : undefined;
}

/** An H1 count worth a second look: none, or more than one, on a page that has been read. */
function h1Cell(r: ResultRow): ReactNode {
  if (r.h1_count === null) return '';
  if (r.h1_count === 1) return 1;
  return <span className="attention">{formatInt(r.h1_count)}</span>;
}

/** A Link Score (0-100, one decimal) as shown; empty for a URL without one (external, a resource, not computed yet). */
export const formatLinkScore = (score: number | null | undefined): string => (score == null ? '' : score.toFixed(1));

export const COLUMNS: Column[] = [
  {
    id: 'url',
    get label() {
      return tr('columns.url');
    },
    track: 'minmax(300px, 3fr)',
    minPx: 300,
    required: true,
    sort: 'url',
    cell: (r) => r.url,
    title: (r) => r.url,
  },
  {
    id: 'status',
    track: '68px',
    minPx: 68,
    get label() {
      return tr('columns.status');
    },
    sort: 'status_code',
    numeric: true,
    cell: (r) => (r.status_code === null ? '—' : r.status_code),
    title: (r) => (r.redirect_url ? `${r.status_code ?? ''} → ${r.redirect_url}` : undefined),
  },
  {
    id: 'indexability',
    track: '150px',
    minPx: 150,
    get label() {
      return tr('columns.indexability');
    },
    sort: 'indexability',
    // A non-indexable row shows why (the reason is the news; a ✗ from the stylesheet says the rest), the full
    // "non-indexable: noindex" is its tooltip and what a screen reader hears.
    cell: (r) =>
      r.indexability === 'non-indexable' && r.indexability_reason ? indexabilityReasonText(r.indexability_reason) : indexabilityText(r),
    title: (r) => indexabilityText(r) || undefined,
    ariaLabel: (r) => indexabilityText(r) || undefined,
  },
  // The title early: in view at 1440 px with the sidebar open.
  {
    id: 'title',
    get label() {
      return tr('columns.title');
    },
    track: 'minmax(200px, 2fr)',
    minPx: 200,
    sort: 'title',
    cell: (r) => r.title,
    title: (r) => orBlank(r.title),
  },
  {
    id: 'kind',
    get label() {
      return tr('columns.kind');
    },
    track: '72px',
    minPx: 72,
    sort: null,
    cell: (r) => r.kind,
  },
  {
    id: 'type',
    track: '118px',
    minPx: 118,
    get label() {
      return tr('columns.type');
    },
    sort: 'content_type',
    cell: (r) => shortContentType(r.content_type),
    title: (r) => orBlank(r.content_type),
  },
  {
    id: 'size',
    track: '76px',
    minPx: 76,
    get label() {
      return tr('columns.size');
    },
    sort: 'size_bytes',
    numeric: true,
    cell: (r) => formatBytes(r.size_bytes),
    title: (r) => (r.size_bytes === null ? undefined : tr('cells.bytes', { n: formatInt(r.size_bytes) })),
  },
  {
    id: 'time',
    get label() {
      return tr('columns.time');
    },
    track: '80px',
    minPx: 80,
    sort: 'response_time_ms',
    numeric: true,
    cell: (r) => formatInt(r.response_time_ms),
  },
  {
    id: 'attempts',
    track: '56px',
    minPx: 56,
    get label() {
      return tr('columns.attempts');
    },
    sort: 'attempts',
    numeric: true,
    cell: (r) => (r.attempts > 1 ? <span className="attention">{formatInt(r.attempts)}</span> : formatInt(r.attempts)),
    title: (r) => (r.attempts === 0 ? tr('cells.neverFetched') : tr('cells.fetches', { count: r.attempts, n: formatInt(r.attempts) })),
  },
  {
    id: 'depth',
    get label() {
      return tr('columns.depth');
    },
    track: '62px',
    minPx: 62,
    sort: 'crawl_depth',
    numeric: true,
    cell: (r) => r.crawl_depth,
  },
  {
    id: 'h1s',
    get label() {
      return tr('columns.h1s');
    },
    track: '48px',
    minPx: 48,
    sort: null,
    numeric: true,
    cell: h1Cell,
    title: (r) => orBlank(r.h1),
  },
  {
    id: 'words',
    get label() {
      return tr('columns.words');
    },
    track: '66px',
    minPx: 66,
    sort: 'word_count',
    numeric: true,
    cell: (r) => formatInt(r.word_count),
  },
  {
    id: 'inlinks',
    get label() {
      return tr('columns.inlinks');
    },
    track: '66px',
    minPx: 66,
    sort: 'inlinks',
    numeric: true,
    cell: (r) => formatInt(r.inlinks),
  },
  {
    id: 'outlinks',
    get label() {
      return tr('columns.outlinks');
    },
    track: '74px',
    minPx: 74,
    sort: 'outlinks',
    numeric: true,
    cell: (r) => formatInt(r.outlinks),
  },
  {
    id: 'uniqueInlinks',
    get label() {
      return tr('columns.uniqueInlinks');
    },
    track: '124px',
    minPx: 124,
    sort: 'unique_inlinks',
    numeric: true,
    cell: (r) => (r.unique_inlinks == null ? '' : formatInt(r.unique_inlinks)),
  },
  {
    id: 'linkScore',
    get label() {
      return tr('columns.linkScore');
    },
    track: '104px',
    minPx: 104,
    sort: 'link_score',
    numeric: true,
    cell: (r) => formatLinkScore(r.link_score),
  },
  {
    id: 'directives',
    get label() {
      return tr('columns.directives');
    },
    track: 'minmax(130px, 1fr)',
    minPx: 130,
    sort: null,
    cell: directivesText,
    title: directivesTitle,
  },
  {
    id: 'error',
    get label() {
      return tr('columns.error');
    },
    track: 'minmax(160px, 1.3fr)',
    minPx: 160,
    sort: null,
    cell: (r) => r.error,
    title: (r) => orBlank(r.error),
  },
];

/** A rule's values on one row, in one line: " | " between them (the details list them a line each). */
export function extractedText(row: Pick<ResultRow, 'extracted'>, rule: string): string {
  const values = Object.hasOwn(row.extracted ?? {}, rule) ? row.extracted[rule]! : [];
  return values.join(' | ');
}

/** Width of an extraction rule's column at the least. */
export const EXTRACTED_COLUMN_PX = 150;

/** A column per custom extraction rule of the crawl, as text. */
export function extractedColumns(rules: readonly string[]): Column[] {
  return rules.map((rule, i) => ({
    id: `x${i}`,
    label: rule,
    track: `minmax(${EXTRACTED_COLUMN_PX}px, 1.5fr)`,
    minPx: EXTRACTED_COLUMN_PX,
    sort: null,
    extracted: true,
    cell: (r: ResultRow) => extractedText(r, rule),
    title: (r: ResultRow) => {
      const values = Object.hasOwn(r.extracted ?? {}, rule) ? r.extracted[rule]! : [];
      return values.length ? `${tr('cells.values', { rule, count: values.length })}\n${values.join('\n')}` : undefined;
    },
  }));
}

/** The table's columns for a crawl: URL and status, then its extraction rules' (what the analyst asked for), then the rest. */
export function columnsFor(rules: readonly string[]): Column[] {
  if (rules.length === 0) return COLUMNS;
  return [...COLUMNS.slice(0, 2), ...extractedColumns(rules), ...COLUMNS.slice(2)];
}

export interface ResultRowProps {
  row: ResultRow;
  index: number;
  selected: boolean;
  onSelect?: (row: ResultRow, index: number) => void;
  onCopy?: (text: string) => void;
  /** COLUMNS unless the crawl has extraction rules (columnsFor). */
  columns?: readonly Column[];
}

export const ResultRowView = memo(function ResultRowView({ row, index, selected, onSelect, onCopy, columns = COLUMNS }: ResultRowProps) {
  const { t } = useTranslation('results');
  return (
    <div
      className={index % 2 ? 'rrow rrow-odd' : 'rrow'}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-row-url={row.url}
      data-status-class={statusClassOf(row.status_code)}
      data-indexability={row.indexability ?? undefined}
      data-kind={row.kind}
      data-error={row.error ? 'true' : undefined}
      onClick={onSelect ? () => onSelect(row, index) : undefined}
    >
      {columns.map((c) => (
        <div key={c.id} role="cell" className={cellClass(c)} title={c.title?.(row)} aria-label={c.ariaLabel?.(row)}>
          {c.id === 'url' ? (
            <>
              <span className="url-text">{row.url}</span>
              {onCopy && (
                <button
                  type="button"
                  className="copy-btn"
                  title={t('cells.copyUrl')}
                  aria-label={t('cells.copyUrl')}
                  onClick={(e) => {
                    e.stopPropagation();
                    onCopy(row.url);
                  }}
                />
              )}
            </>
          ) : (
            c.cell(row)
          )}
        </div>
      ))}
    </div>
  );
});

/** A row whose page has not arrived yet. */
export function PlaceholderRow({
  index,
  columns = COLUMNS,
}: {
  index: number;
  columns?: readonly Pick<Column<never>, 'id' | 'numeric' | 'extracted'>[];
}) {
  return (
    <div
      className={index % 2 ? 'rrow rrow-odd rrow-placeholder' : 'rrow rrow-placeholder'}
      role="row"
      aria-rowindex={index + 2}
      aria-busy="true"
    >
      {columns.map((c) => (
        <div key={c.id} role="cell" className={cellClass(c)}>
          <span className="skeleton" />
        </div>
      ))}
    </div>
  );
}
