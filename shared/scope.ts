// Which URLs a crawl follows. A URL (in the crawl's normal form, see url/normalise.ts) is in scope when
//  - its host passes the host rule of `scope`:
//      same-host   a seed's host[:port] (http and https of one host count as one)
//      subdomains  a seed's host name or any subdomain of it, on any port
//      domain      a seed's registrable domain (public suffix list, via tldts) or any subdomain of it, on any
//                  port; for an IP address, localhost or a name with no registrable domain, the host name itself
//      hosts       a seed's host[:port] or one listed in allowedHosts
//    (allowedHosts are in scope in every mode; "hosts" only insists that there is at least one);
//  - it is at most maxUrlLength characters long;
//  - it matches no `exclude` pattern and, when there are `include` patterns, at least one of them.
// Patterns run in a linear-time engine (pattern.ts): a site chooses its URLs.
// Everything is prepared once per crawl (regular expressions compiled, domains looked up); the test itself is a
// URL parse and a few set lookups.
import { getDomain } from 'tldts';
import { mustCompile, type UserPattern } from './pattern.ts';
import { canonicalUrl, DEFAULT_MAX_URL_LENGTH } from './url/canonical.ts';

/** The host rules (see above); settings.ts validates `scope` against these. */
export const SCOPES = ['same-host', 'subdomains', 'domain', 'hosts'] as const;
export type Scope = (typeof SCOPES)[number];

export type ScopeTest = (canonical: string) => boolean;

/** Why a URL is out of scope. */
export type OutOfScopeReason = 'host' | 'excluded' | 'not included' | 'too long';

/** The include/exclude patterns of a crawl's settings; missing ones are empty. */
export interface PatternSettings {
  include?: readonly string[];
  exclude?: readonly string[];
}

/**
 * The settings scope reads (those of CrawlSettings); those missing take their defaults. Declared here rather than
 * picked from CrawlSettings, so scope.ts does not import settings.ts, which imports it.
 */
export interface ScopeSettings extends PatternSettings {
  seeds: readonly string[];
  scope?: Scope;
  allowedHosts?: readonly string[];
  maxUrlLength?: number;
}

function compileAll(sources: readonly string[]): UserPattern[] {
  return sources.map((source) => mustCompile(source, 'regular expression'));
}

/** The include/exclude verdict on a URL: null when the patterns let it through. */
export type PatternTest = (url: string) => 'excluded' | 'not included' | null;

export function makePatternTest(settings: PatternSettings): PatternTest {
  const include = compileAll(settings.include ?? []);
  const exclude = compileAll(settings.exclude ?? []);
  return (url) => {
    if (exclude.some((re) => re.test(url))) return 'excluded';
    if (include.length > 0 && !include.some((re) => re.test(url))) return 'not included';
    return null;
  };
}

const HOST_NAME = /^(?!-)[a-z0-9_-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9_-]{1,63}(?<!-))*$/;

/**
 * The host[:port] an allowedHosts entry stands for, compared with a URL's host as same-host compares seeds
 * (the default ports 80 and 443 are dropped, so "example.com" is http and https of example.com), or null when
 * the entry is not a host name, IP address or [IPv6] address with an optional :port.
 */
export function hostKey(entry: string): string | null {
  if (entry === '' || /[\s/?#@\\]/.test(entry)) return null;
  let url: URL;
  try {
    url = new URL(`http://${entry}/`);
  } catch {
    return null;
  }
  const name = url.hostname;
  if (!name.startsWith('[') && (name.length > 253 || !HOST_NAME.test(name))) return null;
  return url.port === '443' ? name : url.host;
}

function isIpAddress(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The host rule alone: is a canonical URL's host one the crawl may fetch? */
function makeHostTest(settings: ScopeSettings): (url: URL) => boolean {
  const mode = settings.scope ?? 'same-host';
  const exact = new Set<string>();
  const seedNames: string[] = [];
  for (const seed of settings.seeds) {
    const c = canonicalUrl(seed);
    if (!c) continue;
    const u = new URL(c);
    exact.add(u.host);
    seedNames.push(u.hostname);
  }
  for (const entry of settings.allowedHosts ?? []) {
    const key = hostKey(entry);
    if (key !== null) exact.add(key);
  }
  if (mode === 'same-host' || mode === 'hosts') return (url) => exact.has(url.host);

  // Names whose subdomains are in scope, and names that are in scope on their own (IP addresses).
  const parents = new Set<string>();
  const names = new Set<string>();
  for (const name of seedNames) {
    if (isIpAddress(name)) names.add(name);
    else parents.add(mode === 'domain' ? (getDomain(name, { allowPrivateDomains: true }) ?? name) : name);
  }
  return (url) => {
    if (exact.has(url.host)) return true;
    const name = url.hostname;
    if (names.has(name)) return true;
    if (parents.size === 0 || isIpAddress(name)) return false;
    // "a.b.example.com": is "a.b.example.com", "b.example.com", "example.com" or "com" a parent?
    for (let at = 0; ; ) {
      if (parents.has(name.slice(at))) return true;
      const dot = name.indexOf('.', at);
      if (dot === -1) return false;
      at = dot + 1;
    }
  };
}

/** Why a canonical URL is out of the crawl's scope, or null when it is in scope. */
export function makeScopeReason(settings: ScopeSettings): (canonical: string) => OutOfScopeReason | null {
  const hostOk = makeHostTest(settings);
  const patterns = makePatternTest(settings);
  const maxLength = settings.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  return (canonical) => {
    let url: URL;
    try {
      url = new URL(canonical);
    } catch {
      return 'host';
    }
    if (!hostOk(url)) return 'host';
    if (canonical.length > maxLength) return 'too long';
    return patterns(canonical);
  };
}

export function makeScope(settings: ScopeSettings): ScopeTest {
  const reason = makeScopeReason(settings);
  return (canonical) => reason(canonical) === null;
}
