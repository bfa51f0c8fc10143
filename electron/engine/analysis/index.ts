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

/**
 * SQLite's largest memory map (its build's limit, 2 GB less 64 KB): a file up to this size is read through it.
 * The analyses look rows up by key all over a large file (the badges' broken links, hreflang and sitemap passes); read
 * through the map, each look-up is no system call: every count of a crawl file of 800,000 results took 4.5-4.6 s (1.4
 * s of it in the kernel), 3.3-3.4 s mapped. The pages read count in the process's resident memory as the file's
 * cache, shared and given back under pressure. What a map changes: a read past the file's end, or an I/O error of the
 * disk under it (a removed USB disk), is a signal that ends the process instead of an error of one query. A crawl
 * file is never truncated while it is read (only its WAL is, and the WAL is not mapped); a disk gone from under a
 * crawl file fails its crawl either way, whose committed rows are in the file.
 */
const ANALYSIS_MMAP_BYTES = 2_147_418_112;

/**
 * A read-only connection to a crawl file for the analysis queries, with the page cache a crawl's own has (32 MB),
 * reading the file through a memory map.
 */
export function openCrawlForAnalysis(file: string): Db {
  const db = openCrawlFile(file, { readonly: true });
  db.pragma('cache_size = -32000');
  db.pragma(`mmap_size = ${ANALYSIS_MMAP_BYTES}`);
  return db;
}
