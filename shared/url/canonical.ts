// One spelling per URL, so the frontier's dedup is exact. WHATWG URL parsing already lower-cases the scheme and
// host, drops a default port and resolves dot segments; we drop the fragment and user info and refuse anything not
// http(s).

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
  // Each setter re-serialises the URL: set only what is there (these three were a tenth of a page's link resolution).
  if (url.hash || url.href.endsWith('#')) url.hash = '';
  // User info ("http://u:p@host/") is not part of the resource: undici sends no credentials from it, so
  // "http://u@host/x" is "http://host/x" on the wire. Kept, it made a second URL and a host of its own (its own
  // politeness, robots.txt and per-host cap) for the same site, and wrote whatever secret a page put there into the
  // crawl. The crawl's credentials are settings.basicAuth.
  if (url.username) url.username = '';
  if (url.password) url.password = '';
  // "http://host" and "http://host/" are one URL (WHATWG gives the empty path as "/").
  const out = normaliseEscapes(url.href);
  return out.length > MAX_URL_LENGTH ? null : out;
}

const HEX_DIGIT = /^[0-9a-fA-F]$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Output ending in a "%" that is not an escape, maybe followed by one hex digit. */
const LONE_PERCENT_END = /%[0-9a-fA-F]?$/;

/**
 * RFC 3986 6.2.2: escapes of unreserved characters are the characters themselves ("/%61" is "/a"), and the rest
 * are case-insensitive ("%e6" is "%E6", which is what the parser writes itself). A "%" that starts no escape is
 * kept as written (so does the parser), and an escape is not decoded into a hex digit right after one: "%%36" with
 * "41" after it would turn into "%641", a new escape ("d1") the second time round, and a normal form must be its
 * own normal form.
 */
function normaliseEscapes(href: string): string {
  let out = '';
  let from = 0;
  for (let at = href.indexOf('%'); at !== -1; at = href.indexOf('%', from)) {
    out += href.slice(from, at);
    const hex = href.slice(at + 1, at + 3);
    if (hex.length < 2 || !HEX_DIGIT.test(hex[0]!) || !HEX_DIGIT.test(hex[1]!)) {
      out += '%';
      from = at + 1;
      continue;
    }
    const ch = String.fromCharCode(parseInt(hex, 16));
    const decode = UNRESERVED.test(ch) && !(HEX_DIGIT.test(ch) && LONE_PERCENT_END.test(out));
    out += decode ? ch : `%${hex.toUpperCase()}`;
    from = at + 3;
  }
  return out + href.slice(from);
}

/** scheme://host[:port]: the unit robots.txt and politeness apply to. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** host[:port] as seeds are compared for same-host scope (http and https of one host are one site). */
export function hostOf(url: string): string {
  return new URL(url).host;
}
