// The one normaliser of a crawl: every URL that enters it (seeds, links, redirect targets, <link rel=canonical>)
// goes through here, so the frontier's dedup sees one spelling per URL. canonicalUrl, then the query parameters
// the crawl's settings strip (tracking parameters such as utm_*), so "?utm_source=x&id=1" and "?id=1" are one URL.
import { canonicalUrl } from './canonical.ts';

/** Resolves `href` against `base` and returns the URL as the crawl knows it, or null when it is not crawlable. */
export type Normaliser = (href: string, base?: string | URL) => string | null;

/** True for a query parameter name (decoded) that is stripped. */
export type ParamMatcher = (name: string) => boolean;

/**
 * A stripQueryParams entry is a parameter name, or a name prefix followed by one `*` ("utm_*"). Names are
 * compared exactly (case-sensitive) against the decoded parameter name.
 */
export function paramMatcher(names: readonly string[]): ParamMatcher | null {
  if (names.length === 0) return null;
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const n of names) {
    if (n.endsWith('*')) prefixes.push(n.slice(0, -1));
    else exact.add(n);
  }
  return (name) => exact.has(name) || prefixes.some((p) => name.startsWith(p));
}

function decodeName(raw: string): string {
  const plain = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain;
  }
}

/**
 * Removes the query parameters `strip` matches from a canonical URL, keeping every other parameter exactly as
 * written and in its order; a query left empty loses its "?".
 */
export function stripQueryParams(url: string, strip: ParamMatcher): string {
  const q = url.indexOf('?');
  if (q === -1) return url; // canonical URLs have no fragment, so the query runs to the end
  const parts = url.slice(q + 1).split('&');
  const kept = parts.filter((part) => {
    const eq = part.indexOf('=');
    return !strip(decodeName(eq === -1 ? part : part.slice(0, eq)));
  });
  if (kept.length === parts.length) return url;
  const query = kept.join('&');
  return query === '' ? url.slice(0, q) : `${url.slice(0, q)}?${query}`;
}

/** The settings the normaliser reads (CrawlSettings' stripQueryParams), typed here so url/ imports nothing of settings.ts. */
export interface NormaliseSettings {
  stripQueryParams?: readonly string[];
}

export function makeNormaliser(settings: NormaliseSettings): Normaliser {
  const strip = paramMatcher(settings.stripQueryParams ?? []);
  if (strip === null) return canonicalUrl;
  return (href, base) => {
    const url = canonicalUrl(href, base);
    return url === null ? null : stripQueryParams(url, strip);
  };
}
