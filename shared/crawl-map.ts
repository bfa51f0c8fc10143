// The crawl map (issue 18.6) as the renderer sees it: what crawlMap takes and answers (computed by
// electron/engine/analysis/crawl-map.ts). No node:, no electron: the renderer imports this.

/** The least and most nodes a map may be asked for, and the default. */
export const MIN_CRAWL_MAP_NODES = 20;
export const MAX_CRAWL_MAP_NODES = 20_000;
export const DEFAULT_CRAWL_MAP_NODES = 4_000;

export interface CrawlMapQuery {
  /** The most nodes drawn; past it siblings and deep levels are folded into groups (each with its count). */
  maxNodes: number;
}

/** A node's status class ('none': no response). */
export type MapStatus = '2xx' | '3xx' | '4xx' | '5xx' | 'none';
export type MapIndexability = 'indexable' | 'non-indexable' | 'other';

/**
 * One node of the map: a URL ('url'), the siblings of a URL folded into one ('group': "+N more"), or the root the
 * seeds hang from ('root'). Columns, not objects: a map of 20,000 nodes stays a small answer.
 */
export interface CrawlMapNodes {
  kind: ('url' | 'group' | 'root')[];
  /** The URL (a group: its parent's URL; the root: ''). */
  url: string[];
  /** The URL id (a group or the root: 0). */
  urlId: number[];
  /** Index of the parent node (-1 for the root). */
  parent: number[];
  depth: number[];
  status: (number | null)[];
  indexability: MapIndexability[];
  /** Link Score 0-100 (null: none computed; a group: the highest of its URLs). */
  linkScore: (number | null)[];
  /**
   * The URLs the node stands for: a URL node 1 plus the URLs below it that are not drawn (its subtree, when it
   * was not expanded); a group its URLs and everything below them.
   */
  urls: number[];
  /** Of `urls`, how many are indexable (all of them, for a URL node, when it is). */
  indexable: number[];
  /** The layout: a radial tree around the root (0, 0), depth rings one unit apart. */
  x: number[];
  y: number[];
}

/** What was folded to keep the map at its size (said on screen). */
export interface CrawlMapFolded {
  /** URLs not drawn as their own node. */
  urls: number;
  /** Group nodes ("+N more" siblings) and the URLs in them (with their subtrees). */
  groups: number;
  groupedUrls: number;
  /** URL nodes drawn without their children (past the node budget), and the URLs below them. */
  collapsed: number;
  collapsedUrls: number;
  /** The deepest level drawn in full (every URL of it and above is its own node); null when none is. */
  fullDepth: number | null;
}

/** Per crawl depth, over every URL of the map (never the folded view): inlinks and Link Score, as percentiles. */
export interface DepthSpread {
  depth: number;
  urls: number;
  inlinks: Spread;
  /** Over the URLs with a Link Score (null when none has one). */
  linkScore: Spread | null;
}

export interface Spread {
  min: number;
  p25: number;
  median: number;
  p75: number;
  max: number;
  mean: number;
}

export interface CrawlMap {
  nodes: CrawlMapNodes;
  /** URLs in the map (the crawl's pages: in scope, fetched or failed; not the resources checked). */
  total: number;
  /** The deepest crawl depth of any URL. */
  maxDepth: number;
  folded: CrawlMapFolded;
  depths: DepthSpread[];
  /** Whether Link Scores were computed (else every node is drawn at one size). */
  scored: boolean;
  /**
   * The crawl's Link Scores are still being computed (its first ones, seconds at a million URLs): the map is drawn
   * without them and asked for again until it comes sized by them.
   */
  scoresPending?: boolean;
  /** results.seq the map was built from. */
  lastSeq: number;
  /** Time to build it, ms. */
  ms: number;
}

/** The CSV's columns: one row per node of the map, in node order (each after its parent). */
export const CRAWL_MAP_CSV_HEADER = [
  'node',
  'kind',
  'url',
  'parent_node',
  'parent_url',
  'depth',
  'status_code',
  'indexability',
  'link_score',
  'urls',
  'indexable_urls',
] as const;

/** The depth charts' CSV columns. */
export const DEPTH_SPREAD_CSV_HEADER = [
  'depth',
  'urls',
  'inlinks_min',
  'inlinks_p25',
  'inlinks_median',
  'inlinks_p75',
  'inlinks_max',
  'inlinks_mean',
  'link_score_min',
  'link_score_p25',
  'link_score_median',
  'link_score_p75',
  'link_score_max',
  'link_score_mean',
] as const;

// ---- CSV, written where the data is (the renderer has the map; the engine's CSV writer is not in its reach) ----

/** A cell as the engine's CSV writer writes it: a text a spreadsheet would run as a formula gets a quote first. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvText = (rows: (string | number | null)[][]) => `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;

/** The map's nodes as CSV (UTF-8 with a byte-order mark, CRLF): one row per node, each after its parent. */
export function crawlMapCsv(map: CrawlMap): string {
  const n = map.nodes;
  const rows: (string | number | null)[][] = [[...CRAWL_MAP_CSV_HEADER]];
  for (let i = 0; i < n.kind.length; i++) {
    const p = n.parent[i]!;
    rows.push([
      i,
      n.kind[i]!,
      n.url[i]!,
      p < 0 ? null : p,
      p < 0 ? null : n.url[p]!,
      n.kind[i] === 'root' ? null : n.depth[i]!,
      n.status[i]!,
      n.kind[i] === 'url' ? n.indexability[i]! : null,
      n.linkScore[i]!,
      n.urls[i]!,
      n.indexable[i]!,
    ]);
  }
  return csvText(rows);
}

/** The depth charts' data as CSV: per crawl depth, the spread of inlinks and of Link Score. */
export function depthSpreadCsv(depths: readonly DepthSpread[]): string {
  const rows: (string | number | null)[][] = [[...DEPTH_SPREAD_CSV_HEADER]];
  for (const d of depths) {
    const s = d.linkScore;
    const i = d.inlinks;
    rows.push([
      d.depth,
      d.urls,
      i.min,
      i.p25,
      i.median,
      i.p75,
      i.max,
      i.mean,
      s?.min ?? null,
      s?.p25 ?? null,
      s?.median ?? null,
      s?.p75 ?? null,
      s?.max ?? null,
      s?.mean ?? null,
    ]);
  }
  return csvText(rows);
}
