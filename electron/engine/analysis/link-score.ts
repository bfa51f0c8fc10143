// Link Score: an internal PageRank of a crawl, computed from the crawl file with compact typed arrays so that a
// million URLs take seconds and tens of megabytes, never an object per link.
//
// The graph:
// - Nodes: the crawl's own pages that were fetched: URLs with a results row, in scope (urls.state <> 4) and not
//   fetched for their status only (check_only = 0: images, scripts, out-of-scope links checked). Their url ids map
//   to dense indices 0..N-1 through one Int32Array (url id -> index, -1 for none).
// - Edges (links table, one row per linking page and target), between two nodes, never from a page to itself:
//   * a redirect (kind 'redirect', or a meta refresh, 'refresh') passes the page's whole value to its target;
//   * else a canonical to another URL (kind 'canonical') passes the page's whole value to that URL;
//   * else the page's followed hyperlinks (kind 'a' or 'area', links.nofollow = 0; none at all when the page's meta
//     robots or X-Robots-Tag say nofollow) share its value equally (one share per distinct target).
//   A redirecting or canonicalised page's other links do not count.
// - A page with no edge (dangling: no followed internal link, a redirect out of the site...) spreads its value over
//   every page, as the random surfer jumps anywhere.
// PageRank with damping 0.85: pr' = (1 - d)/N + d·(dangling/N + sum over in-edges of pr(from)/outdeg(from)), starting
// from 1/N, iterated until the L1 change is under 1e-9 (ranks summing to 1: 1e-9·N with ranks summing to N) or 200
// iterations.
//
// Shown 0-100 on a log scale: score = 100 · ln(pr / min) / ln(max / min), rounded to one decimal, min and max over
// all nodes; when every page has the same rank (or there is one page) each scores 100.
//
// Unique inlinks: the distinct other pages of the graph linking to the page with a followed hyperlink (from a page
// that does not say nofollow). The Results' "inlinks" column stays every links row to it, any kind.
import Database from 'better-sqlite3';

export const DAMPING = 0.85;
export const MAX_ITERATIONS = 200;
export const TOLERANCE = 1e-9;

/** A graph in compressed sparse rows: node i's targets are targets[offsets[i] .. offsets[i + 1]). */
export interface CsrGraph {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
}

export interface PageRankResult {
  ranks: Float64Array;
  iterations: number;
  converged: boolean;
}

/** PageRank over a CSR graph (each node's targets distinct); ranks sum to 1. Dangling nodes' value spread evenly. */
export function pageRank(g: CsrGraph, damping = DAMPING, maxIterations = MAX_ITERATIONS, tolerance = TOLERANCE): PageRankResult {
  const { n, offsets, targets } = g;
  let ranks = new Float64Array(n);
  if (n === 0) return { ranks, iterations: 0, converged: true };
  let next = new Float64Array(n);
  ranks.fill(1 / n);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations++;
    let dangling = 0;
    next.fill(0);
    for (let i = 0; i < n; i++) {
      const start = offsets[i]!;
      const end = offsets[i + 1]!;
      const r = ranks[i]!;
      if (start === end) {
        dangling += r;
        continue;
      }
      const share = r / (end - start);
      for (let e = start; e < end; e++) next[targets[e]!]! += share;
    }
    const base = (1 - damping) / n + (damping * dangling) / n;
    let change = 0;
    for (let i = 0; i < n; i++) {
      const v = base + damping * next[i]!;
      change += Math.abs(v - ranks[i]!);
      next[i] = v;
    }
    const swap = ranks;
    ranks = next;
    next = swap;
    if (change < tolerance) {
      converged = true;
      break;
    }
  }
  return { ranks, iterations, converged };
}

/** 100 · ln(pr / min) / ln(max / min), rounded to 0.1; all equal -> 100. */
export function logScores(ranks: Float64Array): Float64Array {
  const out = new Float64Array(ranks.length);
  if (ranks.length === 0) return out;
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const r of ranks) {
    if (r < min) min = r;
    if (r > max) max = r;
  }
  const span = Math.log(max / min);
  // Ranks that differ only by rounding noise count as equal.
  if (!(span > 1e-12)) return out.fill(100);
  for (let i = 0; i < ranks.length; i++) out[i] = Math.round((1000 * Math.log(ranks[i]! / min)) / span) / 10;
  return out;
}

/** A growable Int32Array. */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  trimmed(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Where a computation reads the graph: a crawl file (with the host's native binding), or a crawl in the store at `stamp`. */
export type LinkScoreSource = { file: string; nativeBinding?: string } | { store: string; crawlId: string; stamp: string };

/** What a crawl file's Link Score computation yields, per node (dense index order = url id order). */
export interface LinkScores {
  /** The node's url id. */
  urlIds: Int32Array;
  /** 0-100, one decimal. */
  scores: Float64Array;
  /** The raw PageRank (sums to 1). */
  ranks: Float64Array;
  uniqueInlinks: Int32Array;
  iterations: number;
  converged: boolean;
  /** The file's state it was computed from (linkScoreStamp). */
  stamp: string;
  /** Wall time of the computation (read and iterate), ms. */
  ms: number;
}

/** Link kinds as small numbers (0 = a hyperlink, 1 = redirect, 2 = canonical), nofollow hyperlinks left out in SQL. */
const LINK_KIND = "CASE l.kind WHEN 'redirect' THEN 1 WHEN 'refresh' THEN 1 WHEN 'canonical' THEN 2 ELSE 0 END";
const LINKS_READ = `FROM links l WHERE l.kind IN ('redirect', 'refresh', 'canonical') OR (l.kind IN ('a', 'area') AND l.nofollow = 0)
  ORDER BY l.from_id, l.to_id`;
const LINKS_SQL = `SELECT l.from_id, l.to_id, ${LINK_KIND}
  ${LINKS_READ}`;
/**
 * Below this url id (2^25) a link's two ids and its kind fit one number under 2^53, read as one value a row: 2.16
 * million links came from a crawl file 35% faster than as an array a row (1.1-1.7 s against 1.8 s), 2.96 million from
 * the store in 3.3 s against 4.5 s.
 */
const PACKED_ID_LIMIT = 2 ** 25;
/** Whether a crawl whose highest url id is `maxId` reads its links packed (PACKED_LINKS_SQL, packedLink). */
export const linksPack = (maxId: number): boolean => maxId < PACKED_ID_LIMIT;
const PACKED_LINKS_SQL = `SELECT (l.from_id * ${PACKED_ID_LIMIT} + l.to_id) * 4 + ${LINK_KIND}
  ${LINKS_READ}`;
// The page's robots directives as a space-padded token list (as the explorer's directive filters read them).
const TOKENS = `(' ' || replace(replace(replace(lower(coalesce(r.meta_robots, '') || ',' || coalesce(r.x_robots_tag, '')),
  'max-image-preview:none', ''), ',', ' '), ':', ' ') || ' ')`;
// The nodes in url id order (results.url_id is UNIQUE, so its index gives that order, and holds every column read).
const NODES_SQL = `SELECT r.url_id FROM results r JOIN urls u ON u.id = r.url_id WHERE u.state <> 4 AND u.check_only = 0
  ORDER BY r.url_id`;

/**
 * The pages whose meta robots or X-Robots-Tag say nofollow (or none), read apart from the nodes: only the pages with
 * a directive starting with "no", from the partial index results_directives (its condition in the store's or the
 * file's words: `instr`). Reading every page's directives with the nodes read each results row whole, in url id
 * order rather than the table's: 1.6-1.8 s of a 4.8 s computation at 800,000 results, against 0.3-0.5 s for the ids.
 */
export function noFollowSql(instr: (text: string, needle: string) => string): string {
  return `SELECT r.url_id FROM results r
  WHERE ${instr("lower(coalesce(r.meta_robots, '') || ' ' || coalesce(r.x_robots_tag, ''))", "'no'")} > 0
    AND (${TOKENS} LIKE '% nofollow %' OR ${TOKENS} LIKE '% none %')`;
}
/** The crawl file's (SQLite's instr, the index's own words). */
const NO_FOLLOW_SQL = noFollowSql((text, needle) => `instr(${text}, ${needle})`);

/**
 * What a computation was made from: the latest results.seq (a new row, or a row written again, gets a higher one;
 * a page's links are written with its row). One step down the rowid's b-tree, cheap enough for every query.
 */
export function linkScoreStamp(db: Database.Database): string {
  const row = db.prepare('SELECT coalesce(max(seq), 0) AS m FROM results').get() as { m: number };
  return String(row.m);
}

/** Reads the graph of a crawl file and computes every node's Link Score, in one read transaction. */
export function computeLinkScores(db: Database.Database): LinkScores {
  const started = performance.now();
  return db.transaction(() => {
    const stamp = linkScoreStamp(db);
    const { maxId } = db.prepare('SELECT coalesce(max(id), 0) AS maxId FROM urls').get() as { maxId: number };
    const graph = new LinkGraphBuilder(maxId);
    for (const id of db.prepare(NO_FOLLOW_SQL).pluck().iterate() as IterableIterator<number>) graph.saysNoFollow(id);
    for (const id of db.prepare(NODES_SQL).pluck().iterate() as IterableIterator<number>) graph.node(id);
    if (linksPack(maxId)) for (const v of db.prepare(PACKED_LINKS_SQL).pluck().iterate() as IterableIterator<number>) graph.packedLink(v);
    else
      for (const [fromId, toId, kind] of db.prepare(LINKS_SQL).raw().iterate() as IterableIterator<[number, number, number]>)
        graph.link(fromId, toId, kind);
    return graph.scores(stamp, started);
  })();
}

/**
 * The statements a computation reads, the crawl's tables named bare: its nodes, then its links in page order, packed
 * when linksPack says they fit (the pages that say nofollow before either: noFollowSql, in the reader's dialect).
 */
export const LINK_SCORE_SQL = { nodes: NODES_SQL, links: LINKS_SQL, packedLinks: PACKED_LINKS_SQL };

/**
 * The graph as its rows come, from either store: the pages that say nofollow (saysNoFollow(), any order), every node
 * (node(), in url id order), then the links grouped by page in (from_id, to_id) order (link()); scores() computes.
 */
export class LinkGraphBuilder {
  private readonly indexOf: Int32Array;
  private readonly ids = new IntList();
  private readonly noFollow = new IntList();
  private offsets: Int32Array | null = null;
  private targets: IntList | null = null;
  private uniqueInlinks: Int32Array | null = null;
  // Links come grouped by page (the primary key's order): each page's edges decided when its group ends.
  private current = -1;
  private redirect = -1;
  private canonical = -1;
  private readonly pending = new IntList();
  /** Node index up to which offsets are filled. */
  private filled = 0;

  /** By url id, 1 for a page that says nofollow; dropped once the nodes are in. */
  private noFollowOf: Uint8Array | null;

  /** `maxId`: the crawl's highest url id. */
  constructor(private readonly maxId: number) {
    this.indexOf = new Int32Array(maxId + 1).fill(-1);
    this.noFollowOf = new Uint8Array(maxId + 1);
  }

  /** Url `id`'s page says nofollow (before the nodes come). */
  saysNoFollow(id: number): void {
    if (id <= this.maxId) this.noFollowOf![id] = 1;
  }

  node(id: number): void {
    this.indexOf[id] = this.ids.length;
    this.ids.push(id);
    this.noFollow.push(this.noFollowOf![id]!);
  }

  /** The edges' arrays, once the nodes are all in. */
  private edges(): { offsets: Int32Array; targets: IntList; uniqueInlinks: Int32Array } {
    if (this.offsets === null) {
      this.noFollowOf = null;
      const n = this.ids.length;
      this.offsets = new Int32Array(n + 1);
      this.targets = new IntList(Math.max(1024, n * 4));
      this.uniqueInlinks = new Int32Array(n);
    }
    return { offsets: this.offsets, targets: this.targets!, uniqueInlinks: this.uniqueInlinks! };
  }

  link(fromId: number, toId: number, kind: number): void {
    const { uniqueInlinks } = this.edges();
    const from = fromId <= this.maxId ? this.indexOf[fromId]! : -1;
    const to = toId <= this.maxId ? this.indexOf[toId]! : -1;
    if (from < 0) return;
    if (from !== this.current) {
      this.flush();
      this.current = from;
    }
    if (kind === 1) {
      // A redirect out of the site leaves the page dangling; one in it wins over everything else.
      if (to >= 0 && to !== from) this.redirect = to;
      else if (this.redirect < 0) this.redirect = -2;
    } else if (kind === 2) {
      // A self-canonical is no canonical; one elsewhere outside the graph still takes the page's value away.
      if (to !== from && this.canonical < 0) this.canonical = to >= 0 ? to : -2;
    } else if (to >= 0 && to !== from) {
      this.pending.push(to);
      if (this.noFollow.data[from] === 0) uniqueInlinks[to]!++;
    }
  }

  /** A link as PACKED_LINKS_SQL gives it: (from id · 2^25 + to id) · 4 + kind. */
  packedLink(v: number): void {
    const kind = v % 4;
    const pair = (v - kind) / 4;
    const toId = pair % PACKED_ID_LIMIT;
    this.link((pair - toId) / PACKED_ID_LIMIT, toId, kind);
  }

  private flush(): void {
    const current = this.current;
    if (current < 0) return;
    const { offsets, targets } = this.edges();
    for (; this.filled <= current; this.filled++) offsets[this.filled] = targets.length;
    // -2: a redirect or canonical to a URL that is not a page of the graph: the page is dangling.
    if (this.redirect !== -1) {
      if (this.redirect >= 0) targets.push(this.redirect);
    } else if (this.canonical !== -1) {
      if (this.canonical >= 0) targets.push(this.canonical);
    } else if (this.noFollow.data[current] === 0) for (let k = 0; k < this.pending.length; k++) targets.push(this.pending.data[k]!);
    offsets[current + 1] = targets.length;
    this.filled = current + 1;
    this.pending.length = 0;
    this.redirect = -1;
    this.canonical = -1;
  }

  /** Every node's score, from the crawl's state `stamp`; `started`: when reading began (performance.now()). */
  scores(stamp: string, started: number): LinkScores {
    const n = this.ids.length;
    const { offsets, targets, uniqueInlinks } = this.edges();
    this.flush();
    for (; this.filled <= n; this.filled++) offsets[this.filled] = targets.length;
    const pr = pageRank({ n, offsets, targets: targets.trimmed() });
    return {
      urlIds: this.ids.trimmed(),
      scores: logScores(pr.ranks),
      ranks: pr.ranks,
      uniqueInlinks,
      iterations: pr.iterations,
      converged: pr.converged,
      stamp,
      ms: performance.now() - started,
    };
  }
}

/** Opens the crawl file read-only (with the native binding in use) and computes its Link Scores. */
export function computeLinkScoresOfFile(file: string, nativeBinding?: string): LinkScores {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 5000');
    return computeLinkScores(db);
  } finally {
    db.close();
  }
}
