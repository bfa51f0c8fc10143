// The worker thread that computes a crawl file's duplicate-content analysis (near-duplicates.ts) off the thread of
// the process that hosts the controller and answers the UI: it opens the file read-only, reads the signatures, bands
// them and hands the typed arrays back by transfer (no copy). Started by near-duplicates-thread.ts; a bundle of its
// own (scripts/fresh.mjs NODE_ENTRIES, electron.vite.config.ts), as Link Score's.
import { parentPort, workerData } from 'node:worker_threads';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { computeContentAnalysisOfFile } from './near-duplicates.ts';

const { file, options, nativeBinding } = workerData as { file: string; options: ContentAnalysisOptions; nativeBinding?: string };
try {
  const r = computeContentAnalysisOfFile(file, options, nativeBinding);
  const buffers = [r.urlIds, r.signatures, r.exactCount, r.exactGroup, r.match, r.similarity, r.low].map((a) => a.buffer) as ArrayBuffer[];
  parentPort!.postMessage({ ok: true, result: r }, buffers);
} catch (err) {
  parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
