// The site-structure view: the crawl's URLs as a directory tree (host, then the path's folders: /docs/, /docs/api/),
// each folder with its URLs (own and below), indexable and non-indexable ones, status classes and crawl depth.
//
// How it stays fast at a million URLs: the tree is folded once into a trie kept per connection, from one walk of
// results and one of urls, each in its table's order (no per-folder query, no random lookups), and afterwards only
// the rows written since (results is append-only: a row is inserted once, never changed) are walked and folded in. A crawl
// file in the middle of a crawl is read in one read transaction, so the tree is exactly that moment's rows; while
// the crawl runs each refresh costs the new rows alone. Any level (the hosts, or one folder's children) is then
// answered from the trie without a query: the children sorted, the first `limit` listed, the rest summed as one
// "N more folders" row, so the answer stays small however wide a folder is, and the renderer asks for a folder's
// children only when it is expanded.
//
// Which URLs: every results row but the out-of-scope links checked for their status (the explorer's "External"
// tab): the URLs of the crawl, fetched or failed. A URL's folder is its path up to the last "/" (the query left
// out): https://h/docs/api/x.html is in https://h/docs/api/, and https://h/docs/ itself is in https://h/docs/. A
// folder's path is thus a prefix of each of its URLs, and the explorer's prefix filter lists exactly them.
//
// A crawl in the PostgreSQL store (issue 19) gets the same trie, kept per connection, from the same rows: its first
// fold joins urls and results a page of URL ids at a time (the store's results_charts carries what the tree needs,
// so each page is two index ranges merged), later ones read the rows since with the file's SCAN_SQL. It counts
// up to the seq settled before its snapshot (pg-settled.ts), so rows committed out of seq order by several nodes
// are folded in once they are all there, none skipped.
import fs from 'node:fs';
import { endianness } from 'node:os';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { SiteStructure, SiteStructureQuery, StructureFolder, StructureLevel, StructureStats } from '../../../shared/structure.ts';
import { MAX_STRUCTURE_LIMIT, MAX_STRUCTURE_PATHS, STRUCTURE_CSV_HEADER } from '../../../shared/structure.ts';
import { csvRecord } from '../export/csv-writer.ts';
import { neutraliseCell } from '../export/csv-cell.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { connect, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import { inCrawl, pgRows } from './pg-explorer.ts';
import { keepAnswer, keptAnswer } from './pg-kept-answers.ts';
import { positional } from './queue-inspector.ts';
import { settledSeq } from './pg-settled.ts';
import { indexedBy, PACKED_MAX, pluckWalk, prepared, readTransaction } from './sql.ts';

const deflate = promisify(zlib.deflate);
const inflate = promisify(zlib.inflate);

/** A folder of the trie, with its sums (over its URLs and those below). */
interface Folder {
  readonly name: string;
  /** The folder above (null for a host and the root): its path is made from them when shown (pathOf). */
  readonly parent: Folder | null;
  readonly level: number;
  children: Map<string, Folder> | null;
  urls: number;
  own: number;
  indexable: number;
  nonIndexable: number;
  s2: number;
  s3: number;
  s4: number;
  s5: number;
  sNone: number;
  minDepth: number;
  depthSum: number;
}

interface Tree {
  /** A root above the hosts: its sums are the whole crawl's, its children the hosts. */
  root: Folder;
  lastSeq: number;
}

const trees = new WeakMap<Db, Tree>();

const folder = (name: string, parent: Folder | null, level: number): Folder => ({
  name,
  parent,
  level,
  children: null,
  urls: 0,
  own: 0,
  indexable: 0,
  nonIndexable: 0,
  s2: 0,
  s3: 0,
  s4: 0,
  s5: 0,
  sNone: 0,
  minDepth: Number.POSITIVE_INFINITY,
  depthSum: 0,
});

/** An out-of-scope link checked for its status (the explorer's "External" rows): not part of the tree. */
const EXTERNAL = "(u.state = 4 OR (u.check_only = 1 AND u.kind = 'page'))";
/** The rows written after `after` up to `last`, in seq order, without the out-of-scope links checked for their status. */
export const SCAN_SQL = `SELECT r.seq, u.url, r.indexability, r.status_code, r.crawl_depth
  FROM results r JOIN urls u ON u.id = r.url_id
  WHERE r.seq > @after AND r.seq <= @last AND NOT ${EXTERNAL}
  ORDER BY r.seq`;
/**
 * The first fold's walks: results' fields from three narrow indexes (never the wide rows, which hold the response
 * headers: a million rows are a gigabyte), then every URL in id order. A file without the analysis indexes reads the
 * table instead: the same answer, more slowly. Each walk's fields come packed in one number a row (pluck): a row as an
 * array cost better-sqlite3 twice as much, and the three walks of 800,000 rows took 1.45-1.78 s against 0.76 s.
 */
/** By seq (below `@m`, the last seq plus one): (depth · m + seq) · 8 + the status's class (STATUS_CLASS_SQL); -1 past the depth bound. */
const statusSql = (db: Db) =>
  `SELECT CASE WHEN r.crawl_depth BETWEEN 0 AND @depthBound THEN (r.crawl_depth * @m + r.seq) * 8 + ${STATUS_CLASS_SQL} ELSE -1 END
   FROM results r ${indexedBy(db, 'results_status')} WHERE r.seq <= @last`;
/** The status as the tree counts it: 0 none (or outside 200-599), 1-4 the 2xx to 5xx classes. */
const STATUS_CLASS_SQL = `CASE WHEN r.status_code BETWEEN 200 AND 299 THEN 1 WHEN r.status_code BETWEEN 300 AND 399 THEN 2
  WHEN r.status_code BETWEEN 400 AND 499 THEN 3 WHEN r.status_code BETWEEN 500 AND 599 THEN 4 ELSE 0 END`;
/** A status code of each class, as addUrl reads it. */
const CLASS_STATUS = [null, 200, 300, 400, 500] as const;
/** seq · 4 + 0 none, 1 indexable, 2 non-indexable. */
const indexabilitySql = (db: Db) =>
  `SELECT r.seq * 4 + CASE r.indexability WHEN 'indexable' THEN 1 WHEN 'non-indexable' THEN 2 ELSE 0 END
   FROM results r ${indexedBy(db, 'results_indexability')} WHERE r.seq <= @last`;
/** url id · m + seq. */
const seqOfUrlSql = 'SELECT r.url_id * @m + r.seq FROM results r WHERE r.url_id > 0 AND r.seq <= @last';
/** The same walks a row as an array, where the packed numbers would pass 2^53 (a crawl of tens of millions). */
const statusRowsSql = (db: Db) =>
  `SELECT r.seq, ${STATUS_CLASS_SQL}, r.crawl_depth FROM results r ${indexedBy(db, 'results_status')} WHERE r.seq <= @last`;
const seqOfUrlRowsSql = 'SELECT r.url_id, r.seq FROM results r WHERE r.url_id > 0 AND r.seq <= @last';
const URLS_SQL = `SELECT u.id, u.url, ${EXTERNAL} AS external FROM urls u`;
/** A seq without a results row, in the first fold's array of status classes. */
const NO_ROW = -1;

/** The folder `name` below `parent`, made when new. */
function child(parent: Folder, name: string): Folder {
  if (parent.children === null) parent.children = new Map();
  let c = parent.children.get(name);
  if (c === undefined) parent.children.set(name, (c = folder(name, parent.level < 0 ? null : parent, parent.level + 1)));
  return c;
}

/**
 * A folder as a URL prefix ending in "/" (a host's is its origin and a "/"), made from its parents' names: kept in
 * each folder, the paths of a large crawl's folders were most of the trie's memory and of its garbage collection.
 */
function pathOf(f: Folder): string {
  return f.parent === null ? `${f.name}/` : `${pathOf(f.parent)}${f.name}/`;
}

type StatusKey = 's2' | 's3' | 's4' | 's5' | 'sNone';

/** Counts one URL in a folder's sums. */
function count(f: Folder, index: number, statusKey: StatusKey, depth: number): void {
  f.urls++;
  if (index === 1) f.indexable++;
  else if (index === 2) f.nonIndexable++;
  f[statusKey]++;
  if (depth < f.minDepth) f.minDepth = depth;
  f.depthSum += depth;
}

/** Folds one URL into the trie: every folder from its host down to its own one counts it. */
export function addUrl(root: Folder, url: string, indexability: string | null, status: number | null, depth: number): void {
  const schemeEnd = url.indexOf('://');
  const hostStart = schemeEnd < 0 ? 0 : schemeEnd + 3;
  let hostEnd = url.indexOf('/', hostStart);
  // The query and fragment are not folders (a "/" in them neither).
  let cut = url.length;
  const q = url.indexOf('?', hostStart);
  if (q >= 0) cut = q;
  const h = url.indexOf('#', hostStart);
  if (h >= 0 && h < cut) cut = h;
  if (hostEnd < 0 || hostEnd > cut) hostEnd = cut;
  const origin = url.slice(0, hostEnd);
  const statusKey: StatusKey =
    status === null || status < 200 || status > 599 ? 'sNone' : status < 300 ? 's2' : status < 400 ? 's3' : status < 500 ? 's4' : 's5';
  const index = indexability === 'indexable' ? 1 : indexability === 'non-indexable' ? 2 : 0;
  count(root, index, statusKey, depth);
  let node = child(root, origin);
  count(node, index, statusKey, depth);
  let pos = hostEnd + 1;
  for (;;) {
    const slash = url.indexOf('/', pos);
    if (slash < 0 || slash >= cut) break;
    node = child(node, url.slice(pos, slash));
    count(node, index, statusKey, depth);
    pos = slash + 1;
  }
  node.own++;
}

/** The trie of this connection, brought up to the rows written so far (in the caller's read transaction). */
function currentTree(db: Db): Tree {
  const { last } = prepared(db, 'SELECT coalesce(max(seq), 0) AS last FROM results').get() as { last: number };
  let tree = trees.get(db);
  // Rows only ever come after the last one; a file whose last row went back (never, but cheap to check) is read afresh.
  if (tree === undefined || last < tree.lastSeq) {
    tree = { root: folder('', null, -1), lastSeq: 0 };
    trees.set(db, tree);
  }
  if (tree.lastSeq === 0 && last > 0) {
    firstFold(db, tree.root, last);
    tree.lastSeq = last;
  } else if (last > tree.lastSeq) {
    // The rows since: few while a crawl runs, each URL found by key.
    const root = tree.root;
    const rows = prepared(db, SCAN_SQL).raw(true).iterate({ after: tree.lastSeq, last }) as Iterable<
      [number, string, string | null, number | null, number]
    >;
    for (const [, url, indexability, status, depth] of rows) addUrl(root, url, indexability, status, depth);
    tree.lastSeq = last;
  }
  return tree;
}

/**
 * A trie as arrays (a worker thread's first fold of a large file, moved to the thread that answers the views): the
 * folders in breadth-first order from the root (0), each one's name, its parent's index (-1 for the root) and its
 * sums, FOLD_SUMS numbers a folder.
 */
export interface PackedTrie {
  lastSeq: number;
  names: string[];
  parent: Int32Array;
  sums: Float64Array;
}
const SUM_KEYS = ['urls', 'own', 'indexable', 'nonIndexable', 's2', 's3', 's4', 's5', 'sNone', 'minDepth', 'depthSum'] as const;
const FOLD_SUMS = SUM_KEYS.length;

/** A trie as arrays (PackedTrie), its folders breadth first. */
function packTrie(root: Folder, lastSeq: number): PackedTrie {
  const order: Folder[] = [root];
  const parent: number[] = [-1];
  for (let i = 0; i < order.length; i++) {
    for (const c of order[i]!.children?.values() ?? []) {
      order.push(c);
      parent.push(i);
    }
  }
  const sums = new Float64Array(order.length * FOLD_SUMS);
  order.forEach((f, i) => SUM_KEYS.forEach((k, j) => (sums[i * FOLD_SUMS + j] = f[k])));
  return { lastSeq, names: order.map((f) => f.name), parent: Int32Array.from(parent), sums };
}

/** A trie from its arrays (packTrie). */
function unpackTrie(packed: PackedTrie): Tree {
  const { names, parent, sums } = packed;
  const nodes: Folder[] = [];
  for (let i = 0; i < names.length; i++) {
    const p = parent[i]!;
    const up = p < 0 ? null : nodes[p]!;
    // A host's folder has no parent folder (pathOf): only the root above it.
    const f = folder(names[i]!, up === null || up.level < 0 ? null : up, up === null ? -1 : up.level + 1);
    SUM_KEYS.forEach((k, j) => (f[k] = sums[i * FOLD_SUMS + j]!));
    if (up !== null) (up.children ??= new Map()).set(f.name, f);
    nodes.push(f);
  }
  return { root: nodes[0]!, lastSeq: packed.lastSeq };
}

/** The crawl file's whole tree, folded in one read transaction, as arrays: a worker thread's job. */
export function foldFilePacked(db: Db): PackedTrie {
  return readTransaction(db, () => {
    const { last } = prepared(db, 'SELECT coalesce(max(seq), 0) AS last FROM results').get() as { last: number };
    const root = folder('', null, -1);
    if (last > 0) firstFold(db, root, last);
    return packTrie(root, last);
  });
}

/** A crawl in the store's whole tree, folded through a connection of its own, as arrays: a worker thread's job. */
export async function foldStorePacked(storeUrl: string, crawlId: string): Promise<PackedTrie> {
  const c = await connect(storeUrl, { applicationName: 'trawl-structure-fold' });
  try {
    return await withStoreTree(c, crawlId, (tree) => packTrie(tree.root, tree.lastSeq));
  } finally {
    await c.end();
  }
}

/** Whether this connection has folded its crawl (its trie is kept: later asks fold only the rows since). */
export function structureFolded(db: Db): boolean {
  return trees.has(db);
}

/**
 * Makes a trie folded elsewhere (foldFilePacked, in a worker thread) this connection's, unless it folded one
 * already; the rows written since it was folded are folded in at the next ask.
 */
export function adoptPackedTrie(db: Db, packed: PackedTrie): void {
  if (!trees.has(db)) trees.set(db, unpackTrie(packed));
}

/** Whether this connection to the store has folded the crawl's tree. */
export function storeStructureFolded(c: PgQuerier, crawlId: string): boolean {
  return storeTrees.get(c)?.has(crawlId) ?? false;
}

/** adoptPackedTrie for a crawl in the store (foldStorePacked) on this connection: the rows settled since are folded in at the next ask. */
export function adoptStorePackedTrie(c: PgQuerier, crawlId: string, packed: PackedTrie): void {
  let byCrawl = storeTrees.get(c);
  if (!byCrawl) storeTrees.set(c, (byCrawl = new Map()));
  if (!byCrawl.has(crawlId)) byCrawl.set(crawlId, unpackTrie(packed));
}

/**
 * The format of a trie kept in a crawl in the store (keepStoreTrie): its sums, and the byte order its arrays were
 * written in. A trie kept by a build that sums otherwise is not taken.
 */
const KEPT_TRIE_FORMAT = `folders:${SUM_KEYS.join(',')}:${endianness()}`;

/** A kept trie's JSON: where its folders' names end in its data, which holds their JSON, then the parents, then the sums. */
interface KeptTrie {
  lastSeq: number;
  folders: number;
  namesBytes: number;
}

/**
 * The trie kept in a crawl in the store by an earlier reader (keepStoreTrie), folded up to its lastSeq; null when
 * there is none in this build's format. The rows settled since are folded in at the next ask, as for any trie.
 */
export async function keptStoreTrie(c: PgQuerier, crawlId: string): Promise<PackedTrie | null> {
  const kept = await keptAnswer<KeptTrie>(c, crawlId, 'structure_trie', KEPT_TRIE_FORMAT);
  if (!kept?.data) return null;
  const { lastSeq, folders: n, namesBytes } = kept.answer;
  // A trie that does not read back whole is not taken (the reader folds the crawl, and keeps that fold in its place).
  const data = await inflate(kept.data).catch(() => null);
  if (data?.length !== namesBytes + n * 4 + n * FOLD_SUMS * 8) return null;
  let names: string[];
  try {
    names = JSON.parse(data.toString('utf8', 0, namesBytes)) as string[];
  } catch {
    return null;
  }
  if (!Array.isArray(names) || names.length !== n) return null;
  // Copied into arrays of their own: the bytes may not be aligned for them.
  const parent = new Int32Array(n);
  const sums = new Float64Array(n * FOLD_SUMS);
  new Uint8Array(parent.buffer).set(data.subarray(namesBytes, namesBytes + n * 4));
  new Uint8Array(sums.buffer).set(data.subarray(namesBytes + n * 4));
  return { lastSeq, names, parent, sums };
}

/**
 * Keeps a large crawl's first fold in the crawl (pg-kept-answers.ts), so that a later reader, in any process, adopts
 * it instead of folding every row again (2-4 s at a million URLs). A trie is kept whatever the crawl is doing: it
 * is of the rows settled up to its lastSeq, and a reader folds in those settled since. Compressed (off the thread):
 * at a million URLs its 24 MB, mostly zeros, take 0.8 MB, and pg moves a large bytea at about 20 MB a second (2.6 s
 * to write those 24 MB, 1.1 s to read them; 7-35 ms to read the compressed trie). False when it cannot be kept.
 */
export async function keepStoreTrie(c: PgQuerier, crawlId: string, packed: PackedTrie): Promise<boolean> {
  const names = Buffer.from(JSON.stringify(packed.names), 'utf8');
  const data = await deflate(
    Buffer.concat([
      names,
      Buffer.from(packed.parent.buffer, packed.parent.byteOffset, packed.parent.byteLength),
      Buffer.from(packed.sums.buffer, packed.sums.byteOffset, packed.sums.byteLength),
    ]),
  );
  const answer: KeptTrie = { lastSeq: packed.lastSeq, folders: packed.names.length, namesBytes: names.length };
  return keepAnswer(c, crawlId, 'structure_trie', KEPT_TRIE_FORMAT, answer, data);
}

/**
 * The whole file folded in: results read in table order into arrays by URL id, then urls read in table order, each
 * URL with a results row added. Two sequential walks: joining each results row to its URL by key instead descends
 * urls' b-tree once per row, at random, about ten times slower on a large file.
 */
function firstFold(db: Db, root: Folder, last: number): void {
  const { maxId } = prepared(db, 'SELECT coalesce(max(id), 0) AS maxId FROM urls').get() as { maxId: number };
  const m = last + 1;
  // By seq: the status's class (-1: no row), depth, indexability (0 none, 1 indexable, 2 non-indexable).
  const statusClass = new Int8Array(m).fill(NO_ROW);
  const depth = new Int32Array(m);
  const index = new Uint8Array(m);
  const depthBound = Math.floor((PACKED_MAX / 8 - m) / m);
  const packed =
    depthBound >= 0 &&
    pluckWalk(db, statusSql(db), { last, m, depthBound }, (v) => {
      if (v < 0) return false;
      const cls = v % 8;
      const pair = (v - cls) / 8;
      const seq = pair % m;
      statusClass[seq] = cls;
      depth[seq] = (pair - seq) / m;
      return true;
    });
  if (!packed) {
    for (const [seq, cls, d] of prepared(db, statusRowsSql(db)).raw(true).iterate({ last }) as Iterable<[number, number, number]>) {
      statusClass[seq] = cls;
      depth[seq] = d;
    }
  }
  pluckWalk(db, indexabilitySql(db), { last }, (v) => {
    const ix = v % 4;
    index[(v - ix) / 4] = ix;
    return true;
  });
  // By URL id: its results row's seq (0: none).
  const seqOf = new Int32Array(maxId + 1);
  if ((maxId + 1) * m < PACKED_MAX) {
    pluckWalk(db, seqOfUrlSql, { last, m }, (v) => {
      const seq = v % m;
      const urlId = (v - seq) / m;
      if (urlId <= maxId) seqOf[urlId] = seq;
      return true;
    });
  } else {
    for (const [urlId, seq] of prepared(db, seqOfUrlRowsSql).raw(true).iterate({ last }) as Iterable<[number, number]>) {
      if (urlId <= maxId) seqOf[urlId] = seq;
    }
  }
  const urls = prepared(db, URLS_SQL).raw(true).iterate() as Iterable<[number, string, number]>;
  for (const [id, url, external] of urls) {
    const seq = seqOf[id]!;
    if (seq === 0 || external || statusClass[seq] === NO_ROW) continue;
    const ix = index[seq];
    addUrl(root, url, ix === 1 ? 'indexable' : ix === 2 ? 'non-indexable' : null, CLASS_STATUS[statusClass[seq]!]!, depth[seq]!);
  }
}

/**
 * The store's first fold, a page at a time: the URLs of the crawl after a URL id, with their results row (up to the
 * settled seq), in id order. Both sides are read in that order from an index (urls_pkey, results_charts) and merged,
 * from the id on (the bound on r.url_id too: PostgreSQL does not carry a range across the join, and the merge would
 * otherwise read results_charts from its start on every page); a page's rows stay bounded however large the crawl.
 * The indexability and the status come as one number (foldKeySql): a million rows' text and second integer were
 * a third of the fold's time in the client.
 */
export const STORE_FOLD_SQL = `SELECT u.id, u.url, ${foldKeySql('r')} AS k, r.crawl_depth
  FROM urls u JOIN results r ON r.url_id = u.id
  WHERE u.id > @after AND r.url_id > @after AND r.seq <= @last AND NOT ${EXTERNAL}
  ORDER BY u.id LIMIT @limit`;

/**
 * A results row's indexability and status as one number: 0 none, 1 indexable, 2 non-indexable, plus four times the
 * status plus one (0 for none, or for a status past 999, which the tree counts as none as it does any outside
 * 200-599). Read back by addFoldRow.
 */
function foldKeySql(r: string): string {
  return `(CASE ${r}.indexability WHEN 'indexable' THEN 1 WHEN 'non-indexable' THEN 2 ELSE 0 END)
    + 4 * (CASE WHEN ${r}.status_code BETWEEN 0 AND 999 THEN ${r}.status_code + 1 ELSE 0 END)`;
}

const INDEXABILITY = [null, 'indexable', 'non-indexable'] as const;

/** Folds a row of STORE_FOLD_SQL: its URL, and its indexability and status from their key. */
function addFoldRow(root: Folder, url: string, key: number, depth: number): void {
  const status = key >> 2;
  addUrl(root, url, INDEXABILITY[key & 3] ?? null, status === 0 ? null : status - 1, depth);
}

/**
 * Rows per page of the store's first fold: at a million URLs, pages of 10,000 spent 5.1 s in statements and their
 * rows, pages of 50,000 2.7 s (the trie's own folding 3.3 s either way); a page of rows is a few megabytes.
 */
const STORE_FOLD_PAGE = 50_000;

type FoldRow = { url: string; indexability: string | null; status_code: number | null; crawl_depth: number | string };
/** STORE_FOLD_SQL's row: id (bigint, as text), url, the indexability's and status's key, crawl_depth. */
type FoldArray = [string, string, number, number];

const storeTrees = new WeakMap<PgQuerier, Map<string, Tree>>();

/** The trie of a crawl in the store on this connection, brought up to the settled seq `last` (in its snapshot). */
async function storeTree(c: PgQuerier, crawlId: string, last: number, pageRows: number): Promise<Tree> {
  let byCrawl = storeTrees.get(c);
  if (!byCrawl) storeTrees.set(c, (byCrawl = new Map()));
  let tree = byCrawl.get(crawlId);
  if (tree === undefined) byCrawl.set(crawlId, (tree = { root: folder('', null, -1), lastSeq: 0 }));
  if (last <= tree.lastSeq) return tree;
  const fold = (root: Folder, r: FoldRow) => addUrl(root, r.url, r.indexability, r.status_code, Number(r.crawl_depth));
  if (tree.lastSeq === 0) {
    // Into a root of its own, kept only once whole: a fold cut short (a lost connection) must not be counted twice.
    // Rows as arrays (a million rows as objects were a second of garbage collection), the next page asked for before
    // this one is folded, so the server reads it meanwhile.
    const root = folder('', null, -1);
    const page = (after: number) => {
      const { text, values } = positional(STORE_FOLD_SQL, { after, last, limit: pageRows });
      return c.query<FoldArray>({ text, values, rowMode: 'array' }).then((r) => r.rows);
    };
    for (let next: Promise<FoldArray[]> | null = page(0); next !== null; ) {
      const rows: FoldArray[] = await next;
      next = rows.length < pageRows ? null : page(Number(rows[rows.length - 1]![0]));
      // A fold cut short leaves the page asked for ahead unread: its failure is the connection's, seen by the caller.
      next?.catch(() => undefined);
      for (const [, url, key, depth] of rows) addFoldRow(root, url, key, depth);
    }
    tree.root = root;
  } else {
    // One statement, folded without a pause: the trie never holds part of it.
    for (const r of await pgRows<FoldRow>(c, SCAN_SQL, { after: tree.lastSeq, last })) fold(tree.root, r);
  }
  tree.lastSeq = last;
  return tree;
}

/** Runs `read` on the trie of a crawl in the store, brought up to date in one snapshot. */
async function withStoreTree<T>(c: PgQuerier, crawlId: string, read: (tree: Tree) => T, pageRows = STORE_FOLD_PAGE): Promise<T> {
  const last = await settledSeq(c, crawlId);
  return inCrawl(c, crawlId, async () => read(await storeTree(c, crawlId, last, pageRows)));
}

function stats(f: Folder): StructureStats {
  return {
    urls: f.urls,
    own: f.own,
    indexable: f.indexable,
    nonIndexable: f.nonIndexable,
    status: { '2xx': f.s2, '3xx': f.s3, '4xx': f.s4, '5xx': f.s5, none: f.sNone },
    minDepth: f.urls ? f.minDepth : null,
    avgDepth: f.urls ? f.depthSum / f.urls : null,
  };
}

const shown = (f: Folder): StructureFolder => ({
  ...stats(f),
  path: pathOf(f),
  name: f.level === 0 ? f.name : `${f.name}/`,
  level: f.level,
  folders: f.children?.size ?? 0,
});

/** Children, the largest first (ties by name): the order of the tree and of the CSV. */
function sortedChildren(f: Folder): Folder[] {
  if (f.children === null) return [];
  return [...f.children.values()].sort((a, b) => b.urls - a.urls || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function level(f: Folder, path: string | null, limit: number): StructureLevel {
  const all = sortedChildren(f);
  const rest = all.slice(limit);
  let more: StructureLevel['more'] = null;
  if (rest.length) {
    const sum = folder('', null, 0);
    for (const c of rest) {
      sum.urls += c.urls;
      sum.own += c.own;
      sum.indexable += c.indexable;
      sum.nonIndexable += c.nonIndexable;
      sum.s2 += c.s2;
      sum.s3 += c.s3;
      sum.s4 += c.s4;
      sum.s5 += c.s5;
      sum.sNone += c.sNone;
      sum.minDepth = Math.min(sum.minDepth, c.minDepth);
      sum.depthSum += c.depthSum;
    }
    more = { ...stats(sum), folders: rest.length };
  }
  return { path, children: all.slice(0, limit).map(shown), more };
}

/** The folder at `path` (a URL prefix ending in "/"), or undefined when the crawl has none there. */
function find(root: Folder, path: string): Folder | undefined {
  // The host's folder is the prefix up to the first "/" after the scheme's; each later "/" ends a folder.
  const schemeEnd = path.indexOf('://');
  const hostEnd = path.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (hostEnd < 0 || !path.endsWith('/')) return undefined;
  let node = root.children?.get(path.slice(0, hostEnd));
  let pos = hostEnd + 1;
  while (node !== undefined && pos < path.length) {
    const slash = path.indexOf('/', pos);
    node = node.children?.get(path.slice(pos, slash));
    pos = slash + 1;
  }
  return node;
}

function checkQuery(query: SiteStructureQuery): void {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_STRUCTURE_LIMIT) {
    throw new RangeError(`limit must be a whole number from 1 to ${MAX_STRUCTURE_LIMIT} (got ${String(query.limit)})`);
  }
  if (query.paths.length > MAX_STRUCTURE_PATHS) throw new RangeError(`at most ${MAX_STRUCTURE_PATHS} folders at once`);
}

/** The answer to `query` from a trie: the hosts and each folder asked for that the crawl has. */
function answer(tree: Tree, query: SiteStructureQuery): SiteStructure {
  const levels: StructureLevel[] = [];
  for (const path of query.paths) {
    const f = find(tree.root, path);
    if (f !== undefined) levels.push(level(f, path, query.limit));
  }
  return { total: stats(tree.root), hosts: level(tree.root, null, query.limit), levels, lastSeq: tree.lastSeq };
}

/** The hosts, and the children of each folder of `paths`, in one read transaction (the numbers agree). */
export function siteStructure(db: Db, query: SiteStructureQuery): SiteStructure {
  checkQuery(query);
  return readTransaction(db, () => answer(currentTree(db), query));
}

/**
 * siteStructure of a crawl in the PostgreSQL store, from its trie on this connection (`foldPageRows`: the rows its
 * first fold reads a statement, for tests of a fold over several pages).
 */
export async function postgresSiteStructure(
  c: PgQuerier,
  crawlId: string,
  query: SiteStructureQuery,
  foldPageRows?: number,
): Promise<SiteStructure> {
  checkQuery(query);
  return withStoreTree(c, crawlId, (tree) => answer(tree, query), foldPageRows);
}

/** One CSV row per folder, each before those below it, the largest first; cells as the CSV writer writes them. */
function* csvRows(tree: Tree): Generator<string> {
  yield `\uFEFF${csvRecord([...STRUCTURE_CSV_HEADER])}`;
  const stack = sortedChildren(tree.root).reverse();
  while (stack.length) {
    const f = stack.pop()!;
    const s = stats(f);
    yield csvRecord([
      neutraliseCell(pathOf(f)),
      String(f.level),
      String(s.urls),
      String(s.own),
      String(s.indexable),
      String(s.nonIndexable),
      String(s.status['2xx']),
      String(s.status['3xx']),
      String(s.status['4xx']),
      String(s.status['5xx']),
      String(s.status.none),
      s.minDepth === null ? '' : String(s.minDepth),
      s.avgDepth === null ? '' : String(Math.round(s.avgDepth * 100) / 100),
    ]);
    const below = sortedChildren(f);
    for (let i = below.length - 1; i >= 0; i--) stack.push(below[i]!);
  }
}

/** A crawl file's tree as CSV rows (csvRows). */
export function structureCsvRows(db: Db): Generator<string> {
  return csvRows(readTransaction(db, () => currentTree(db)));
}

/**
 * A crawl in the store's tree as CSV rows, every row made while its snapshot is held: the trie is the connection's,
 * and a later refresh (another view's ask) would change it under a download still being written.
 */
export function postgresStructureCsvRows(c: PgQuerier, crawlId: string): Promise<string[]> {
  return withStoreTree(c, crawlId, (tree) => [...csvRows(tree)]);
}

/** The whole tree as CSV, to a file or a stream (ended when done): the folders written. */
export function exportStructureCsv(db: Db, dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
  return writeStructureCsv(structureCsvRows(db), dest);
}

/** CSV rows (the header first) to a file or a stream, ended when done: the folders written. */
export async function writeStructureCsv(lines: Iterable<string>, dest: string | NodeJS.WritableStream): Promise<{ rows: number }> {
  const out: NodeJS.WritableStream = typeof dest === 'string' ? fs.createWriteStream(dest) : dest;
  let rows = -1;
  let chunk = '';
  const flush = async () => {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    chunk = '';
  };
  for (const line of lines) {
    rows++;
    chunk += line;
    if (chunk.length > 64 * 1024) await flush();
  }
  if (chunk) await flush();
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
  return { rows };
}
