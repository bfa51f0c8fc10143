// The site-structure view as the renderer sees it: what siteStructure takes and answers (computed by
// electron/engine/analysis/site-structure.ts). No node:, no electron: the renderer imports this.

/** The status classes a folder's URLs are counted by ('none': no response). */
export const STRUCTURE_STATUS = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
export type StructureStatus = (typeof STRUCTURE_STATUS)[number];

/** What a folder (or several, summed) holds: its URLs, their indexability, status classes and crawl depth. */
export interface StructureStats {
  /** URLs in the folder and below it. */
  urls: number;
  /** URLs directly in the folder (not in a folder below). */
  own: number;
  indexable: number;
  nonIndexable: number;
  /** By status class; the classes sum to `urls` (a status outside 200-599 counts as none). */
  status: Record<StructureStatus, number>;
  /** The least crawl depth of its URLs (null when it has none). */
  minDepth: number | null;
  /** The mean crawl depth of its URLs (null when it has none). */
  avgDepth: number | null;
}

export interface StructureFolder extends StructureStats {
  /** The folder as a URL prefix, ending in "/": "https://example.com/" (a host), "https://example.com/docs/api/". */
  path: string;
  /** What the tree shows: the origin for a host, else the last segment with its "/" ("api/"). */
  name: string;
  /** 0 for a host, 1 for its first folders... */
  level: number;
  /** Folders directly below it (each listed when it is expanded). */
  folders: number;
}

/** One folder's children, the largest first; past the limit the rest summed as one "N more folders" row. */
export interface StructureLevel {
  /** The folder expanded, or null for the hosts. */
  path: string | null;
  children: StructureFolder[];
  /** The children left out, summed (null when none was). */
  more: (StructureStats & { folders: number }) | null;
}

/** The most folders one siteStructure call expands, and the most children it lists per folder. */
export const MAX_STRUCTURE_PATHS = 500;
export const MAX_STRUCTURE_LIMIT = 1000;

export interface SiteStructureQuery {
  /** The folders whose children are wanted (the hosts always come along): the tree's expanded folders. */
  paths: string[];
  /** The most children listed per folder. */
  limit: number;
}

export interface SiteStructure {
  /** Every URL counted, summed. */
  total: StructureStats;
  hosts: StructureLevel;
  /** A level per path asked for that the crawl has, in the order asked. */
  levels: StructureLevel[];
  /** results.seq the tree has counted up to. */
  lastSeq: number;
}

/** The CSV's columns (one row per folder, hosts first, each folder before those below it, the largest first). */
export const STRUCTURE_CSV_HEADER = [
  'folder',
  'level',
  'urls',
  'own_urls',
  'indexable',
  'non_indexable',
  'status_2xx',
  'status_3xx',
  'status_4xx',
  'status_5xx',
  'status_none',
  'min_depth',
  'avg_depth',
] as const;
