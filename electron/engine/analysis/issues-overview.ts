// The issues overview over a crawl file: each issue's count is its explorer filter's (shared/issues.ts declares which),
// from the filters' count passes in one read transaction (result-filters.ts); as CSV or XLSX, the issues found (a
// crawl in the store's too: writeOverview, from its counts, session/cluster-results.ts).
import fs from 'node:fs';
import type { ExportFormat } from '../../../shared/analysis.ts';
import { ISSUE_FILTERS, type IssuesOverview, OVERVIEW_COLUMNS, overviewOf, overviewRows } from '../../../shared/issues.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { stringify } from 'csv-stringify/sync';
import { neutraliseCell } from '../export/csv-cell.ts';
import { writeXlsxTable } from '../export/xlsx-writer.ts';
import { filterCounts } from './result-filters.ts';

/** Every issue this build checks, with the number of URLs its filter lists now. */
export function issuesOverview(db: Db): IssuesOverview {
  return overviewOf(filterCounts(db, ISSUE_FILTERS));
}

/** The issues found in a crawl file as CSV (or XLSX): issue, type, priority, URLs, why, how to fix, filter. */
export function exportOverview(db: Db, dest: string | NodeJS.WritableStream, format: ExportFormat = 'csv'): Promise<{ rows: number }> {
  return writeOverview(issuesOverview(db), dest, format);
}

/** An overview's issues found (a crawl file's, or a crawl's in the store) as CSV (or XLSX), to a file path or a stream. */
export async function writeOverview(
  overview: IssuesOverview,
  dest: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  const rows = overviewRows(overview);
  if (format === 'xlsx') return writeXlsxTable([...OVERVIEW_COLUMNS], [rows], dest, { sheetName: 'issues' });
  // As the charts' CSV (charts-data.ts): a BOM and CRLF for Excel, text cells neutralised.
  const cells = rows.map((row) => row.map((v) => (typeof v === 'number' ? String(v) : neutraliseCell(v))));
  const csv = stringify([[...OVERVIEW_COLUMNS], ...cells], { bom: true, record_delimiter: 'windows', quote_record_delimiter: true });
  if (typeof dest === 'string') fs.writeFileSync(dest, csv);
  else dest.end(csv);
  return { rows: rows.length };
}
