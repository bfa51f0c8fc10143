// The issues overview over a crawl file: each issue's count is its explorer filter's (shared/issues.ts declares which),
// from the filters' count passes in one read transaction (result-filters.ts); as CSV or XLSX, the issues found.
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

/** The issues found as CSV (or XLSX): issue, type, priority, URLs, why, how to fix, filter. */
export async function exportOverview(
  db: Db,
  dest: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  const rows = overviewRows(issuesOverview(db));
  if (format === 'xlsx') return writeXlsxTable([...OVERVIEW_COLUMNS], [rows], dest, { sheetName: 'issues' });
  // As the charts' CSV (charts-data.ts): a BOM and CRLF for Excel, text cells neutralised.
  const cells = rows.map((row) => row.map((v) => (typeof v === 'number' ? String(v) : neutraliseCell(v))));
  const csv = stringify([[...OVERVIEW_COLUMNS], ...cells], { bom: true, record_delimiter: 'windows', quote_record_delimiter: true });
  if (typeof dest === 'string') fs.writeFileSync(dest, csv);
  else dest.end(csv);
  return { rows: rows.length };
}
