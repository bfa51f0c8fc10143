// The worker thread that reads a large crawl file for a view off the thread that answers the UI: the explorer's
// filter counts (result-filters.ts filterCounts), the crawl map's rows (crawl-map.ts readCrawlMapRows) or the site
// structure's first fold (site-structure.ts foldFilePacked). It opens
// the file read-only, does its one job in one read transaction and posts the answer. Started by
// file-reads-thread.ts; a bundle of its own (scripts/fresh.mjs NODE_ENTRIES, electron.vite.config.ts), as Link
// Score's. The content filters' counts read the caller's TEMP table of duplicate content (this connection's is
// empty): the caller counts those itself.
import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { readCrawlMapRows } from './crawl-map.ts';
import type { FileReadJob } from './file-reads-thread.ts';
import { openCrawlForAnalysis } from './index.ts';
import { filterCounts } from './result-filters.ts';
import { foldFilePacked } from './site-structure.ts';
import { answerParent } from './worker-thread.ts';

const { job, file, nativeBinding } = workerData as { job: FileReadJob; file: string; nativeBinding: string | undefined };
answerParent(
  parentPort!,
  () => {
    useSqliteNativeBinding(nativeBinding);
    const db = openCrawlForAnalysis(file);
    try {
      if (job === 'filter-counts') return filterCounts(db);
      if (job === 'structure-trie') return foldFilePacked(db);
      const { state, lastSeq, rows } = readCrawlMapRows(db);
      return { state, lastSeq, rows: rows.toData() };
    } finally {
      db.close();
    }
  },
  (answer) => {
    if ('sums' in answer) return [answer.parent.buffer, answer.sums.buffer] as ArrayBuffer[];
    if (!('rows' in answer)) return [];
    const r = answer.rows;
    return [r.indexOf, r.viaOf, r.inlinkCounts, r.ids, r.depthOf, r.statusOf, r.indexOfRow].flatMap((a) =>
      a ? [a.buffer as ArrayBuffer] : [],
    );
  },
);
