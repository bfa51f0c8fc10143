// Link Score as the explorer and the Results table read it: computed in a worker thread (link-score-worker.ts), so
// the process that hosts the controller and answers the UI keeps answering during a computation of seconds, and
// kept in a TEMP table of each reader connection (link_scores: url_id, link_score, unique_inlinks), where the
// results' SQL sorts and shows it.
//
// Why a TEMP table on the reader connection rather than a table in the crawl file: the scores are derived data,
// recomputed in seconds whenever the crawl has new results; the file may be being crawled (a second writer would
// wait on, and slow, the crawl's writer, and scores written mid-crawl would be stale at once) or read-only (an older
// file read through a copy, a file of another user). A TEMP table needs no write to the file, works while the crawl
// runs, and goes with the connection. Its cost: each reader connection fills its own copy from the arrays the
// worker computed (shared per file here), about a second per million pages.
//
// Staleness: the file's latest results seq (linkScoreStamp). While a crawl adds results, recomputation is spaced
// out: not sooner than ten times the last computation's time (at least two seconds) after the last one, and it runs
// in the background: the previous scores serve until the next call after it finished.
import type Database from 'better-sqlite3';
import { sqliteNativeBinding } from '../frontier/sqlite/crawl-file.ts';
import { runWorkerThread } from './worker-thread.ts';
import { linkScoreStamp, type LinkScoreSource, type LinkScores } from './link-score.ts';

/** Computes the Link Scores of a crawl file in a worker thread that opens it read-only. */
export function computeLinkScoresOffThread(file: string): Promise<LinkScores> {
  return linkScoresOffThread({ file, nativeBinding: sqliteNativeBinding() });
}

/** Computes the Link Scores of `source` (a crawl file, or a crawl in the store) in a worker thread. */
export function linkScoresOffThread(source: LinkScoreSource): Promise<LinkScores> {
  return runWorkerThread<LinkScores>('link-score-worker', { source }, 'Link Score');
}

/** Computed scores per crawl file (the connection's file name), shared by its reader connections. */
const byFile = new Map<string, CrawlScores>();
/** The stamp of the scores each connection's TEMP table holds. */
const filled = new WeakMap<Database.Database, string>();

/** Fills the connection's TEMP table link_scores from computed scores (replacing what it held). */
export function fillLinkScores(db: Database.Database, s: LinkScores): void {
  db.transaction(() => {
    db.prepare('DELETE FROM temp.link_scores').run();
    const insert = db.prepare('INSERT INTO temp.link_scores (url_id, link_score, unique_inlinks) VALUES (?, ?, ?)');
    for (let i = 0; i < s.urlIds.length; i++) insert.run(s.urlIds[i], s.scores[i], s.uniqueInlinks[i]);
  })();
  filled.set(db, s.stamp);
}

/** Minimum wait between two computations of a file whose results keep changing (a running crawl). */
const spacing = (s: LinkScores) => Math.max(2000, 10 * s.ms);

export interface RefreshOptions {
  /**
   * Wait for a recomputation when scores exist but are stale (default false: the old scores serve, the new ones
   * fill the table at the next call). The first scores of a file are always waited for.
   */
  wait?: boolean;
  /** Minimum ms between two computations of a changing file (default: ten times the last one's time, at least 2 s). */
  spacingMs?: number;
  /**
   * Wait for nothing: what would be waited for (the first scores, or with `wait` newer ones) is computed meanwhile,
   * and the scores in use are given at once (null before the first). For an answer that only shows the scores (a
   * page of the explorer not sorted by them): at a million URLs the first scores take seconds, and the page's rows
   * do not need them. Whether the answer lacks scores it would have waited for: scoresBehind.
   */
  background?: boolean;
}

/**
 * For a file no crawl is writing: recomputed at once when its results changed, and waited for, so the scores shown
 * after a crawl are its final ones (while it runs they may lag by a computation).
 */
export const SETTLED_LINK_SCORES: RefreshOptions = { wait: true, spacingMs: 0 };

/**
 * Makes the connection's link_scores current: computes the file's scores off the thread when the file has new
 * results (spaced out while a crawl runs, see above) and fills the TEMP table when it holds older ones. Resolves to
 * the scores in use (null for a file that has none yet).
 */
export async function refreshLinkScores(db: Database.Database, options: RefreshOptions = {}): Promise<LinkScores | null> {
  const file = db.name;
  let entry = byFile.get(file);
  if (!entry) byFile.set(file, (entry = newScores()));
  const s = await currentScores(entry, linkScoreStamp(db), options, () => computeLinkScoresOffThread(file));
  if (s && db.open && filled.get(db) !== s.stamp) fillLinkScores(db, s);
  return s;
}

/** A crawl's scores as they are computed (for a crawl file here, for a crawl in the store in pg-link-score.ts). */
export interface CrawlScores {
  scores: LinkScores | null;
  /** When the last computation finished (Date.now()). */
  finishedAt: number;
  pending: Promise<LinkScores> | null;
}

export const newScores = (): CrawlScores => ({ scores: null, finishedAt: 0, pending: null });

/**
 * The crawl's scores in use, once `compute` has run if they are due at `stamp` (none yet, or new results and the
 * spacing passed), waited for as `options` say: the first scores always, stale ones only with `wait`.
 */
export async function currentScores(
  e: CrawlScores,
  stamp: string,
  options: RefreshOptions,
  compute: () => Promise<LinkScores>,
): Promise<LinkScores | null> {
  const current = e.scores;
  const due = !current || (current.stamp !== stamp && Date.now() - e.finishedAt >= (options.spacingMs ?? spacing(current)));
  if (due && !e.pending) {
    e.pending = compute().then((s) => {
      e.scores = s;
      return s;
    });
    const done = () => {
      e.pending = null;
      e.finishedAt = Date.now();
    };
    e.pending.then(done, done);
  }
  if (scoresBehind(e, options) && !options.background) {
    try {
      await e.pending;
    } catch (err) {
      if (!e.scores) throw err;
    }
  }
  return e.scores;
}

/** The Results and explorer sorts whose order is the scores: a page sorted so waits for them. */
export const SCORE_SORTS: readonly string[] = ['link_score', 'unique_inlinks'];

/**
 * How a page of rows sorted by `sort` asks for the scores (`base`: as the crawl's state says): in the background,
 * unless its order is theirs.
 */
export function pageScoreOptions(base: RefreshOptions, sort: string): RefreshOptions {
  return SCORE_SORTS.includes(sort) ? base : { ...base, background: true };
}

/**
 * Whether the scores in use lack a computation under way that `options` would have waited for without `background`
 * (the first scores, or with `wait` newer ones): an answer given with them is to be asked for again.
 */
export function scoresBehind(e: CrawlScores, options: RefreshOptions): boolean {
  return e.pending !== null && (!e.scores || options.wait === true);
}

/** scoresBehind for a crawl file's scores (false for a file whose scores were never asked for). */
export function linkScoresBehind(file: string, options: RefreshOptions): boolean {
  const e = byFile.get(file);
  return e !== undefined && scoresBehind(e, options);
}

/** Forgets a file's computed scores (the file was closed or deleted). */
export function forgetLinkScores(file: string): void {
  byFile.delete(file);
}
