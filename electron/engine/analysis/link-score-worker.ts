// The worker thread that computes a crawl's Link Scores (link-score.ts) off the thread of the process that hosts the
// controller and the UI's requests: it reads the crawl (a crawl file opened read-only, or a crawl in the PostgreSQL
// store through a connection of its own: pg-link-score-read.ts), computes, and hands the typed arrays back by
// transfer (no copy). Started by link-score-thread.ts; a bundle of its own (scripts/fresh.mjs NODE_ENTRIES,
// electron.vite.config.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { computeLinkScoresOfFile, type LinkScoreSource, type LinkScores } from './link-score.ts';
import { computeStoreLinkScores } from './pg-link-score-read.ts';
import { answerParent } from './worker-answer.ts';

const { source } = workerData as { source: LinkScoreSource };
answerParent(
  parentPort!,
  (): Promise<LinkScores> | LinkScores =>
    'file' in source
      ? computeLinkScoresOfFile(source.file, source.nativeBinding)
      : computeStoreLinkScores(source.store, source.crawlId, source.stamp),
  // The typed arrays move to the caller's thread, not copied.
  (s) => [s.urlIds.buffer, s.scores.buffer, s.ranks.buffer, s.uniqueInlinks.buffer] as ArrayBuffer[],
);
