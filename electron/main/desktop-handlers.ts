// The desktop's handler of every command: the session's methods, but for the commands the table leaves to each
// host: a crawl picked in an open dialog when none is named, exports written where a save dialog says, the
// current snapshot. The dialogs are given (Electron's in ipc-handlers.ts), so this builds without Electron. Crawl
// files go to and from the window as opaque ids (crawl-file-ids.ts): it can name only files the main process listed,
// created or had picked in a dialog, never a path of its own.
import type { ExportFormat } from '../../shared/analysis.ts';
import { englishText } from '../../shared/messages.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { sessionHandlers } from '../host/command-handlers.ts';
import type { Handlers } from '../host/command-handlers.ts';
import { crawlFileIds } from './crawl-file-ids.ts';
import type { CrawlFileIds } from './crawl-file-ids.ts';

export interface DesktopDialogs {
  /** A crawl file picked by the user, or null when cancelled. */
  openCrawl(): Promise<string | null>;
  /** Where to write a CSV (or, with format 'xlsx', an XLSX workbook; 'xml', a sitemap), or null when cancelled. */
  saveCsv(title: string, defaultPath: string, format?: ExportFormat | 'xml'): Promise<string | null>;
}

/** The session's format argument: none for CSV (its default, so a CSV export is asked of it as it always was). */
const formatArg = (format: ExportFormat): [] | [ExportFormat] => (format === 'csv' ? [] : [format]);

export function desktopHandlers(session: CrawlSession, dialogs: DesktopDialogs, ids: CrawlFileIds = crawlFileIds()): Handlers {
  // A CSV's dialog is asked as it always was (no format); an XLSX's names its format, for the dialog's file filter.
  const saveAs = (title: string, stem: string, format: ExportFormat) =>
    format === 'csv' ? dialogs.saveCsv(title, `${stem}.csv`) : dialogs.saveCsv(title, `${stem}.${format}`, format);
  return ids.wrap({
    ...sessionHandlers(session),
    openCrawl: async (file) => {
      const chosen = file ?? (await dialogs.openCrawl());
      return chosen === null ? null : session.openCrawl(chosen);
    },
    exportCsv: async (format = 'csv') => {
      const problem = session.exportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveAs(format === 'csv' ? 'Export CSV' : 'Export XLSX', 'crawl', format);
      return file === null ? { ok: false, error: englishText('exportCancelled') } : session.exportCsv(file, ...formatArg(format));
    },
    exportChartCsv: async (kind, format = 'csv') => {
      const problem = session.chartExportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveAs(`Export the ${kind} chart as ${format.toUpperCase()}`, `${kind}-chart`, format);
      return file === null
        ? { ok: false, error: englishText('exportCancelled') }
        : session.exportChartCsv(kind, file, ...formatArg(format));
    },
    exportView: async (view) => {
      const problem = await session.viewExportProblem(view);
      if (problem) return { ok: false, error: problem };
      const format = view.format ?? 'csv';
      const file = await dialogs.saveCsv(`Export this view as ${format.toUpperCase()}`, `crawl-${view.filter}.${format}`, format);
      return file === null ? { ok: false, error: englishText('exportCancelled') } : session.exportView(view, file);
    },
    exportComparison: async (query, format = 'csv') => {
      const file = await saveAs(`Export the comparison as ${format.toUpperCase()}`, 'comparison', format);
      return file === null
        ? { ok: false, error: englishText('exportCancelled') }
        : session.exportComparison(query, file, ...formatArg(format));
    },
    exportOverview: async (format = 'csv') => {
      const problem = session.overviewExportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveAs(`Export the issues overview as ${format.toUpperCase()}`, 'issues', format);
      return file === null ? { ok: false, error: englishText('exportCancelled') } : session.exportOverview(file, ...formatArg(format));
    },
    exportStructureCsv: async () => {
      const problem = session.chartExportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveAs('Export the site structure as CSV', 'site-structure', 'csv');
      return file === null ? { ok: false, error: englishText('exportCancelled') } : session.exportStructureCsv(file);
    },
    currentSnapshot: async () => session.snapshot(),
    exportSitemap: async () => {
      const problem = session.sitemapProblem();
      if (problem) return { ok: false, error: problem };
      const file = await dialogs.saveCsv("Generate the crawl's sitemap", 'sitemap.xml', 'xml');
      return file === null ? { ok: false, error: englishText('exportCancelled') } : session.exportSitemap(file);
    },
    exportBulkReport: async (report, format = 'csv') => {
      const problem = session.bulkReportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveAs(`Export the ${report} report as ${format.toUpperCase()}`, report, format);
      return file === null
        ? { ok: false, error: englishText('exportCancelled') }
        : session.exportBulkReport(report, file, ...formatArg(format));
    },
  });
}
