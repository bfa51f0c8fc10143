// One spelling per URL, so the frontier's dedup is exact. WHATWG URL parsing already lower-cases the scheme and
// host, drops a default port and resolves dot segments; we drop the fragment and refuse anything not http(s).

export const MAX_URL_LENGTH = 8192;
/** The crawl's maxUrlLength when its settings give none: longer URLs are out of scope (see scope.ts). */
export const DEFAULT_MAX_URL_LENGTH = 2048;

/** Resolves `href` against `base` and returns its canonical form, or null when it is not a crawlable http(s) URL. */
export function canonicalUrl(href: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(href.trim()) : new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  url.hash = '';
  // "http://host" and "http://host/" are one URL (WHATWG gives the empty path as "/"). RFC 3986 6.2.2: escapes
  // of unreserved characters are the characters themselves ("/%61" is "/a"), and the rest are case-insensitive
  // ("%e6" is "%E6", which is what the parser writes itself).
  const out = url.href.replace(/%[0-9a-fA-F]{2}/g, (m) => {
    const ch = String.fromCharCode(parseInt(m.slice(1), 16));
    return /[A-Za-z0-9\-._~]/.test(ch) ? ch : m.toUpperCase();
  });
  return out.length > MAX_URL_LENGTH ? null : out;
}

/** scheme://host[:port]: the unit robots.txt and politeness apply to. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** host[:port] as seeds are compared for same-host scope (http and https of one host are one site). */
export function hostOf(url: string): string {
  return new URL(url).host;
}
