// The analyst workbench's SQL side: plain functions over a read-only connection to a crawl file, each returning
// plain JSON-serialisable objects; no UI, no IPC. Open the connection with openCrawlForAnalysis (or
// openCrawlFile(path, { readonly: true })); it can stay open while a crawl writes to the file.
//
//   result-filters   the Results explorer's tabs: RESULT_FILTERS, filterCounts(db), queryFiltered(db, query)
//   url-detail       one URL: urlDetail(db, ref), inlinks/outlinks (paged by key), redirectChain
//   queue-inspector  queued URLs: queueHosts, queuePrefixes, queueSearch
//   hosts-report     per host: hostsReport(db, query)
//   charts-data      fileChartData(db, query) (postgresChartData on the store), statusDistribution..., chartCsv
//   site-structure   the folder tree: siteStructure(db, query), exportStructureCsv(db, dest)
//   compare          two crawl files: CrawlComparison.open(old, new).summary() / page() / rows() / exportCsv()
import { openCrawlFile, type Db } from '../frontier/sqlite/crawl-file.ts';

export * from './result-filters.ts';
export * from './url-detail.ts';
export * from './queue-inspector.ts';
export * from './hosts-report.ts';
export * from './charts-data.ts';
export * from './compare.ts';
export * from './site-structure.ts';

/** A read-only connection to a crawl file for the analysis queries, with the page cache a crawl's own has (32 MB). */
export function openCrawlForAnalysis(file: string): Db {
  const db = openCrawlFile(file, { readonly: true });
  db.pragma('cache_size = -32000');
  return db;
}
