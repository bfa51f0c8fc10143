// Which URLs a crawl follows. Same-host scope: a URL is in scope when its host[:port] is a seed's.
import type { CrawlSettings } from './settings.ts';
import { canonicalUrl } from './url/canonical.ts';

export type ScopeTest = (canonical: string) => boolean;

export function makeScope(settings: Pick<CrawlSettings, 'seeds' | 'scope'>): ScopeTest {
  const hosts = new Set<string>();
  for (const seed of settings.seeds) {
    const c = canonicalUrl(seed);
    if (c) hosts.add(new URL(c).host);
  }
  return (canonical) => {
    try {
      return hosts.has(new URL(canonical).host);
    } catch {
      return false;
    }
  };
}
