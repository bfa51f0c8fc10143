// A URL's detail in the analyst workbench (the detail pane): its summary, redirect chain, inlinks and outlinks
// paged by key, links it could not follow, and extracted values. Part of the workbench's API (analysis.ts
// re-exports it). No node:, no electron: the renderer imports this.
import type { ExplorerRow } from './results.ts';
import type { FoundUnfetchableLink } from './protocol.ts';
import type { HreflangDetail, SecurityDetail } from './security.ts';

/** A URL by its text (as crawled, or as written: it is normalised as the crawl did) or by urls.id. */
export type UrlRef = { url: string } | { id: number };

export interface UrlSummary {
  url_id: number;
  url: string;
  state: number;
  status_code: number | null;
}

export interface RedirectHop extends UrlSummary {
  redirect_url: string | null;
  error: string | null;
}

export interface RedirectChain {
  /** From the first URL that redirects into the chain to the last one reached; the URL asked about included. */
  hops: RedirectHop[];
  /** Index of the URL asked about in `hops`. */
  position: number;
  /** The chain comes back to a URL already in it. */
  loop: boolean;
  /** Stopped after MAX_CHAIN_HOPS hops one way or the other with more to follow. */
  truncated: boolean;
  /** Every URL that redirects straight to the URL asked about (the chain shows one of them). */
  redirected_from: UrlSummary[];
}

export interface Inlink {
  from_id: number;
  from_url: string;
  anchor: string | null;
  /** a, area, canonical, next, prev, alternate, hreflang, refresh, redirect, image, script, stylesheet. */
  kind: string;
  nofollow: boolean;
}

/** A link from the URL to another, as the URL detail lists it (the worker's links are protocol.ts's FoundLink). */
export interface Outlink {
  to_id: number;
  to_url: string;
  anchor: string | null;
  kind: string;
  nofollow: boolean;
  /** The target's urls.state and, when fetched, its status. */
  state: number;
  status_code: number | null;
}

export interface LinkPage<T> {
  /** Links of this URL in all. */
  total: number;
  rows: T[];
  /** Pass as `after` for the next page; null on the last page. */
  next: number | null;
}

/** A link that can never be fetched, as the crawl recorded it: the worker's FoundUnfetchableLink, no anchor as null. */
export interface UnfetchableLink extends Omit<FoundUnfetchableLink, 'anchor'> {
  anchor: string | null;
}

export interface ExtractedValues {
  rule: string;
  values: string[];
}

/** The fields a rendered page's detail shows raw (the HTML as fetched) beside rendered (the DOM after its scripts). */
export const RENDER_COMPARED_FIELDS = [
  'title',
  'meta_description',
  'h1',
  'h1_count',
  'h2',
  'h2_count',
  'canonical',
  'meta_robots',
  'lang',
  'hreflang',
  'word_count',
  'indexability',
] as const;
export type RenderComparedField = (typeof RENDER_COMPARED_FIELDS)[number];

export interface RenderComparison {
  field: RenderComparedField;
  raw: string | number | null;
  rendered: string | number | null;
  /** The two differ (an empty text and none are the same); never after a failed render. */
  changed: boolean;
}

/** A list of a render's findings, bounded: its first items, and how many there were. */
export interface BoundedList<T> {
  items: T[];
  total: number;
}

export interface RenderResource {
  url: string;
  reason: string;
}

/** What rendering a page found (crawl file table renders), beside its raw row. */
export interface RenderDetail {
  /** Raw and rendered values side by side, in RENDER_COMPARED_FIELDS order. Indexability "non-indexable: reason". */
  fields: RenderComparison[];
  /** Links only the rendered DOM has. */
  rendered_links: number;
  /** Where a script sent the page (a location change), or null. */
  js_redirect: string | null;
  render_ms: number | null;
  /** Why the render failed or was cut, or null (a failed render leaves the raw fields in force). */
  error: string | null;
  console_errors: BoundedList<string>;
  page_errors: BoundedList<string>;
  failed_resources: BoundedList<RenderResource>;
  blocked_resources: BoundedList<RenderResource>;
}

/** An image a page uses, as the page's detail lists it (issue 18.3): status and size only when the crawl checked it. */
export interface PageImage {
  image_url: string;
  /** null: no alt attribute; '': empty. Cut to 500 characters (alt_len is the real length). */
  alt: string | null;
  alt_len: number | null;
  width: string | null;
  height: string | null;
  checked: boolean;
  status_code: number | null;
  size_bytes: number | null;
}

/** A page using an image, as the image's detail lists it (issue 18.3). */
export interface ImagePage {
  page_id: number;
  page_url: string;
  alt: string | null;
  alt_len: number | null;
  width: string | null;
  height: string | null;
}

export interface UrlDetail {
  url_id: number;
  url: string;
  state: number;
  state_name: string;
  kind: string;
  depth: number;
  check_only: boolean;
  discovered_at: number;
  /** The page this URL was first found on (or redirected from). */
  via: { url_id: number; url: string } | null;
  /** Its row (ResultRow's columns), or for a URL never fetched the same shape with the result fields null. */
  row: ExplorerRow;
  fetched: boolean;
  /** Response headers by lower-case name (a repeated header holds a list), or null without a response. */
  response_headers: Record<string, string | string[]> | null;
  redirect_chain: RedirectChain;
  /** The first page of inlinks and outlinks; more with inlinks() / outlinks(). */
  inlinks: LinkPage<Inlink>;
  outlinks: LinkPage<Outlink>;
  unfetchable_links: UnfetchableLink[];
  unfetchable_truncated: boolean;
  extracted: ExtractedValues[];
  /** What its render found, for a page the crawl rendered; null (or absent, from an older host) otherwise. */
  render?: RenderDetail | null;
  /** Issue 18.3: the images the page uses (absent from an older host, empty for a URL that is not a page). */
  images?: BoundedList<PageImage>;
  /** Issue 18.3: for an image URL, the pages using it (empty otherwise). */
  image_pages?: BoundedList<ImagePage>;
  /** Its structured data and social tags (issue 18.4); null (or absent) on a file or store that does not keep them. */
  structured?: StructuredDetail | null;
  /** Issue 18.5: its security headers and problems, for a page the crawl read; null (or absent) otherwise. */
  security?: SecurityDetail | null;
  /** Issue 18.5: the hreflang alternates it names, each with its problems; null (or absent) when it names none. */
  hreflang?: HreflangDetail | null;
  /** Duplicate content (issue 18.1): its main text's words, exact and near duplicates; null (or absent) without main text. */
  content?: ContentDetail | null;
  /** Its Link Score is still being computed (ExplorerPage.scoresPending): the detail is asked for again shortly. */
  scoresPending?: boolean;
  /** The crawl's duplicate content analysis is still being computed: `content` is absent until it is asked for again. */
  contentPending?: boolean;
}

/** A page with the same main text, or a near-duplicate with its estimated similarity (0-1), in a page's detail. */
export interface ContentMatch {
  url_id: number;
  url: string;
  /** 1 for an exact duplicate. */
  similarity: number;
}

/** A page's duplicate content (issue 18.1), under the analysis's current options. */
export interface ContentDetail {
  /** Words of its main text (nav, header and footer left out by default). */
  main_words: number;
  /** It is among the pages compared (indexable ones, unless the analysis compares all pages). */
  compared: boolean;
  /** Under the low-content word count. */
  low: boolean;
  options: { threshold: number; allPages: boolean; lowContentWords: number };
  /** The other pages with the same main text (by its hash), in URL id order. */
  exact: BoundedList<ContentMatch>;
  /** The other pages at or above the threshold, closest first. */
  near: BoundedList<ContentMatch>;
}

/** A page's structured data items (one per JSON-LD block, one for its microdata, one for its RDFa) and og/twitter tags. */
export interface StructuredDetail {
  items: { format: string; types: string[]; error: string | null }[];
  social_tags: { property: string; content: string }[];
}
