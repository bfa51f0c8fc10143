// The worker thread that computes a crawl's duplicate-content analysis (near-duplicates.ts) off the thread of the
// process that hosts the controller and answers the UI: it reads the signatures (a crawl file opened read-only, or a
// crawl in the PostgreSQL store through a connection of its own: pg-content.ts), bands them and hands the typed arrays
// back by transfer (no copy). Started by near-duplicates-thread.ts; a bundle of its own (scripts/fresh.mjs
// NODE_ENTRIES, electron.vite.config.ts), as Link Score's.
import { parentPort, workerData } from 'node:worker_threads';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { computeContentAnalysisOfFile, type ContentAnalysisResult, type ContentSource } from './near-duplicates.ts';
import { computeStoreContentAnalysis } from './pg-content-read.ts';
import { answerParent } from './worker-answer.ts';

const { source, options } = workerData as { source: ContentSource; options: ContentAnalysisOptions };
answerParent(
  parentPort!,
  (): Promise<ContentAnalysisResult> | ContentAnalysisResult =>
    'file' in source
      ? computeContentAnalysisOfFile(source.file, options, source.nativeBinding)
      : computeStoreContentAnalysis(source.store, source.crawlId, options, source.stamp),
  // The typed arrays move to the caller's thread, not copied.
  (r) => [r.urlIds, r.signatures, r.exactCount, r.exactGroup, r.match, r.similarity, r.low].map((a) => a.buffer) as ArrayBuffer[],
);
