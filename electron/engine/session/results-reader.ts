// What the Results table reads, whichever store holds the crawl: a page of its results (filtered, sorted) and all of
// them as CSV. Implemented for a crawl file (crawl-file-results.ts) and for a cluster crawl in the PostgreSQL store
// (cluster-results.ts), both with the SQL of analysis/result-rows.ts.
import type { ExportFormat } from '../../../shared/analysis.ts';
import type { ResultsPage, ResultsQuery } from '../../../shared/crawler-api.ts';
import type { CsvExportResult } from '../export/csv-writer.ts';

export interface ResultsReader {
  /** A page of the results; works while the crawl runs. */
  query(q: ResultsQuery): Promise<ResultsPage>;
  /** The results as CSV (or XLSX), to a file path or a stream (ended when done). */
  exportCsv(dest: string | NodeJS.WritableStream, format?: ExportFormat): Promise<CsvExportResult>;
  /** Closes the reader's connection; a closed reader of a crawl file opens it again when asked. */
  close(): Promise<void>;
}
