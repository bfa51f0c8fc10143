// The session's exports beyond the Results table's (a results reader's): a view of the explorer, a chart, the XML
// sitemap, and how any export's outcome is told (ExportResult: the rows and the file written, or why it failed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ChartData, ChartKind, ChartQuery, ExportFormat, FilterId, ViewExport } from '../../../shared/analysis.ts';
import { isContentFilter } from '../../../shared/analysis.ts';
import type { ExportResult } from '../../../shared/crawler-api.ts';
import { chartCsv, chartTable, viewWhere } from '../analysis/index.ts';
import { writeImageUses } from '../analysis/images.ts';
import { isImageFilter, viewRowsFrom } from '../analysis/result-filters.ts';
import { crawlRendered, exportCsv, extractionColumns } from '../export/csv-export.ts';
import { viewColumnsOf } from '../export/csv-writer.ts';
import { writeXlsxTable } from '../export/xlsx-writer.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import type { WrittenSitemap } from '../sitemaps/write-sitemap.ts';
import type { CrawlAnalysis } from './crawl-analysis.ts';

/** Runs an export to `dest`: its rows and file, or the error it threw. */
export async function exportResult(dest: string | NodeJS.WritableStream, run: () => Promise<{ rows: number }>): Promise<ExportResult> {
  try {
    const { rows } = await run();
    return { ok: true, rows, file: typeof dest === 'string' ? dest : null };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Every column a view of `filter` can export from a crawl file, in the order a tab export writes them. */
export function viewColumns(db: Db, filter: FilterId): string[] {
  return viewColumnsOf(filter, crawlRendered(db), extractionColumns(db));
}

/** What is wrong with a view export's columns (none chosen, one the crawl does not have: `known` are those it has), or null. */
export function viewColumnsProblem(known: readonly string[], view: ViewExport): string | null {
  const has = new Set(known);
  const unknown = view.columns.filter((c) => !has.has(c));
  if (view.columns.length === 0) return 'choose at least one column to export';
  return unknown.length ? `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')}` : null;
}

/**
 * One view of a crawl file's results (a filter, a text, chosen columns, a header preset) as CSV or XLSX, to a file or a
 * stream. A crawl in the store's: export/pg-view-export.ts, the same bytes.
 */
export function exportView(analysis: CrawlAnalysis, view: ViewExport, dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
  // An Images filter lists uses of an image on a page, not results: its own columns (images.ts), every use.
  if (isImageFilter(view.filter)) return writeImageUses(analysis.db, view.filter, dest, view.format ?? 'csv', view.text);
  const where = viewWhere(analysis.db, view.filter, view.text);
  return exportCsv(analysis.file, dest, {
    columns: view.columns,
    headerPreset: view.headerPreset,
    // The external view lists URLs, most never fetched: its rows come from urls, not from results.
    rowsFrom: viewRowsFrom(view.filter),
    format: view.format ?? 'csv',
    linkScores: true,
    // A content filter's view: its rows from the content analysis, with its columns (issue 18.1).
    content: isContentFilter(view.filter),
    ...(where ? { where } : {}),
  });
}

/** A chart's whole data as CSV (or XLSX), to a file path or a stream (ended when done), from either store's chartData. */
export async function exportChart(
  chartData: (query: ChartQuery) => Promise<ChartData>,
  kind: ChartKind,
  dest: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  const data = await chartData({ kind, afterSeq: null, fromMs: null, bucketMs: null });
  if (format === 'xlsx') {
    const [header, rows] = chartTable(data);
    return writeXlsxTable(header, [rows], dest, { sheetName: kind });
  }
  const csv = chartCsv(data);
  if (typeof dest === 'string') fs.writeFileSync(dest, csv);
  else dest.end(csv);
  return { rows: data.rows.length };
}

/**
 * A crawl's sitemap (`write`: writeSitemap of a crawl file, writeStoreSitemap of a cluster crawl) to a file path, or
 * to a stream through a temporary file: a stream takes one sitemap, so a crawl past the protocol's limits (50,000
 * URLs, 50 MB) is refused there.
 */
export async function writeSitemapTo(
  write: (outPath: string) => Promise<WrittenSitemap>,
  dest: string | NodeJS.WritableStream,
): Promise<{ rows: number }> {
  if (typeof dest === 'string') return { rows: (await write(dest)).urls };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-sitemap-'));
  try {
    const { urls, files } = await write(path.join(dir, 'sitemap.xml'));
    if (files.length > 1) {
      throw new Error(
        `the crawl has ${urls} pages for its sitemap, more than one sitemap holds (50,000 URLs, 50 MB): generate it from the desktop app or with npm run crawl -- --sitemap-out sitemap.xml (after --resume FILE, or --store URL --crawl ID)`,
      );
    }
    await pipeline(fs.createReadStream(files[0]!), dest);
    return { rows: urls };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
