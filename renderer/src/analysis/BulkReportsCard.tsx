// The bulk reports (shared/bulk-reports.ts) beside the charts: each downloads whole as CSV or XLSX, what an analyst
// hands to developers (every link to a broken page, every redirect chain...). The list is the shared declaration's.
import { BULK_REPORTS, type BulkReportId } from '../../../shared/bulk-reports.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { useExportCommand } from '../components/use-export.ts';
import { hostText } from '../i18n/host-messages.ts';
import { useReportExport } from './use-report-export.ts';

export function BulkReportsCard() {
  const { t } = useTranslation('analysis');
  return (
    <section className="chart-card bulk-reports" aria-labelledby="bulk-reports-title" data-testid="bulk-reports">
      <div className="chart-head">
        <span className="chart-title" id="bulk-reports-title">
          {t('bulk.title')}
        </span>
        <span className="panel-note">{t('bulk.note')}</span>
      </div>
      <ul className="bulk-report-list">
        {BULK_REPORTS.map((r) => (
          <BulkReportRow key={r.id} report={r.id} />
        ))}
        <SitemapRow />
      </ul>
    </section>
  );
}

function BulkReportRow({ report }: { report: BulkReportId }) {
  const api = useApi();
  const { t } = useTranslation('analysis');
  const title = t(`bulk.reports.${report}.label`);
  const [busy, exportAs] = useReportExport(title, (...format) => api.exportBulkReport(report, ...format));
  return (
    <li className="bulk-report" data-report={report}>
      <span className="bulk-report-text">
        <span className="bulk-report-label">{title}</span>
        <span className="panel-note">{t(`bulk.reports.${report}.description`)}</span>
      </span>
      <button
        type="button"
        className="btn btn-small"
        data-testid={`bulk-csv-${report}`}
        title={t('reports.csvCommand', { title })}
        disabled={!!busy}
        onClick={() => void exportAs('csv')}
      >
        {busy === 'csv' ? t('bulk.exporting') : t('reports.csv')}
      </button>
      <button
        type="button"
        className="btn btn-small"
        data-testid={`bulk-xlsx-${report}`}
        title={t('reports.xlsxCommand', { title })}
        disabled={!!busy}
        onClick={() => void exportAs('xlsx')}
      >
        {busy === 'xlsx' ? t('bulk.exporting') : t('reports.xlsx')}
      </button>
    </li>
  );
}

/** The crawl's XML sitemap (its indexable 200 pages): a save dialog in the app, a download in the web console. */
function SitemapRow() {
  const api = useApi();
  const store = useCrawlStore();
  const [busy, run] = useExportCommand();
  const { t } = useTranslation('analysis');
  const generate = async () => {
    const result = await run('csv', t('bulk.sitemap.command'), () => api.exportSitemap());
    if (!result) return;
    if (!result.ok)
      notify(store, /cancel/i.test(result.error) ? 'info' : 'error', t('bulk.sitemap.failed', { error: hostText(result.error) }));
    else
      notify(
        store,
        'info',
        result.file ? t('bulk.sitemap.saved', { n: formatInt(result.rows ?? 0), file: result.file }) : t('bulk.sitemap.started'),
      );
  };
  return (
    <li className="bulk-report" data-report="sitemap">
      <span className="bulk-report-text">
        <span className="bulk-report-label">{t('bulk.sitemap.label')}</span>
        <span className="panel-note">{t('bulk.sitemap.description')}</span>
      </span>
      <button
        type="button"
        className="btn btn-small"
        data-testid="sitemap-xml"
        title={t('bulk.sitemap.command')}
        disabled={!!busy}
        onClick={() => void generate()}
      >
        {busy ? t('bulk.exporting') : t('bulk.sitemap.button')}
      </button>
    </li>
  );
}
