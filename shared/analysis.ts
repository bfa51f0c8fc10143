// The analyst workbench's side of the CrawlerApi: the Results explorer's filters, a URL's detail, the queue
// inspector, the hosts report, the charts and crawl comparison, as the renderer sees them. The engine computes
// them in SQL (electron/engine/analysis); its answers are these shapes (crawl-session.ts is typed against them,
// so the compiler holds the two together). No node:, no electron: the renderer imports this.
import type { ExplorerRow, ResultSortColumn } from './results.ts';

// The charts, the crawl comparison and a URL's detail have modules of their own; they are part of the same workbench.
export * from './charts.ts';
export * from './comparison.ts';
export * from './url-detail.ts';
export * from './structure.ts';
export type { ExplorerRow, ImageUse } from './results.ts';

// ---- Results explorer ----

export const FILTER_GROUPS = [
  { id: 'internal', label: 'Internal' },
  { id: 'response', label: 'Response codes' },
  { id: 'title', label: 'Page titles' },
  { id: 'description', label: 'Meta description' },
  { id: 'h1', label: 'H1' },
  { id: 'canonical', label: 'Canonicals' },
  { id: 'directives', label: 'Directives' },
  { id: 'indexability', label: 'Indexability' },
  { id: 'external', label: 'External' },
  { id: 'security', label: 'Security' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'sitemaps', label: 'Sitemaps' },
  // Issue 18.3: the images pages use (rows are uses: an image and the page using it).
  { id: 'images', label: 'Images' },
  // Issue 18.4.
  { id: 'structured', label: 'Structured data' },
  // Issue 18.5.
  { id: 'hreflang', label: 'Hreflang' },
  // Duplicate content (issue 18.1).
  { id: 'content', label: 'Content' },
] as const;
export type FilterGroupId = (typeof FILTER_GROUPS)[number]['id'];

export interface FilterInfo {
  id: string;
  group: FilterGroupId;
  label: string;
  /** One sentence for a tooltip: what the filter lists. */
  description: string;
}

/** Every filter, in display order. */
export const RESULT_FILTERS = [
  { id: 'all', group: 'internal', label: 'All', description: 'Every URL fetched: pages, resources checked, redirect hops and errors.' },
  {
    id: 'html',
    group: 'internal',
    label: 'HTML',
    description: 'Responses of media type text/html or application/xhtml+xml, whatever their status.',
  },
  { id: 'status-2xx', group: 'response', label: 'Success (2xx)', description: 'Status 200 to 299.' },
  { id: 'status-3xx', group: 'response', label: 'Redirection (3xx)', description: 'Status 300 to 399.' },
  { id: 'status-4xx', group: 'response', label: 'Client error (4xx)', description: 'Status 400 to 499.' },
  { id: 'status-5xx', group: 'response', label: 'Server error (5xx)', description: 'Status 500 to 599.' },
  {
    id: 'status-none',
    group: 'response',
    label: 'No response',
    description: 'No response at all: network errors, timeouts, blocked by robots.txt.',
  },
  {
    id: 'broken-internal',
    group: 'response',
    label: 'Broken internal links',
    description: 'URLs in the scope that answered 4xx or 5xx or did not answer, and that crawled pages link to.',
  },
  {
    id: 'redirect-chain',
    group: 'response',
    label: 'Redirect chains',
    description: 'Redirects whose target redirects again: each hop of a chain of two or more but the last.',
  },
  {
    id: 'redirect-loop',
    group: 'response',
    label: 'Redirect loops',
    description: 'Redirects back to a URL of their own chain (recorded with the error "redirect loop").',
  },
  { id: 'title-missing', group: 'title', label: 'Missing', description: 'Parsed HTML pages without a title, or with an empty one.' },
  { id: 'title-duplicate', group: 'title', label: 'Duplicate', description: 'Parsed HTML pages whose title another parsed page has too.' },
  {
    id: 'title-over-60',
    group: 'title',
    label: 'Over 60 characters',
    description: 'Parsed HTML pages whose title is longer than 60 characters.',
  },
  {
    id: 'title-under-30',
    group: 'title',
    label: 'Below 30 characters',
    description: 'Parsed HTML pages whose title is shorter than 30 characters (not empty).',
  },
  {
    id: 'title-over-561px',
    group: 'title',
    label: 'Over 561 pixels',
    description: 'Parsed HTML pages whose title is wider than 561 pixels in Arial at 20 px: cut in search results.',
  },
  {
    id: 'title-under-200px',
    group: 'title',
    label: 'Below 200 pixels',
    description: 'Parsed HTML pages whose title is narrower than 200 pixels in Arial at 20 px (not empty).',
  },
  {
    id: 'description-missing',
    group: 'description',
    label: 'Missing',
    description: 'Parsed HTML pages without a meta description, or with an empty one.',
  },
  {
    id: 'description-duplicate',
    group: 'description',
    label: 'Duplicate',
    description: 'Parsed HTML pages whose meta description another parsed page has too.',
  },
  {
    id: 'description-over-155',
    group: 'description',
    label: 'Over 155 characters',
    description: 'Parsed HTML pages whose meta description is longer than 155 characters.',
  },
  {
    id: 'description-under-70',
    group: 'description',
    label: 'Below 70 characters',
    description: 'Parsed HTML pages whose meta description is shorter than 70 characters (not empty).',
  },
  {
    id: 'description-over-985px',
    group: 'description',
    label: 'Over 985 pixels',
    description: 'Parsed HTML pages whose meta description is wider than 985 pixels in Arial at 14 px: cut in search results.',
  },
  {
    id: 'description-under-400px',
    group: 'description',
    label: 'Below 400 pixels',
    description: 'Parsed HTML pages whose meta description is narrower than 400 pixels in Arial at 14 px (not empty).',
  },
  { id: 'h1-missing', group: 'h1', label: 'Missing', description: 'Parsed HTML pages without an h1.' },
  { id: 'h1-multiple', group: 'h1', label: 'Multiple', description: 'Parsed HTML pages with more than one h1.' },
  {
    id: 'canonical-self',
    group: 'canonical',
    label: 'Self-referencing',
    description: 'Parsed HTML pages whose canonical link names the page itself.',
  },
  {
    id: 'canonical-elsewhere',
    group: 'canonical',
    label: 'Canonicalised',
    description: 'Parsed HTML pages whose canonical link names another URL.',
  },
  { id: 'canonical-missing', group: 'canonical', label: 'Missing', description: 'Parsed HTML pages without a canonical link.' },
  {
    id: 'canonical-non-indexable',
    group: 'canonical',
    label: 'Non-indexable canonical',
    description:
      'Parsed HTML pages whose canonical link names another crawled URL that cannot be indexed (an error, a redirect, noindex...).',
  },
  { id: 'directive-noindex', group: 'directives', label: 'Noindex', description: 'Meta robots or X-Robots-Tag says noindex (or none).' },
  { id: 'directive-nofollow', group: 'directives', label: 'Nofollow', description: 'Meta robots or X-Robots-Tag says nofollow (or none).' },
  { id: 'indexable', group: 'indexability', label: 'Indexable', description: 'Pages a search engine can index.' },
  {
    id: 'non-indexable',
    group: 'indexability',
    label: 'Non-indexable',
    description: 'Pages a search engine cannot index; the reason is in indexability_reason.',
  },
  {
    id: 'external',
    group: 'external',
    label: 'Outside the scope',
    description:
      'URLs linked to outside the crawl\u2019s scope (other hosts, excluded or too long), and out-of-scope links checked for their status; with their inlinks.',
  },
  {
    id: 'mixed-content',
    group: 'security',
    label: 'Mixed content',
    description: 'HTTPS pages that load an image, a script, a stylesheet, an iframe or media over plain HTTP.',
  },
  // Security (issue 18.5): parsed HTML pages, from the headers of their response and their HTML.
  { id: 'security-http', group: 'security', label: 'HTTP pages', description: 'HTML pages served over plain HTTP, not HTTPS.' },
  {
    id: 'security-no-hsts',
    group: 'security',
    label: 'Missing HSTS',
    description: 'HTTPS HTML pages without a Strict-Transport-Security header (or with max-age=0).',
  },
  {
    id: 'security-no-csp',
    group: 'security',
    label: 'Missing Content-Security-Policy',
    description: 'HTML pages without a Content-Security-Policy header.',
  },
  {
    id: 'security-no-nosniff',
    group: 'security',
    label: 'Missing X-Content-Type-Options',
    description: 'HTML pages whose X-Content-Type-Options header is missing or not "nosniff".',
  },
  {
    id: 'security-no-frame-options',
    group: 'security',
    label: 'Missing X-Frame-Options',
    description: 'HTML pages with neither X-Frame-Options (DENY or SAMEORIGIN) nor a CSP frame-ancestors directive.',
  },
  {
    id: 'security-unsafe-links',
    group: 'security',
    label: 'Unsafe cross-origin links',
    description: 'HTML pages with a target="_blank" link to another origin without rel="noopener" or "noreferrer".',
  },
  // Raw versus rendered (a crawl with settings.render): shown only when the crawl rendered pages (js-rendered > 0).
  { id: 'js-rendered', group: 'javascript', label: 'Rendered', description: 'Pages rendered with JavaScript (their scripts run).' },
  {
    id: 'js-rendered-links',
    group: 'javascript',
    label: 'Links only in rendered HTML',
    description: 'Rendered pages with links that only the rendered DOM has, not the raw HTML.',
  },
  {
    id: 'js-title-changed',
    group: 'javascript',
    label: 'Title changed by JavaScript',
    description: 'Rendered pages whose rendered title differs from the raw HTML\u2019s.',
  },
  {
    id: 'js-description-changed',
    group: 'javascript',
    label: 'Meta description changed by JavaScript',
    description: 'Rendered pages whose rendered meta description differs from the raw HTML\u2019s.',
  },
  {
    id: 'js-canonical-changed',
    group: 'javascript',
    label: 'Canonical changed by JavaScript',
    description: 'Rendered pages whose rendered canonical link differs from the raw HTML\u2019s.',
  },
  {
    id: 'js-robots-changed',
    group: 'javascript',
    label: 'Robots directives changed by JavaScript',
    description: 'Rendered pages whose rendered meta robots differs from the raw HTML\u2019s.',
  },
  {
    id: 'js-noindex-rendered',
    group: 'javascript',
    label: 'Noindex only in rendered HTML',
    description: 'Rendered pages that say noindex (or none) after their scripts ran, and not in the raw HTML or X-Robots-Tag.',
  },
  {
    id: 'js-errors',
    group: 'javascript',
    label: 'JavaScript errors',
    description: 'Rendered pages with console errors or uncaught exceptions.',
  },
  {
    id: 'js-blocked',
    group: 'javascript',
    label: 'Blocked resources',
    description: 'Rendered pages with resource requests blocked (robots.txt, blocked patterns).',
  },
  {
    id: 'js-render-failed',
    group: 'javascript',
    label: 'Render failed',
    description: 'Pages whose render failed or was cut (a timeout, a crash); their raw fields stand.',
  },
  {
    id: 'js-redirect',
    group: 'javascript',
    label: 'JavaScript redirects',
    description: 'Rendered pages whose script changed the location: a redirect of kind javascript.',
  },
  {
    id: 'sitemap-urls',
    group: 'sitemaps',
    label: 'In a sitemap',
    description: 'URLs listed in a sitemap the crawl read, crawled or not.',
  },
  {
    id: 'sitemap-missing',
    group: 'sitemaps',
    label: 'Not in a sitemap',
    description: 'Indexable pages in no sitemap the crawl read (none when no sitemap was read).',
  },
  {
    id: 'sitemap-orphans',
    group: 'sitemaps',
    label: 'Orphan URLs',
    description: 'URLs in a sitemap that no crawled page links to (seeds and URLs outside the scope left out).',
  },
  {
    id: 'sitemap-non-indexable',
    group: 'sitemaps',
    label: 'Non-indexable in a sitemap',
    description: 'URLs in a sitemap that are errors, redirects, noindex or canonicalised elsewhere.',
  },
  {
    id: 'sitemap-multiple',
    group: 'sitemaps',
    label: 'In more than one sitemap',
    description: 'URLs listed by two or more sitemaps.',
  },
  {
    id: 'sitemap-over-limit',
    group: 'sitemaps',
    label: 'Sitemaps over the limits',
    description: 'Sitemaps past 50,000 URLs or 50 MB uncompressed (read up to the limit), with the reason in the error column.',
  },
  {
    id: 'sitemap-outside-scope',
    group: 'sitemaps',
    label: 'Outside the scope',
    description: "URLs a sitemap lists that are outside the crawl's scope.",
  },
  {
    id: 'sitemap-hreflang',
    group: 'sitemaps',
    label: 'Hreflang in sitemaps',
    description: 'URLs whose sitemap entry has hreflang alternates (xhtml:link).',
  },
  // Images (issue 18.3): one row per use of an image on a page (the image, the page using it, its alt and dimensions);
  // size and status are the image's own when the crawl checks images (checkResources), else shown as not checked.
  {
    id: 'images-all',
    group: 'images',
    label: 'All images',
    description: 'Every image a crawled page uses (img src, srcset, picture sources), per page.',
  },
  {
    id: 'images-alt-missing',
    group: 'images',
    label: 'Missing alt text',
    description: 'Images used without an alt attribute, with the page using them.',
  },
  {
    id: 'images-alt-empty',
    group: 'images',
    label: 'Empty alt text',
    description: 'Images used with an empty alt attribute (alt=""): right for a decorative image, wrong for one that says something.',
  },
  {
    id: 'images-alt-over-100',
    group: 'images',
    label: 'Alt text over 100 characters',
    description: 'Images whose alt text is longer than 100 characters.',
  },
  {
    id: 'images-over-100kb',
    group: 'images',
    label: 'Over 100 KB',
    description: 'Images larger than 100 KB (102,400 bytes) on the wire; only images the crawl checked (check resources: images).',
  },
  {
    id: 'images-broken',
    group: 'images',
    label: 'Broken images',
    description: 'Images that answered 4xx or 5xx or did not answer; only images the crawl checked (check resources: images).',
  },
  {
    id: 'images-no-dimensions',
    group: 'images',
    label: 'Without width and height',
    description: 'Images used without a width or a height attribute (the page shifts as they load).',
  },
  // Structured data and social tags (issue 18.4): parsed HTML pages.
  {
    id: 'structured-jsonld-errors',
    group: 'structured',
    label: 'JSON-LD parse errors',
    description: "Pages with a JSON-LD block that is not valid JSON (or too large to read); the parser's message is in the detail pane.",
  },
  {
    id: 'structured-none',
    group: 'structured',
    label: 'No structured data',
    description: 'Parsed HTML pages without any JSON-LD, microdata or RDFa.',
  },
  { id: 'structured-jsonld', group: 'structured', label: 'JSON-LD', description: 'Pages with at least one JSON-LD block.' },
  { id: 'structured-microdata', group: 'structured', label: 'Microdata', description: 'Pages with microdata items (itemscope).' },
  { id: 'structured-rdfa', group: 'structured', label: 'RDFa', description: 'Pages with RDFa types (typeof).' },
  {
    id: 'structured-og-missing',
    group: 'structured',
    label: 'Missing Open Graph tags',
    description: 'Parsed HTML pages without og:title or without og:image.',
  },
  {
    id: 'structured-twitter-missing',
    group: 'structured',
    label: 'Missing Twitter card',
    description: 'Parsed HTML pages without a twitter:card tag.',
  },
  // Hreflang (issue 18.5): pages by the <link rel="alternate" hreflang> alternates they name.
  {
    id: 'hreflang-pages',
    group: 'hreflang',
    label: 'Contains hreflang',
    description: 'Pages that name hreflang alternates.',
  },
  {
    id: 'hreflang-missing-return',
    group: 'hreflang',
    label: 'Missing return links',
    description: 'Pages naming an alternate that was crawled and read but does not name the page back.',
  },
  {
    id: 'hreflang-non-200',
    group: 'hreflang',
    label: 'Non-200 alternates',
    description: 'Pages naming an alternate that was crawled and answered other than 200 (a redirect, an error, no answer).',
  },
  {
    id: 'hreflang-invalid',
    group: 'hreflang',
    label: 'Invalid language codes',
    description:
      'Pages with an hreflang value that is not an ISO 639-1 language, optionally with a script and an ISO 3166-1 region, or x-default.',
  },
  {
    id: 'hreflang-no-x-default',
    group: 'hreflang',
    label: 'Missing x-default',
    description: 'Pages with hreflang alternates but none for x-default.',
  },
  {
    id: 'hreflang-no-self',
    group: 'hreflang',
    label: 'Missing self-reference',
    description: 'Pages with hreflang alternates that do not name the page itself.',
  },
  {
    id: 'hreflang-non-indexable',
    group: 'hreflang',
    label: 'Non-indexable alternates',
    description: 'Pages naming an alternate that answered 200 but cannot be indexed (noindex, canonicalised elsewhere).',
  },
  // Duplicate content (issue 18.1): over the main text (nav, header and footer left out by default), indexable pages
  // unless the analysis is set to compare every page; the threshold and word count are the analysis's settings.
  {
    id: 'content-exact-duplicates',
    group: 'content',
    label: 'Exact duplicates',
    description: 'Pages whose main text is the same as another page’s (case, spacing and punctuation aside).',
  },
  {
    id: 'content-near-duplicates',
    group: 'content',
    label: 'Near duplicates',
    description: 'Pages whose main text is at least the threshold (90% by default) similar to another page’s, not identical.',
  },
  {
    id: 'content-low',
    group: 'content',
    label: 'Low content',
    description: 'Pages with fewer main-text words than the threshold (200 by default).',
  },
] as const satisfies readonly FilterInfo[];
export type FilterId = (typeof RESULT_FILTERS)[number]['id'];
export const FILTER_IDS: readonly FilterId[] = RESULT_FILTERS.map((f) => f.id);

export type FilterCounts = Record<FilterId, number>;

export interface ExplorerQuery {
  filter: FilterId;
  /** Case-insensitive text found in the URL, title or error. */
  text: string;
  /** Only URLs starting with it, exactly: a folder of the site-structure view ("https://example.com/docs/"). */
  prefix?: string | undefined;
  sort: ResultSortColumn;
  descending: boolean;
  offset: number;
  limit: number;
}

export interface ExplorerPage {
  filter: FilterId;
  total: number;
  offset: number;
  rows: ExplorerRow[];
  /** The crawl's custom extraction rules, by name: columns the export can have. */
  extractionRules: string[];
  /**
   * The rows' Link Scores are still being computed (a crawl's first, at a million URLs seconds): they show none (or
   * the last ones) until the page is asked for again.
   */
  scoresPending?: boolean;
}

/**
 * The export's columns, in order, declared once: the CSV header name (`id`, also what the export command takes),
 * the label the column choosers show, and, for the columns that have one, the header Screaming Frog writes (the
 * Screaming Frog preset: electron/engine/export/csv-writer.ts). Extraction rules come after, under their names.
 */
export const EXPORT_COLUMN_INFO = [
  { id: 'url', label: 'URL', sf: 'Address' },
  { id: 'kind', label: 'Kind (page, image, script, stylesheet)' },
  { id: 'status_code', label: 'Status code', sf: 'Status Code' },
  { id: 'content_type', label: 'Content type', sf: 'Content Type' },
  { id: 'size_bytes', label: 'Size (bytes)', sf: 'Size (bytes)' },
  { id: 'response_time_ms', label: 'Response time (ms)', sf: 'Response Time' },
  { id: 'crawl_depth', label: 'Crawl depth', sf: 'Crawl Depth' },
  { id: 'indexability', label: 'Indexability', sf: 'Indexability' },
  { id: 'indexability_reason', label: 'Why not indexable', sf: 'Indexability Status' },
  { id: 'title', label: 'Title', sf: 'Title 1' },
  { id: 'meta_description', label: 'Meta description', sf: 'Meta Description 1' },
  { id: 'h1', label: 'H1', sf: 'H1-1' },
  { id: 'h1_count', label: 'H1 count' },
  { id: 'h2', label: 'H2', sf: 'H2-1' },
  { id: 'h2_count', label: 'H2 count' },
  { id: 'canonical', label: 'Canonical link', sf: 'Canonical Link Element 1' },
  { id: 'lang', label: 'Language', sf: 'Language' },
  { id: 'hreflang', label: 'Hreflang alternates' },
  { id: 'meta_robots', label: 'Meta robots', sf: 'Meta Robots 1' },
  { id: 'x_robots_tag', label: 'X-Robots-Tag', sf: 'X-Robots-Tag 1' },
  { id: 'meta_refresh', label: 'Meta refresh', sf: 'Meta Refresh 1' },
  { id: 'word_count', label: 'Word count', sf: 'Word Count' },
  { id: 'inlinks', label: 'Inlinks', sf: 'Inlinks' },
  { id: 'unique_inlinks', label: 'Unique inlinks (followed, from other pages)', sf: 'Unique Inlinks' },
  { id: 'link_score', label: 'Link Score (0-100)', sf: 'Link Score' },
  { id: 'outlinks', label: 'Outlinks', sf: 'Outlinks' },
  { id: 'redirect_url', label: 'Redirect URL', sf: 'Redirect URL' },
  { id: 'attempts', label: 'Fetch attempts' },
  { id: 'robots_disallowed', label: 'Disallowed by robots.txt (fetched anyway)' },
  { id: 'error', label: 'Error' },
] as const satisfies readonly { id: string; label: string; sf?: string }[];
export type ExportColumn = (typeof EXPORT_COLUMN_INFO)[number]['id'];
/** The export's columns' CSV names, in order (the CSV's, electron/engine/export/csv-export.ts). */
export const EXPORT_COLUMNS: readonly ExportColumn[] = EXPORT_COLUMN_INFO.map((c) => c.id);
/**
 * The columns of a rendered crawl's export (after EXPORT_COLUMN_INFO's, before the extraction rules), present only
 * when the crawl rendered pages: the raw HTML's fields (a rendered page's own columns, title, meta_description...,
 * hold its rendered values, named as Screaming Frog names them), and what the render found (the lists as counts).
 * Empty for a row that was not rendered. `sf`: a Screaming Frog header for the same value, where it has one (none of
 * these has: they keep Trawl's).
 */
export const RENDER_EXPORT_COLUMN_INFO = [
  { id: 'raw_title', label: 'Raw HTML title' },
  { id: 'raw_meta_description', label: 'Raw HTML meta description' },
  { id: 'raw_h1', label: 'Raw HTML H1' },
  { id: 'raw_h1_count', label: 'Raw HTML H1 count' },
  { id: 'raw_h2', label: 'Raw HTML H2' },
  { id: 'raw_h2_count', label: 'Raw HTML H2 count' },
  { id: 'raw_canonical', label: 'Raw HTML canonical link' },
  { id: 'raw_meta_robots', label: 'Raw HTML meta robots' },
  { id: 'raw_lang', label: 'Raw HTML language' },
  { id: 'raw_hreflang', label: 'Raw HTML hreflang' },
  { id: 'raw_word_count', label: 'Raw HTML word count' },
  { id: 'rendered_links', label: 'Links only in rendered HTML' },
  { id: 'js_redirect', label: 'JavaScript redirect' },
  { id: 'raw_indexability', label: 'Raw HTML indexability (where it differs)' },
  { id: 'render_ms', label: 'Render time (ms)' },
  { id: 'render_error', label: 'Render error' },
  { id: 'console_errors', label: 'Console errors' },
  { id: 'page_errors', label: 'Uncaught exceptions' },
  { id: 'failed_resources', label: 'Failed resources' },
  { id: 'blocked_resources', label: 'Blocked resources' },
] as const satisfies readonly { id: string; label: string; sf?: string }[];
export type RenderExportColumn = (typeof RENDER_EXPORT_COLUMN_INFO)[number]['id'];
/**
 * Duplicate content's columns (issue 18.1), in the exports of the content filters (after the render columns): the
 * page's main-text words, how many pages share its main text, its closest near-duplicate and their similarity (%).
 */
export const CONTENT_EXPORT_COLUMN_INFO = [
  { id: 'main_words', label: 'Main-text words' },
  { id: 'exact_duplicates', label: 'Pages with the same main text' },
  { id: 'near_match_url', label: 'Closest near duplicate' },
  { id: 'near_similarity', label: 'Near-duplicate similarity (%)' },
] as const satisfies readonly { id: string; label: string; sf?: string }[];
export type ContentExportColumn = (typeof CONTENT_EXPORT_COLUMN_INFO)[number]['id'];
export const CONTENT_EXPORT_COLUMNS: readonly ContentExportColumn[] = CONTENT_EXPORT_COLUMN_INFO.map((c) => c.id);
/** The filters whose views carry the content columns. */
export const CONTENT_FILTERS = ['content-exact-duplicates', 'content-near-duplicates', 'content-low'] as const;
export const isContentFilter = (filter: string): boolean => (CONTENT_FILTERS as readonly string[]).includes(filter);
export const RENDER_EXPORT_COLUMNS: readonly RenderExportColumn[] = RENDER_EXPORT_COLUMN_INFO.map((c) => c.id);
const EXPORT_LABELS: ReadonlyMap<string, string> = new Map(
  [...EXPORT_COLUMN_INFO, ...RENDER_EXPORT_COLUMN_INFO, ...CONTENT_EXPORT_COLUMN_INFO].map((c) => [c.id, c.label]),
);
/** A column as a person reads it: its label, or the name itself (an extraction rule's). */
export const exportColumnLabel = (column: string): string => EXPORT_LABELS.get(column) ?? column;
export const HEADER_PRESETS = ['trawl', 'screaming-frog'] as const;
export type HeaderPreset = (typeof HEADER_PRESETS)[number];

/** A view of the results to export: a filter, a text, the columns in order, and the header names. */
export interface ViewExport {
  filter: FilterId;
  text: string;
  columns: string[];
  headerPreset: HeaderPreset;
  /** The file's format: CSV (the default) or an XLSX workbook. */
  format?: ExportFormat;
}

/** The formats an export is written in: CSV, or an XLSX workbook (typed numbers, a frozen header row, a filter). */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// ---- queue inspector ----

export interface QueueHost {
  host_id: number;
  origin: string;
  queued: number;
  in_flight: number;
  /** Epoch ms before which the host is not fetched (politeness, a retry's backoff, robots.txt); null while held. */
  next_fetch_at: number | null;
}

export interface QueueHostsPage {
  /** Hosts with URLs queued (matching the text, when given). */
  total: number;
  /** URLs queued over all hosts. */
  queued: number;
  offset: number;
  rows: QueueHost[];
}

export interface QueueHostsQuery {
  offset: number;
  limit: number;
  text: string;
}

export interface PrefixGroup {
  /** A directory of the host's paths, at most `segments` deep: "/", "/docs/", "/docs/api/". */
  prefix: string;
  count: number;
  /** Of them, pushed back by "Later" (deprioritised): fetched after the host's other URLs. */
  deprioritised?: number;
}

export interface PrefixGroups {
  host_id: number;
  origin: string;
  /** URLs queued on the host (hosts.queued). */
  queued: number;
  /** URLs counted (those under `under`, when given). */
  counted: number;
  groups: PrefixGroup[];
  /** More groups than the limit: the smallest are left out. */
  truncated: boolean;
}

export interface PrefixQuery {
  hostId: number;
  segments: 1 | 2;
  /** Count only paths that start with this ("/docs/"); null for the whole host. */
  under: string | null;
  limit: number;
}

export interface QueuedUrl {
  url_id: number;
  url: string;
  host_id: number;
  depth: number;
  /** page, image, script or stylesheet. */
  kind: string;
  /** Fetched for its status only. */
  check_only: boolean;
  /** Fetches made so far (a retry waiting has 1 or more). */
  attempts: number;
  /** Pushed back by "Later" (deprioritised): fetched after the host's other URLs. */
  later?: boolean;
  discovered_at: number;
}

/** Where a search page ended: pass as `after` for the next page. */
export interface QueueCursor {
  host_id: number;
  url_id: number;
}

export interface QueueSearchPage {
  rows: QueuedUrl[];
  next: QueueCursor | null;
}

export interface QueueSearchQuery {
  text: string;
  hostId: number | null;
  under: string | null;
  after: QueueCursor | null;
  limit: number;
}

/** What the queue inspector shows at once: the hosts, the chosen host's prefixes and a page of URLs, from one read. */
export interface QueueScreenQuery {
  /** The chosen host, or null for none. */
  hostId: number | null;
  /** The chosen prefix of that host ("/docs/"), or null for the whole host. */
  under: string | null;
  text: string;
  /** URLs listed at most. */
  limit: number;
}

/**
 * One consistent read of the queue: the header's total, every host row, the prefixes and the URLs agree with each
 * other (the crawl moves on between two reads, never within one).
 */
export interface QueueScreen {
  hosts: QueueHostsPage;
  /** The chosen host's queue by prefix (null with no host chosen, or when it is gone). */
  prefixes: PrefixGroups | null;
  /** Queued URLs (of the chosen host, under the chosen prefix, containing the text), in discovery order. */
  urls: QueueSearchPage;
  /** How many URLs the list's criteria match in all (the list shows the first `limit`). */
  matching: number;
}

// ---- hosts report ----

export const HOST_SORT_COLUMNS = ['origin', 'crawled', 'failed', 'errors', 'bytes', 'queued', 'in_flight', 'next_fetch_at'] as const;
export type HostSortColumn = (typeof HOST_SORT_COLUMNS)[number];

/**
 * idle: nothing queued or in flight; ready: may be fetched now; waiting: its politeness delay, a retry's backoff
 * or a robots.txt retry is running (wait_ms says how long); busy: one fetch at a time and that one is in flight.
 */
export type PolitenessState = 'idle' | 'ready' | 'waiting' | 'busy';

export interface HostReportRow {
  host_id: number;
  origin: string;
  /** URLs fetched with a response (any status). */
  crawled: number;
  /** URLs ended without a response (network errors, blocked by robots.txt, crashed). */
  failed: number;
  /** Responses with a status of 400 or more. */
  http_errors: number;
  /** failed + http_errors: rows without a status or with a status of 400 or more. */
  errors: number;
  /** Bytes of the bodies read. */
  bytes: number;
  queued: number;
  in_flight: number;
  politeness: {
    state: PolitenessState;
    /** Epoch ms of the next fetch allowed; null while held by a fetch in flight. */
    next_fetch_at: number | null;
    wait_ms: number;
    /** robots.txt Crawl-delay (capped), in ms. */
    crawl_delay_ms: number;
    /** How long the host's last fetch took, in ms (the polite delay is a multiple of it). */
    last_fetch_ms: number | null;
  };
  robots: {
    state: 'unknown' | 'fetching' | 'known';
    /** robots.txt's status; null when it got no response (or was not fetched yet). */
    status: number | null;
    error: string | null;
    /** Failed fetches (5xx or no response) so far; after the crawl's maxAttempts the host is blocked. */
    failures: number;
  };
}

export interface HostsReportQuery {
  sort: HostSortColumn;
  descending: boolean;
  offset: number;
  limit: number;
  text: string;
  includeIdle: boolean;
}

export interface HostsReport {
  /** Hosts matching, whatever the offset. */
  total: number;
  offset: number;
  rows: HostReportRow[];
  /** Sums over the hosts matching. */
  totals: { crawled: number; failed: number; errors: number; bytes: number; queued: number; in_flight: number };
}
