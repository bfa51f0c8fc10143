// Duplicate content's analysis (issue 18.1) off the thread that answers the UI, as Link Score's is
// (link-score-thread.ts): before a workbench view reads the content filters or a page's duplicates, the session
// awaits prepareContentAnalysis, which computes the file's analysis in a worker thread when it is due (none yet,
// other options, new results) and hands it to near-duplicates.ts, whose refreshContentAnalysis then only fills the
// connection's TEMP table. One computation per file at a time; callers meanwhile wait for it.
import type { ContentAnalysisOptions } from '../../../shared/content.ts';
import { type Db, sqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { runWorkerThread } from './worker-thread.ts';
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
  return runWorkerThread<ContentAnalysisResult>('near-duplicates-worker', { source, options }, 'duplicate content');
}

/**
 * The content analyses computed off the thread, of crawl files (here) and of crawls in the store (pg-content.ts):
 * one per crawl and options at a time, callers meanwhile sharing it, and which of them failed last (a caller that
 * would not wait then waits as before, so a failing analysis is not started again at every ask).
 */
export class AnalysisRuns {
  private readonly pending = new Map<string, Promise<ContentAnalysisResult>>();
  private readonly failed = new Set<string>();

  /** The analysis under way for `key` (a crawl and its options), or a new one from `start`. */
  run(key: string, start: () => Promise<ContentAnalysisResult>): Promise<ContentAnalysisResult> {
    let p = this.pending.get(key);
    if (!p) {
      p = start();
      this.pending.set(key, p);
      p.then(
        () => {
          this.failed.delete(key);
          this.pending.delete(key);
        },
        () => {
          this.failed.add(key);
          this.pending.delete(key);
        },
      );
    }
    return p;
  }

  /**
   * For a caller that does not wait: false when the last analysis for `key` failed (the caller waits, as before);
   * else true, the analysis started from `start` unless one is under way, and handed to `adopt` when it ends.
   */
  inBackground(key: string, start: () => Promise<ContentAnalysisResult>, adopt: (r: ContentAnalysisResult) => void): boolean {
    if (this.failed.has(key)) return false;
    if (!this.pending.has(key)) this.run(key, start).then(adopt, () => undefined);
    return true;
  }
}

/** A crawl's runs key: the crawl (a file's name, or a crawl in the store's key) and its options. */
export const analysisRunKey = (key: string): string => `${key}\n${contentOptionsKey(key)}`;

const runs = new AnalysisRuns();

/**
 * Computes the file's content analysis off the thread when it is due, and makes it the file's. Options changed
 * during a computation start another (at most three rounds; a later refresh computes in the thread if still due).
 */
export async function prepareContentAnalysis(db: Db, options: { writing?: boolean } = {}): Promise<void> {
  const file = db.name;
  for (let round = 0; round < 3 && db.open && contentAnalysisDue(db, options); round++) {
    adoptContentAnalysis(file, await runs.run(analysisRunKey(file), () => computeContentAnalysisOffThread(file, contentOptions(file))));
  }
}

/**
 * prepareContentAnalysis without waiting, for a URL's detail (its duplicates can wait, its row cannot: at a million
 * pages the analysis takes seconds): true when the file's analysis is current, or when computing it off the thread
 * failed last time (the caller computes it in the thread, as before); else its computation is started off the
 * thread, or left running, and taken as the file's when it ends; false.
 */
export function contentAnalysisReady(db: Db, options: { writing?: boolean } = {}): boolean {
  const file = db.name;
  if (!db.open || !contentAnalysisDue(db, options)) return true;
  return !runs.inBackground(
    analysisRunKey(file),
    () => computeContentAnalysisOffThread(file, contentOptions(file)),
    (r) => void adoptContentAnalysis(file, r),
  );
}
