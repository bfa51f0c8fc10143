// The crawl map (issue 18.6): the shortest-path tree from the seeds, each URL hung from the page that first found it
// (urls.via_id), laid out as a radial tree, bounded to a number of nodes by folding, and the spread of inlinks and
// Link Score per crawl depth (the map's two charts).
//
// Which URLs: the crawl's pages with a results row (fetched or failed), in scope and not fetched for their status
// only (urls.state <> 4 AND check_only = 0: the nodes of Link Score). A URL's parent is its via_id when that is a
// URL of the map found before it (a smaller id: a URL is found by a page already known, so the tree has no cycle);
// when the finder is not in the map (a resource, an out-of-scope URL) its own finder, and so on up; a seed (or a URL
// whose finders are none of the map's) hangs from the root, drawn at the centre.
//
// Bounded output: the tree is walked breadth first from the root, each node's children the largest subtree first.
// A node shows at most `fanout` children (maxNodes / 16, at least 10) and the rest of them folded into one group
// node ("+N more", with every URL below them counted); once maxNodes nodes are drawn, the nodes still waiting keep
// their subtrees folded into themselves (collapsed). Shallow levels are thus drawn first and in full when they fit,
// and every URL is counted in exactly one node: what was folded is answered (folded) and said on screen.
//
// The layout: node i at radius = its tree level (the root 0, seeds 1...), at the middle of an angle shared out
// among siblings by the number of drawn leaves below each: one pass over the drawn nodes, no force simulation.
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import type { LinkScores } from './link-score.ts';
import type { CrawlMap, CrawlMapNodes, CrawlMapQuery, DepthSpread, MapIndexability, Spread } from '../../../shared/crawl-map.ts';
import { MAX_CRAWL_MAP_NODES, MIN_CRAWL_MAP_NODES } from '../../../shared/crawl-map.ts';
import { PACKED_MAX, pluckWalk, prepared, readTransaction } from './sql.ts';
import { SQLITE_RESULTS } from './result-rows.ts';

/**
 * Two walks, each in its table's order (joining each row to its URL by key descends urls' b-tree at random, several
 * times slower on a large file): results' fields into arrays by URL id, then every URL's via. The URLs themselves
 * are read afterwards, only for the nodes drawn (LABELS_SQL): a million URL strings read to label 4,000 nodes were
 * 0.4-0.8 s of the store's map and most of its garbage.
 */
const RESULTS_SQL = 'SELECT r.url_id, r.crawl_depth, r.status_code, r.indexability FROM results r';
const URLS_SQL = 'SELECT u.id, u.via_id, u.state <> 4 AND u.check_only = 0 FROM urls u ORDER BY u.id';
/** The URLs of the nodes drawn, by id (`keys`: the dialect's list of keys, ResultsDialect.inKeys). */
const labelsSql = (inKeys: string) => `SELECT u.id, u.url FROM urls u WHERE ${inKeys}`;
/** Links to each URL, any kind (the Results' "inlinks" column), from the links_to index. */
const INLINKS_SQL = 'SELECT to_id, count(*) FROM links GROUP BY to_id';

/** The statements the map reads, the crawl's tables named bare (either store's dialect). */
export const CRAWL_MAP_SQL = {
  lastSeq: 'SELECT coalesce(max(seq), 0) AS "lastSeq" FROM results',
  maxId: 'SELECT coalesce(max(id), 0) AS "maxId" FROM urls',
  results: RESULTS_SQL,
  urls: URLS_SQL,
  inlinks: INLINKS_SQL,
  labels: labelsSql,
};

/** A map asked for with a node limit it cannot have is refused, naming the limit. */
export function checkCrawlMapQuery(query: CrawlMapQuery): void {
  const maxNodes = query.maxNodes;
  if (!Number.isInteger(maxNodes) || maxNodes < MIN_CRAWL_MAP_NODES || maxNodes > MAX_CRAWL_MAP_NODES) {
    throw new RangeError(`maxNodes must be a whole number from ${MIN_CRAWL_MAP_NODES} to ${MAX_CRAWL_MAP_NODES} (got ${String(maxNodes)})`);
  }
}

/**
 * The last map built of one crawl, given again while the crawl is as it was, and the rows it was read from: the map
 * reads every URL, results row and link (4-10 s at a million URLs on the store), and a finished crawl is asked for
 * the same map each time its tab opens or its CSV is written; its Link Scores come later than the rows (the map is
 * drawn before them, then sized by them), and folding the kept rows again takes milliseconds. `state` says what of
 * the crawl a map was read from (null: a state that cannot be named, and nothing is kept): results and links are
 * only ever added, each page's with a new results seq, so a crawl file's last seq and largest URL id name it, and a
 * cluster crawl's settled results sequence (storeSettledState: rows of several nodes commit out of seq order). The
 * same state, Link Scores and node limit give the same map. The rows hold a few typed arrays by URL id (about 40 MB
 * at a million URLs), as the site structure's trie holds its folders.
 */
export class CrawlMapMemo {
  private last: { state: string; scores: LinkScores | null; maxNodes: number; map: CrawlMap } | null = null;
  private read: { state: string; rows: CrawlMapRows; lastSeq: number } | null = null;

  get(state: string | null, scores: LinkScores | null, query: CrawlMapQuery): CrawlMap | null {
    const l = this.last;
    return state !== null && l && l.state === state && l.scores === scores && l.maxNodes === query.maxNodes ? l.map : null;
  }

  set(state: string | null, scores: LinkScores | null, query: CrawlMapQuery, map: CrawlMap): CrawlMap {
    this.last = state === null ? null : { state, scores, maxNodes: query.maxNodes, map };
    return map;
  }

  /** The rows read of the crawl at `state`, with the last seq they were read up to; null when none are kept. */
  rows(state: string | null): { rows: CrawlMapRows; lastSeq: number } | null {
    return state !== null && this.read?.state === state ? this.read : null;
  }

  keepRows(state: string | null, rows: CrawlMapRows, lastSeq: number): void {
    this.read = state === null ? null : { state, rows, lastSeq };
  }
}

/** The map's rows of a crawl file as read in one transaction, and the file's state then (crawlMapState). */
export interface CrawlMapRead {
  state: string;
  lastSeq: number;
  rows: CrawlMapRows;
}

/** The crawl file's state as the map sees it: one writer commits in seq order, so the last seq and the largest URL id say all that changed. */
export function crawlMapState(db: Db): { state: string; lastSeq: number; maxId: number } {
  return readTransaction(db, () => {
    const { lastSeq } = prepared(db, CRAWL_MAP_SQL.lastSeq).get() as { lastSeq: number };
    const { maxId } = prepared(db, CRAWL_MAP_SQL.maxId).get() as { maxId: number };
    return { state: `${lastSeq} ${maxId}`, lastSeq, maxId };
  });
}

/**
 * The map's three walks with each row's fields packed in one number, exact below 2^53 (either store: better-sqlite3
 * makes an array of each row, and pg a row of columns; at 800,000 results a crawl file's walks took 2.07-2.3 s so,
 * 1.44-1.65 s packed). -1 for a row whose numbers do not fit makes that walk read its rows whole instead; a walk whose
 * ids alone could pass 2^53 (a crawl of tens of millions of URLs) is read whole from the start (null).
 * - results: ((url id · 1001 + status + 1 (0: none)) · 3 + indexability) · (depthBound + 1) + depth;
 * - urls, in id order (a node's place follows it: this walk cannot restart part way, so it is packed only when every
 *   row fits): (id · (maxId + 1) + via (0: none)) · 2 + whether it is a node of the map;
 * - inlinks: to id · 2^24 + the count.
 */
export interface PackedMapWalk {
  sql: string;
  /** Hands the row packed as `v` to `rows`; false for -1 (a row that does not fit: read the walk whole). */
  take(rows: CrawlMapRows, v: number): boolean;
}
const INLINKS_PACK = 2 ** 24;
const STATUSES = 1001;
export function packedMapWalks(maxId: number): {
  results: PackedMapWalk | null;
  urls: PackedMapWalk | null;
  inlinks: PackedMapWalk | null;
} {
  const m = maxId + 1;
  const depths = Math.floor(PACKED_MAX / (m * STATUSES * 3));
  const results: PackedMapWalk = {
    sql: `SELECT CASE WHEN (r.status_code IS NULL OR r.status_code BETWEEN 0 AND 999) AND r.crawl_depth BETWEEN 0 AND ${depths - 1}
    THEN ((r.url_id * ${STATUSES} + coalesce(r.status_code, -1) + 1) * 3
      + CASE r.indexability WHEN 'indexable' THEN 1 WHEN 'non-indexable' THEN 2 ELSE 0 END) * ${depths} + r.crawl_depth
    ELSE -1 END FROM results r`,
    take: (rows, v) => {
      if (v < 0) return false;
      const depth = v % depths;
      const a = (v - depth) / depths;
      const ix = a % 3;
      const b = (a - ix) / 3;
      const status = b % STATUSES;
      rows.resultOf((b - status) / STATUSES, depth, status === 0 ? null : status - 1, ix);
      return true;
    },
  };
  // A via outside the crawl's ids (none in a crawl Trawl wrote) hangs its URL from the root, as via 0 does (map()).
  const urls: PackedMapWalk = {
    sql: `SELECT (u.id * ${m} + CASE WHEN u.via_id BETWEEN 0 AND ${maxId} THEN u.via_id ELSE 0 END) * 2
    + CASE WHEN u.state <> 4 AND u.check_only = 0 THEN 1 ELSE 0 END
  FROM urls u ORDER BY u.id`,
    take: (rows, v) => {
      const inMap = v % 2;
      const a = (v - inMap) / 2;
      const via = a % m;
      rows.urlOf((a - via) / m, via, inMap);
      return true;
    },
  };
  const inlinks: PackedMapWalk = {
    sql: `SELECT CASE WHEN count(*) < ${INLINKS_PACK} THEN to_id * ${INLINKS_PACK} + count(*) ELSE -1 END FROM links GROUP BY to_id`,
    take: (rows, v) => {
      if (v < 0) return false;
      const count = v % INLINKS_PACK;
      rows.inlinksOf((v - count) / INLINKS_PACK, count);
      return true;
    },
  };
  return {
    results: depths >= 1 ? results : null,
    urls: m * m * 2 < PACKED_MAX ? urls : null,
    inlinks: m * INLINKS_PACK < PACKED_MAX ? inlinks : null,
  };
}

/** Every row the map is made of, read in one transaction (seconds at a million URLs: a worker thread's job for a large crawl). */
export function readCrawlMapRows(db: Db): CrawlMapRead {
  return readTransaction(db, () => {
    const { state, lastSeq, maxId } = crawlMapState(db);
    const rows = new CrawlMapRows(maxId);
    const walks = packedMapWalks(maxId);
    /** Whether `walk` read every row packed. */
    const packed = (walk: PackedMapWalk | null) => walk !== null && pluckWalk(db, walk.sql, {}, (v) => walk.take(rows, v));
    if (!packed(walks.results))
      for (const row of prepared(db, CRAWL_MAP_SQL.results).raw(true).iterate() as Iterable<ResultRow>) rows.result(row);
    if (!packed(walks.urls)) for (const row of prepared(db, CRAWL_MAP_SQL.urls).raw(true).iterate() as Iterable<UrlRow>) rows.url(row);
    if (!packed(walks.inlinks))
      for (const row of prepared(db, CRAWL_MAP_SQL.inlinks).raw(true).iterate() as Iterable<InlinksRow>) rows.inlinks(row);
    return { state, lastSeq, rows };
  });
}

/**
 * The map of a crawl file, in one read transaction; `scores` are its computed Link Scores (null: none yet), `memo`
 * its last map (given again when the file has not changed since) and the rows it was made from. `read`: rows read
 * already (off the thread), drawn at the state they were read at, though the file may have moved on since.
 */
export function crawlMap(
  db: Db,
  query: CrawlMapQuery,
  scores: LinkScores | null = null,
  memo = new CrawlMapMemo(),
  read?: CrawlMapRead,
): CrawlMap {
  checkCrawlMapQuery(query);
  const started = performance.now();
  return readTransaction(db, () => {
    if (read) memo.keepRows(read.state, read.rows, read.lastSeq);
    const state = read?.state ?? crawlMapState(db).state;
    const known = memo.get(state, scores, query);
    if (known !== null) return known;
    let kept = memo.rows(state);
    if (!kept) {
      kept = readCrawlMapRows(db);
      memo.keepRows(state, kept.rows, kept.lastSeq);
    }
    const unlabelled = kept.rows.map(query, scores, kept.lastSeq);
    const labels = prepared(db, CRAWL_MAP_SQL.labels(SQLITE_RESULTS.inKeys('u.id', '@keys'))).raw(true);
    const urlOf = new Map(labels.all({ keys: SQLITE_RESULTS.keysValue(labelIds(unlabelled)) }) as [number, string][]);
    return memo.set(state, scores, query, labelMap(unlabelled, urlOf, started));
  });
}

/** A results row as RESULTS_SQL reads it: url id, crawl depth, status (null: none), indexability. */
export type ResultRow = [number, number, number | null, string | null];
/** A URL as URLS_SQL reads it, in id order: id, via (null: a seed), whether it is a node of the map. */
export type UrlRow = [number, number | null, number | boolean];
/** A URL's links as INLINKS_SQL counts them: its id and their number. */
export type InlinksRow = [number, number];

/** A URL's indexability by its code in CrawlMapRows. */
const INDEXABILITY_OF_CODE: readonly MapIndexability[] = ['other', 'indexable', 'non-indexable'];

/** CrawlMapRows as typed arrays (toData): a status of -1 is none; indexability 1 indexable, 2 non-indexable, 0 other. */
export interface CrawlMapRowsData {
  maxId: number;
  indexOf: Int32Array;
  viaOf: Int32Array;
  inlinkCounts: Int32Array | null;
  ids: Int32Array;
  depthOf: Int32Array;
  statusOf: Int32Array;
  indexOfRow: Uint8Array;
}

/**
 * The map's rows as they come, from either store: every results row (result(), any order), then every URL in id
 * order (url()), then the inlink counts (inlinks()); map() builds the tree, folds and lays it out.
 */
export class CrawlMapRows {
  private readonly maxId: number;
  private readonly indexOf: Int32Array;
  // The map's URLs in id order, n of them (at most one per URL id: the arrays hold maxId + 1): each one's id, depth,
  // status (-1: none) and indexability (1 indexable, 2 non-indexable, 0 other). Typed, so a worker thread's rows
  // move to the caller's thread as they are (toData).
  private n = 0;
  private readonly ids: Int32Array;
  private readonly depthOf: Int32Array;
  private readonly statusOf: Int32Array;
  private readonly indexOfRow: Uint8Array;
  // By URL id: its results row's depth (-1: none), status (-1: null) and indexability (0 other, 1, 2).
  private readonly rowDepth: Int32Array;
  private readonly rowStatus: Int32Array;
  private readonly rowIndex: Uint8Array;
  /** Every URL's via (0: none), to climb past a finder that is not in the map (a resource, an out-of-scope URL). */
  private readonly viaOf: Int32Array;
  private inlinkCounts: Int32Array | null = null;

  constructor(maxId: number, data?: CrawlMapRowsData) {
    this.maxId = maxId;
    if (data) {
      // Rows read elsewhere (toData): what map() reads, none of what result() and url() fill as rows come.
      ({ indexOf: this.indexOf, viaOf: this.viaOf, inlinkCounts: this.inlinkCounts } = data);
      ({ ids: this.ids, depthOf: this.depthOf, statusOf: this.statusOf, indexOfRow: this.indexOfRow } = data);
      this.n = data.ids.length;
      this.rowDepth = this.rowStatus = new Int32Array(0);
      this.rowIndex = new Uint8Array(0);
      return;
    }
    this.indexOf = new Int32Array(maxId + 1).fill(-1);
    this.rowDepth = new Int32Array(maxId + 1).fill(-1);
    this.rowStatus = new Int32Array(maxId + 1);
    this.rowIndex = new Uint8Array(maxId + 1);
    this.viaOf = new Int32Array(maxId + 1);
    this.ids = new Int32Array(maxId + 1);
    this.depthOf = new Int32Array(maxId + 1);
    this.statusOf = new Int32Array(maxId + 1);
    this.indexOfRow = new Uint8Array(maxId + 1);
  }

  /** What map() reads, as typed arrays: a worker thread's answer, moved to the caller's thread rather than copied. */
  toData(): CrawlMapRowsData {
    const n = this.n;
    return {
      maxId: this.maxId,
      indexOf: this.indexOf,
      viaOf: this.viaOf,
      inlinkCounts: this.inlinkCounts,
      ids: this.ids.slice(0, n),
      depthOf: this.depthOf.slice(0, n),
      statusOf: this.statusOf.slice(0, n),
      indexOfRow: this.indexOfRow.slice(0, n),
    };
  }

  static fromData(data: CrawlMapRowsData): CrawlMapRows {
    return new CrawlMapRows(data.maxId, data);
  }

  result([id, d, s, ix]: ResultRow): void {
    this.resultOf(id, d, s, ix === 'indexable' ? 1 : ix === 'non-indexable' ? 2 : 0);
  }

  /** A results row's fields: `ix` 1 indexable, 2 non-indexable, 0 other. */
  resultOf(id: number, d: number, s: number | null, ix: number): void {
    if (id < 0 || id > this.maxId) return;
    this.rowDepth[id] = d;
    this.rowStatus[id] = s === null ? -1 : s;
    this.rowIndex[id] = ix;
  }

  url([id, v, inMap]: UrlRow): void {
    this.urlOf(id, v, inMap);
  }

  /** A URL's fields, in id order. */
  urlOf(id: number, v: number | null, inMap: number | boolean): void {
    if (id < 0 || id > this.maxId) return;
    this.viaOf[id] = v ?? 0;
    if (!inMap || this.rowDepth[id]! < 0) return;
    const i = this.n++;
    this.indexOf[id] = i;
    this.ids[i] = id;
    this.depthOf[i] = this.rowDepth[id]!;
    this.statusOf[i] = this.rowStatus[id]!;
    this.indexOfRow[i] = this.rowIndex[id]!;
  }

  inlinks([to, count]: InlinksRow): void {
    this.inlinksOf(to, count);
  }

  inlinksOf(to: number, count: number): void {
    this.inlinkCounts ??= new Int32Array(this.n);
    const i = to >= 0 && to <= this.maxId ? this.indexOf[to]! : -1;
    if (i >= 0) this.inlinkCounts[i] = count;
  }

  /**
   * The map of the rows read, folded to the query's node limit; `scores` size the nodes (null: none computed). Its
   * nodes' URLs are read next, for them alone (labelMap).
   */
  map(query: CrawlMapQuery, scores: LinkScores | null, lastSeq: number): UnlabelledMap {
    const maxNodes = query.maxNodes;
    const { maxId, indexOf, viaOf, n } = this;
    const ids = this.ids.subarray(0, n);
    const depthOf = this.depthOf.subarray(0, n);
    const { statusOf, indexOfRow } = this;
    const via: number[] = [];
    // The parent: the nearest finder in the map, each step to a smaller id (so the climb ends).
    for (const id of ids) {
      let v = viaOf[id]!;
      let below = id;
      while (v > 0 && v < below && indexOf[v]! < 0) {
        below = v;
        v = viaOf[v]!;
      }
      via.push(v > 0 && v < below ? v : 0);
    }
    const inlinks = this.inlinkCounts ?? new Int32Array(n);
    const score = new Float64Array(n).fill(Number.NaN);
    if (scores) {
      for (let k = 0; k < scores.urlIds.length; k++) {
        const id = scores.urlIds[k]!;
        const i = id <= maxId ? indexOf[id]! : -1;
        if (i >= 0) score[i] = scores.scores[k]!;
      }
    }
    const scored = scores !== null && scores.urlIds.length > 0;

    // ---- the tree: node 0 is the root, URL index i is tree node i + 1 ----
    const parentOf = new Int32Array(n + 1);
    parentOf[0] = -1;
    for (let i = 0; i < n; i++) {
      const v = via[i]!;
      const p = v > 0 ? indexOf[v]! : -1;
      parentOf[i + 1] = p >= 0 ? p + 1 : 0;
    }
    // Subtree sums, children after their parents (a parent's index is smaller): one backward pass.
    const size = new Int32Array(n + 1).fill(1);
    size[0] = 0;
    const indexable = new Int32Array(n + 1);
    const best = new Float64Array(n + 1).fill(Number.NaN);
    for (let t = n; t >= 1; t--) {
      if (indexOfRow[t - 1] === 1) indexable[t]!++;
      const s = score[t - 1]!;
      if (Number.isFinite(s) && !(best[t]! >= s)) best[t] = s;
      const p = parentOf[t]!;
      size[p]! += size[t]!;
      indexable[p]! += indexable[t]!;
      if (Number.isFinite(best[t]!) && !(best[p]! >= best[t]!)) best[p] = best[t]!;
    }
    // Children in compressed rows, each node's the largest subtree first.
    const childStart = new Int32Array(n + 2);
    for (let t = 1; t <= n; t++) childStart[parentOf[t]! + 1]!++;
    for (let t = 0; t <= n; t++) childStart[t + 1]! += childStart[t]!;
    const children = new Int32Array(n);
    const fill = childStart.slice(0, n + 1);
    for (let t = 1; t <= n; t++) children[fill[parentOf[t]!]!++] = t;
    const bySize = (a: number, b: number) => size[b]! - size[a]! || a - b;

    // ---- fold to maxNodes, breadth first ----
    const fanout = Math.max(10, Math.floor(maxNodes / 16));
    const out: CrawlMapNodes = {
      kind: [],
      url: [],
      urlId: [],
      parent: [],
      depth: [],
      status: [],
      indexability: [],
      linkScore: [],
      urls: [],
      indexable: [],
      x: [],
      y: [],
    };
    const level: number[] = [];
    /** The URL id whose URL each drawn node shows (0: none), read once the nodes are chosen (labelMap). */
    const labels: number[] = [];
    /** The tree node each drawn node is (-1 for a group), and whether a URL node was drawn with its children. */
    const treeNode: number[] = [];
    const expanded: boolean[] = [];
    const push = (kind: 'url' | 'group' | 'root', t: number, parent: number, lvl: number) => {
      out.kind.push(kind);
      out.parent.push(parent);
      level.push(lvl);
      treeNode.push(kind === 'group' ? -1 : t);
      expanded.push(false);
      if (kind === 'root') {
        out.url.push('');
        labels.push(0);
        out.urlId.push(0);
        out.depth.push(-1);
        out.status.push(null);
        out.indexability.push('other');
        out.linkScore.push(null);
        out.urls.push(0);
        out.indexable.push(0);
      } else {
        out.url.push('');
        labels.push(ids[t - 1]!);
        out.urlId.push(kind === 'url' ? ids[t - 1]! : 0);
        out.depth.push(depthOf[t - 1]!);
        const status = statusOf[t - 1]!;
        out.status.push(kind === 'url' && status !== -1 ? status : null);
        out.indexability.push(kind === 'url' ? INDEXABILITY_OF_CODE[indexOfRow[t - 1]!]! : 'other');
        const s = best[t]!;
        out.linkScore.push(
          kind === 'url' && Number.isFinite(score[t - 1]!) ? score[t - 1]! : kind === 'group' && Number.isFinite(s) ? s : null,
        );
        out.urls.push(size[t]!);
        out.indexable.push(indexable[t]!);
      }
      return out.kind.length - 1;
    };
    push('root', 0, -1, 0);
    const folded = { urls: 0, groups: 0, groupedUrls: 0, collapsed: 0, collapsedUrls: 0, fullDepth: null as number | null };
    let firstFoldedLevel = Number.POSITIVE_INFINITY;
    for (let q = 0; q < out.kind.length; q++) {
      if (out.kind[q] === 'group') continue;
      const t = treeNode[q]!;
      const from = childStart[t]!;
      const to = childStart[t + 1]!;
      if (from === to) continue;
      const room = maxNodes - out.kind.length;
      if (room <= 0) {
        // Past the budget: the node keeps its subtree folded in (its urls count it).
        folded.collapsed++;
        folded.collapsedUrls += size[t]! - 1;
        firstFoldedLevel = Math.min(firstFoldedLevel, level[q]! + 1);
        continue;
      }
      expanded[q] = true;
      const kids = Array.from(children.subarray(from, to)).sort(bySize);
      const shown = kids.length <= Math.min(room, fanout) ? kids.length : Math.max(0, Math.min(fanout, room - 1));
      for (let k = 0; k < shown; k++) push('url', kids[k]!, q, level[q]! + 1);
      if (shown < kids.length) {
        // One group for the rest, written as its first URL's node, then summed.
        const g = push('group', kids[shown]!, q, level[q]! + 1);
        let sum = 0;
        let ix = 0;
        let top = Number.NaN;
        for (let k = shown; k < kids.length; k++) {
          const c = kids[k]!;
          sum += size[c]!;
          ix += indexable[c]!;
          if (Number.isFinite(best[c]!) && !(top >= best[c]!)) top = best[c]!;
        }
        labels[g] = t === 0 ? 0 : ids[t - 1]!;
        out.depth[g] = t === 0 ? 0 : depthOf[t - 1]! + 1;
        out.urls[g] = sum;
        out.indexable[g] = ix;
        out.linkScore[g] = Number.isFinite(top) ? top : null;
        folded.groups++;
        folded.groupedUrls += sum;
        firstFoldedLevel = Math.min(firstFoldedLevel, level[q]! + 1);
      }
    }
    // A URL node not expanded stands for its subtree; one expanded, for itself.
    for (let q = 1; q < out.kind.length; q++) if (out.kind[q] === 'url' && expanded[q]) out.urls[q] = 1;
    for (let q = 1; q < out.kind.length; q++) {
      if (out.kind[q] === 'url' && expanded[q]) out.indexable[q] = out.indexability[q] === 'indexable' ? 1 : 0;
    }
    out.urls[0] = n;
    out.indexable[0] = indexable[0]!;
    folded.urls = folded.groupedUrls + folded.collapsedUrls;
    let maxLevel = 0;
    for (const l of level) if (l > maxLevel) maxLevel = l;
    // Tree level 1 is crawl depth 0 (the seeds): the deepest level drawn in full, as a crawl depth.
    const fullLevel = Number.isFinite(firstFoldedLevel) ? firstFoldedLevel - 1 : maxLevel;
    folded.fullDepth = fullLevel >= 1 ? fullLevel - 1 : null;

    layout(out, level);
    let maxDepth = 0;
    for (const d of depthOf) if (d > maxDepth) maxDepth = d;
    return {
      map: {
        nodes: out,
        total: n,
        maxDepth,
        folded,
        depths: depthSpreads(depthOf, inlinks, score),
        scored,
        lastSeq,
        ms: 0,
      },
      labels,
    };
  }
}

/** A map whose nodes' URLs are still to be read: `labels[i]` is the URL id node i shows (0: none). */
export interface UnlabelledMap {
  map: CrawlMap;
  labels: number[];
}

/** The URL ids a map's nodes show, each once (what LABELS_SQL reads). */
export function labelIds(u: UnlabelledMap): number[] {
  return [...new Set(u.labels.filter((id) => id > 0))];
}

/** The map with each node's URL from `urlOf` (by id), and the time since `started` it took in all. */
export function labelMap(u: UnlabelledMap, urlOf: ReadonlyMap<number, string>, started: number): CrawlMap {
  const url = u.map.nodes.url;
  for (let i = 0; i < url.length; i++) {
    const id = u.labels[i]!;
    if (id > 0) url[i] = urlOf.get(id) ?? '';
  }
  return { ...u.map, ms: Math.round(performance.now() - started) };
}

/** The radial tree layout of the drawn nodes (each after its parent), into nodes.x and nodes.y. */
function layout(nodes: CrawlMapNodes, level: readonly number[]): void {
  const m = nodes.kind.length;
  const leaves = new Float64Array(m);
  for (let q = m - 1; q >= 0; q--) {
    if (leaves[q] === 0) leaves[q] = 1;
    const p = nodes.parent[q]!;
    if (p >= 0) leaves[p]! += leaves[q]!;
  }
  // Root's children first: the root's leaves counted itself as one when it had no child.
  const start = new Float64Array(m);
  const span = new Float64Array(m);
  const next = new Float64Array(m);
  span[0] = 2 * Math.PI;
  for (let q = 0; q < m; q++) {
    const p = nodes.parent[q]!;
    if (p >= 0) {
      span[q] = (span[p]! * leaves[q]!) / leaves[p]!;
      start[q] = start[p]! + next[p]!;
      next[p]! += span[q]!;
    }
    const angle = start[q]! + span[q]! / 2;
    const r = level[q]!;
    nodes.x.push(Math.round(r * Math.cos(angle) * 1e4) / 1e4);
    nodes.y.push(Math.round(r * Math.sin(angle) * 1e4) / 1e4);
  }
}

function spread(values: Float64Array): Spread {
  values.sort();
  const at = (p: number) => values[Math.min(values.length - 1, Math.floor(p * (values.length - 1) + 0.5))]!;
  let sum = 0;
  for (const v of values) sum += v;
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    min: values[0]!,
    p25: at(0.25),
    median: at(0.5),
    p75: at(0.75),
    max: values[values.length - 1]!,
    mean: round(sum / values.length),
  };
}

/**
 * Inlinks and Link Score per crawl depth over every URL of the map (percentiles by nearest rank). The URLs grouped
 * by depth with a counting sort into typed arrays: at 800,000 URLs, lists of boxed numbers per depth cost a quarter
 * of the map's fold.
 */
function depthSpreads(depthOf: Int32Array, inlinks: Int32Array, score: Float64Array): DepthSpread[] {
  let maxDepth = -1;
  for (const d of depthOf) if (d > maxDepth) maxDepth = d;
  const start = new Int32Array(maxDepth + 2);
  for (const d of depthOf) start[d + 1]!++;
  for (let d = 0; d <= maxDepth; d++) start[d + 1]! += start[d]!;
  const fill = start.slice(0, maxDepth + 1);
  const order = new Int32Array(depthOf.length);
  for (let i = 0; i < depthOf.length; i++) order[fill[depthOf[i]!]!++] = i;
  const out: DepthSpread[] = [];
  for (let depth = 0; depth <= maxDepth; depth++) {
    const from = start[depth]!;
    const urls = start[depth + 1]! - from;
    if (urls === 0) continue;
    const links = new Float64Array(urls);
    const scored = new Float64Array(urls);
    let nScored = 0;
    for (let k = 0; k < urls; k++) {
      const i = order[from + k]!;
      links[k] = inlinks[i]!;
      const v = score[i]!;
      if (Number.isFinite(v)) scored[nScored++] = v;
    }
    out.push({ depth, urls, inlinks: spread(links), linkScore: nScored ? spread(scored.subarray(0, nScored)) : null });
  }
  return out;
}
