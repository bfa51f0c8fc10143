// The worker thread that computes a crawl's Link Scores (link-score.ts) off the thread of the process that hosts the
// controller and the UI's requests: it reads the crawl (a crawl file opened read-only, or a crawl in the PostgreSQL
// store through a connection of its own: pg-link-score-read.ts), computes, and hands the typed arrays back by
// transfer (no copy). Started by link-score-thread.ts; a bundle of its own (scripts/fresh.mjs NODE_ENTRIES,
// electron.vite.config.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { computeLinkScoresOfFile, type LinkScoreSource, type LinkScores } from './link-score.ts';
import { computeStoreLinkScores } from './pg-link-score-read.ts';

const { source } = workerData as { source: LinkScoreSource };
// Not top-level await: the bundle is CommonJS.
void (async () => {
  try {
    const s: LinkScores =
      'file' in source
        ? computeLinkScoresOfFile(source.file, source.nativeBinding)
        : await computeStoreLinkScores(source.store, source.crawlId, source.stamp);
    const buffers = [s.urlIds.buffer, s.scores.buffer, s.ranks.buffer, s.uniqueInlinks.buffer] as ArrayBuffer[];
    parentPort!.postMessage({ ok: true, scores: s }, buffers);
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
})();
