// The issues overview: what an analyst hands to developers, ranked. Each issue is one explorer filter (its count is
// the filter's, its URLs the filter's rows: declared once, in shared/analysis.ts and result-filters.ts), with a
// priority and a type after Screaming Frog's (an issue is an error to fix, a warning may be intended, an
// opportunity is an improvement), and a sentence on why it matters and one on how to fix it (English here, for the
// CSV export and the CLI; the interface names them by id in renderer/src/i18n/*/overview.ts).
// No node:, no electron: the renderer imports this.
import { FILTER_IDS, type FilterId } from './analysis.ts';

export const ISSUE_PRIORITIES = ['high', 'medium', 'low'] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];
export const ISSUE_TYPES = ['issue', 'warning', 'opportunity'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

export interface IssueInfo {
  /** The explorer filter that lists the issue's URLs; also the issue's id (a filter id, so a misspelt one does not compile). */
  id: FilterId;
  priority: IssuePriority;
  type: IssueType;
  /** A short name. */
  label: string;
  /** One sentence: why it matters. */
  why: string;
  /** One sentence: how to fix it. */
  fix: string;
}

/** Every issue, in the order shown within a priority. */
export const ISSUES = [
  {
    id: 'broken-internal',
    priority: 'high',
    type: 'issue',
    label: 'Broken internal links',
    why: 'Links to pages that answer with an error or not at all send visitors and crawlers to a dead end and waste crawl budget.',
    fix: 'Update or remove the links pointing at these URLs (their inlinks are in the detail pane), or restore the pages or redirect them.',
  },
  {
    id: 'redirect-loop',
    priority: 'high',
    type: 'issue',
    label: 'Redirect loops',
    why: 'A redirect that comes back to its own chain never reaches a page: browsers and search engines give up.',
    fix: 'Point each redirect of the loop straight at the final page that should answer.',
  },
  {
    id: 'mixed-content',
    priority: 'high',
    type: 'issue',
    label: 'Mixed content',
    why: 'Browsers block or flag images, scripts and stylesheets loaded over plain HTTP on an HTTPS page, which breaks it or marks it insecure.',
    fix: 'Load every resource of these pages over HTTPS (or with a protocol-relative or relative URL served over HTTPS).',
  },
  {
    id: 'title-missing',
    priority: 'high',
    type: 'issue',
    label: 'Missing titles',
    why: 'The title is the headline of a search result; without one search engines make one up, often badly.',
    fix: 'Give each page a unique, descriptive <title> in its <head>.',
  },
  {
    id: 'canonical-non-indexable',
    priority: 'high',
    type: 'issue',
    label: 'Canonical to a non-indexable URL',
    why: 'A canonical link to a page that cannot be indexed (an error, a redirect, noindex) is likely ignored, or drops the page from the index.',
    fix: 'Point the canonical link at the indexable 200 page that should rank, or at the page itself.',
  },
  {
    id: 'sitemap-non-indexable',
    priority: 'high',
    type: 'issue',
    label: 'Non-indexable URLs in sitemaps',
    why: 'A sitemap should list only the pages to index; errors, redirects and noindex pages in it waste crawling and blur the signal.',
    fix: 'Remove these URLs from the sitemaps, or list their indexable final URLs instead.',
  },
  {
    id: 'directive-noindex',
    priority: 'high',
    type: 'warning',
    label: 'Noindex pages',
    why: 'These pages ask not to be indexed: right for some pages, a disaster when set by mistake.',
    fix: 'Check each is meant to stay out of search results; remove the noindex (meta robots or X-Robots-Tag) where not.',
  },
  {
    id: 'canonical-elsewhere',
    priority: 'high',
    type: 'warning',
    label: 'Canonicalised pages',
    why: 'A page whose canonical names another URL is not indexed itself; when unintended, it disappears from search results.',
    fix: 'Check the canonical of each page: it should name the page itself unless it is truly a copy of the URL named.',
  },
  {
    id: 'js-blocked',
    priority: 'high',
    type: 'warning',
    label: 'Blocked resources',
    why: 'Resources a page needs but a crawler may not fetch can leave its rendered content incomplete to search engines.',
    fix: 'Allow the resources needed to render the pages in robots.txt, or stop loading them.',
  },
  {
    id: 'h1-missing',
    priority: 'medium',
    type: 'issue',
    label: 'Missing H1',
    why: 'The h1 tells readers and search engines what a page is about.',
    fix: 'Give each page one h1 that names its subject.',
  },
  {
    id: 'js-errors',
    priority: 'medium',
    type: 'issue',
    label: 'JavaScript errors',
    why: 'Script errors can leave content, links or metadata out of the page search engines render.',
    fix: 'Fix the errors listed in each page\u2019s render details (console errors and uncaught exceptions).',
  },
  {
    id: 'redirect-chain',
    priority: 'medium',
    type: 'warning',
    label: 'Redirect chains',
    why: 'Each extra hop slows visitors down, and crawlers may stop following a long chain.',
    fix: 'Redirect each URL of the chain straight to its final destination, and update links to point there.',
  },
  {
    id: 'canonical-missing',
    priority: 'medium',
    type: 'warning',
    label: 'Missing canonical',
    why: 'Without a canonical link, search engines pick one URL among duplicates (parameters, case, slashes) themselves.',
    fix: 'Add a self-referencing canonical link to each indexable page.',
  },
  {
    id: 'sitemap-orphans',
    priority: 'medium',
    type: 'warning',
    label: 'Orphan URLs in sitemaps',
    why: 'Pages listed in a sitemap but linked from no crawled page are hard to find and get little weight.',
    fix: 'Link to these pages from relevant pages of the site, or remove them from the sitemaps if they are obsolete.',
  },
  {
    id: 'title-duplicate',
    priority: 'medium',
    type: 'opportunity',
    label: 'Duplicate titles',
    why: 'Pages with the same title compete with each other and are hard to tell apart in search results.',
    fix: 'Write a title for each page that says what is unique about it.',
  },
  {
    id: 'title-over-60',
    priority: 'medium',
    type: 'opportunity',
    label: 'Titles over 60 characters',
    why: 'Long titles are cut in search results, losing their end.',
    fix: 'Shorten the titles, keeping the words that matter first.',
  },
  {
    id: 'title-over-561px',
    priority: 'medium',
    type: 'opportunity',
    label: 'Titles over 561 pixels',
    why: 'Google cuts titles by their width: a title wider than 561 pixels loses its end behind an ellipsis.',
    fix: 'Shorten the titles (wide letters such as W and M count most), keeping the words that matter first.',
  },
  {
    id: 'title-under-30',
    priority: 'medium',
    type: 'opportunity',
    label: 'Titles below 30 characters',
    why: 'A very short title leaves room unused in search results to say what the page offers.',
    fix: 'Write fuller titles that describe the page and its subject.',
  },
  {
    id: 'title-under-200px',
    priority: 'medium',
    type: 'opportunity',
    label: 'Titles below 200 pixels',
    why: 'A narrow title uses little of the space a search result gives it.',
    fix: 'Write fuller titles that describe the page and its subject.',
  },
  {
    id: 'description-missing',
    priority: 'low',
    type: 'opportunity',
    label: 'Missing meta descriptions',
    why: 'Without a description, search engines pick a snippet from the page, which may not sell it.',
    fix: 'Write a meta description for each important page, summing it up in a sentence or two.',
  },
  {
    id: 'description-duplicate',
    priority: 'low',
    type: 'opportunity',
    label: 'Duplicate meta descriptions',
    why: 'The same description on several pages makes their results look alike.',
    fix: 'Write a description for each page that says what is unique about it.',
  },
  {
    id: 'description-over-155',
    priority: 'low',
    type: 'opportunity',
    label: 'Meta descriptions over 155 characters',
    why: 'Long descriptions are cut in search results.',
    fix: 'Shorten the descriptions, the key message first.',
  },
  {
    id: 'description-over-985px',
    priority: 'low',
    type: 'opportunity',
    label: 'Meta descriptions over 985 pixels',
    why: 'Google cuts snippets by their width: a description wider than 985 pixels loses its end.',
    fix: 'Shorten the descriptions, the key message first.',
  },
  {
    id: 'description-under-70',
    priority: 'low',
    type: 'opportunity',
    label: 'Meta descriptions below 70 characters',
    why: 'A very short description says little, and search engines may replace it with text from the page.',
    fix: 'Write fuller descriptions that sum up the page.',
  },
  {
    id: 'description-under-400px',
    priority: 'low',
    type: 'opportunity',
    label: 'Meta descriptions below 400 pixels',
    why: 'A narrow description uses little of the snippet\u2019s space.',
    fix: 'Write fuller descriptions that sum up the page.',
  },
  {
    id: 'h1-multiple',
    priority: 'low',
    type: 'warning',
    label: 'Multiple H1',
    why: 'Several h1 headings blur what the page is mainly about.',
    fix: 'Keep one h1 per page and make the other headings h2 or lower.',
  },
  // Images (issue 18.3): counted in uses of an image on a page.
  {
    id: 'images-broken',
    priority: 'high',
    type: 'issue',
    label: 'Broken images',
    why: 'An image that answers with an error or not at all shows as a broken icon or a gap, and search engines cannot index it.',
    fix: 'Restore the images or point the pages at working ones (each row names the page using the image).',
  },
  {
    id: 'images-alt-missing',
    priority: 'medium',
    type: 'issue',
    label: 'Images missing alt text',
    why: 'Without alt text, screen readers cannot say what an image shows and search engines have less to understand it by.',
    fix: 'Give each image an alt attribute describing it, or alt="" when it is only decoration.',
  },
  {
    id: 'images-over-100kb',
    priority: 'medium',
    type: 'opportunity',
    label: 'Images over 100 KB',
    why: 'Large images slow pages down, above all on mobile connections.',
    fix: 'Compress the images, serve them in a modern format (WebP, AVIF) and at the size they are shown.',
  },
  {
    id: 'images-alt-over-100',
    priority: 'low',
    type: 'opportunity',
    label: 'Alt text over 100 characters',
    why: 'Long alt text is tiring to listen to with a screen reader and reads as keyword stuffing.',
    fix: 'Keep alt text short and to the point; put longer descriptions in the page text.',
  },
  {
    id: 'images-no-dimensions',
    priority: 'low',
    type: 'opportunity',
    label: 'Images without width and height',
    why: 'Without width and height the browser cannot reserve the image\u2019s space, so the page shifts as images load (layout shift).',
    fix: 'Give each img width and height attributes (or a CSS aspect ratio).',
  },
  // Structured data and social tags (issue 18.4).
  {
    id: 'structured-jsonld-errors',
    priority: 'medium',
    type: 'issue',
    label: 'JSON-LD parse errors',
    why: 'Search engines ignore a JSON-LD block that is not valid JSON, so its rich results are lost.',
    fix: 'Fix the JSON at the position the parser names (the detail pane shows it), e.g. a trailing comma or an unescaped quote.',
  },
  // Security and hreflang (issue 18.5).
  {
    id: 'security-http',
    priority: 'high',
    type: 'issue',
    label: 'HTTP pages',
    why: 'Pages served over plain HTTP can be read and changed on the way; browsers mark them "not secure" and search engines prefer HTTPS.',
    fix: 'Serve the site over HTTPS, redirect every HTTP URL to its HTTPS one (301) and link to the HTTPS URLs.',
  },
  {
    id: 'hreflang-missing-return',
    priority: 'high',
    type: 'issue',
    label: 'Hreflang without return links',
    why: 'Search engines ignore an hreflang alternate unless the page it names links back: the language versions are not paired.',
    fix: 'Make every page of an hreflang set name every other page of the set, itself included (the detail pane lists the alternates).',
  },
  {
    id: 'hreflang-non-200',
    priority: 'high',
    type: 'issue',
    label: 'Hreflang to non-200 URLs',
    why: 'An alternate that redirects, fails or answers an error is ignored, and the language version it should point to is lost.',
    fix: 'Point each hreflang link at the final 200 URL of the language version.',
  },
  {
    id: 'hreflang-invalid',
    priority: 'high',
    type: 'issue',
    label: 'Invalid hreflang codes',
    why: 'An hreflang value that is not a valid language (ISO 639-1), with an optional region (ISO 3166-1 alpha-2), is ignored: "en-UK" and "en_US" are common mistakes.',
    fix: 'Use codes such as "en", "en-GB", "zh-Hant-TW" or "x-default".',
  },
  {
    id: 'hreflang-non-indexable',
    priority: 'medium',
    type: 'warning',
    label: 'Hreflang to non-indexable URLs',
    why: 'An alternate that is noindex or canonicalised elsewhere sends mixed signals: search engines may drop the pair.',
    fix: 'Name only indexable, self-canonical URLs as alternates.',
  },
  {
    id: 'hreflang-no-self',
    priority: 'medium',
    type: 'warning',
    label: 'Hreflang without self-reference',
    why: 'Google expects each page of an hreflang set to name itself too; without it the set may be read as incomplete.',
    fix: 'Add an hreflang link for the page\u2019s own language that names the page itself.',
  },
  {
    id: 'security-unsafe-links',
    priority: 'low',
    type: 'warning',
    label: 'Unsafe cross-origin links',
    why: 'A target="_blank" link to another site without rel="noopener" lets the opened page reach back to this one (older browsers) and learn where the visitor came from.',
    fix: 'Add rel="noopener" (or "noreferrer") to links that open another site in a new tab (the detail pane lists them).',
  },
  {
    id: 'hreflang-no-x-default',
    priority: 'low',
    type: 'opportunity',
    label: 'Hreflang without x-default',
    why: 'Without x-default, visitors whose language none of the versions matches get whichever version search engines pick.',
    fix: 'Add an hreflang="x-default" link to the version (or language chooser) for everyone else.',
  },
  {
    id: 'security-no-hsts',
    priority: 'low',
    type: 'warning',
    label: 'Missing HSTS header',
    why: 'Without Strict-Transport-Security, a visitor\u2019s first request can go over plain HTTP and be intercepted.',
    fix: 'Send "Strict-Transport-Security: max-age=31536000" (with includeSubDomains where every subdomain is HTTPS) on HTTPS responses.',
  },
  {
    id: 'security-no-csp',
    priority: 'low',
    type: 'warning',
    label: 'Missing Content-Security-Policy',
    why: 'A Content-Security-Policy limits where scripts and other content may load from, the main defence against cross-site scripting.',
    fix: 'Send a Content-Security-Policy header listing the sources the pages need (try it first as Content-Security-Policy-Report-Only).',
  },
  {
    id: 'security-no-nosniff',
    priority: 'low',
    type: 'warning',
    label: 'Missing X-Content-Type-Options',
    why: 'Without "nosniff", browsers may guess a response\u2019s type and run a file as a script or stylesheet it was not meant to be.',
    fix: 'Send "X-Content-Type-Options: nosniff" on every response.',
  },
  {
    id: 'security-no-frame-options',
    priority: 'low',
    type: 'warning',
    label: 'Missing X-Frame-Options',
    why: 'A page any site may put in a frame can be overlaid to trick visitors into clicks (clickjacking).',
    fix: 'Send "X-Frame-Options: SAMEORIGIN" (or DENY), or a Content-Security-Policy with a frame-ancestors directive.',
  },
  // Duplicate content (issue 18.1).
  {
    id: 'content-exact-duplicates',
    priority: 'high',
    type: 'issue',
    label: 'Exact duplicate content',
    why: 'Pages with the same main text compete with each other in search results, and search engines pick one of them to show, not necessarily yours.',
    fix: 'Merge the pages, redirect the copies to the one to keep, or point their canonical link at it.',
  },
  {
    id: 'content-near-duplicates',
    priority: 'medium',
    type: 'warning',
    label: 'Near-duplicate content',
    why: 'Pages whose main text is nearly the same look like thin variations of each other and split their relevance and links.',
    fix: 'Make each page’s content distinct (the detail pane shows what differs), or merge them and point the canonical link at one.',
  },
  {
    id: 'content-low',
    priority: 'low',
    type: 'opportunity',
    label: 'Low content pages',
    why: 'Pages with little main text give search engines and visitors little reason to choose them.',
    fix: 'Add useful text to the page, or merge it into a fuller page, or keep it out of the index if it is not meant to rank.',
  },
] as const satisfies readonly IssueInfo[];
export type IssueId = (typeof ISSUES)[number]['id'];

/** One issue found: its declaration and the number of URLs its filter lists. */
export interface IssueCount {
  id: IssueId;
  /** The explorer filter listing the URLs (the same id). */
  filter: FilterId;
  priority: IssuePriority;
  type: IssueType;
  count: number;
}

/** The overview of a crawl: every issue this build checks, with its count (0: none found). */
export interface IssuesOverview {
  issues: IssueCount[];
}

const known = new Set<string>(FILTER_IDS);
/** The issues this build can count: those whose filter exists (the sitemap ones only with the sitemap audit). */
export const CHECKED_ISSUES = ISSUES.filter((i) => known.has(i.id));
/** The filters the overview counts. */
export const ISSUE_FILTERS = CHECKED_ISSUES.map((i) => i.id as string as FilterId);

const RANK: Record<IssuePriority, number> = { high: 0, medium: 1, low: 2 };
/** The issues found (count above 0), high priority first, then in declaration order. */
export function issuesFound(overview: IssuesOverview): IssueCount[] {
  const order = new Map<string, number>(ISSUES.map((i, n) => [i.id, n]));
  return overview.issues
    .filter((i) => i.count > 0)
    .sort((a, b) => RANK[a.priority] - RANK[b.priority] || order.get(a.id)! - order.get(b.id)!);
}

/** The overview from the filters' counts. */
export function overviewOf(counts: Partial<Record<FilterId, number>>): IssuesOverview {
  return {
    issues: CHECKED_ISSUES.map((i) => ({
      id: i.id,
      filter: i.id as string as FilterId,
      priority: i.priority,
      type: i.type,
      count: counts[i.id as string as FilterId] ?? 0,
    })),
  };
}

/** The overview's export columns (CSV header names), in order. */
export const OVERVIEW_COLUMNS = ['issue', 'type', 'priority', 'urls', 'why', 'how_to_fix', 'filter'] as const;

/** The overview's rows as the export writes them: the issues found, in English. */
export function overviewRows(overview: IssuesOverview): (string | number)[][] {
  const info = new Map<string, IssueInfo>(ISSUES.map((i) => [i.id, i]));
  return issuesFound(overview).map((i) => {
    const d = info.get(i.id)!;
    return [d.label, d.type, d.priority, i.count, d.why, d.fix, i.filter];
  });
}
