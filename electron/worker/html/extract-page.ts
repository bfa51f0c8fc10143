// What the crawler reads from an HTML page: the SEO basics (title, description, headings, canonical, language,
// hreflang, robots directives, meta refresh, word count), the distinct links to other URLs and the links that can
// never be fetched. The page is read in one streaming pass by the crawl's extractors (this folder), then every
// link is resolved once, here, in the crawl's normal form.
import type { PageContent } from '../../../shared/content.ts';
import type {
  FoundImage,
  FoundLink,
  FoundUnfetchableLink,
  Hreflang,
  LinkKind,
  PageSecurity,
  SocialTag,
  StructuredDataItem,
} from '../../../shared/protocol.ts';
import { RESOURCE_LINK_KINDS, SECURITY_LIST_MAX, UNFETCHABLE_HREF_MAX } from '../../../shared/protocol.ts';
import { cutText, PAGE_TEXT_MAX } from '../../../shared/stored-text.ts';
import { canonicalUrl } from '../../../shared/url/canonical.ts';
import type { Normaliser } from '../../../shared/url/normalise.ts';
import { BASE_EXTRACTORS } from './crawl-extractors.ts';
import { collapse, type HtmlExtractor, type PageDraft, type RawImage, type RawLink } from './extractor-contract.ts';
import { refreshTarget } from './meta-tags.ts';
import { LinkMemo, type ResolvedLink } from './link-memo.ts';
import { readHtml } from './read-html.ts';

export interface ExtractedPage {
  title: string | null;
  metaDescription: string | null;
  /** Text of the first <h1>, and how many there are. */
  h1: string | null;
  h1Count: number;
  h2: string | null;
  h2Count: number;
  /** <link rel="canonical">, resolved and in normal form. */
  canonical: string | null;
  lang: string | null;
  hreflang: Hreflang[];
  /** Target of a meta refresh, resolved and in normal form. */
  metaRefresh: string | null;
  /** Words of visible text (script, style, noscript, template and <head> left out). */
  wordCount: number;
  /** Distinct http(s) URLs the page refers to, in document order, each with the first way it was referred to. */
  links: FoundLink[];
  unfetchableLinks: FoundUnfetchableLink[];
  /** <meta name="robots" content>, whitespace collapsed, or null. */
  metaRobots: string | null;
  /** Images the page uses (when an images extractor ran), resolved; identical uses once. */
  images?: FoundImage[];
  imagesOver?: number;
  /** JSON-LD, microdata and RDFa found (structured-data.ts); left out when there is none. */
  structuredData?: StructuredDataItem[];
  /** og:* and twitter:* <meta> tags; left out when there is none. */
  socialTags?: SocialTag[];
  /** What the page's HTML shows of its security (security.ts; the headers are the processor's); empty without that extractor. */
  security: Pick<PageSecurity, 'httpResources' | 'unsafeBlankLinks'>;
  /** The main text's fingerprint (issue 18.1); absent when the crawl's extractors do not read it. */
  content?: PageContent;
}

/**
 * Reads a page. Links and the canonical link are put in the crawl's normal form by `normalise` (the crawl's
 * normaliser: canonical form and stripped query parameters; plain canonical form when not given) and tested
 * with `inScope`. `extractors` defaults to what every crawl reads (no resources). `memo` keeps link resolutions
 * across the pages of a crawl (one memo per normaliser and scope test; by default, this page's alone). `ascii`:
 * the page's bytes when it is ASCII (decodeHtmlPage), which its extractors read faster than its text.
 */
export function extractHtml(
  html: string,
  pageUrl: string,
  inScope: (url: string) => boolean,
  normalise: Normaliser = canonicalUrl,
  extractors: readonly HtmlExtractor[] = BASE_EXTRACTORS,
  memo: LinkMemo = new LinkMemo(),
  ascii: Uint8Array | null = null,
): ExtractedPage {
  const found = readHtml(html, extractors, ascii);
  const pageCanonical = normalise(pageUrl);
  const base = baseUrl(found.baseHref, pageUrl);
  const refresh = found.refresh === undefined ? null : refreshTarget(found.refresh);
  const metaRefresh = refresh === null ? null : normalise(refresh, base);
  const raw =
    metaRefresh === null ? found.links : [...found.links, { href: refresh!, anchor: '', kind: 'refresh' as const, nofollow: false }];
  const { links, unfetchable } = resolveLinks(raw, pageCanonical, (href) => memo.resolve(href, base, normalise, inScope));
  const hreflang: Hreflang[] = [];
  for (const h of found.hreflang) {
    const url = normalise(h.href, base);
    if (url !== null) hreflang.push({ lang: h.lang, url });
  }
  const page: ExtractedPage = {
    title: shownText(found.title),
    metaDescription: shownText(found.metaDescription),
    h1: shownText(found.h1),
    h1Count: found.h1Count,
    h2: shownText(found.h2),
    h2Count: found.h2Count,
    canonical: found.canonicalHref === undefined ? null : normalise(found.canonicalHref, base),
    lang: clean(found.lang),
    hreflang,
    metaRefresh,
    wordCount: found.words,
    links,
    unfetchableLinks: unfetchable,
    metaRobots: clean(found.metaRobots),
    security: pageSecurityOf(found.security, pageUrl, base),
    ...(found.content ? { content: found.content } : {}),
  };
  if (found.images) {
    page.images = resolveImages(found.images, (href) => memo.resolve(href, base, normalise, inScope));
    page.imagesOver = found.imagesOver ?? 0;
  }
  if (found.structuredData) page.structuredData = found.structuredData;
  if (found.socialTags) page.socialTags = found.socialTags;
  return page;
}

/** Image uses resolved (data: and unparsable sources left out), a use repeated with the same attributes once. */
function resolveImages(raw: readonly RawImage[], resolve: (href: string) => ResolvedLink | null): FoundImage[] {
  const out: FoundImage[] = [];
  const seen = new Set<string>();
  for (const image of raw) {
    const resolved = resolve(image.src);
    if (resolved === null) continue;
    const key = `${resolved.url}\u0000${image.alt}\u0000${image.altLength}\u0000${image.width}\u0000${image.height}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ url: resolved.url, alt: image.alt, altLength: image.altLength, width: image.width, height: image.height });
  }
  return out;
}

/** URL length kept in the security lists (a data: or hostile URL can be huge). */
const SECURITY_URL_MAX = 2048;

/**
 * The security extractor's candidates resolved against the page's base: the distinct plain-HTTP resources (on any
 * page: whether that is mixed content depends on the page's own scheme), and the distinct target=_blank links to an
 * http(s) URL of another origin than the page's; at most SECURITY_LIST_MAX of each.
 */
function pageSecurityOf(found: PageDraft['security'], pageUrl: string, base: string): ExtractedPage['security'] {
  const out: ExtractedPage['security'] = { httpResources: [], unsafeBlankLinks: [] };
  if (found === undefined) return out;
  const resolve = (href: string): URL | null => {
    try {
      return new URL(href.trim(), base);
    } catch {
      return null;
    }
  };
  const cut = (url: string) => (url.length > SECURITY_URL_MAX ? url.slice(0, SECURITY_URL_MAX) : url);
  const seen = new Set<string>();
  for (const { href, kind } of found.httpResources) {
    if (out.httpResources.length >= SECURITY_LIST_MAX) break;
    const url = resolve(href);
    if (url === null || url.protocol !== 'http:' || seen.has(url.href)) continue;
    seen.add(url.href);
    out.httpResources.push({ url: cut(url.href), kind });
  }
  if (found.blankLinks.length === 0) return out;
  let origin: string;
  try {
    origin = new URL(pageUrl).origin;
  } catch {
    return out;
  }
  seen.clear();
  for (const href of found.blankLinks) {
    if (out.unsafeBlankLinks.length >= SECURITY_LIST_MAX) break;
    const url = resolve(href);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin === origin || seen.has(url.href)) continue;
    seen.add(url.href);
    out.unsafeBlankLinks.push(cut(url.href));
  }
  return out;
}

/** Trimmed, whitespace collapsed; empty -> null. */
function clean(text: string | undefined | null): string | null {
  if (text == null) return null;
  const out = collapse(text);
  return out === '' ? null : out;
}

/** A text a results row shows (the title, the description, a heading): cleaned, and cut to PAGE_TEXT_MAX. */
function shownText(text: string | undefined): string | null {
  const out = clean(text);
  return out === null ? null : cutText(out, PAGE_TEXT_MAX).trimEnd();
}

/** Links resolve against the first <base href> (itself relative to the page), as in a browser. */
function baseUrl(href: string | undefined, pageUrl: string): string {
  if (href === undefined) return pageUrl;
  try {
    const resolved = new URL(href.trim(), pageUrl);
    // A javascript: or data: base would make every link unusable; browsers ignore those too.
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : pageUrl;
  } catch {
    return pageUrl;
  }
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** The scheme of an href that is not http(s) (mailto, tel, javascript, data...), or null. */
function unfetchableScheme(href: string): string | null {
  const m = SCHEME.exec(href);
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  return scheme === 'http' || scheme === 'https' ? null : scheme;
}

const isResource = (kind: LinkKind) => kind in RESOURCE_LINK_KINDS;

function resolveLinks(
  raw: RawLink[],
  pageCanonical: string | null,
  resolve: (href: string) => ResolvedLink | null,
): { links: FoundLink[]; unfetchable: FoundUnfetchableLink[] } {
  const links: FoundLink[] = [];
  const unfetchable: FoundUnfetchableLink[] = [];
  const seenUnfetchable = new Set<string>();
  const byUrl = new Map<string, FoundLink>();
  for (const { href, anchor, nofollow, kind } of raw) {
    const trimmed = href.trim();
    const resolved = resolve(href); // null for mailto:, javascript:, tel:, data: and unparsable hrefs
    if (resolved === null) {
      // mailto:, tel: and the like by their scheme; an http(s) or relative href that does not parse as "invalid".
      const scheme = unfetchableScheme(trimmed) ?? 'invalid';
      // Only a page's own links: a broken image src is not a link a person follows.
      if (!isResource(kind)) {
        const cut = trimmed.length > UNFETCHABLE_HREF_MAX ? `${trimmed.slice(0, UNFETCHABLE_HREF_MAX - 1)}…` : trimmed;
        if (!seenUnfetchable.has(cut)) {
          seenUnfetchable.add(cut);
          unfetchable.push({ href: cut, scheme, anchor });
        }
      }
      continue;
    }
    const url = resolved.url;
    // "#top" (or an empty href) is the page pointing at itself, and so is a canonical naming the page: not links.
    if (url === pageCanonical && (trimmed === '' || trimmed.startsWith('#') || (kind !== 'a' && kind !== 'area'))) continue;
    const known = byUrl.get(url);
    if (known) {
      // One followable link to a URL is enough to follow it; a link to it as a page beats a resource reference.
      if (!nofollow) delete known.nofollow;
      if (isResource(known.kind) && !isResource(kind)) {
        known.kind = kind;
        if (known.anchor === '') known.anchor = anchor;
      }
      continue;
    }
    const link: FoundLink = { url, anchor, kind, inScope: resolved.inScope };
    if (nofollow) link.nofollow = true;
    byUrl.set(url, link);
    links.push(link);
  }
  return { links, unfetchable };
}
