// The Results explorer: Screaming Frog's tabs and filters (grouped, each with its count), the filter's rows searched
// and sorted in SQL in the workbench's virtual table (scrolled through, fetched a window at a time), the URL detail
// pane of the selected URL, and "Export this view" with a column chooser and the Screaming Frog header preset.
// Crawled content is only ever text.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ResultSortColumn } from '../../../shared/crawler-api.ts';
import {
  type ExplorerQuery,
  type ExplorerRow,
  type FilterId,
  isContentFilter,
  RESULT_FILTERS,
  type UrlRef,
} from '../../../shared/analysis.ts';
import { formatBytes, formatInt } from '../format.ts';
import { useApi, useCrawl } from '../store/context.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import {
  COLUMNS,
  type Column as TableColumn,
  EXTRACTED_COLUMN_PX,
  formatLinkScore,
  indexabilityText,
  statusClassOf,
} from '../results/ResultRowView.tsx';
import { type ColumnLayout, DEFAULT_LAYOUT } from '../results/column-layout.ts';
import { ColumnMenu, type SortState, VirtualTable, useColumnLayout } from '../results/VirtualTable.tsx';
import { filterTitle, groupedFilters, shownGroups, statusText } from './analysis-model.ts';
import { useHasCrawl, useLive, useLiveQuery } from './use-live.ts';
import { ExportDialog } from './ExportDialog.tsx';
import { clearExplorerRequest, explorerRequest, takeExplorerFilter } from './explorer-request.ts';
import { UrlDetailPane } from './UrlDetailPane.tsx';
import { contentOptionsStore } from './content-options.ts';
import { NearThresholdControl } from './NearThresholdControl.tsx';
import { useStore } from 'zustand';

/** Badges refresh at most this often while a crawl runs (each count reads an index). */
export const COUNT_REFRESH_MS = 3_000;
/** The key the explorer's column layout is kept under. */
export const EXPLORER_VIEW = 'explorer';

type Column = TableColumn<ExplorerRow>;

/** A column's label, in the language shown when the header is drawn (a getter: read at each render). */
const ta = i18next.getFixedT(null, 'analysis');

export const EXPLORER_COLUMNS: Column[] = [
  {
    id: 'url',
    get label() {
      return ta('explorer.columns.url');
    },
    track: 'minmax(260px, 3fr)',
    minPx: 260,
    required: true,
    sort: 'url',
    cell: (r) => r.url,
    title: (r) => r.url,
  },
  {
    id: 'status',
    get label() {
      return ta('explorer.columns.status');
    },
    track: '92px',
    minPx: 92,
    sort: 'status_code',
    numeric: true,
    cell: (r) => (r.seq === null ? ta('notFetched') : statusText(r.status_code)),
  },
  {
    id: 'indexability',
    get label() {
      return ta('explorer.columns.indexability');
    },
    track: '150px',
    minPx: 150,
    sort: 'indexability',
    cell: (r) => indexabilityText(r),
    title: (r) => indexabilityText(r) || undefined,
  },
  {
    id: 'title',
    get label() {
      return ta('explorer.columns.title');
    },
    track: 'minmax(200px, 2fr)',
    minPx: 200,
    sort: 'title',
    cell: (r) => r.title ?? '',
    title: (r) => r.title ?? undefined,
  },
  {
    id: 'words',
    get label() {
      return ta('explorer.columns.words');
    },
    track: '66px',
    minPx: 66,
    sort: 'word_count',
    numeric: true,
    cell: (r) => (r.word_count === null ? '' : formatInt(r.word_count)),
  },
  {
    id: 'inlinks',
    get label() {
      return ta('explorer.columns.inlinks');
    },
    track: '66px',
    minPx: 66,
    sort: 'inlinks',
    numeric: true,
    cell: (r) => formatInt(r.inlinks),
  },
  {
    id: 'linkScore',
    get label() {
      return ta('explorer.columns.linkScore');
    },
    track: '104px',
    minPx: 104,
    sort: 'link_score',
    numeric: true,
    cell: (r) => formatLinkScore(r.link_score),
  },
  {
    id: 'depth',
    get label() {
      return ta('explorer.columns.depth');
    },
    track: '58px',
    minPx: 58,
    sort: 'crawl_depth',
    numeric: true,
    cell: (r) => String(r.crawl_depth),
  },
  {
    id: 'time',
    get label() {
      return ta('explorer.columns.time');
    },
    track: '80px',
    minPx: 80,
    sort: 'response_time_ms',
    numeric: true,
    cell: (r) => (r.response_time_ms === null ? '' : ta('ms', { ms: formatInt(r.response_time_ms) })),
  },
];

/** Duplicate content's columns (issue 18.1), after the URL in the Content filters' views. */
export const CONTENT_COLUMNS: Column[] = [
  {
    id: 'mainWords',
    get label() {
      return ta('explorer.columns.mainWords');
    },
    track: '104px',
    minPx: 104,
    sort: null,
    numeric: true,
    cell: (r) => (r.main_words == null ? '' : formatInt(r.main_words)),
  },
  {
    id: 'sameText',
    get label() {
      return ta('explorer.columns.sameText');
    },
    track: '92px',
    minPx: 92,
    sort: null,
    numeric: true,
    cell: (r) => (r.exact_duplicates == null || r.exact_duplicates < 2 ? '' : formatInt(r.exact_duplicates)),
  },
  {
    id: 'closestNear',
    get label() {
      return ta('explorer.columns.closestNear');
    },
    track: 'minmax(200px, 2fr)',
    minPx: 200,
    sort: null,
    cell: (r) => r.near_match_url ?? '',
    title: (r) => r.near_match_url ?? undefined,
  },
  {
    id: 'similarity',
    get label() {
      return ta('explorer.columns.similarity');
    },
    track: '84px',
    minPx: 84,
    sort: null,
    numeric: true,
    cell: (r) => (r.near_similarity == null ? '' : `${r.near_similarity}%`),
  },
];

/** A Content filter's columns: the explorer's, duplicate content's after the URL. */
export function contentColumns(extractionRules: readonly string[]): Column[] {
  const [url, ...rest] = explorerColumns(extractionRules);
  return [url!, ...CONTENT_COLUMNS, ...rest];
}

/** The live table's other columns, offered in the explorer too, hidden until the user shows them (column menu). */
const MORE_COLUMNS: Column[] = COLUMNS.filter((c) => !EXPLORER_COLUMNS.some((x) => x.id === c.id)).map((c) => c as unknown as Column);

/** The explorer's layout before the user changes it: its own columns, the live table's other ones hidden. */
export const EXPLORER_DEFAULT_LAYOUT: ColumnLayout = { ...DEFAULT_LAYOUT, hidden: MORE_COLUMNS.map((c) => c.id) };

/** The columns of the view: the fixed ones, with a column per custom extraction rule after the title, then the rest. */
export function explorerColumns(extractionRules: readonly string[]): Column[] {
  const title = EXPLORER_COLUMNS.findIndex((c) => c.id === 'title');
  const rules: Column[] = extractionRules.map((rule) => ({
    id: `extract:${rule}`,
    label: rule,
    track: `minmax(${EXTRACTED_COLUMN_PX}px, 1.5fr)`,
    minPx: EXTRACTED_COLUMN_PX,
    sort: null,
    extracted: true,
    // Values are crawled text: shown as text, several joined.
    cell: (r) => (Object.hasOwn(r.extracted ?? {}, rule) ? r.extracted[rule]!.join(' | ') : ''),
    title: (r) => (Object.hasOwn(r.extracted ?? {}, rule) ? r.extracted[rule]!.join('\n') : undefined),
  }));
  return [...EXPLORER_COLUMNS.slice(0, title + 1), ...rules, ...EXPLORER_COLUMNS.slice(title + 1), ...MORE_COLUMNS];
}

/**
 * Issue 18.3: the Images filters' columns. Their rows are uses of an image on a page: the image, the page using it, the
 * alt (missing and empty told apart), the dimensions given, and the image's status and size when the crawl checked it.
 */
export const IMAGE_COLUMNS: Column[] = [
  {
    id: 'url',
    get label() {
      return ta('explorer.imageColumns.image');
    },
    track: 'minmax(220px, 2fr)',
    minPx: 220,
    required: true,
    sort: 'url',
    cell: (r) => r.url,
    title: (r) => r.url,
  },
  {
    id: 'page',
    get label() {
      return ta('explorer.imageColumns.page');
    },
    track: 'minmax(200px, 2fr)',
    minPx: 200,
    sort: null,
    cell: (r) => r.image?.page_url ?? '',
    title: (r) => r.image?.page_url,
  },
  {
    id: 'alt',
    get label() {
      return ta('explorer.imageColumns.alt');
    },
    track: 'minmax(180px, 2fr)',
    minPx: 180,
    sort: 'title',
    cell: (r) =>
      r.image?.alt == null ? (
        <span className="attention">{ta('detail.images.altMissing')}</span>
      ) : r.image.alt === '' ? (
        ta('detail.images.altEmpty')
      ) : (
        r.image.alt
      ),
    title: (r) => r.image?.alt ?? undefined,
  },
  {
    id: 'altLength',
    get label() {
      return ta('explorer.imageColumns.altLength');
    },
    track: '84px',
    minPx: 84,
    sort: null,
    numeric: true,
    cell: (r) => (r.image?.alt_len == null ? '' : formatInt(r.image.alt_len)),
  },
  {
    id: 'dimensions',
    get label() {
      return ta('explorer.imageColumns.dimensions');
    },
    track: '110px',
    minPx: 110,
    sort: null,
    cell: (r) => (r.image?.width == null && r.image?.height == null ? '' : `${r.image?.width ?? '?'} × ${r.image?.height ?? '?'}`),
  },
  {
    id: 'status',
    get label() {
      return ta('explorer.columns.status');
    },
    track: '104px',
    minPx: 104,
    sort: 'status_code',
    numeric: true,
    cell: (r) => (r.image?.checked ? statusText(r.status_code) : ta('detail.images.notChecked')),
  },
  {
    id: 'size',
    get label() {
      return ta('explorer.imageColumns.size');
    },
    track: '84px',
    minPx: 84,
    sort: 'size_bytes',
    numeric: true,
    cell: (r) => (r.size_bytes === null ? '' : formatBytes(r.size_bytes)),
  },
];
const imageColumns = () => IMAGE_COLUMNS;
/** Where the Images filters' column layout is kept. */
export const EXPLORER_IMAGES_VIEW = 'explorer-images';

const rowKey = (r: ExplorerRow) => r.url_id;
const rowAttrs = (r: ExplorerRow) => ({ 'data-explorer-url': r.url, 'data-status-class': statusClassOf(r.status_code) });

/** The URL a row's detail opens on: an image use's image when the crawl checked it (its pages), else its page (its images). */
function detailRef(row: ExplorerRow): UrlRef {
  if (!row.image) return { id: row.url_id };
  return row.image.checked ? { url: row.url } : { id: row.image.page_id };
}

export function ExplorerView() {
  const api = useApi();
  const hasCrawl = useHasCrawl();
  // A filter asked for elsewhere (an issue of the overview) opens the explorer on it.
  const [filter, setFilter] = useState<FilterId>(() => takeExplorerFilter() ?? 'all');
  // A folder of the site structure, opened here: only URLs under it are listed.
  const asked = useStore(explorerRequest, (s) => s.request);
  const crawlKey = useCrawl((s) => s.crawlKey);
  const prefix = asked !== null && asked.crawlKey === crawlKey ? asked.prefix : '';
  const [text, setText] = useState('');
  const [appliedText, setAppliedText] = useState('');
  const [sort, setSort] = useState<SortState>({ column: 'seq', descending: false });
  const [selected, setSelected] = useState<{ row: ExplorerRow; rules: readonly string[] } | null>(null);
  const [exporting, setExporting] = useState(false);
  const [total, setTotal] = useState<number | null>(null);
  const [rules, setRules] = useState<readonly string[]>([]);
  const [scoresPending, setScoresPending] = useState(false);
  const mainLayout = useColumnLayout(EXPLORER_VIEW, EXPLORER_DEFAULT_LAYOUT);
  const imagesLayout = useColumnLayout(EXPLORER_IMAGES_VIEW, DEFAULT_LAYOUT);
  const imageFilter = RESULT_FILTERS.find((f) => f.id === filter)?.group === 'images';
  const layout = imageFilter ? imagesLayout : mainLayout;
  const live = useLive();
  const version = useCrawl((s) => s.counters.crawled + s.counters.failed + s.counters.queued);

  useEffect(() => {
    const timer = setTimeout(() => setAppliedText(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const { t } = useTranslation('analysis');

  // A new duplicate-content threshold (issue 18.1): the counts and the rows read again.
  const contentGeneration = useStore(contentOptionsStore, (s) => s.generation);
  const counts = useLiveQuery(`counts|${contentGeneration}`, () => api.filterCounts(), COUNT_REFRESH_MS, { enabled: hasCrawl });
  const query = useMemo(
    () => ({ filter, text: appliedText, ...(prefix ? { prefix } : {}), sort: sort.column, descending: sort.descending }),
    [filter, appliedText, prefix, sort],
  );
  const fetchPage = useCallback((q: ExplorerQuery) => api.queryFiltered(q), [api]);
  const onSelect = useCallback(
    (row: ExplorerRow | null, _index: number, rowRules: readonly string[]) => setSelected(row ? { row, rules: rowRules } : null),
    [],
  );
  // Not memoised: the filters' names follow the language.
  const groups = shownGroups(groupedFilters(counts.data), counts.data, filter);
  const contentFilter = isContentFilter(filter);
  const menuColumns = useMemo(
    () => (imageFilter ? IMAGE_COLUMNS : contentFilter ? contentColumns(rules) : explorerColumns(rules)),
    [rules, imageFilter, contentFilter],
  );

  const toggleSort = (column: ResultSortColumn) =>
    setSort((s: SortState) =>
      s.column !== column
        ? { column, descending: false }
        : !s.descending
          ? { column, descending: true }
          : { column: 'seq', descending: false },
    );

  return (
    <section className="panel analysis-panel explorer" aria-label={t('explorer.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('explorer.title')}</h2>
        <span className="panel-note" data-testid="explorer-total" data-value={total ?? undefined}>
          {filterTitle(filter)}
          {total === null ? '' : t('explorer.total', { count: total, n: formatInt(total) })}
          {scoresPending && <span data-testid="explorer-scores-pending">{t('explorer.scoresPending')}</span>}
        </span>
        <div className="results-tools">
          {prefix && (
            <span className="prefix-chip" data-testid="explorer-prefix" title={prefix}>
              <span className="prefix-chip-label">{t('explorer.inFolder', { prefix })}</span>
              <button
                type="button"
                className="btn btn-small"
                aria-label={t('explorer.clearFolder')}
                title={t('explorer.clearFolder')}
                onClick={clearExplorerRequest}
              >
                ×
              </button>
            </span>
          )}
          <input
            className="filter"
            type="search"
            placeholder={t('explorer.searchPlaceholder')}
            aria-label={t('explorer.searchLabel')}
            data-testid="explorer-search"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <ColumnMenu columns={menuColumns} layout={layout} />
          <button
            type="button"
            className="btn"
            data-testid="explorer-export-open"
            disabled={!hasCrawl}
            aria-expanded={exporting}
            onClick={() => setExporting((x) => !x)}
          >
            <span className="icon icon-download" aria-hidden="true" />
            {t('explorer.export')}
          </button>
        </div>
      </div>
      {exporting && (
        <ExportDialog
          filter={filter}
          text={appliedText}
          extractionRules={rules}
          rendered={(counts.data?.['js-rendered'] ?? 0) > 0}
          onClose={() => setExporting(false)}
        />
      )}
      <div className="explorer-body" data-detail={selected !== null || undefined}>
        <nav className="filter-list" aria-label={t('explorer.filtersLabel')}>
          {groups.map((g) => (
            <div key={g.id} className="filter-group">
              <div className="filter-group-label">{g.label}</div>
              {g.filters.map((f) => (
                <button
                  key={f.id}
                  type="button"
                  className="filter-tab"
                  data-filter={f.id}
                  aria-pressed={filter === f.id}
                  title={f.description}
                  onClick={() => setFilter(f.id)}
                >
                  <span className="filter-tab-label">{f.label}</span>
                  <span className="count-badge" data-count={f.count ?? undefined} data-zero={f.count === 0 || undefined}>
                    {f.count === null ? '…' : formatInt(f.count)}
                  </span>
                </button>
              ))}
              {g.id === 'content' && hasCrawl && <NearThresholdControl />}
            </div>
          ))}
          {counts.error && <div className="analysis-error">{counts.error}</div>}
        </nav>
        <div className="explorer-table">
          {hasCrawl ? (
            <VirtualTable<Omit<ExplorerQuery, 'offset' | 'limit'>, ExplorerRow>
              ariaLabel={t('explorer.tableLabel')}
              filter={query}
              fetchPage={fetchPage}
              columnsFor={imageFilter ? imageColumns : contentFilter ? contentColumns : explorerColumns}
              layout={layout}
              sort={sort}
              onSort={toggleSort}
              selectedKey={selected?.row.url_id ?? null}
              rowKey={rowKey}
              onSelect={onSelect}
              rowAttrs={rowAttrs}
              onTotal={setTotal}
              onRules={setRules}
              onScoresPending={setScoresPending}
              filtered={appliedText !== '' || prefix !== ''}
              empty={() => t('explorer.empty')}
              live={live}
              version={version + contentGeneration}
            />
          ) : (
            <div className="analysis-empty">{t('explorer.noCrawl')}</div>
          )}
        </div>
        {selected !== null && (
          <UrlDetailPane start={{ ref: detailRef(selected.row) }} rules={selected.rules} onClose={() => setSelected(null)} />
        )}
      </div>
    </section>
  );
}
