// The hosts report, after Heritrix's: per host URLs crawled and queued, in flight, bytes, errors, the politeness
// state and robots.txt; sorted in SQL by any column, in the workbench's virtual table (every host scrolled through,
// fetched a window at a time, columns resized, moved and hidden), refreshed while the crawl runs.
import { useCallback, useMemo, useState } from 'react';
import type { HostReportRow, HostSortColumn, HostsReport, HostsReportQuery } from '../../../shared/analysis.ts';
import { formatBytes, formatInt } from '../format.ts';
import { useApi, useCrawl } from '../store/context.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import type { Column as TableColumn } from '../results/ResultRowView.tsx';
import { ColumnMenu, type SortState, VirtualTable, useColumnLayout } from '../results/VirtualTable.tsx';
import { DEFAULT_LAYOUT } from '../results/column-layout.ts';
import { politenessText, robotsText } from './analysis-model.ts';
import { useHasCrawl, useLive } from './use-live.ts';

const ta = i18next.getFixedT(null, 'analysis');
const tr = i18next.getFixedT(null, 'results');
/** The key the hosts table's column layout is kept under. */
export const HOSTS_VIEW = 'hosts';

type Column = TableColumn<HostReportRow, HostSortColumn>;
type HostsFilter = Omit<HostsReportQuery, 'offset' | 'limit'>;

export const HOST_COLUMNS: Column[] = [
  {
    id: 'origin',
    get label() {
      return ta('hosts.columns.origin');
    },
    track: 'minmax(200px, 3fr)',
    minPx: 200,
    required: true,
    sort: 'origin',
    cell: (r) => r.origin,
    title: (r) => r.origin,
  },
  {
    id: 'crawled',
    get label() {
      return ta('hosts.columns.crawled');
    },
    track: '80px',
    minPx: 80,
    sort: 'crawled',
    numeric: true,
    cell: (r) => formatInt(r.crawled),
  },
  {
    id: 'queued',
    get label() {
      return ta('hosts.columns.queued');
    },
    track: '80px',
    minPx: 80,
    sort: 'queued',
    numeric: true,
    cell: (r) => formatInt(r.queued),
  },
  {
    id: 'in_flight',
    get label() {
      return ta('hosts.columns.in_flight');
    },
    track: '80px',
    minPx: 80,
    sort: 'in_flight',
    numeric: true,
    cell: (r) => formatInt(r.in_flight),
  },
  {
    id: 'bytes',
    get label() {
      return ta('hosts.columns.bytes');
    },
    track: '90px',
    minPx: 90,
    sort: 'bytes',
    numeric: true,
    cell: (r) => formatBytes(r.bytes),
  },
  {
    id: 'errors',
    get label() {
      return ta('hosts.columns.errors');
    },
    track: '130px',
    minPx: 130,
    sort: 'errors',
    numeric: true,
    cell: (r) => (r.errors ? ta('hosts.errorsCell', { errors: formatInt(r.errors), failed: formatInt(r.failed) }) : '0'),
  },
  {
    id: 'politeness',
    get label() {
      return ta('hosts.columns.politeness');
    },
    track: 'minmax(140px, 1.2fr)',
    minPx: 140,
    sort: 'next_fetch_at',
    cell: politenessText,
    title: politenessText,
  },
  {
    id: 'delay',
    get label() {
      return ta('hosts.columns.delay');
    },
    track: '90px',
    minPx: 90,
    sort: null,
    cell: (r) => (r.politeness.crawl_delay_ms ? ta('hosts.seconds', { seconds: r.politeness.crawl_delay_ms / 1000 }) : ''),
  },
  {
    id: 'robots',
    get label() {
      return ta('hosts.columns.robots');
    },
    track: 'minmax(170px, 1.5fr)',
    minPx: 170,
    sort: null,
    cell: robotsText,
    title: robotsText,
  },
];

const hostColumns = () => HOST_COLUMNS;
const rowKey = (r: HostReportRow) => r.host_id;
const rowAttrs = (r: HostReportRow) => ({ 'data-host-row': r.origin });
/** A click on the sorted column turns its direction (the hosts have no crawl order to go back to). */
const activeSortTitle = (descending: boolean) => (descending ? tr('table.ascending') : tr('table.descending'));

export function HostsView() {
  const api = useApi();
  const hasCrawl = useHasCrawl();
  const live = useLive();
  const crawlKey = useCrawl((s) => s.crawlKey);
  const version = useCrawl((s) => s.counters.crawled + s.counters.failed + s.counters.queued);
  const [sort, setSort] = useState<SortState<HostSortColumn>>({ column: 'crawled', descending: true });
  const [includeIdle, setIncludeIdle] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const layout = useColumnLayout(HOSTS_VIEW, DEFAULT_LAYOUT);
  const query = useMemo<HostsFilter>(
    () => ({ sort: sort.column, descending: sort.descending, text: '', includeIdle }),
    [sort.column, sort.descending, includeIdle],
  );
  // The totals come with every window; the bar shows the latest of the query in view.
  const [summary, setSummary] = useState<{ key: string; total: number; totals: HostsReport['totals'] } | null>(null);
  const summaryKey = `${crawlKey}|${JSON.stringify(query)}`;
  const fetchPage = useCallback(
    async (q: HostsReportQuery) => {
      const report = await api.hostsReport(q);
      const { offset: _offset, limit: _limit, ...filter } = q;
      setSummary({ key: `${crawlKey}|${JSON.stringify(filter)}`, total: report.total, totals: report.totals });
      return report;
    },
    [api, crawlKey],
  );
  const onSelect = useCallback((row: HostReportRow | null) => setSelected(row ? row.host_id : null), []);
  const toggle = (column: HostSortColumn) =>
    setSort((s) => (s.column === column ? { column, descending: !s.descending } : { column, descending: column !== 'origin' }));
  const shown = summary?.key === summaryKey ? summary : null;
  const { t } = useTranslation('analysis');
  return (
    <section className="panel analysis-panel hosts-view" aria-label={t('hosts.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('hosts.title')}</h2>
        <span className="panel-note" data-testid="hosts-total" data-value={shown?.total}>
          {shown
            ? t('hosts.totals', {
                count: shown.total,
                n: formatInt(shown.total),
                crawled: formatInt(shown.totals.crawled),
                queued: formatInt(shown.totals.queued),
                bytes: formatBytes(shown.totals.bytes),
                errors: formatInt(shown.totals.errors),
              })
            : ''}
        </span>
        <label className="check hosts-idle">
          <input type="checkbox" checked={includeIdle} onChange={(e) => setIncludeIdle(e.currentTarget.checked)} />
          <span>{t('hosts.includeIdle')}</span>
        </label>
        <ColumnMenu columns={HOST_COLUMNS} layout={layout} />
      </div>
      <div className="hosts-table" data-testid="hosts-table">
        {hasCrawl ? (
          <VirtualTable<HostsFilter, HostReportRow, HostSortColumn>
            ariaLabel={t('hosts.tableLabel')}
            filter={query}
            fetchPage={fetchPage}
            columnsFor={hostColumns}
            layout={layout}
            sort={sort}
            onSort={toggle}
            activeSortTitle={activeSortTitle}
            selectedKey={selected}
            rowKey={rowKey}
            onSelect={onSelect}
            rowAttrs={rowAttrs}
            filtered={false}
            empty={() => t('hosts.empty')}
            live={live}
            version={version}
          />
        ) : (
          <div className="analysis-empty">{t('hosts.noCrawl')}</div>
        )}
      </div>
    </section>
  );
}
