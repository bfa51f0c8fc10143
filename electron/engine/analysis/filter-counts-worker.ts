// The worker thread that counts the explorer's filters (result-filters.ts filterCounts) of a large crawl file off
// the thread that answers the UI: it opens the file read-only, runs every count pass in one read transaction and
// posts the counts. Started by filter-counts-thread.ts; a bundle of its own (scripts/fresh.mjs NODE_ENTRIES,
// electron.vite.config.ts), as Link Score's. The content filters' counts read the caller's TEMP table of duplicate
// content (this connection's is empty): the caller counts those itself.
import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { openCrawlForAnalysis } from './index.ts';
import { filterCounts } from './result-filters.ts';
import { answerParent } from './worker-thread.ts';

const { file, nativeBinding } = workerData as { file: string; nativeBinding: string | undefined };
answerParent(parentPort!, () => {
  useSqliteNativeBinding(nativeBinding);
  const db = openCrawlForAnalysis(file);
  try {
    return filterCounts(db);
  } finally {
    db.close();
  }
});
