// Two crawls compared, as the renderer sees it: what compareCrawls and comparePage take and answer (computed by
// electron/engine/analysis/compare.ts). No node:, no electron: the renderer imports this.

export const COMPARED_FIELDS = ['status_code', 'title', 'meta_description', 'canonical', 'indexability', 'word_count'] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];
export const CHANGE_KINDS = ['added', 'removed', 'changed'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface FieldValues {
  status_code: number | null;
  title: string | null;
  meta_description: string | null;
  canonical: string | null;
  indexability: string | null;
  indexability_reason: string | null;
  word_count: number | null;
}

/**
 * Why a URL the older crawl fetched was not fetched by the newer one, from what the newer crawl knew of it
 * (its urls.state, or that it never met the URL).
 */
export const REMOVED_REASONS = {
  'not-linked': 'no longer linked: the newer crawl found no link to it',
  'out-of-scope': 'out of scope: excluded by the newer crawl\u2019s settings (scope, include or exclude patterns)',
  'too-deep': 'beyond the newer crawl\u2019s maximum depth',
  nofollow: 'only linked with nofollow',
  'redirect-cut': 'behind a redirect chain cut short (too long, or a loop)',
  'not-reached': 'not reached: still queued when the newer crawl ended (stopped, or at its page limit)',
} as const;
export type RemovedReason = keyof typeof REMOVED_REASONS;

export interface ComparisonRow {
  change: ChangeKind;
  url: string;
  /** The fields that changed (only for "changed"), in COMPARED_FIELDS order. */
  fields: ComparedField[];
  /** The URL's row in the old crawl (null when added) and in the new one (null when removed). */
  old: FieldValues | null;
  new: FieldValues | null;
  /** Why a removed URL is gone (REMOVED_REASONS); null for added and changed URLs. */
  removed_reason?: RemovedReason | null;
}

export interface ComparisonPage {
  rows: ComparisonRow[];
  /** Pass as `after` for the next page of the same kind; null on the last page. */
  next: number | null;
}

export interface ComparisonSummary {
  /** As the crawls list names them (a path on the desktop, a name in the web console). */
  old_file: string;
  new_file: string;
  /** URLs fetched in each crawl (results rows). */
  old_urls: number;
  new_urls: number;
  added: number;
  removed: number;
  changed: number;
  /** Changed URLs per field (a URL may count under several). */
  by_field: Record<ComparedField, number>;
  /** The seeds of each crawl: a comparison of two different sites says little. */
  old_seeds: string[];
  new_seeds: string[];
}

/**
 * How a comparison names a crawl of the PostgreSQL store the host is attached to (a cluster crawl), where it names a
 * crawl file otherwise: `cluster:ID`. No crawl file's name or id has this form.
 */
export const CLUSTER_CRAWL_PREFIX = 'cluster:';

export function clusterCrawlRef(crawlId: string): string {
  return `${CLUSTER_CRAWL_PREFIX}${crawlId}`;
}

/** The crawl ID a comparison's reference names, or null for a crawl file. */
export function clusterCrawlOf(ref: string): string | null {
  return ref.startsWith(CLUSTER_CRAWL_PREFIX) ? ref.slice(CLUSTER_CRAWL_PREFIX.length) : null;
}

/**
 * Two crawls (each a crawl file as listCrawls names it, or clusterCrawlRef of a crawl of the attached store), and how
 * far a word count must move, in % of the old one.
 */
export interface CompareQuery {
  oldFile: string;
  newFile: string;
  wordThresholdPercent: number;
}
