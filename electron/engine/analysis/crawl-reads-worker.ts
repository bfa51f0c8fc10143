// The worker thread that reads a whole large crawl for a view off the thread that answers the UI: a crawl file's
// explorer counts (result-filters.ts filterCounts), or the crawl map's rows (crawl-map.ts, pg-crawl-map.ts) and the
// site structure's first fold (site-structure.ts) of a crawl file or of a crawl in the PostgreSQL store. It opens the
// crawl itself (the file read-only, or a connection of its own to the store), does its one job in one snapshot and
// posts the answer, typed arrays moved rather than copied. Started by crawl-reads-thread.ts; a bundle of its own
// (scripts/fresh.mjs NODE_ENTRIES, electron.vite.config.ts), as Link Score's. The content filters' counts read the
// caller's TEMP table of duplicate content (this connection's is empty): the caller counts those itself.
import { parentPort, workerData } from 'node:worker_threads';
import { useSqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { readCrawlMapRows } from './crawl-map.ts';
import type { CrawlReadJob, CrawlReadSource } from './crawl-reads-thread.ts';
import { openCrawlForAnalysis } from './index.ts';
import { storeMapRowsPacked } from './pg-crawl-map.ts';
import { filterCounts } from './result-filters.ts';
import { foldFilePacked, foldStorePacked } from './site-structure.ts';
import { answerParent } from './worker-answer.ts';

const { job, source } = workerData as { job: CrawlReadJob; source: CrawlReadSource };
answerParent(
  parentPort!,
  async () => {
    if ('store' in source) {
      if (job === 'structure-trie') return foldStorePacked(source.store, source.crawlId);
      if (job === 'crawl-map-rows') return storeMapRowsPacked(source.store, source.crawlId);
      throw new Error(`${job} of a crawl in the store is read by the caller`);
    }
    useSqliteNativeBinding(source.nativeBinding);
    const db = openCrawlForAnalysis(source.file);
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
