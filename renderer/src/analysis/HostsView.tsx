// The hosts report, after Heritrix's: per host URLs crawled and queued, in flight, bytes, errors, the politeness
// state and robots.txt; sorted in SQL by any column, refreshed while the crawl runs.
import { useEffect, useState } from 'react';
import type { HostReportRow, HostSortColumn } from '../../../shared/analysis.ts';
import { formatBytes, formatInt } from '../format.ts';
import { useApi } from '../store/context.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { politenessText, robotsText } from './analysis-model.ts';
import { useHasCrawl, useLiveQuery } from './use-live.ts';
import { SortableHeader } from './SortableHeader.tsx';
import { Pager } from './Pager.tsx';

const REFRESH_MS = 2_000;
const ta = i18next.getFixedT(null, 'analysis');
/** Hosts per page: a crawl with checked external links can reach thousands of hosts. */
export const HOSTS_PAGE = 200;

export const HOST_COLUMNS: { id: string; label: string; sort: HostSortColumn | null; cell: (r: HostReportRow) => string; num?: boolean }[] =
  [
    {
      id: 'origin',
      get label() {
        return ta('hosts.columns.origin');
      },
      sort: 'origin',
      cell: (r) => r.origin,
    },
    {
      id: 'crawled',
      get label() {
        return ta('hosts.columns.crawled');
      },
      sort: 'crawled',
      cell: (r) => formatInt(r.crawled),
      num: true,
    },
    {
      id: 'queued',
      get label() {
        return ta('hosts.columns.queued');
      },
      sort: 'queued',
      cell: (r) => formatInt(r.queued),
      num: true,
    },
    {
      id: 'in_flight',
      get label() {
        return ta('hosts.columns.in_flight');
      },
      sort: 'in_flight',
      cell: (r) => formatInt(r.in_flight),
      num: true,
    },
    {
      id: 'bytes',
      get label() {
        return ta('hosts.columns.bytes');
      },
      sort: 'bytes',
      cell: (r) => formatBytes(r.bytes),
      num: true,
    },
    {
      id: 'errors',
      get label() {
        return ta('hosts.columns.errors');
      },
      sort: 'errors',
      cell: (r) => (r.errors ? ta('hosts.errorsCell', { errors: formatInt(r.errors), failed: formatInt(r.failed) }) : '0'),
      num: true,
    },
    {
      id: 'politeness',
      get label() {
        return ta('hosts.columns.politeness');
      },
      sort: 'next_fetch_at',
      cell: politenessText,
    },
    {
      id: 'delay',
      get label() {
        return ta('hosts.columns.delay');
      },
      sort: null,
      cell: (r) => (r.politeness.crawl_delay_ms ? ta('hosts.seconds', { seconds: r.politeness.crawl_delay_ms / 1000 }) : ''),
    },
    {
      id: 'robots',
      get label() {
        return ta('hosts.columns.robots');
      },
      sort: null,
      cell: robotsText,
    },
  ];

export function HostsView() {
  const api = useApi();
  const hasCrawl = useHasCrawl();
  const [sort, setSort] = useState<{ column: HostSortColumn; descending: boolean }>({ column: 'crawled', descending: true });
  const [includeIdle, setIncludeIdle] = useState(false);
  const [offset, setOffset] = useState(0);
  // Another order or set of hosts starts at its first page.
  useEffect(() => setOffset(0), [sort, includeIdle]);
  const query = { sort: sort.column, descending: sort.descending, offset, limit: HOSTS_PAGE, text: '', includeIdle };
  const report = useLiveQuery(JSON.stringify(query), () => api.hostsReport(query), REFRESH_MS, { enabled: hasCrawl });
  const toggle = (column: HostSortColumn) =>
    setSort((s) => (s.column === column ? { column, descending: !s.descending } : { column, descending: column !== 'origin' }));
  const totals = report.data?.totals;
  const { t } = useTranslation('analysis');
  return (
    <section className="panel analysis-panel hosts-view" aria-label={t('hosts.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('hosts.title')}</h2>
        <span className="panel-note" data-testid="hosts-total" data-value={report.data?.total}>
          {report.data && totals
            ? t('hosts.totals', {
                count: report.data.total,
                n: formatInt(report.data.total),
                crawled: formatInt(totals.crawled),
                queued: formatInt(totals.queued),
                bytes: formatBytes(totals.bytes),
                errors: formatInt(totals.errors),
              })
            : ''}
        </span>
        <label className="check hosts-idle">
          <input type="checkbox" checked={includeIdle} onChange={(e) => setIncludeIdle(e.currentTarget.checked)} />
          <span>{t('hosts.includeIdle')}</span>
        </label>
      </div>
      <div className="xtable-scroll">
        <table className="xtable hosts-table" data-testid="hosts-table">
          <thead>
            <tr>
              {HOST_COLUMNS.map((c) => (
                <SortableHeader
                  key={c.id}
                  label={c.label}
                  sort={c.sort}
                  current={sort}
                  onSort={toggle}
                  className={c.num ? 'x-num' : `x-${c.id}`}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {(report.data?.rows ?? []).map((r) => (
              <tr key={r.host_id} data-host-row={r.origin}>
                {HOST_COLUMNS.map((c) => (
                  <td
                    key={c.id}
                    className={c.num ? 'x-num' : `x-${c.id}`}
                    data-col={c.id}
                    title={c.id === 'robots' || c.id === 'origin' ? c.cell(r) : undefined}
                  >
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {!hasCrawl && <div className="analysis-empty">{t('hosts.noCrawl')}</div>}
        {report.error && <div className="analysis-error">{report.error}</div>}
      </div>
      <Pager offset={offset} total={report.data?.total ?? null} pageSize={HOSTS_PAGE} onOffset={setOffset} />
    </section>
  );
}
