// The worker thread that computes a crawl file's Link Scores (link-score.ts) off the thread of the process that
// hosts the controller and the UI's requests: it opens the file read-only, computes, and hands the typed arrays back
// by transfer (no copy). Started by link-score-thread.ts; a bundle of its own (scripts/fresh.mjs NODE_ENTRIES,
// electron.vite.config.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { computeLinkScoresOfFile } from './link-score.ts';

const { file, nativeBinding } = workerData as { file: string; nativeBinding?: string };
try {
  const s = computeLinkScoresOfFile(file, nativeBinding);
  const buffers = [s.urlIds.buffer, s.scores.buffer, s.ranks.buffer, s.uniqueInlinks.buffer] as ArrayBuffer[];
  parentPort!.postMessage({ ok: true, scores: s }, buffers);
} catch (err) {
  parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
