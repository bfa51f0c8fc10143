// Duplicate content (issue 18.1) over a crawl file's content table (the worker's fingerprints, shared/content.ts):
// exact duplicates by the main text's hash, near-duplicates by locality-sensitive hashing over the MinHash signatures
// (bands of rows chosen for the threshold) checked by the estimated similarity of the whole signatures, and low
// content by the main text's word count. The threshold, the pages compared (indexable ones, or every parsed page) and
// the low-content word count are parameters of the analysis, per crawl file (setContentOptions): changing them
// recomputes from the stored signatures, never crawls again.
//
// Like Link Score, the outcome is derived data kept in a TEMP table of each reader connection (content_dups: only the
// pages some filter lists), so the explorer's filters, counts and exports read it in SQL; the computation is shared by
// the file's connections (by the file's results stamp and the options). The workbench computes it in a worker
// thread (near-duplicates-thread.ts, prepareContentAnalysis, before its views read it) so the process that answers
// the UI keeps answering; the CLI's exports and the benches compute it here, in the calling thread (BENCHMARKS.md).
import Database from 'better-sqlite3';
import {
  type ContentAnalysisOptions,
  contentAnalysisOptions,
  DEFAULT_CONTENT_ANALYSIS,
  MINHASH_BINS,
  signatureOf,
} from '../../../shared/content.ts';
import { diffTexts, type TextDiff } from '../../../shared/text-diff.ts';
import type { ContentDetail, ContentMatch } from '../../../shared/url-detail.ts';
import { CONTENT_DUPS_TEMP_TABLE, type Db } from '../frontier/sqlite/crawl-file.ts';
import { hasTable } from './sql.ts';

/** Bands x rows for a threshold: the most rows a band (fewest false candidates) that still find 97% of pairs at it. */
export function bandsFor(threshold: number, bins = MINHASH_BINS): { bands: number; rows: number } {
  let best = { bands: bins, rows: 1 };
  for (let rows = 1; rows <= bins; rows++) {
    const bands = Math.floor(bins / rows);
    if (bands < 1) break;
    const found = 1 - (1 - threshold ** rows) ** bands;
    if (found >= 0.97) best = { bands, rows };
  }
  return best;
}

/** Candidate pairs per bucket at most: a bucket of more pages compares each with the next BUCKET_WINDOW only. */
const BUCKET_WINDOW = 64;

export interface NearDuplicateInput {
  /** Signatures, MINHASH_BINS values per page, one page after another. */
  signatures: Uint32Array;
  /** Group of exact duplicates per page (pages with the same id have the same text); -1 for none. */
  exactGroup: Int32Array;
}

/**
 * The closest near-duplicate of each page (an index, -1 for none) and its estimated similarity, at or above
 * `threshold`. Pages of one exact group are near-duplicates of none of each other (they are exact ones); the group is
 * banded once, by its first page, and every member gets its match.
 */
export function nearDuplicates(
  input: NearDuplicateInput,
  threshold: number,
): { match: Int32Array; similarity: Float32Array; pairs: number } {
  const k = MINHASH_BINS;
  const n = input.exactGroup.length;
  const sig = input.signatures;
  const match = new Int32Array(n).fill(-1);
  const similarity = new Float32Array(n);
  // One representative per exact group.
  const repOfGroup = new Map<number, number>();
  const reps: number[] = [];
  for (let i = 0; i < n; i++) {
    const g = input.exactGroup[i]!;
    if (g < 0) reps.push(i);
    else if (!repOfGroup.has(g)) {
      repOfGroup.set(g, i);
      reps.push(i);
    }
  }
  const { bands, rows } = bandsFor(threshold);
  const minSame = Math.ceil(threshold * k - 1e-9);
  let pairs = 0;
  const consider = (a: number, b: number) => {
    const ga = input.exactGroup[a]!;
    if (ga >= 0 && ga === input.exactGroup[b]) return;
    pairs++;
    let same = 0;
    const oa = a * k;
    const ob = b * k;
    for (let j = 0; j < k; j++) if (sig[oa + j] === sig[ob + j]) same++;
    if (same < minSame) return;
    const s = same / k;
    if (s > similarity[a]! || match[a] === -1) {
      match[a] = b;
      similarity[a] = s;
    }
    if (s > similarity[b]! || match[b] === -1) {
      match[b] = a;
      similarity[b] = s;
    }
  };
  const buckets = new Map<number, number[]>();
  for (let band = 0; band < bands; band++) {
    buckets.clear();
    const from = band * rows;
    for (const i of reps) {
      let h = 0x811c9dc5 ^ band;
      const o = i * k + from;
      for (let j = 0; j < rows; j++) h = Math.imul(h ^ sig[o + j]!, 0x01000193);
      const list = buckets.get(h);
      if (list) list.push(i);
      else buckets.set(h, [i]);
    }
    for (const list of buckets.values()) {
      if (list.length < 2) continue;
      for (let x = 0; x < list.length; x++) {
        const end = Math.min(list.length, x + 1 + BUCKET_WINDOW);
        for (let y = x + 1; y < end; y++) consider(list[x]!, list[y]!);
      }
    }
  }
  // The members of an exact group share their representative's match.
  for (let i = 0; i < n; i++) {
    const g = input.exactGroup[i]!;
    if (g < 0) continue;
    const rep = repOfGroup.get(g)!;
    if (rep !== i) {
      match[i] = match[rep]!;
      similarity[i] = similarity[rep]!;
    }
  }
  return { match, similarity, pairs };
}

/** What a crawl file's content analysis found, for the options it ran with. */
export interface ContentAnalysisResult {
  stamp: string;
  key: string;
  /** Milliseconds it took (reading the signatures and banding them). */
  ms: number;
  /** Pages compared (parsed, with main text, indexable unless allPages). */
  pages: number;
  urlIds: Float64Array;
  signatures: Uint32Array;
  exactCount: Int32Array;
  /** Exact group per page (-1: its text is no other page's). */
  exactGroup: Int32Array;
  match: Int32Array;
  similarity: Float32Array;
  low: Uint8Array;
  /** Candidate pairs checked. */
  pairs: number;
}

const optionsKey = (o: ContentAnalysisOptions) => `${o.threshold}|${o.allPages ? 1 : 0}|${o.lowContentWords}`;
const stampOf = (db: Db) => String((db.prepare('SELECT coalesce(max(seq), 0) AS m FROM results').get() as { m: number }).m);

/**
 * Where a computation reads the signatures: a crawl file (with the host's native SQLite binding), or a crawl in the
 * PostgreSQL store at `stamp` (pg-content.ts).
 */
export type ContentSource = { file: string; nativeBinding?: string } | { store: string; crawlId: string; stamp: string };

/** A compared page's content row: url_id, main_words, text_hash, minhash. */
export type ContentRow = [number, number, string | null, Uint8Array | null];

/** How a statement names a crawl's table: bare on a crawl file, with its schema in the store. */
type TableName = (name: 'content' | 'results' | 'urls') => string;
const bare: TableName = (name) => name;

/**
 * The content rows a computation compares (a crawl's content table, either store), in url_id order; `page`: those
 * after a parameter, at most `limit`.
 */
export function contentRowsSql(
  options: ContentAnalysisOptions,
  table: TableName = bare,
  page: { after: string; limit: number } | null = null,
): string {
  const where = [options.allPages ? null : "r.indexability = 'indexable'", page ? `c.url_id > ${page.after}` : null].filter(Boolean);
  return `SELECT c.url_id, c.main_words, c.text_hash, c.minhash FROM ${table('content')} c JOIN ${table('results')} r ON r.url_id = c.url_id
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.url_id${page ? ` LIMIT ${page.limit}` : ''}`;
}

/** Computes the content analysis of a crawl file (its content table) for `options`. */
export function computeContentAnalysis(db: Db, options: ContentAnalysisOptions = DEFAULT_CONTENT_ANALYSIS): ContentAnalysisResult {
  const started = performance.now();
  const stamp = stampOf(db);
  const rows = hasTable(db, 'content') ? (db.prepare(contentRowsSql(options)).raw(true).all() as ContentRow[]) : [];
  return analyseContent(rows, options, stamp, started);
}

/**
 * The content analysis of the compared pages' rows (url_id ascending), for `options`; `stamp` says what of the crawl
 * it saw, `started` when reading began (performance.now()).
 */
export function analyseContent(
  rows: readonly ContentRow[],
  options: ContentAnalysisOptions,
  stamp: string,
  started: number,
): ContentAnalysisResult {
  const n = rows.length;
  const urlIds = new Float64Array(n);
  const signatures = new Uint32Array(n * MINHASH_BINS);
  const exactGroup = new Int32Array(n).fill(-1);
  const low = new Uint8Array(n);
  const groupOf = new Map<string, number>();
  const groupSize: number[] = [];
  for (let i = 0; i < n; i++) {
    const [id, words, hash, minhash] = rows[i]!;
    urlIds[i] = id;
    if (words < options.lowContentWords) low[i] = 1;
    const sig = minhash ? signatureOf(minhash) : null;
    if (sig) signatures.set(sig, i * MINHASH_BINS);
    if (hash !== null) {
      let g = groupOf.get(hash);
      if (g === undefined) {
        g = groupSize.length;
        groupOf.set(hash, g);
        groupSize.push(0);
      }
      groupSize[g]!++;
      exactGroup[i] = g;
    }
  }
  // Only groups of two or more are exact duplicates; a page without words (no signature) is nobody's near-duplicate.
  const exactCount = new Int32Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    const g = exactGroup[i]!;
    if (g >= 0 && groupSize[g]! > 1) exactCount[i] = groupSize[g]!;
    else if (g >= 0) exactGroup[i] = -1;
  }
  const withSignature: number[] = [];
  for (let i = 0; i < n; i++) if (rows[i]![3]) withSignature.push(i);
  let match: Int32Array = new Int32Array(n).fill(-1);
  let similarity: Float32Array = new Float32Array(n);
  let pairs = 0;
  if (withSignature.length === n) {
    ({ match, similarity, pairs } = nearDuplicates({ signatures, exactGroup }, options.threshold));
  } else {
    // Pages without a signature (no words) are left out of the banding.
    const m = withSignature.length;
    const sub = new Uint32Array(m * MINHASH_BINS);
    const subGroup = new Int32Array(m);
    withSignature.forEach((i, j) => {
      sub.set(signatures.subarray(i * MINHASH_BINS, (i + 1) * MINHASH_BINS), j * MINHASH_BINS);
      subGroup[j] = exactGroup[i]!;
    });
    const found = nearDuplicates({ signatures: sub, exactGroup: subGroup }, options.threshold);
    pairs = found.pairs;
    withSignature.forEach((i, j) => {
      const mj = found.match[j]!;
      match[i] = mj < 0 ? -1 : withSignature[mj]!;
      similarity[i] = found.similarity[j]!;
    });
  }
  return {
    stamp,
    key: optionsKey(options),
    ms: performance.now() - started,
    pages: n,
    urlIds,
    signatures,
    exactCount,
    exactGroup,
    match,
    similarity,
    low,
    pairs,
  };
}

/** The content analysis of a crawl file opened read-only here (a worker thread's; nativeBinding: the host's build). */
export function computeContentAnalysisOfFile(file: string, options: ContentAnalysisOptions, nativeBinding?: string): ContentAnalysisResult {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 5000');
    return computeContentAnalysis(db, options);
  } finally {
    db.close();
  }
}

interface FileState {
  options: ContentAnalysisOptions;
  result: ContentAnalysisResult | null;
  /** When the last computation finished (Date.now()). */
  finishedAt: number;
}

/** Per crawl file (the connection's file name): its options and last computation, shared by its connections. */
const byFile = new Map<string, FileState>();
/** What each connection's TEMP table holds (stamp and options key). */
const filled = new WeakMap<Db, string>();

const stateOf = (file: string): FileState => {
  let s = byFile.get(file);
  if (!s) byFile.set(file, (s = { options: DEFAULT_CONTENT_ANALYSIS, result: null, finishedAt: 0 }));
  return s;
};

/** The content analysis's options for a crawl file (the defaults until set). */
export function contentOptions(file: string): ContentAnalysisOptions {
  return stateOf(file).options;
}

/** Changes a crawl file's content analysis options (brought into range); the next refresh recomputes. */
export function setContentOptions(file: string, given: Partial<ContentAnalysisOptions>): ContentAnalysisOptions {
  const s = stateOf(file);
  s.options = contentAnalysisOptions({ ...s.options, ...given });
  return s.options;
}

/** Forgets a file's options and computation (its view closed). */
export function forgetContentAnalysis(file: string): void {
  byFile.delete(file);
}

/**
 * Whether the file's analysis must be computed (again) before a view reads it: none yet, other options, or new
 * results (while a crawl writes, no sooner than ten times the last computation's time, at least two seconds, after it).
 */
export function contentAnalysisDue(db: Db, options: { writing?: boolean } = {}): boolean {
  return contentAnalysisDueAt(db.name, stampOf(db), options);
}

/** contentAnalysisDue for the crawl named `key` (a crawl file's name, or a crawl in the store's: pg-content.ts) at `stamp`. */
export function contentAnalysisDueAt(key: string, stamp: string, options: { writing?: boolean } = {}): boolean {
  const s = stateOf(key);
  const last = s.result;
  if (!last || last.key !== optionsKey(s.options)) return true;
  return last.stamp !== stamp && !(options.writing && Date.now() - s.finishedAt < Math.max(2000, 10 * last.ms));
}

/** The last computation taken for the crawl named `key` (adoptContentAnalysis), or null. */
export function lastContentAnalysis(key: string): ContentAnalysisResult | null {
  return stateOf(key).result;
}

/** The options key of a file's current options (what a computation for them is tagged with). */
export const contentOptionsKey = (file: string): string => optionsKey(stateOf(file).options);

/** Takes a computation made elsewhere (a worker thread) as the file's, if it is for the file's current options. */
export function adoptContentAnalysis(file: string, result: ContentAnalysisResult): boolean {
  const s = stateOf(file);
  if (result.key !== optionsKey(s.options)) return false;
  s.result = result;
  s.finishedAt = Date.now();
  return true;
}

/**
 * Makes the connection's content_dups current: recomputed when the file has new results or other options, and the
 * TEMP table filled when it holds another computation's. Cheap when nothing changed (one indexed max()). `writing`:
 * a crawl is adding results, so new results alone recompute no sooner than ten times the last computation's time (at
 * least two seconds) after it; other options always recompute.
 */
export function refreshContentAnalysis(db: Db, options: { writing?: boolean } = {}): ContentAnalysisResult {
  const s = stateOf(db.name);
  if (contentAnalysisDue(db, options)) {
    s.result = computeContentAnalysis(db, s.options);
    s.finishedAt = Date.now();
  }
  const r = s.result!;
  const tag = `${r.stamp}|${r.key}`;
  if (filled.get(db) !== tag) {
    db.exec(CONTENT_DUPS_TEMP_TABLE);
    db.transaction(() => {
      db.prepare('DELETE FROM temp.content_dups').run();
      const insert = db.prepare('INSERT INTO temp.content_dups (url_id, exact_count, match_id, similarity, low) VALUES (?, ?, ?, ?, ?)');
      for (const row of flaggedPages(r)) insert.run(...row);
    })();
    filled.set(db, tag);
  }
  return r;
}

export type FlaggedPage = [number, number, number | null, number | null, number];

/**
 * The rows of content_dups: the pages some content filter lists (an exact duplicate, a near-duplicate, low content),
 * as [url_id, exact_count, match_id, similarity, low].
 */
export function* flaggedPages(r: ContentAnalysisResult): Generator<FlaggedPage> {
  for (let i = 0; i < r.pages; i++) {
    const m = r.match[i]!;
    if (r.exactCount[i]! < 2 && m < 0 && !r.low[i]) continue;
    yield [r.urlIds[i]!, r.exactCount[i]!, m < 0 ? null : r.urlIds[m]!, m < 0 ? null : r.similarity[i]!, r.low[i]!];
  }
}

/** The index of a url id among the compared pages (urlIds ascending), or -1. */
function indexOf(r: ContentAnalysisResult, urlId: number): number {
  let lo = 0;
  let hi = r.pages - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = r.urlIds[mid]!;
    if (v === urlId) return mid;
    if (v < urlId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Every other page at or above the threshold from page index `me` (none when the banding found it none), closest first. */
function nearOf(key: string, r: ContentAnalysisResult, me: number): { i: number; similarity: number }[] {
  if (me < 0 || r.match[me]! < 0) return [];
  const k = MINHASH_BINS;
  const minSame = Math.ceil(stateOf(key).options.threshold * k - 1e-9);
  const out: { i: number; similarity: number }[] = [];
  const o = me * k;
  const group = r.exactGroup[me]!;
  for (let i = 0; i < r.pages; i++) {
    if (i === me || (group >= 0 && r.exactGroup[i] === group)) continue;
    let same = 0;
    const oi = i * k;
    for (let j = 0; j < k; j++) if (r.signatures[o + j] === r.signatures[oi + j]) same++;
    if (same >= minSame) out.push({ i, similarity: same / k });
  }
  out.sort((a, b) => b.similarity - a.similarity || r.urlIds[a.i]! - r.urlIds[b.i]!);
  return out;
}

/** A page's near-duplicate pairs (other pages at or above the threshold), closest first, at most `limit`. */
export function nearDuplicatesOf(db: Db, urlId: number, limit = 50): { urlId: number; similarity: number }[] {
  const r = refreshContentAnalysis(db, { writing: true });
  return nearOf(db.name, r, indexOf(r, urlId))
    .slice(0, limit)
    .map((m) => ({ urlId: r.urlIds[m.i]!, similarity: m.similarity }));
}

/** Exact duplicates and near-duplicates listed in a page's detail at most (each list says how many there are). */
export const MAX_CONTENT_MATCHES = 50;

/**
 * A page's duplicate content for its detail pane (issue 18.1): its main-text words, the compared pages with the same
 * text and those at or above the threshold (closest first), each list bounded; null for a page without a content row.
 */
export function contentDetailOf(db: Db, urlId: number, options: { writing?: boolean } = {}): ContentDetail | null {
  if (!hasTable(db, 'content')) return null;
  const row = db.prepare('SELECT main_words FROM content WHERE url_id = ?').get(urlId) as { main_words: number } | undefined;
  if (!row) return null;
  const matches = contentMatchesOf(db.name, refreshContentAnalysis(db, options), urlId);
  const ids = matches.urlIds;
  const urls = new Map(
    ids.length === 0
      ? []
      : (
          db.prepare('SELECT id, url FROM urls WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as {
            id: number;
            url: string;
          }[]
        ).map((u) => [u.id, u.url]),
  );
  return matches.detail(row.main_words, urls);
}

/**
 * A page's duplicates in the computation `r` of the crawl named `key` (contentDetailOf's lists, either store): the
 * url ids to look up, then its detail from their URLs.
 */
export function contentMatchesOf(
  key: string,
  r: ContentAnalysisResult,
  urlId: number,
): { urlIds: number[]; detail(mainWords: number, urls: ReadonlyMap<number, string>): ContentDetail } {
  const o = stateOf(key).options;
  const me = indexOf(r, urlId);
  const exact: number[] = [];
  let exactTotal = 0;
  const group = me < 0 ? -1 : r.exactGroup[me]!;
  if (group >= 0) {
    for (let i = 0; i < r.pages; i++) {
      if (i === me || r.exactGroup[i] !== group) continue;
      exactTotal++;
      if (exact.length < MAX_CONTENT_MATCHES) exact.push(i);
    }
  }
  const near = nearOf(key, r, me);
  const listed = near.slice(0, MAX_CONTENT_MATCHES);
  return {
    urlIds: [...exact, ...listed.map((m) => m.i)].map((i) => r.urlIds[i]!),
    detail(mainWords, urls) {
      const match = (i: number, similarity: number): ContentMatch => ({
        url_id: r.urlIds[i]!,
        url: urls.get(r.urlIds[i]!) ?? '',
        similarity,
      });
      return {
        main_words: mainWords,
        compared: me >= 0,
        low: mainWords < o.lowContentWords,
        options: { ...o },
        exact: { items: exact.map((i) => match(i, 1)), total: exactTotal },
        near: { items: listed.map((m) => match(m.i, m.similarity)), total: near.length },
      };
    },
  };
}

/** What differs between two pages' main texts (null when either has none): sentences removed from and added to `urlId`'s. */
export function contentDiff(db: Db, urlId: number, otherId: number): TextDiff | null {
  const a = mainTextOf(db, urlId);
  const b = mainTextOf(db, otherId);
  return a === null || b === null ? null : diffTexts(a, b);
}

/**
 * The content columns of some URLs (ExplorerRow's main_words, exact_duplicates, near_match_url, near_similarity), in a
 * store's terms: where its TEMP tables are, and the condition on c.url_id that picks the URLs.
 */
export const contentColumnsSql = (temp: string, urlIds: string, table: TableName = bare) => `SELECT c.url_id, c.main_words,
  cd.exact_count AS exact_duplicates, mu.url AS near_match_url,
  CAST(round(CAST(cd.similarity * 100 AS numeric), 1) AS double precision) AS near_similarity
  FROM ${table('content')} c LEFT JOIN ${temp}.content_dups cd ON cd.url_id = c.url_id LEFT JOIN ${table('urls')} mu ON mu.id = cd.match_id
  WHERE ${urlIds}`;

/** A crawl file's (its ids a JSON array). */
export const CONTENT_COLUMNS_SQL = contentColumnsSql('temp', 'c.url_id IN (SELECT value FROM json_each(?))');

/** The content columns of some URLs by url id (none for a file without a content table). */
export function contentColumnsOf(
  db: Db,
  urlIds: readonly number[],
): Map<number, { main_words: number; exact_duplicates: number | null; near_match_url: string | null; near_similarity: number | null }> {
  if (urlIds.length === 0 || !hasTable(db, 'content')) return new Map();
  const rows = db.prepare(CONTENT_COLUMNS_SQL).all(JSON.stringify(urlIds)) as {
    url_id: number;
    main_words: number;
    exact_duplicates: number | null;
    near_match_url: string | null;
    near_similarity: number | null;
  }[];
  return new Map(rows.map(({ url_id, ...r }) => [url_id, r]));
}

/** A page's stored main text (blocks a line each), or null. */
export function mainTextOf(db: Db, urlId: number): string | null {
  if (!hasTable(db, 'content')) return null;
  const row = db.prepare('SELECT text FROM content WHERE url_id = ?').get(urlId) as { text: unknown } | undefined;
  return typeof row?.text === 'string' && row.text !== '' ? row.text : null;
}
