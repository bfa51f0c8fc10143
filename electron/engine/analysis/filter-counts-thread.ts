// The explorer's filter counts of a large crawl file, off the thread that answers the UI (issue 19): at 800,000
// results they take seven seconds, which in the thread would hold every other view (and a running crawl's controller)
// that long. A small crawl's counts take milliseconds, less than a worker thread's start: they stay in the thread.
import type { FilterCounts } from '../../../shared/analysis.ts';
import { CONTENT_FILTERS } from '../../../shared/analysis.ts';
import { type Db, sqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { filterCounts } from './result-filters.ts';
import { runWorkerThread } from './worker-thread.ts';

/** Counts that took at least this long in the thread (or would, by the crawl's size) are counted off it next time. */
export const OFF_THREAD_COUNTS_MS = 100;
/** Results rows past which a crawl's first counts go off the thread (about OFF_THREAD_COUNTS_MS of counting). */
export const OFF_THREAD_COUNTS_ROWS = 20_000;

/** Whether the counts of `db` go off the thread: by what they cost last time, else by the crawl's size. */
export function countsOffThread(db: Db, lastMs: number | null): boolean {
  if (lastMs !== null) return lastMs >= OFF_THREAD_COUNTS_MS;
  const rows = (db.prepare('SELECT max(seq) AS n FROM results').get() as { n: number | null }).n ?? 0;
  return rows >= OFF_THREAD_COUNTS_ROWS;
}

/**
 * Every filter's count of the crawl file `db` reads: the passes over the file in a worker thread with a read-only
 * connection of its own, the content filters' from this connection's duplicate content (its TEMP table) here.
 */
export async function filterCountsOffThread(db: Db): Promise<FilterCounts> {
  const counts = await runWorkerThread<FilterCounts>(
    'filter-counts-worker',
    { file: db.name, nativeBinding: sqliteNativeBinding() },
    'filter counts',
  );
  return { ...counts, ...filterCounts(db, CONTENT_FILTERS) };
}
