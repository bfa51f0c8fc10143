// A report's export as CSV or XLSX from its card (a chart's data, a bulk report): runs the export command, then says
// how it went (saved to a file with its rows, a download started, failed, or cancelled), with the report's title.
import type { ExportFormat } from '../../../shared/analysis.ts';
import type { ExportResult } from '../../../shared/crawler-api.ts';
import { formatArgs, useExportCommand } from '../components/use-export.ts';
import { formatInt } from '../format.ts';
import { hostText } from '../i18n/host-messages.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { notify } from '../store/crawl-store.ts';
import { useCrawlStore } from '../store/context.tsx';

/** The format exporting now (null when none), and how to export in one; `command` gets the format arguments. */
export function useReportExport(
  title: string,
  command: (...format: [] | [ExportFormat]) => Promise<ExportResult>,
): [ExportFormat | null, (format: ExportFormat) => Promise<void>] {
  const store = useCrawlStore();
  const [busy, run] = useExportCommand();
  const { t } = useTranslation('analysis');
  const exportAs = async (format: ExportFormat) => {
    const xlsx = format === 'xlsx';
    const result = await run(format, t(xlsx ? 'reports.xlsxCommand' : 'reports.csvCommand', { title }), () =>
      command(...formatArgs(format)),
    );
    if (!result) return;
    if (!result.ok)
      notify(
        store,
        /cancel/i.test(result.error) ? 'info' : 'error',
        t(xlsx ? 'reports.xlsxFailed' : 'reports.csvFailed', { title, error: hostText(result.error) }),
      );
    else
      notify(
        store,
        'info',
        result.file
          ? t('reports.saved', { n: formatInt(result.rows ?? 0), file: result.file })
          : t(xlsx ? 'reports.xlsxDownloadStarted' : 'reports.downloadStarted'),
      );
  };
  return [busy, exportAs];
}
