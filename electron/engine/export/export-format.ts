// Which writer an export uses: CSV (csv-writer.ts) or XLSX (xlsx-writer.ts), both over one CsvRowSource, so a crawl
// file's export and a PostgreSQL crawl's pick their format the same way. The CLI picks it by --out's extension.
import path from 'node:path';
import type { ExportFormat } from '../../../shared/analysis.ts';
import { writeCsvExport, type CsvExportResult, type CsvLayoutOptions, type CsvRowSource } from './csv-writer.ts';
import { writeXlsxExport } from './xlsx-writer.ts';

export type { ExportFormat } from '../../../shared/analysis.ts';

export interface FormatOption {
  /** CSV (the default) or an XLSX workbook. */
  format?: ExportFormat;
}

/** The format a file's name asks for: XLSX for `.xlsx` (any case), CSV otherwise. */
export function exportFormatOf(file: string): ExportFormat {
  return path.extname(file).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv';
}

/** The source's rows to `out` in the format asked for (CSV by default). */
export function writeExport(
  source: CsvRowSource,
  out: string | NodeJS.WritableStream,
  options: CsvLayoutOptions & FormatOption = {},
): Promise<CsvExportResult> {
  return options.format === 'xlsx' ? writeXlsxExport(source, out, options) : writeCsvExport(source, out, options);
}
