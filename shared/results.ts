// The Results table's rows and queries: what queryResults takes and answers. The analyst workbench's views
// (analysis.ts) build on these rows. No node:, no electron: the renderer imports this.

/** Status classes the results table filters on; 'none' is a URL that got no response. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const RESULT_SORT_COLUMNS = [
  'seq',
  'url',
  'status_code',
  'content_type',
  'size_bytes',
  'response_time_ms',
  'crawl_depth',
  'indexability',
  'title',
  'word_count',
  'inlinks',
  'outlinks',
  'attempts',
  'link_score',
  'unique_inlinks',
] as const;
export type ResultSortColumn = (typeof RESULT_SORT_COLUMNS)[number];

export interface ResultsQuery {
  offset: number;
  limit: number;
  sort: ResultSortColumn;
  descending: boolean;
  /** Case-insensitive text found in the URL, title or error. */
  text: string;
  statusClass: StatusClass | null;
}

export interface ResultRow {
  seq: number;
  url: string;
  /** page, image, script or stylesheet. */
  kind: string;
  status_code: number | null;
  content_type: string | null;
  size_bytes: number | null;
  response_time_ms: number | null;
  crawl_depth: number;
  /** "indexable" or "non-indexable"; null for resources, links only checked, and rows without a response. */
  indexability: string | null;
  indexability_reason: string | null;
  title: string | null;
  meta_description: string | null;
  h1: string | null;
  h1_count: number | null;
  h2: string | null;
  h2_count: number | null;
  canonical: string | null;
  lang: string | null;
  /** "en=https://…; de=https://…" */
  hreflang: string | null;
  meta_robots: string | null;
  x_robots_tag: string | null;
  meta_refresh: string | null;
  word_count: number | null;
  inlinks: number;
  outlinks: number;
  redirect_url: string | null;
  /** Fetches it took (retries included); 0 when it was never fetched (blocked by robots.txt). */
  attempts: number;
  /** 1 when robots.txt disallows it and it was fetched anyway (robots mode "report"). */
  robots_disallowed: number;
  error: string | null;
  /** Custom extraction: the values each rule found on the page, by rule name; rules that found nothing are left out. */
  extracted: Record<string, string[]>;
  /**
   * Link Score, 0-100 (an internal PageRank on a log scale: electron/engine/analysis/link-score.ts); null for a URL
   * outside the graph (external, a resource) or before it is computed, and in a cluster crawl.
   */
  link_score?: number | null;
  /** Distinct other pages of the crawl linking to it with a followed link (what Link Score counts). */
  unique_inlinks?: number | null;
}

export interface ResultsPage {
  /** Rows matching the query's filters, whatever the offset. */
  total: number;
  offset: number;
  rows: ResultRow[];
  /** The crawl's custom extraction rules, by name, in order: a column each. */
  extractionRules: string[];
  /** The rows' Link Scores are still being computed: they show none (or the last ones) until asked for again. */
  scoresPending?: boolean;
}

/** A row of a filtered view: a results row with its URL's id and state; for "external", a URL maybe never fetched. */
export interface ExplorerRow extends Omit<ResultRow, 'seq' | 'extracted'> {
  /** results.seq; null for a URL outside the scope that was never fetched. */
  seq: number | null;
  url_id: number;
  /** urls.state: 0 queued, 1 claimed, 2 fetched, 3 failed, 4 out of scope, 5 too deep, 6 nofollow only, 7 chain cut. */
  state: number;
  /** Custom extraction values by the rule's column name (ExplorerPage.extractionRules); a rule that found nothing is absent. */
  extracted: Record<string, string[]>;
  /**
   * Only in the Images filters (issue 18.3), whose rows are uses of an image on a page (url is the image's, url_id the
   * use's id negated, seq the image's results row when it was checked): the use's page and attributes.
   */
  image?: ImageUse;
  /** Duplicate content (issue 18.1), in the content filters' rows: main-text words, pages sharing its text, its closest near-duplicate. */
  main_words?: number | null;
  exact_duplicates?: number | null;
  near_match_url?: string | null;
  /** Estimated similarity to near_match_url, 0-100. */
  near_similarity?: number | null;
}

/** An image as one page uses it (issue 18.3): the page, the alt (null: no alt attribute; '': empty), dimensions. */
export interface ImageUse {
  page_url: string;
  page_id: number;
  alt: string | null;
  /** The alt's real length (the text is cut to 500 characters); null without one. */
  alt_len: number | null;
  width: string | null;
  height: string | null;
  /** The crawl checked the image (it has a results row): status and size are its own. */
  checked: boolean;
}
