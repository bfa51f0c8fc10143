// The issues overview: every issue the crawl has (shared/issues.ts), high priority first, each with its type, the
// number of URLs, why it matters and how to fix it, and a link that opens the Results explorer on the filter that
// lists them (the count is that filter's). Live while a crawl runs: refreshed at most every OVERVIEW_REFRESH_MS, and
// only when the crawl moved on (use-live.ts), as the explorer's badges are. Exports as CSV or XLSX.
import type { ExportFormat, FilterId } from '../../../shared/analysis.ts';
import { issuesFound } from '../../../shared/issues.ts';
import { formatArgs, useExportCommand } from '../components/use-export.ts';
import { formatInt } from '../format.ts';
import { hostText } from '../i18n/host-messages.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { filterTitle } from './analysis-model.ts';
import { useHasCrawl, useLive, useLiveQuery } from './use-live.ts';

/** The overview refreshes at most this often while a crawl runs (its counts are the explorer badges' passes). */
export const OVERVIEW_REFRESH_MS = 3_000;

export function OverviewView({ onOpenFilter }: { onOpenFilter: (filter: FilterId) => void }) {
  const api = useApi();
  const store = useCrawlStore();
  const hasCrawl = useHasCrawl();
  const live = useLive();
  const { t } = useTranslation('overview');
  const overview = useLiveQuery('overview', () => api.issuesOverview(), OVERVIEW_REFRESH_MS, { enabled: hasCrawl });
  const found = overview.data ? issuesFound(overview.data) : null;
  const [exporting, run] = useExportCommand();

  const exportAs = async (format: ExportFormat) => {
    const label = format === 'xlsx' ? t('exportXlsx') : t('export');
    const result = await run(format, label, () => api.exportOverview(...formatArgs(format)));
    if (!result) return;
    if (!result.ok) notify(store, /cancel/i.test(result.error) ? 'info' : 'error', `${label}: ${hostText(result.error)}`);
  };

  return (
    <section className="panel analysis-panel overview" aria-label={t('label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('title')}</h2>
        {found && (
          <span className="panel-note" data-testid="overview-summary" data-value={found.length}>
            {t('summary', { count: found.length, n: formatInt(found.length) })}
            {live ? ` · ${t('live')}` : ''}
          </span>
        )}
        <div className="results-tools">
          {(['csv', 'xlsx'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="btn"
              data-testid={`overview-export-${format}`}
              disabled={!hasCrawl || exporting !== null}
              onClick={() => void exportAs(format)}
            >
              <span className="icon icon-download" aria-hidden="true" />
              {exporting === format ? t('exporting') : format === 'csv' ? t('export') : t('exportXlsx')}
            </button>
          ))}
        </div>
      </div>
      <div className="overview-body">
        {!hasCrawl ? (
          <div className="analysis-empty">{t('noCrawl')}</div>
        ) : overview.error ? (
          <div className="analysis-error">{overview.error}</div>
        ) : found === null ? null : found.length === 0 ? (
          <div className="analysis-empty">{t('none')}</div>
        ) : (
          <table className="overview-table" aria-label={t('tableLabel')}>
            <thead>
              <tr>
                <th scope="col">{t('columns.issue')}</th>
                <th scope="col">{t('columns.priority')}</th>
                <th scope="col">{t('columns.type')}</th>
                <th scope="col" className="num">
                  {t('columns.urls')}
                </th>
                <th scope="col">{t('columns.why')}</th>
                <th scope="col">{t('columns.fix')}</th>
              </tr>
            </thead>
            <tbody>
              {found.map((issue) => (
                <tr key={issue.id} data-issue={issue.id} data-priority={issue.priority} data-type={issue.type} data-count={issue.count}>
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button overview-issue"
                      title={t('open', { filter: filterTitle(issue.filter) })}
                      onClick={() => onOpenFilter(issue.filter)}
                    >
                      {t(`issues.${issue.id}.label`)}
                    </button>
                  </th>
                  <td>
                    <span className={`issue-priority priority-${issue.priority}`}>{t(`priority.${issue.priority}`)}</span>
                  </td>
                  <td>
                    <span className="issue-type">{t(`type.${issue.type}`)}</span>
                  </td>
                  <td className="num">{formatInt(issue.count)}</td>
                  <td className="overview-text">{t(`issues.${issue.id}.why`)}</td>
                  <td className="overview-text">{t(`issues.${issue.id}.fix`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
