// Messages between the engine (parent) and its worker processes. Both ends type-check against this file;
// structured-clone safe (plain objects, strings, numbers and byte arrays only).
import type { ContentOnWire } from './content.ts';
import type { RenderedPage, RenderRequest, RenderResult } from './render.ts';
import type { CrawlSettings } from './settings.ts';

export type Job =
  /** checkOnly: fetched for its status only (a resource, or an out-of-scope link checked); never parsed. */
  | { kind: 'page'; jobId: number; threadId: number; url: string; depth: number; checkOnly?: boolean }
  | { kind: 'robots'; jobId: number; threadId: number; url: string }
  /** An XML (or text) sitemap: fetched, read as a stream and its URLs sent back (electron/worker/sitemap). */
  | { kind: 'sitemap'; jobId: number; threadId: number; url: string };

/** How a page refers to a URL: an element or link relation, or the response (redirect). */
export const LINK_KINDS = [
  'a',
  'area',
  'canonical',
  'next',
  'prev',
  'alternate',
  'hreflang',
  'refresh',
  'redirect',
  'image',
  'script',
  'stylesheet',
  // A script sent the page there (a location change seen when rendering).
  'javascript',
] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
/** Link kinds that name a resource of the page rather than another page. */
export const RESOURCE_LINK_KINDS = { image: 'images', script: 'scripts', stylesheet: 'stylesheets' } as const;

/** A link found on a page, as the worker reports it (the URL detail's outlinks are analysis.ts's Outlink). */
export interface FoundLink {
  /** Canonical absolute URL. */
  url: string;
  /** The first way the page referred to it. */
  kind: LinkKind;
  /** Anchor text, whitespace-collapsed and cut to ANCHOR_MAX characters. */
  anchor: string;
  inScope: boolean;
  /** rel="nofollow" on every link to it on the page, or the page says nofollow (meta robots, X-Robots-Tag). */
  nofollow?: boolean;
  /** Only in the rendered DOM: the page's scripts made it (the raw HTML does not have it). */
  rendered?: boolean;
}

export const ANCHOR_MAX = 200;

/**
 * A link that can never be fetched (mailto:, tel:, javascript:, data: or another non-http scheme), as the worker
 * finds it on a page; the crawl records it, and the URL detail reads it back as analysis.ts's UnfetchableLink.
 */
export interface FoundUnfetchableLink {
  /** The href as written, whitespace-trimmed, cut to UNFETCHABLE_HREF_MAX characters (a data: URL can be huge). */
  href: string;
  /** Lower-case scheme without the colon ("mailto"). */
  scheme: string;
  anchor: string;
}

export const UNFETCHABLE_HREF_MAX = 300;

/** Custom extraction keeps at most this many values per rule and page, each cut to EXTRACTED_VALUE_MAX characters. */
export const MAX_EXTRACTED_VALUES = 100;
export const EXTRACTED_VALUE_MAX = 10_000;

// Images a page uses (issue 18.3; electron/worker/html/images.ts): every crawl records them, bounded.
/** Image uses kept per page (img src, srcset candidates, picture sources); the rest are counted, not kept. */
export const MAX_PAGE_IMAGES = 500;
/** An alt text is kept to this many characters; its real length is kept beside it. */
export const IMAGE_ALT_MAX = 500;
/** A width or height attribute is kept to this many characters. */
export const IMAGE_DIMENSION_MAX = 20;

/** One use of an image on a page, resolved to the crawl's normal form. */
export interface FoundImage {
  url: string;
  /** The alt attribute, whitespace collapsed, cut to IMAGE_ALT_MAX; null when the img has none ('' when empty). */
  alt: string | null;
  /** The collapsed alt's real length; null when there is none. */
  altLength: number | null;
  /** width and height attributes as written, null when absent or empty. */
  width: string | null;
  height: string | null;
}

export interface Hreflang {
  lang: string;
  url: string;
}

export interface PageFetchResult {
  kind: 'page';
  jobId: number;
  threadId: number;
  /** The URL as fetched (the job's URL). */
  url: string;
  statusCode: number | null;
  contentType: string | null;
  /** Body bytes as received on the wire. */
  sizeBytes: number;
  /** Time from sending the request to the end of the body. */
  responseTimeMs: number;
  title: string | null;
  metaDescription: string | null;
  h1: string | null;
  /** <h1> elements on the page (null when not parsed). */
  h1Count: number | null;
  h2: string | null;
  h2Count: number | null;
  canonical: string | null;
  /** <html lang>, trimmed, or null. */
  lang: string | null;
  /** <link rel="alternate" hreflang> entries in document order. */
  hreflang: Hreflang[];
  /** Target of <meta http-equiv="refresh" content="n; url=...">, in normal form. */
  metaRefresh: string | null;
  wordCount: number | null;
  /** Canonical Location of a 3xx response, if any. */
  redirectUrl: string | null;
  redirectInScope: boolean;
  /** Distinct links found on the page, in document order. */
  links: FoundLink[];
  /** Distinct links that can never be fetched (mailto:, javascript:...), in document order. */
  unfetchableLinks: FoundUnfetchableLink[];
  /** Images the page uses (at most MAX_PAGE_IMAGES), in document order; absent from older workers. */
  images?: FoundImage[];
  /** Image uses past MAX_PAGE_IMAGES, left out. */
  imagesOver?: number;
  /** HTML was parsed (a 2xx HTML page that was not check-only). */
  parsed: boolean;
  /** Custom extraction: values per rule name (settings.extraction), in document order; null when not parsed. */
  extracted: Record<string, string[]> | null;
  /** A person-readable error ("timeout", "connection refused", "too large"...), or null. */
  error: string | null;
  /** The response's Retry-After, in ms from now, when it had a usable one. */
  retryAfterMs: number | null;
  /** <meta name="robots" content> as written (e.g. "noindex, nofollow"), or null. */
  metaRobots: string | null;
  /** The X-Robots-Tag response header, or null. */
  xRobotsTag: string | null;
  /** Response headers (lower-case names), at most RESPONSE_HEADERS_MAX characters in all; null without a response. */
  responseHeaders: Record<string, string> | null;
  /** The render's findings, when the crawl renders and this page was rendered. */
  rendered?: RenderedPage;
  /** Structured data found on a parsed page (issue 18.4): one item per JSON-LD block, one for its microdata, one for its RDFa. */
  structuredData?: StructuredDataItem[];
  /** Open Graph (og:*) and Twitter card (twitter:*) <meta> tags of a parsed page, in document order. */
  socialTags?: SocialTag[];
  /** Security (issue 18.5): the page's security headers, plain-HTTP resources and unsafe target=_blank links; parsed pages only. */
  security?: PageSecurity;
  /** Duplicate content (issue 18.1): the main text's fingerprint and the text (UTF-8), for a parsed page. */
  content?: ContentOnWire;
}

// ---- structured data and social tags (issue 18.4) ----

export const STRUCTURED_DATA_FORMATS = ['json-ld', 'microdata', 'rdfa'] as const;
export type StructuredDataFormat = (typeof STRUCTURED_DATA_FORMATS)[number];

export interface StructuredDataItem {
  format: StructuredDataFormat;
  /** The types named (schema.org ones by their short name: "Product"), distinct, in the order found. */
  types: string[];
  /** Why a JSON-LD block could not be read (the JSON parser's message, with its position), or null. */
  error: string | null;
}

export interface SocialTag {
  /** og:title, twitter:card..., lower-cased. */
  property: string;
  content: string;
}

/** What a page may make the worker keep: everything a site controls is bounded. */
export const STRUCTURED_DATA_LIMITS = {
  /** Characters of one JSON-LD block read; a larger block is recorded with an error, not parsed. */
  jsonLdChars: 256 * 1024,
  /** JSON-LD blocks read per page (later ones are left out). */
  jsonLdBlocks: 20,
  /** Distinct types kept per item, and characters per type. */
  types: 50,
  typeChars: 200,
  /** JSON values visited and the nesting followed when looking for @type in one block. */
  jsonNodes: 100_000,
  jsonDepth: 64,
  /** Social tags kept per page, characters per property and per content. */
  socialTags: 40,
  socialPropertyChars: 100,
  socialContentChars: 2000,
  errorChars: 300,
} as const;

// ---- security (issue 18.5) ----

/** What a parsed HTML page shows of its security: headers cut to SECURITY_HEADER_MAX, lists bounded by SECURITY_LIST_MAX. */
export interface PageSecurity {
  /** Strict-Transport-Security, or null when absent. */
  hsts: string | null;
  /** Content-Security-Policy (not -Report-Only), or null. */
  csp: string | null;
  /** X-Content-Type-Options, or null. */
  xContentTypeOptions: string | null;
  /** X-Frame-Options, or null. */
  xFrameOptions: string | null;
  /** Resources the page loads over plain http: (images, scripts, stylesheets, iframes, media), resolved, in document order. */
  httpResources: { url: string; kind: string }[];
  /** <a target="_blank"> (or <area>) links to another origin without rel noopener or noreferrer, resolved, in document order. */
  unsafeBlankLinks: string[];
}

export const SECURITY_HEADER_MAX = 2048;
export const SECURITY_LIST_MAX = 50;

/** Headers kept per response, name and value lengths summed: enough for any real head, bounded for a hostile one. */
export const RESPONSE_HEADERS_MAX = 16 * 1024;

export interface RobotsFetchResult {
  kind: 'robots';
  jobId: number;
  threadId: number;
  url: string;
  statusCode: number | null;
  body: string | null;
  responseTimeMs: number;
  error: string | null;
}

/** One URL a sitemap lists, resolved and in the crawl's normal form (entries that are not http(s) URLs are dropped). */
export interface SitemapUrl {
  url: string;
  inScope: boolean;
  /** <lastmod> as written, or null. */
  lastmod: string | null;
  /** <xhtml:link rel="alternate" hreflang> of the entry, URLs in normal form. */
  alternates: Hreflang[];
}

export interface SitemapFetchResult {
  kind: 'sitemap';
  jobId: number;
  threadId: number;
  url: string;
  statusCode: number | null;
  responseTimeMs: number;
  /** Body bytes as received on the wire. */
  sizeBytes: number;
  /** urlset, index (a sitemap index) or text; null when nothing was read (an error, or not a sitemap). */
  format: 'urlset' | 'index' | 'text' | null;
  /** A urlset's (or text sitemap's) URLs; an index's sitemaps. At most the protocol's 50,000. */
  urls: SitemapUrl[];
  /** Entries whose <loc> was not an http(s) URL. */
  invalid: number;
  overUrlLimit: boolean;
  overSizeLimit: boolean;
  /** A person-readable error ("timeout", "not a sitemap", "HTTP 404"...), or null. Redirects are followed (as robots.txt's). */
  error: string | null;
}

export type JobResult = PageFetchResult | RobotsFetchResult | SitemapFetchResult;

export interface ThreadStepReport {
  threadId: number;
  jobId: number;
  step: 'fetching' | 'processing' | 'rendering';
  /** The processor of the chain the thread is in (shared/processors.ts), e.g. "fetch-http" or "extract-html". */
  processor: string;
  bytes: number;
}

/** RFC 9309: crawlers should follow at least five consecutive redirects for robots.txt (so a robots job fetches up to six times). */
export const ROBOTS_MAX_REDIRECTS = 5;

/**
 * Workers batch step reports on this period: a UI shows about ten updates a second, so a step shorter than
 * this is never worth a message, and a fast crawl does not pay an IPC write per step.
 */
export const STEP_REPORT_MS = 100;

/**
 * Where the engine puts NODE_EXTRA_CA_CERTS for a worker it forks: Node reads that variable's certificates at the
 * start of every process, before any code runs (about 35 ms of a worker's start-up, on the way to the crawl's
 * first fetch), and the worker adds them to Node's roots itself at its first https connection
 * (electron/worker/tls-roots.ts).
 */
export const WORKER_EXTRA_CA_ENV = 'TRAWL_EXTRA_CA_CERTS';

export type ParentToWorker =
  | { t: 'init'; workerName: string; settings: CrawlSettings }
  | { t: 'job'; job: Job }
  /** The answer to a worker's render request. */
  | { t: 'rendered'; requestId: number; result: RenderResult }
  | { t: 'shutdown' };

export type WorkerToParent =
  | { t: 'ready'; pid: number }
  /** Current steps of the worker's busy threads, sent at most every STEP_REPORT_MS, only what changed. */
  | { t: 'steps'; steps: ThreadStepReport[] }
  | { t: 'result'; result: JobResult }
  /** A thread's page to render: the browsers are the engine's (one render pool for the crawl), answered by 'rendered'. */
  | { t: 'render'; requestId: number; threadId: number; jobId: number; request: RenderRequest }
  | { t: 'fatal'; message: string };
