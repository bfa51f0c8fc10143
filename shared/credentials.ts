// A crawl's credentials: its basic authentication and its custom request headers (a Cookie, an Authorization or
// an API key header are the usual reasons to add one, so every custom header is treated as a credential; one rule
// is easier to trust than a list of names). Where they may be sent, and how they are kept apart from the other
// settings so that they are stored, exported and printed only where they should be. Shared by the engine, the
// worker and the renderer, so it imports neither `node:` nor `electron`.
import { hostKey } from './scope.ts';
import type { CrawlSettings } from './settings.ts';

/**
 * The origins (scheme://host[:port], as URL.origin writes them) that get the credentials: each seed's own origin,
 * and each allowed host over the schemes of the seeds (an allowed host gets them over plain http only when a seed
 * is http itself, on its given port or the scheme's default one). Nothing else: not the http twin of an https seed,
 * not another port, not a subdomain, even when the scope crawls them.
 */
export function credentialOrigins(settings: Pick<CrawlSettings, 'seeds' | 'allowedHosts'>): Set<string> {
  const origins = new Set<string>();
  const schemes = new Set<string>();
  for (const seed of settings.seeds) {
    if (!URL.canParse(seed)) continue;
    const url = new URL(seed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    origins.add(url.origin);
    schemes.add(url.protocol);
  }
  for (const entry of settings.allowedHosts) {
    if (hostKey(entry) === null) continue;
    for (const scheme of schemes) {
      const url = new URL(`${scheme}//${entry}/`);
      origins.add(url.origin);
    }
  }
  return origins;
}

/** Does a URL get the crawl's credentials? True only for the exact origins of credentialOrigins. */
export function makeCredentialTest(settings: Pick<CrawlSettings, 'seeds' | 'allowedHosts'>): (url: string) => boolean {
  const origins = credentialOrigins(settings);
  return (url) => {
    if (!URL.canParse(url)) return false;
    return origins.has(new URL(url).origin);
  };
}

/** The secret parts of a crawl's settings. */
export interface CrawlSecrets {
  headers: Record<string, string>;
  basicAuth: CrawlSettings['basicAuth'];
}

/** True when the settings hold any credential. */
export function hasSecrets(settings: Pick<CrawlSettings, 'headers' | 'basicAuth'>): boolean {
  return settings.basicAuth !== null || Object.keys(settings.headers).length > 0;
}

/** The settings without their secrets (no headers, no basic authentication), and the secrets apart. */
export function splitSecrets<S extends CrawlSettings>(settings: S): { settings: S; secrets: CrawlSecrets } {
  return {
    settings: { ...settings, headers: {}, basicAuth: null },
    secrets: { headers: { ...settings.headers }, basicAuth: settings.basicAuth ? { ...settings.basicAuth } : null },
  };
}

/** What is printed in a secret's place. */
export const SECRET_PLACEHOLDER = '***';

/**
 * The settings with every secret value replaced by SECRET_PLACEHOLDER: the basic-auth password and each custom
 * header's value (the user name and the header names stay, so one can see what to fill in).
 */
export function redactSecrets<S extends Pick<CrawlSettings, 'headers' | 'basicAuth'>>(settings: S): S {
  return {
    ...settings,
    headers: Object.fromEntries(Object.keys(settings.headers).map((name) => [name, SECRET_PLACEHOLDER])),
    basicAuth: settings.basicAuth ? { username: settings.basicAuth.username, password: SECRET_PLACEHOLDER } : null,
  };
}
