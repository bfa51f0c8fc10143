// The results of the crawl in view: the workbench's virtual table (results/VirtualTable.tsx) over windows of rows
// the host sorts and filters in SQL, smooth at a million rows, and the URL detail pane of the selected row.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ResultRow, ResultSortColumn, StatusClass } from '../../../shared/crawler-api.ts';
import { STATUS_CLASSES } from '../../../shared/crawler-api.ts';
import type { ExportFormat } from '../../../shared/analysis.ts';
import { copyText } from '../clipboard.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { formatArgs, useExportCommand } from '../components/use-export.ts';
import { UrlDetailPane } from '../analysis/UrlDetailPane.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { hostText } from '../i18n/host-messages.ts';
import { ResultRowView, columnsFor } from './ResultRowView.tsx';
import type { QueryFilter } from './results-window.ts';
import { ColumnMenu, type RowProps, type SortState, VirtualTable, useColumnLayout } from './VirtualTable.tsx';

const FILTER_DEBOUNCE_MS = 250;
/** The key the live table's column layout is kept under. */
export const RESULTS_VIEW = 'results';

interface Selection {
  row: ResultRow;
  /** The crawl's extraction rules, for the details. */
  rules: readonly string[];
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
  const [exporting, runExport] = useExportCommand();
  const canExport = useCrawl((s) => s.file !== null || s.opened !== null || s.hasSnapshot);
  const version = useCrawl((s) => s.counters.crawled + s.counters.failed);
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null);
  const layout = useColumnLayout(RESULTS_VIEW);
  const [rules, setRules] = useState<readonly string[]>([]);
  // The rows came before the crawl's first Link Scores (seconds at a million URLs): the table asks again, and says so.
  const [scoresPending, setScoresPending] = useState(false);
  const menuColumns = useMemo(() => columnsFor(rules), [rules]);

  useEffect(() => {
    const timer = setTimeout(() => setAppliedText(text.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const { t } = useTranslation('results');

  const filter: QueryFilter = useMemo(
    () => ({ sort: sort.column, descending: sort.descending, text: appliedText, statusClass }),
    [sort, appliedText, statusClass],
  );

  const exportAs = async (format: ExportFormat) => {
    const xlsx = format === 'xlsx';
    const result = await runExport(format, t(xlsx ? 'panel.exportXlsx' : 'panel.exportCommand'), () =>
      api.exportCsv(...formatArgs(format)),
    );
    if (!result) return;
    if (!result.ok)
      notify(
        store,
        /cancel/i.test(result.error) ? 'info' : 'error',
        t(xlsx ? 'panel.exportXlsxFailed' : 'panel.exportFailed', { error: hostText(result.error) }),
      );
    else if (result.file)
      notify(
        store,
        'info',
        result.rows === null
          ? t('panel.exportedAll', { file: result.file })
          : t('panel.exported', { n: formatInt(result.rows), file: result.file }),
      );
    else notify(store, 'info', t(xlsx ? 'panel.xlsxDownloadStarted' : 'panel.downloadStarted'));
  };

  const fetchPage = useCallback((q: Parameters<typeof api.queryResults>[0]) => api.queryResults(q), [api]);
  const onSelect = useCallback(
    (row: ResultRow | null, _index: number, rowRules: readonly string[]) => setSelected(row ? { row, rules: rowRules } : null),
    [],
  );
  const onCopy = useCallback(
    (url: string) => {
      void copyText(url).then((ok) => notify(store, ok ? 'info' : 'error', ok ? t('panel.copied') : t('panel.copyFailed')));
    },
    [store, t],
  );
  const renderRow = useCallback(
    (p: RowProps<ResultRow>) => (
      <ResultRowView
        key={p.index}
        row={p.row}
        index={p.index}
        selected={p.selected}
        onSelect={p.onSelect}
        onCopy={onCopy}
        columns={p.columns}
      />
    ),
    [onCopy],
  );

  const toggleSort = (column: ResultSortColumn) =>
    setSort((s) => (s.column !== column ? { column, descending: false } : !s.descending ? { column, descending: true } : CRAWL_ORDER));

  return (
    <section className="panel results-panel" aria-label={t('panel.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('panel.title')}</h2>
        <span className="panel-note" data-testid="results-total" data-value={total ?? undefined}>
          {total === null ? '' : t(appliedText || statusClass ? 'panel.match' : 'panel.rows', { count: total, n: formatInt(total) })}
          {scoresPending && <span data-testid="results-scores-pending">{t('panel.scoresPending')}</span>}
        </span>
        <div className="results-tools">
          <input
            className="filter"
            type="search"
            placeholder={t('panel.filterPlaceholder')}
            aria-label={t('panel.filterLabel')}
            data-testid="results-filter"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setText('');
            }}
          />
          <div className="segmented" role="group" aria-label={t('panel.statusClass')}>
            {STATUS_CLASSES.map((c) => (
              <button
                key={c}
                type="button"
                className="seg"
                data-status-class={c}
                aria-pressed={statusClass === c}
                title={c === 'none' ? t('panel.noResponseTitle') : t('panel.httpClass', { class: c })}
                onClick={() => setStatusClass((s) => (s === c ? null : c))}
              >
                {c}
              </button>
            ))}
          </div>
          <ColumnMenu columns={menuColumns} layout={layout} />
          <button
            type="button"
            className="btn"
            data-testid="export"
            disabled={!canExport || !!exporting}
            onClick={() => void exportAs('csv')}
          >
            <span className="icon icon-download" aria-hidden="true" />
            {exporting === 'csv' ? t('panel.exporting') : t('panel.exportCsv')}
          </button>
          <button
            type="button"
            className="btn"
            data-testid="export-xlsx"
            disabled={!canExport || !!exporting}
            onClick={() => void exportAs('xlsx')}
          >
            <span className="icon icon-download" aria-hidden="true" />
            {exporting === 'xlsx' ? t('panel.exporting') : t('panel.exportXlsx')}
          </button>
        </div>
      </div>
      <div className="results-body">
        <VirtualTable<QueryFilter, ResultRow>
          ariaLabel={t('panel.tableLabel')}
          filter={filter}
          fetchPage={fetchPage}
          columnsFor={columnsFor}
          layout={layout}
          sort={sort}
          onSort={toggleSort}
          selectedKey={selected?.row.seq ?? null}
          rowKey={rowKey}
          onSelect={onSelect}
          renderRow={renderRow}
          onTotal={setTotal}
          onRules={setRules}
          onScoresPending={setScoresPending}
          filtered={!!(appliedText || statusClass)}
          empty={(filtered) => (filtered ? t('panel.noMatch') : live ? t('panel.noneYet') : t('panel.none'))}
          live={live}
          version={version}
        />
        {selected && (
          <UrlDetailPane
            start={{ ref: { url: selected.row.url }, row: selected.row }}
            rules={selected.rules}
            onClose={() => setSelected(null)}
          />
        )}
      </div>
    </section>
  );
}

const rowKey = (row: ResultRow) => row.seq;
