// Duplicate content's analysis (issue 18.1) off the thread that answers the UI, as Link Score's is
// (link-score-thread.ts): before a workbench view reads the content filters or a page's duplicates, the session
// awaits prepareContentAnalysis, which computes the file's analysis in a worker thread when it is due (none yet,
// other options, new results) and hands it to near-duplicates.ts, whose refreshContentAnalysis then only fills the
// connection's TEMP table. One computation per file at a time; callers meanwhile wait for it.
import { Worker } from 'node:worker_threads';
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { type Db, sqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { workerScript } from './link-score-thread.ts';
import {
  adoptContentAnalysis,
  type ContentAnalysisResult,
  type ContentSource,
  contentAnalysisDue,
  contentOptions,
  contentOptionsKey,
} from './near-duplicates.ts';

/** Computes a crawl file's content analysis for `options` in a worker thread that opens it read-only. */
export function computeContentAnalysisOffThread(file: string, options: ContentAnalysisOptions): Promise<ContentAnalysisResult> {
  return analyseOffThread({ file, nativeBinding: sqliteNativeBinding() }, options);
}

/** Computes the content analysis of `source` (a crawl file, or a crawl in the store) in a worker thread. */
export function analyseOffThread(source: ContentSource, options: ContentAnalysisOptions): Promise<ContentAnalysisResult> {
  const { script, eval: isCode } = workerScript('near-duplicates-worker');
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: isCode, workerData: { source, options } });
    let settled = false;
    worker.once('message', (m: { ok: true; result: ContentAnalysisResult } | { ok: false; error: string }) => {
      settled = true;
      if (m.ok) resolve(m.result);
      else reject(new Error(`duplicate content: ${m.error}`));
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`duplicate content worker exited with code ${code}`));
    });
  });
}

/** The computation under way per file and options key. */
const pending = new Map<string, Promise<ContentAnalysisResult>>();

/**
 * Computes the file's content analysis off the thread when it is due, and makes it the file's. Options changed
 * during a computation start another (at most three rounds; a later refresh computes in the thread if still due).
 */
export async function prepareContentAnalysis(db: Db, options: { writing?: boolean } = {}): Promise<void> {
  const file = db.name;
  for (let round = 0; round < 3 && db.open && contentAnalysisDue(db, options); round++) {
    const key = `${file}\n${contentOptionsKey(file)}`;
    let p = pending.get(key);
    if (!p) {
      p = computeContentAnalysisOffThread(file, contentOptions(file));
      pending.set(key, p);
      const done = () => void pending.delete(key);
      p.then(done, done);
    }
    adoptContentAnalysis(file, await p);
  }
}
