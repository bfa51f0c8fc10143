// Link resolution remembered across the pages one worker reads. A site's navigation repeats on every page ("/",
// "../index.html", "sql.html"), and resolving an href (WHATWG URL parsing, the canonical form, the scope test) cost
// more than reading the tag it came from. What an href resolves to depends on only part of the page's URL: nothing
// for "https://host/x", the scheme for "//host/x", the origin for "/x", the directory for "x.html" or "../x".
// Keyed by that part, one answer serves every page that shares it. Anything unusual (an empty href, "#" or "?"
// first, whitespace, control characters or backslashes anywhere, "http:x" without "//") is keyed by the whole
// base: remembered, but only for that page.

import { ownString } from '../../../shared/own-string.ts';

/** An href's URL in the crawl's normal form and whether it is in scope, or null when it is not crawlable. */
export interface ResolvedLink {
  url: string;
  inScope: boolean;
}

/** Bounded: past this many answers the memory starts again (a sweep of a huge site never grows it). */
const MAX_ENTRIES = 8192;

/**
 * One worker's memory of resolved hrefs. It answers for one normaliser and one scope test, the ones given to
 * `resolve`: a memo must not be shared by crawls with different settings.
 */
export class LinkMemo {
  private readonly answers = new Map<string, ResolvedLink | null>();

  resolve(
    href: string,
    base: string,
    normalise: (href: string, base: string) => string | null,
    inScope: (url: string) => boolean,
  ): ResolvedLink | null {
    const key = `${basePart(href, base)}\u0000${href}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      const url = normalise(href, base);
      answer = url === null ? null : { url, inScope: inScope(url) };
      if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
      // The key's href is a piece of the page: kept as it is, it kept the page alive (the memo held 15 MB of the
      // manual's pages after a crawl, and made V8 copy each one into its old generation).
      this.answers.set(ownString(key), answer);
    }
    return answer;
  }
}

const SCHEME_SLASHES = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/** The part of `base` (an absolute http(s) URL without fragment) that resolving `href` against it depends on. */
export function basePart(href: string, base: string): string {
  if (href.length === 0) return base;
  const first = href.charCodeAt(0);
  if (first === 35 /* # */ || first === 63 /* ? */) return base;
  for (let i = 0; i < href.length; i++) {
    const c = href.charCodeAt(i);
    // The URL parser trims and drops whitespace and control characters, and reads "\" as "/" in http(s) URLs:
    // such an href may depend on more than it seems to (" #top" is the page itself), so it gets no shared answer.
    if (c <= 32 || c === 92 /* \ */ || c === 127) return base;
  }
  if (first === 47 /* / */) {
    const scheme = base.indexOf(':');
    if (href.charCodeAt(1) === 47) return base.slice(0, scheme + 1);
    const pathStart = base.indexOf('/', scheme + 3);
    return pathStart === -1 ? base : base.slice(0, pathStart);
  }
  if (SCHEME_SLASHES.test(href)) return '';
  // Any other scheme ("mailto:", "javascript:", or "http:x", which is relative to an http base) keeps the whole base.
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(href)) return base;
  // A relative path: the base's directory (up to its path's last "/").
  const query = base.indexOf('?');
  const lastSlash = base.lastIndexOf('/', query === -1 ? base.length : query);
  return lastSlash === -1 ? base : base.slice(0, lastSlash + 1);
}
