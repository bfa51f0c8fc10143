// The one virtual table of the workbench (the live results and the explorer): fixed row height, only the visible
// rows in the DOM, a spacer for the full height, rows fetched from the host in windows as they scroll into view
// (ResultsWindow: a bounded cache), columns the user resizes, reorders and hides (column-layout.ts, kept per view).
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { CSSProperties, DragEvent, KeyboardEvent, PointerEvent, ReactNode } from 'react';
import type { ResultSortColumn } from '../../../shared/crawler-api.ts';
import { errorMessage } from '../api/connection.ts';
import { useCrawl } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import {
  browserStorage,
  type ColumnLayout,
  DEFAULT_LAYOUT,
  gridTemplate,
  loadLayout,
  moveColumn,
  orderedColumns,
  resetLayout,
  resizeColumn,
  saveLayout,
  setHidden,
  visibleColumns,
} from './column-layout.ts';
import { type Column, PlaceholderRow, cellClass } from './ResultRowView.tsx';
import { ResultsWindow, type WindowPage } from './results-window.ts';
import { HEADER_HEIGHT, OVERSCAN, ROW_HEIGHT, computeViewport } from './viewport.ts';

/** While a crawl runs the table refreshes at most this often. */
export const REFRESH_MS = 1_000;

export interface SortState<S extends string = ResultSortColumn> {
  column: S;
  descending: boolean;
}

/** A view's column layout, loaded from storage once and saved on every change. */
export function useColumnLayout(view: string, fallback: ColumnLayout = DEFAULT_LAYOUT) {
  const [layout, setLayoutState] = useState<ColumnLayout>(() => loadLayout(browserStorage(), view, fallback));
  const setLayout = useCallback(
    (next: ColumnLayout, persist = true) => {
      setLayoutState(next);
      if (persist) saveLayout(browserStorage(), view, next);
    },
    [view],
  );
  const reset = useCallback(() => {
    resetLayout(browserStorage(), view);
    setLayoutState(fallback);
  }, [view, fallback]);
  return { layout, setLayout, reset };
}

export type LayoutState = ReturnType<typeof useColumnLayout>;

export interface RowProps<R, S extends string = ResultSortColumn> {
  row: R;
  index: number;
  selected: boolean;
  columns: readonly Column<R, S>[];
  onSelect: (row: R, index: number) => void;
}

export interface VirtualTableProps<F extends object, R, S extends string = ResultSortColumn> {
  ariaLabel: string;
  /** The query (filter, sort): a new one starts a new window of rows at the top. */
  filter: F;
  fetchPage: (query: F & { offset: number; limit: number }) => Promise<WindowPage<R>>;
  /** The columns for the crawl's extraction rules. */
  columnsFor: (rules: readonly string[]) => readonly Column<R, S>[];
  layout: LayoutState;
  sort: SortState<S>;
  onSort: (column: S) => void;
  /** What a click on the sorted column's header does, said in its tooltip (default: descending, then the crawl's order). */
  activeSortTitle?: (descending: boolean) => string;
  /** The selected row's key (rowKey), or null. */
  selectedKey: string | number | null;
  rowKey: (row: R) => string | number;
  onSelect: (row: R | null, index: number, rules: readonly string[]) => void;
  /** One row (default: GridRow). */
  renderRow?: (props: RowProps<R, S>) => ReactNode;
  /** Data attributes of a row (GridRow). */
  rowAttrs?: (row: R) => Record<string, string | undefined>;
  onTotal?: (total: number | null) => void;
  onRules?: (rules: readonly string[]) => void;
  /** Whether the rows shown came without their Link Scores, still being computed. */
  onScoresPending?: (pending: boolean) => void;
  /** What to say when there are no rows. */
  empty: (filtered: boolean) => string;
  /** Whether the query narrows the rows (for the empty text). */
  filtered: boolean;
  /** Becomes true while the crawl runs (rows refreshed at most every REFRESH_MS). */
  live: boolean;
  /** Something that grows as the crawl moves on. */
  version: number;
}

export function VirtualTable<F extends object, R, S extends string = ResultSortColumn>(props: VirtualTableProps<F, R, S>) {
  const { filter, fetchPage, layout, sort, onSort, selectedKey, rowKey, onSelect, live, version } = props;
  const crawlKey = useCrawl((s) => s.crawlKey);
  const { t } = useTranslation('results');
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(600);

  // One window of rows per query and crawl; a stale window's answers are ignored.
  const current = useRef<ResultsWindow<F, R> | null>(null);
  const filterKey = JSON.stringify(filter);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const win = useMemo(() => {
    const w: ResultsWindow<F, R> = new ResultsWindow<F, R>(
      filter,
      (q) => fetchRef.current(q),
      () => {
        if (current.current === w) rerender();
      },
    );
    return w;
    // `filter` is represented by filterKey: an equal filter object must not start over.
  }, [filterKey, crawlKey]);
  current.current = win;
  useEffect(() => () => win.dispose(), [win]);

  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  // A new query starts at the top, with nothing selected.
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
    onSelectRef.current(null, -1, []);
  }, [win]);

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
  const { columnsFor } = props;
  const allColumns = useMemo(() => columnsFor(rules), [columnsFor, rules]);
  const columns = useMemo(() => visibleColumns(allColumns, layout.layout), [allColumns, layout.layout]);
  const grid = gridTemplate(columns, layout.layout);
  const vp = computeViewport(total, scrollTop, viewHeight);
  const visibleRows = Math.ceil(viewHeight / ROW_HEIGHT);

  // Ask for whatever is on screen and missing (a no-op when it is all here).
  useEffect(() => {
    // With no rows (yet) this still asks for the first page, which is how new rows are noticed.
    win.ensure(vp.first, Math.max(vp.last, vp.first + visibleRows + OVERSCAN));
  });

  const { onTotal, onRules, onScoresPending } = props;
  useEffect(() => onTotal?.(win.total), [win.total, onTotal]);
  useEffect(() => onRules?.(rules), [rules, onRules]);
  useEffect(() => onScoresPending?.(win.scoresPending), [win.scoresPending, onScoresPending]);

  const onSelectRow = useCallback((row: R, index: number) => onSelectRef.current(row, index, rules), [rules]);

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

  const selectedIndex = useRef(-1);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Escape' && selectedKey !== null) {
      onSelect(null, -1, rules);
      return;
    }
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!step || total === 0) return;
    e.preventDefault();
    const from = selectedKey !== null && selectedIndex.current >= 0 ? selectedIndex.current : -1;
    const index = Math.max(0, Math.min(total - 1, from >= 0 ? from + step : vp.first));
    const row = win.row(index);
    if (row) onSelect(row, index, rules);
    reveal(index);
  };

  const renderRow = props.renderRow ?? ((p: RowProps<R, S>) => <MemoGridRow key={p.index} {...p} attrs={props.rowAttrs?.(p.row)} />);
  const rows = [];
  for (let i = vp.first; i <= vp.last; i++) {
    const row = win.row(i);
    if (row) {
      const selected = selectedKey !== null && rowKey(row) === selectedKey;
      if (selected) selectedIndex.current = i;
      rows.push(renderRow({ row, index: i, selected, columns, onSelect: onSelectRow }));
    } else rows.push(<PlaceholderRow key={i} index={i} columns={columns} />);
  }

  const style = { '--result-cols': grid.template, '--result-min-width': `${grid.minWidth}px` } as CSSProperties;
  return (
    <div
      className="results-scroll vtable"
      ref={scroller}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      tabIndex={0}
      role="table"
      aria-label={props.ariaLabel}
      aria-rowcount={total + 1}
      aria-busy={live || undefined}
      data-rows-rendered={rows.length}
      style={style}
    >
      <HeaderRow
        columns={columns}
        allColumns={allColumns}
        layout={layout}
        sort={sort}
        onSort={onSort}
        activeSortTitle={props.activeSortTitle}
      />
      <div className="rbody" style={{ height: Math.max(vp.height, 0) }}>
        <div className="rrows" style={{ transform: `translateY(${Math.round(vp.offsetY)}px)` }}>
          {rows}
        </div>
      </div>
      {win.total === 0 && <div className="results-empty">{props.empty(props.filtered)}</div>}
      {win.error && (
        <div className="results-error" role="alert">
          {t('table.loadFailed', { error: errorMessage(win.error) })}
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              win.refresh();
              rerender();
            }}
          >
            {t('table.retry')}
          </button>
        </div>
      )}
    </div>
  );
}

/** A row of any table: its cells as text, data attributes for tests and styles. */
export function GridRow<R, S extends string = ResultSortColumn>({
  row,
  index,
  selected,
  columns,
  onSelect,
  attrs,
}: RowProps<R, S> & { attrs?: Record<string, string | undefined> }) {
  // Drawn again when the language changes (a memoised row otherwise keeps its cells' words until its data changes).
  useTranslation();
  return (
    <div
      className={index % 2 ? 'rrow rrow-odd' : 'rrow'}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      onClick={() => onSelect(row, index)}
      {...attrs}
    >
      {columns.map((c) => (
        <div key={c.id} role="cell" className={cellClass(c)} data-col={c.id} title={c.title?.(row)} aria-label={c.ariaLabel?.(row)}>
          {c.cell(row)}
        </div>
      ))}
    </div>
  );
}

/** A row is drawn again only when it changes (its attributes follow from the row). */
const MemoGridRow = memo(
  GridRow,
  (a, b) => a.row === b.row && a.index === b.index && a.selected === b.selected && a.columns === b.columns && a.onSelect === b.onSelect,
) as typeof GridRow;

const DRAG_TYPE = 'application/x-trawl-column';

function HeaderRow<R, S extends string>({
  columns,
  allColumns,
  layout,
  sort,
  onSort,
  activeSortTitle,
}: {
  columns: readonly Column<R, S>[];
  allColumns: readonly Column<R, S>[];
  layout: LayoutState;
  sort: SortState<S>;
  onSort: (column: S) => void;
  activeSortTitle?: (descending: boolean) => string;
}) {
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const { t } = useTranslation('results');
  const dragged = useRef<string | null>(null);
  // A resize in progress: the width follows the pointer and is saved when the button is let go.
  const resizing = useRef<{ id: string; startX: number; startWidth: number; latest: ColumnLayout } | null>(null);

  const onResizeDown = (e: PointerEvent<HTMLDivElement>, id: string) => {
    e.preventDefault();
    e.stopPropagation();
    const cell = e.currentTarget.parentElement!;
    e.currentTarget.setPointerCapture(e.pointerId);
    resizing.current = { id, startX: e.clientX, startWidth: cell.getBoundingClientRect().width, latest: layout.layout };
  };
  const onResizeMove = (e: PointerEvent<HTMLDivElement>) => {
    const r = resizing.current;
    if (!r) return;
    r.latest = resizeColumn(layout.layout, r.id, r.startWidth + e.clientX - r.startX);
    layout.setLayout(r.latest, false);
  };
  const onResizeUp = (e: PointerEvent<HTMLDivElement>) => {
    const r = resizing.current;
    if (!r) return;
    resizing.current = null;
    e.currentTarget.releasePointerCapture(e.pointerId);
    layout.setLayout(r.latest);
  };
  const onResizeKey = (e: KeyboardEvent<HTMLDivElement>, id: string) => {
    const step = e.key === 'ArrowRight' ? 16 : e.key === 'ArrowLeft' ? -16 : 0;
    if (!step) return;
    e.preventDefault();
    const width = e.currentTarget.parentElement!.getBoundingClientRect().width;
    layout.setLayout(resizeColumn(layout.layout, id, width + step));
  };
  const autoWidth = (id: string) => {
    const widths = { ...layout.layout.widths };
    delete widths[id];
    layout.setLayout({ ...layout.layout, widths });
  };

  const onDragStart = (e: DragEvent, id: string) => {
    // A press on the resize handle resizes: no move.
    if (resizing.current) {
      e.preventDefault();
      return;
    }
    dragged.current = id;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData(DRAG_TYPE, id);
  };
  const onDragOver = (e: DragEvent, id: string) => {
    if (dragged.current === null || dragged.current === id) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    setDropTarget(id);
  };
  const onDrop = (e: DragEvent, id: string) => {
    e.preventDefault();
    const from = dragged.current;
    dragged.current = null;
    setDropTarget(null);
    if (from === null || from === id) return;
    const all = orderedColumns(allColumns, layout.layout);
    layout.setLayout(
      moveColumn(
        allColumns,
        layout.layout,
        from,
        all.findIndex((c) => c.id === id),
      ),
    );
  };

  return (
    <div className="rhead" role="row" aria-rowindex={1}>
      {columns.map((c) => {
        const active = c.sort !== null && sort.column === c.sort;
        return (
          <div
            key={c.id}
            role="columnheader"
            className={cellClass(c)}
            data-column={c.id}
            data-drop-target={dropTarget === c.id || undefined}
            aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
            draggable
            onDragStart={(e) => onDragStart(e, c.id)}
            onDragOver={(e) => onDragOver(e, c.id)}
            onDragLeave={() => setDropTarget((t) => (t === c.id ? null : t))}
            onDragEnd={() => {
              dragged.current = null;
              setDropTarget(null);
            }}
            onDrop={(e) => onDrop(e, c.id)}
          >
            {c.sort ? (
              <button
                type="button"
                className="sort-btn"
                data-sort={c.sort}
                data-active={active || undefined}
                onClick={() => onSort(c.sort!)}
                title={
                  active
                    ? activeSortTitle
                      ? activeSortTitle(sort.descending)
                      : sort.descending
                        ? t('table.backToCrawlOrder')
                        : t('table.descending')
                    : t('table.sortBy', { column: c.label.toLowerCase() })
                }
              >
                <span className="sort-label">{c.label}</span>
                <span className="sort-mark" aria-hidden="true">
                  {active ? (sort.descending ? '▼' : '▲') : ''}
                </span>
              </button>
            ) : (
              <span className="sort-btn sort-none" title={c.extracted ? t('table.extractionRule', { rule: c.label }) : undefined}>
                <span className="sort-label">{c.label}</span>
              </span>
            )}
            <div
              className="col-resize"
              role="separator"
              aria-orientation="vertical"
              aria-label={t('table.resize', { column: c.label })}
              aria-valuenow={layout.layout.widths[c.id] ?? 0}
              tabIndex={0}
              data-resize={c.id}
              onPointerDown={(e) => onResizeDown(e, c.id)}
              onPointerMove={onResizeMove}
              onPointerUp={onResizeUp}
              onPointerCancel={onResizeUp}
              onDoubleClick={() => autoWidth(c.id)}
              onKeyDown={(e) => onResizeKey(e, c.id)}
              onClick={(e) => e.stopPropagation()}
              draggable={false}
              onDragStart={(e) => {
                e.preventDefault();
                e.stopPropagation();
              }}
            />
          </div>
        );
      })}
    </div>
  );
}

/** The column chooser: show or hide each column, move it left or right, and go back to the view's default layout. */
export function ColumnMenu<R, S extends string = ResultSortColumn>({
  columns,
  layout,
}: {
  columns: readonly Column<R, S>[];
  layout: LayoutState;
}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const { t } = useTranslation('results');
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  const ordered = orderedColumns(columns, layout.layout);
  const hidden = new Set(layout.layout.hidden);
  return (
    <div className="column-menu-box" ref={box}>
      <button
        type="button"
        className="btn"
        data-testid="columns-open"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen((o) => !o)}
      >
        {t('table.columns')}
      </button>
      {open && (
        <div
          className="column-menu"
          data-testid="column-menu"
          role="group"
          aria-label={t('table.columnsLabel')}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }}
        >
          <ul className="column-menu-list">
            {ordered.map((c, i) => (
              <li key={c.id} data-menu-column={c.id}>
                <label className="column-menu-label">
                  <input
                    type="checkbox"
                    checked={c.required || !hidden.has(c.id)}
                    disabled={c.required}
                    onChange={(e) => layout.setLayout(setHidden(columns, layout.layout, c.id, !e.currentTarget.checked))}
                  />
                  {c.label}
                </label>
                <button
                  type="button"
                  className="btn btn-quiet btn-small"
                  aria-label={t('table.moveLeft', { column: c.label })}
                  disabled={i === 0}
                  data-move-left={c.id}
                  onClick={() => layout.setLayout(moveColumn(columns, layout.layout, c.id, i - 1))}
                >
                  ◀
                </button>
                <button
                  type="button"
                  className="btn btn-quiet btn-small"
                  aria-label={t('table.moveRight', { column: c.label })}
                  disabled={i === ordered.length - 1}
                  data-move-right={c.id}
                  onClick={() => layout.setLayout(moveColumn(columns, layout.layout, c.id, i + 1))}
                >
                  ▶
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn-small" data-testid="columns-reset" onClick={layout.reset}>
            {t('table.reset')}
          </button>
        </div>
      )}
    </div>
  );
}
