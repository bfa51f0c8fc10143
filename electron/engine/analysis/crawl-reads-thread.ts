// What a view reads of a whole large crawl, off the thread that answers the UI (issue 19): at 800,000 results the
// explorer's counts take seven seconds, the crawl map's rows three and the site structure's first fold three, which
// in the thread would hold every other view (and a running crawl's controller) that long. A small crawl's reads take milliseconds, less than a worker
// thread's start: they stay in the thread.
import type { FilterCounts } from '../../../shared/analysis.ts';
import { CONTENT_FILTERS } from '../../../shared/analysis.ts';
import { type Db, sqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { type CrawlMapRead, CrawlMapRows, type CrawlMapRowsData } from './crawl-map.ts';
import { filterCounts } from './result-filters.ts';
import type { PackedTrie } from './site-structure.ts';
import type { StoreMapRead } from './pg-crawl-map.ts';
import { runWorkerThread } from './worker-thread.ts';

/** The jobs of crawl-reads-worker.ts. */
export type CrawlReadJob = 'filter-counts' | 'crawl-map-rows' | 'structure-trie';
/** The crawl a job reads: a crawl file (opened read-only with the caller's native addon), or a crawl in the store. */
export type CrawlReadSource = { file: string; nativeBinding: string | undefined } | { store: string; crawlId: string };

/** Counts that took at least this long in the thread are counted off it next time. */
export const OFF_THREAD_COUNTS_MS = 100;
/** Results rows past which a crawl's whole reads go off the thread (about OFF_THREAD_COUNTS_MS of counting). */
export const OFF_THREAD_ROWS = 20_000;

/** Whether the crawl file is large enough for its whole reads to go off the thread (by its results rows). */
export function largeCrawl(db: Db): boolean {
  const rows = (db.prepare('SELECT max(seq) AS n FROM results').get() as { n: number | null }).n ?? 0;
  return rows >= OFF_THREAD_ROWS;
}

/** Whether the counts of `db` go off the thread: by what they cost last time, else by the crawl's size. */
export function countsOffThread(db: Db, lastMs: number | null): boolean {
  return lastMs !== null ? lastMs >= OFF_THREAD_COUNTS_MS : largeCrawl(db);
}

function offThread<T>(job: CrawlReadJob, source: CrawlReadSource): Promise<T> {
  return runWorkerThread<T>('crawl-reads-worker', { job, source }, job);
}

const fileSource = (db: Db): CrawlReadSource => ({ file: db.name, nativeBinding: sqliteNativeBinding() });

/** The map's rows as the worker posts them, made CrawlMapRows again. */
async function mapRowsOf<S>(read: Promise<{ state: S; lastSeq: number; rows: CrawlMapRowsData }>) {
  const { state, lastSeq, rows } = await read;
  return { state, lastSeq, rows: CrawlMapRows.fromData(rows) };
}

/**
 * Every filter's count of the crawl file `db` reads: the passes over the file in a worker thread with a read-only
 * connection of its own, the content filters' from this connection's duplicate content (its TEMP table) here.
 */
export async function filterCountsOffThread(db: Db): Promise<FilterCounts> {
  const counts = await offThread<FilterCounts>('filter-counts', fileSource(db));
  return { ...counts, ...filterCounts(db, CONTENT_FILTERS) };
}

/** The crawl map's rows of the crawl file `db` reads, read in a worker thread (crawl-map.ts readCrawlMapRows). */
export function crawlMapRowsOffThread(db: Db): Promise<CrawlMapRead> {
  return mapRowsOf<string>(offThread('crawl-map-rows', fileSource(db)));
}

/** The site structure's first fold of the crawl file `db` reads, folded in a worker thread (site-structure.ts foldFilePacked). */
export function structureTrieOffThread(db: Db): Promise<PackedTrie> {
  return offThread<PackedTrie>('structure-trie', fileSource(db));
}

/** The site structure's first fold of a crawl in the store, folded in a worker thread through a connection of its own. */
export function storeStructureTrieOffThread(store: string, crawlId: string): Promise<PackedTrie> {
  return offThread<PackedTrie>('structure-trie', { store, crawlId });
}

/** The crawl map's rows of a crawl in the store, read in a worker thread through a connection of its own. */
export function storeMapRowsOffThread(store: string, crawlId: string): Promise<StoreMapRead> {
  return mapRowsOf<string | null>(offThread('crawl-map-rows', { store, crawlId }));
}
