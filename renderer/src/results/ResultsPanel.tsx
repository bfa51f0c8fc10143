// The results of the crawl in view: a virtualised table (fixed row height, only the visible rows in the DOM, a
// spacer for the full height) over windows of rows the host sorts and filters in SQL. Smooth at a million rows.
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { CSSProperties, KeyboardEvent } from 'react';
import type { ResultRow, ResultSortColumn, StatusClass } from '../../../shared/crawler-api.ts';
import { STATUS_CLASSES } from '../../../shared/crawler-api.ts';
import { copyText } from '../clipboard.ts';
import { formatInt } from '../format.ts';
import { errorMessage } from '../api/connection.ts';
import { notify } from '../store/crawl-store.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { PlaceholderRow, ResultRowView, cellClass, columnsFor } from './ResultRowView.tsx';
import { ResultsWindow } from './results-window.ts';
import type { QueryFilter } from './results-window.ts';
import { HEADER_HEIGHT, OVERSCAN, ROW_HEIGHT, computeViewport } from './viewport.ts';
import { RowDetails } from './RowDetails.tsx';

/** While a crawl runs the table refreshes at most this often. */
const REFRESH_MS = 1_000;
const FILTER_DEBOUNCE_MS = 250;

interface Selection {
  row: ResultRow;
  index: number;
  /** The crawl's extraction rules, for the details. */
  rules: readonly string[];
}

/** Width of an extraction rule's column at the least (styles/base.css has the built-in ones). */
const EXTRACTED_COLUMN_PX = 150;

/** The grid's columns with a crawl's extraction rules after URL and status (see --result-cols in styles/base.css). */
export function extractedGridStyle(rules: number): CSSProperties | undefined {
  if (rules === 0) return undefined;
  return {
    '--result-cols': `var(--result-cols-lead) repeat(${rules}, minmax(${EXTRACTED_COLUMN_PX}px, 1.5fr)) var(--result-cols-rest)`,
    '--result-min-width': `calc(var(--result-base-min-width) + ${rules * EXTRACTED_COLUMN_PX}px)`,
  } as CSSProperties;
}

interface SortState {
  column: ResultSortColumn;
  descending: boolean;
}

const CRAWL_ORDER: SortState = { column: 'seq', descending: false };

export function ResultsPanel() {
  const api = useApi();
  const store = useCrawlStore();
  const [sort, setSort] = useState<SortState>(CRAWL_ORDER);
  const [text, setText] = useState('');
  const [appliedText, setAppliedText] = useState('');
  const [statusClass, setStatusClass] = useState<StatusClass | null>(null);
  const [selected, setSelected] = useState<Selection | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [exporting, runExport] = useBusyCommand();
  const canExport = useCrawl((s) => s.file !== null || s.opened !== null || s.hasSnapshot);

  useEffect(() => {
    const t = setTimeout(() => setAppliedText(text.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const filter: QueryFilter = useMemo(
    () => ({ sort: sort.column, descending: sort.descending, text: appliedText, statusClass }),
    [sort, appliedText, statusClass],
  );

  const exportCsv = async () => {
    const result = await runExport('Export CSV', () => api.exportCsv());
    if (!result) return;
    if (!result.ok) notify(store, /cancel/i.test(result.error) ? 'info' : 'error', `Export CSV: ${result.error}`);
    else if (result.file) notify(store, 'info', `Exported ${result.rows === null ? 'the' : formatInt(result.rows)} rows to ${result.file}`);
    else notify(store, 'info', 'The CSV download has started.');
  };

  const toggleSort = (column: ResultSortColumn) =>
    setSort((s) => (s.column !== column ? { column, descending: false } : !s.descending ? { column, descending: true } : CRAWL_ORDER));

  return (
    <section className="panel results-panel" aria-label="results">
      <div className="panel-bar">
        <h2 className="panel-title">Results</h2>
        <span className="panel-note" data-testid="results-total" data-value={total ?? undefined}>
          {total === null ? '' : `${formatInt(total)} ${total === 1 ? 'row' : 'rows'}${appliedText || statusClass ? ' match' : ''}`}
        </span>
        <div className="results-tools">
          <input
            className="filter"
            type="search"
            placeholder="Filter URL, title, error…"
            aria-label="filter results"
            data-testid="results-filter"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setText('');
            }}
          />
          <div className="segmented" role="group" aria-label="status class">
            {STATUS_CLASSES.map((c) => (
              <button
                key={c}
                type="button"
                className="seg"
                data-status-class={c}
                aria-pressed={statusClass === c}
                title={c === 'none' ? 'URLs that got no response' : `HTTP ${c}`}
                onClick={() => setStatusClass((s) => (s === c ? null : c))}
              >
                {c}
              </button>
            ))}
          </div>
          <button type="button" className="btn" data-testid="export" disabled={!canExport || exporting} onClick={() => void exportCsv()}>
            <span className="icon icon-download" aria-hidden="true" />
            {exporting ? 'Exporting…' : 'Export CSV'}
          </button>
        </div>
      </div>
      <div className="results-body">
        <ResultsTable filter={filter} sort={sort} onSort={toggleSort} selected={selected} onSelect={setSelected} onTotal={setTotal} />
        {selected && <RowDetails row={selected.row} rules={selected.rules} onClose={() => setSelected(null)} />}
      </div>
    </section>
  );
}

interface TableProps {
  filter: QueryFilter;
  sort: SortState;
  onSort: (column: ResultSortColumn) => void;
  selected: Selection | null;
  onSelect: (selection: Selection | null) => void;
  onTotal: (total: number | null) => void;
}

function ResultsTable({ filter, sort, onSort, selected, onSelect, onTotal }: TableProps) {
  const api = useApi();
  const store = useCrawlStore();
  const crawlKey = useCrawl((s) => s.crawlKey);
  const version = useCrawl((s) => s.counters.crawled + s.counters.failed);
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(600);

  // One window of rows per query and crawl; a stale window's answers are ignored.
  const current = useRef<ResultsWindow | null>(null);
  const filterKey = JSON.stringify(filter);
  const win = useMemo(() => {
    const w: ResultsWindow = new ResultsWindow(
      filter,
      (q) => api.queryResults(q),
      () => {
        if (current.current === w) rerender();
      },
    );
    return w;
    // `filter` is represented by filterKey: an equal filter object must not start over.
  }, [filterKey, crawlKey, api]);
  current.current = win;

  // A new query starts at the top, with nothing selected.
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
    onSelect(null);
  }, [win, onSelect]);

  // The visible height follows the panel.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setViewHeight(Math.max(ROW_HEIGHT, el.clientHeight - HEADER_HEIGHT));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Scroll events, at most one state update per frame.
  const frame = useRef<number | null>(null);
  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      if (scroller.current) setScrollTop(scroller.current.scrollTop);
    });
  }, []);
  useEffect(() => () => void (frame.current !== null && cancelAnimationFrame(frame.current)), []);

  // While the crawl runs, rows come and go: refresh what is on screen at most once a second.
  const lastRefresh = useRef(0);
  const seenVersion = useRef(version);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestVersion = useRef(version);
  latestVersion.current = version;
  useEffect(() => {
    if (version === seenVersion.current) return;
    const refresh = () => {
      refreshTimer.current = null;
      seenVersion.current = latestVersion.current;
      lastRefresh.current = Date.now();
      current.current?.refresh();
      rerender();
    };
    const wait = lastRefresh.current + REFRESH_MS - Date.now();
    if (wait <= 0) refresh();
    else if (!refreshTimer.current) refreshTimer.current = setTimeout(refresh, wait);
  }, [version]);
  useEffect(() => () => void (refreshTimer.current && clearTimeout(refreshTimer.current)), []);

  const total = win.total ?? 0;
  const rules = win.rules;
  const columns = useMemo(() => columnsFor(rules), [rules]);
  const vp = computeViewport(total, scrollTop, viewHeight);
  const visibleRows = Math.ceil(viewHeight / ROW_HEIGHT);

  // Ask for whatever is on screen and missing (a no-op when it is all here).
  useEffect(() => {
    // With no rows (yet) this still asks for the first page, which is how new rows are noticed.
    win.ensure(vp.first, Math.max(vp.last, vp.first + visibleRows + OVERSCAN));
  });

  useEffect(() => onTotal(win.total), [win.total, onTotal]);

  const onCopy = useCallback(
    (url: string) => {
      void copyText(url).then((ok) => notify(store, ok ? 'info' : 'error', ok ? 'URL copied' : 'Could not copy the URL'));
    },
    [store],
  );
  const onSelectRow = useCallback((row: ResultRow, index: number) => onSelect({ row, index, rules }), [onSelect, rules]);

  /** Scrolls so that row `index` is in view (in the scaled scrollbar's terms past MAX_SCROLL_HEIGHT). */
  const reveal = (index: number) => {
    const el = scroller.current;
    if (!el) return;
    const realHeight = total * ROW_HEIGHT;
    const maxScroll = Math.max(0, vp.height - viewHeight);
    const scale = realHeight > vp.height && maxScroll > 0 ? maxScroll / (realHeight - viewHeight) : 1;
    const realTop = el.scrollTop / scale;
    const rowTop = index * ROW_HEIGHT;
    // Scroll positions are whole pixels: round towards showing the row entirely.
    if (rowTop < realTop) el.scrollTop = Math.floor(rowTop * scale);
    else if (rowTop + ROW_HEIGHT > realTop + viewHeight) el.scrollTop = Math.ceil((rowTop + ROW_HEIGHT - viewHeight) * scale);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && selected) {
      onSelect(null);
      return;
    }
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!step || total === 0) return;
    e.preventDefault();
    const index = Math.max(0, Math.min(total - 1, selected ? selected.index + step : vp.first));
    const row = win.row(index);
    if (row) onSelect({ row, index, rules });
    reveal(index);
  };

  const rows = [];
  for (let i = vp.first; i <= vp.last; i++) {
    const row = win.row(i);
    rows.push(
      row ? (
        <ResultRowView
          key={i}
          row={row}
          index={i}
          selected={selected?.row.seq === row.seq}
          onSelect={onSelectRow}
          onCopy={onCopy}
          columns={columns}
        />
      ) : (
        <PlaceholderRow key={i} index={i} columns={columns} />
      ),
    );
  }

  return (
    <div
      className="results-scroll"
      ref={scroller}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      tabIndex={0}
      role="table"
      aria-label="crawled URLs"
      aria-rowcount={total + 1}
      aria-busy={live || undefined}
      style={extractedGridStyle(rules.length)}
    >
      <div className="rhead" role="row" aria-rowindex={1}>
        {columns.map((c) => {
          const active = c.sort !== null && sort.column === c.sort;
          return (
            <div
              key={c.id}
              role="columnheader"
              className={cellClass(c)}
              aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
            >
              {c.sort ? (
                <button
                  type="button"
                  className="sort-btn"
                  data-sort={c.sort}
                  data-active={active || undefined}
                  onClick={() => onSort(c.sort!)}
                  title={
                    active ? (sort.descending ? 'Click: back to crawl order' : 'Click: descending') : `Sort by ${c.label.toLowerCase()}`
                  }
                >
                  {c.label}
                  <span className="sort-mark" aria-hidden="true">
                    {active ? (sort.descending ? '▼' : '▲') : ''}
                  </span>
                </button>
              ) : (
                <span className="sort-btn sort-none" title={c.extracted ? `Custom extraction rule "${c.label}"` : undefined}>
                  {c.label}
                </span>
              )}
            </div>
          );
        })}
      </div>
      <div className="rbody" style={{ height: Math.max(vp.height, 0) }}>
        <div className="rrows" style={{ transform: `translateY(${Math.round(vp.offsetY)}px)` }}>
          {rows}
        </div>
      </div>
      {win.total === 0 && (
        <div className="results-empty">
          {win.filter.text || win.filter.statusClass
            ? 'No rows match the filter.'
            : live
              ? 'No results yet…'
              : 'No results. Start a crawl or open an earlier one.'}
        </div>
      )}
      {win.error && (
        <div className="results-error" role="alert">
          Could not load results: {errorMessage(win.error)}
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              win.refresh();
              rerender();
            }}
          >
            Retry
          </button>
        </div>
      )}
    </div>
  );
}
