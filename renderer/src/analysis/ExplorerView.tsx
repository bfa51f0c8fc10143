// The Results explorer: Screaming Frog's tabs and filters (grouped, each with its count), a page of the filter's
// rows searched and sorted in SQL, the detail pane of the selected URL, and "Export this view" with a column chooser
// and the Screaming Frog header preset. Crawled content is only ever text.
import { useEffect, useMemo, useState } from 'react';
import type { ResultSortColumn } from '../../../shared/crawler-api.ts';
import type { ExplorerRow, FilterId } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { useApi } from '../store/context.tsx';
import { indexabilityText } from '../results/ResultRowView.tsx';
import { filterTitle, groupedFilters, statusText } from './analysis-model.ts';
import { useHasCrawl, useLiveQuery } from './use-live.ts';
import { SortableHeader } from './SortableHeader.tsx';
import { ExportDialog } from './ExportDialog.tsx';
import { Pager } from './Pager.tsx';
import { UrlDetailPane } from './UrlDetailPane.tsx';

/** Badges refresh at most this often while a crawl runs (each count reads an index). */
export const COUNT_REFRESH_MS = 3_000;
const ROWS_REFRESH_MS = 1_000;
export const EXPLORER_PAGE = 100;

interface Column {
  id: string;
  label: string;
  sort: ResultSortColumn | null;
  cell: (r: ExplorerRow) => string;
  className?: string;
}

export const EXPLORER_COLUMNS: Column[] = [
  { id: 'url', label: 'URL', sort: 'url', cell: (r) => r.url, className: 'x-url' },
  {
    id: 'status',
    label: 'Status',
    sort: 'status_code',
    cell: (r) => (r.seq === null ? 'not fetched' : statusText(r.status_code)),
    className: 'x-num',
  },
  {
    id: 'indexability',
    label: 'Indexability',
    sort: 'indexability',
    cell: (r) => indexabilityText(r as never),
    className: 'x-index x-opt',
  },
  { id: 'title', label: 'Title', sort: 'title', cell: (r) => r.title ?? '' },
  // x-opt: left out while the detail pane takes the room.
  {
    id: 'words',
    label: 'Words',
    sort: 'word_count',
    cell: (r) => (r.word_count === null ? '' : formatInt(r.word_count)),
    className: 'x-num x-opt',
  },
  { id: 'inlinks', label: 'Inlinks', sort: 'inlinks', cell: (r) => formatInt(r.inlinks), className: 'x-num x-opt' },
  { id: 'depth', label: 'Depth', sort: 'crawl_depth', cell: (r) => String(r.crawl_depth), className: 'x-num x-opt' },
  {
    id: 'time',
    label: 'Time',
    sort: 'response_time_ms',
    cell: (r) => (r.response_time_ms === null ? '' : `${formatInt(r.response_time_ms)} ms`),
    className: 'x-num x-opt',
  },
];

/** The columns of the view: the fixed ones, with a column per custom extraction rule after the title. */
export function explorerColumns(extractionRules: readonly string[]): Column[] {
  const title = EXPLORER_COLUMNS.findIndex((c) => c.id === 'title');
  const rules: Column[] = extractionRules.map((rule) => ({
    id: `extract:${rule}`,
    label: rule,
    sort: null,
    // Values are crawled text: shown as text, several joined.
    cell: (r) => (Object.hasOwn(r.extracted ?? {}, rule) ? r.extracted[rule]!.join(' | ') : ''),
    className: 'x-extract x-opt',
  }));
  return [...EXPLORER_COLUMNS.slice(0, title + 1), ...rules, ...EXPLORER_COLUMNS.slice(title + 1)];
}

export function ExplorerView() {
  const api = useApi();
  const hasCrawl = useHasCrawl();
  const [filter, setFilter] = useState<FilterId>('all');
  const [text, setText] = useState('');
  const [appliedText, setAppliedText] = useState('');
  const [sort, setSort] = useState<{ column: ResultSortColumn; descending: boolean }>({ column: 'seq', descending: false });
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    const t = setTimeout(() => setAppliedText(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  // A new view starts at its first page.
  useEffect(() => setOffset(0), [filter, appliedText, sort]);

  const counts = useLiveQuery('counts', () => api.filterCounts(), COUNT_REFRESH_MS, { enabled: hasCrawl });
  const query = { filter, text: appliedText, sort: sort.column, descending: sort.descending, offset, limit: EXPLORER_PAGE };
  const page = useLiveQuery(JSON.stringify(query), () => api.queryFiltered(query), ROWS_REFRESH_MS, { enabled: hasCrawl });
  const groups = useMemo(() => groupedFilters(counts.data), [counts.data]);
  const total = page.data?.total ?? null;
  const columns = useMemo(() => explorerColumns(page.data?.extractionRules ?? []), [page.data?.extractionRules]);

  const toggleSort = (column: ResultSortColumn) =>
    setSort((s) =>
      s.column !== column
        ? { column, descending: false }
        : !s.descending
          ? { column, descending: true }
          : { column: 'seq', descending: false },
    );

  return (
    <section className="panel analysis-panel explorer" aria-label="results explorer">
      <div className="panel-bar">
        <h2 className="panel-title">Results explorer</h2>
        <span className="panel-note" data-testid="explorer-total" data-value={total ?? undefined}>
          {filterTitle(filter)}
          {total === null ? '' : ` · ${formatInt(total)} ${total === 1 ? 'URL' : 'URLs'}`}
        </span>
        <div className="results-tools">
          <input
            className="filter"
            type="search"
            placeholder="Search URL, title, error…"
            aria-label="search this view"
            data-testid="explorer-search"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <button
            type="button"
            className="btn"
            data-testid="explorer-export-open"
            disabled={!hasCrawl}
            aria-expanded={exporting}
            onClick={() => setExporting((x) => !x)}
          >
            <span className="icon icon-download" aria-hidden="true" />
            Export this view
          </button>
        </div>
      </div>
      {exporting && (
        <ExportDialog
          filter={filter}
          text={appliedText}
          extractionRules={page.data?.extractionRules ?? []}
          onClose={() => setExporting(false)}
        />
      )}
      <div className="explorer-body" data-detail={selected !== null || undefined}>
        <nav className="filter-list" aria-label="filters">
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
                  onClick={() => {
                    setFilter(f.id);
                    setSelected(null);
                  }}
                >
                  <span className="filter-tab-label">{f.label}</span>
                  <span className="count-badge" data-count={f.count ?? undefined} data-zero={f.count === 0 || undefined}>
                    {f.count === null ? '…' : formatInt(f.count)}
                  </span>
                </button>
              ))}
            </div>
          ))}
          {counts.error && <div className="analysis-error">{counts.error}</div>}
        </nav>
        <div className="explorer-table">
          <div className="xtable-scroll">
            <table className="xtable" aria-label="URLs of this view">
              <thead>
                <tr>
                  {columns.map((c) => (
                    <SortableHeader key={c.id} label={c.label} sort={c.sort} current={sort} onSort={toggleSort} className={c.className} />
                  ))}
                </tr>
              </thead>
              <tbody>
                {(page.data?.rows ?? []).map((r) => (
                  <tr
                    key={r.url_id}
                    data-explorer-url={r.url}
                    aria-selected={selected === r.url_id}
                    tabIndex={0}
                    onClick={() => setSelected(r.url_id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') setSelected(r.url_id);
                    }}
                  >
                    {columns.map((c) => (
                      <td
                        key={c.id}
                        className={c.className}
                        title={c.id === 'url' || c.id === 'title' || c.id.startsWith('extract:') ? c.cell(r) : undefined}
                      >
                        {c.cell(r)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {!hasCrawl && <div className="analysis-empty">Start a crawl or open an earlier one to explore its results.</div>}
            {hasCrawl && total === 0 && <div className="analysis-empty">No URLs in this view.</div>}
            {page.error && (
              <div className="analysis-error" role="alert">
                Could not load this view: {page.error}
              </div>
            )}
          </div>
          <Pager offset={offset} total={total} pageSize={EXPLORER_PAGE} onOffset={setOffset} />
        </div>
        {selected !== null && <UrlDetailPane urlId={selected} onClose={() => setSelected(null)} onOpen={setSelected} />}
      </div>
    </section>
  );
}
