// The candidate chain (Heritrix's CandidateChain): what becomes of each URL a fetched page refers to, or a
// redirect points to, before it enters the frontier. Pure rules over the crawl's settings; the frontier applies
// the verdict in the same transaction that records the page.
import { RESOURCE_LINK_KINDS, type LinkKind, type SitemapUrl } from '../../../shared/protocol.ts';
import { effectiveMaxDepth, type CrawlSettings } from '../../../shared/settings.ts';
import { UrlState, type UrlKindName } from './model.ts';

/**
 * crawl: queued, fetched and parsed; check: queued, fetched for its status only (a resource, or an out-of-scope
 * link when the crawl checks them); the rest are recorded in the link graph and never fetched.
 */
export type CandidateFate = 'crawl' | 'check' | 'out-of-scope' | 'nofollow' | 'too-deep' | 'redirect-cut' | 'sitemap-only';

export type CandidateSettings = Pick<CrawlSettings, 'followNofollow' | 'checkExternal' | 'checkResources' | 'maxDepth'>;

export interface Candidate {
  fate: CandidateFate;
  kind: UrlKindName;
}

/** A seed: a page, crawled. */
export const SEED: Candidate = { fate: 'crawl', kind: 'page' };

/** The urls.state a candidate's fate is recorded with. */
export const STATE_OF: Record<CandidateFate, number> = {
  crawl: UrlState.queued,
  check: UrlState.queued,
  'out-of-scope': UrlState.outOfScope,
  nofollow: UrlState.nofollow,
  'too-deep': UrlState.tooDeep,
  'redirect-cut': UrlState.redirectCut,
  'sitemap-only': UrlState.sitemapOnly,
};

/** The settings the candidate rules read, with list mode's depth limit of 0 applied. */
export function candidateSettingsOf(settings: CrawlSettings): CandidateSettings {
  return { ...settings, maxDepth: effectiveMaxDepth(settings) };
}

/** Whether a candidate is queued (to be crawled or checked), not only recorded in the link graph. */
export function isQueued(c: Candidate): boolean {
  return c.fate === 'crawl' || c.fate === 'check';
}

/**
 * What a candidate does to a URL already known: one that waited (too deep, only nofollow links) is queued again
 * ('requeue') once a link allows it, and one queued to be checked only is crawled ('upgrade') once a page links to
 * it; otherwise nothing (null).
 */
export function knownUrlMove(known: { state: number; checkOnly: boolean }, c: Candidate): 'requeue' | 'upgrade' | null {
  const waiting = known.state === UrlState.tooDeep || known.state === UrlState.nofollow || known.state === UrlState.sitemapOnly;
  if (waiting && isQueued(c)) return 'requeue';
  if (known.state === UrlState.queued && known.checkOnly && c.fate === 'crawl') return 'upgrade';
  return null;
}

/** Whether a URL matches one of the patterns added while the crawl runs (live excludes, deprioritised). */
export { matchesAny } from '../../../shared/pattern.ts';

/** The urls.kind a link of this kind names. */
function urlKindOf(link: LinkKind): UrlKindName {
  return link === 'image' || link === 'script' || link === 'stylesheet' ? link : 'page';
}

/** A link found on a parsed page, `depth` hops from a seed. Null: not recorded at all (an unchecked resource). */
export function linkCandidate(
  link: { kind: LinkKind; inScope: boolean; nofollow?: boolean },
  depth: number,
  settings: CandidateSettings,
): Candidate | null {
  const kind = urlKindOf(link.kind);
  if (kind !== 'page') {
    const type = RESOURCE_LINK_KINDS[kind];
    if (!settings.checkResources.includes(type)) return null;
    // A resource is not a way further into the site: checked whatever its depth, never parsed.
    return { kind, fate: link.inScope || settings.checkExternal ? 'check' : 'out-of-scope' };
  }
  const follow = settings.followNofollow || !link.nofollow;
  if (!link.inScope) return { kind, fate: settings.checkExternal && follow ? 'check' : 'out-of-scope' };
  if (!follow) return { kind, fate: 'nofollow' };
  if (settings.maxDepth !== null && depth > settings.maxDepth) return { kind, fate: 'too-deep' };
  return { kind, fate: 'crawl' };
}

/**
 * The target of a redirect from a URL of `sourceKind` (crawled, or checked), kept at the source's `depth`.
 * `verdict` is the chain rule's ('follow', or why the chain is cut). A redirect is the same thing under another
 * name: a checked image that redirects is still a checked image, and an external link that was checked and lands
 * back in scope is crawled.
 */
export function redirectCandidate(
  sourceKind: UrlKindName,
  targetInScope: boolean,
  depth: number,
  verdict: 'follow' | string,
  settings: CandidateSettings,
): Candidate {
  const kind = sourceKind;
  if (verdict !== 'follow') return { kind, fate: 'redirect-cut' };
  if (kind !== 'page') return { kind, fate: targetInScope || settings.checkExternal ? 'check' : 'out-of-scope' };
  if (!targetInScope) return { kind, fate: settings.checkExternal ? 'check' : 'out-of-scope' };
  if (settings.maxDepth !== null && depth > settings.maxDepth) return { kind, fate: 'too-deep' };
  return { kind, fate: 'crawl' };
}

/**
 * A URL a sitemap lists (electron/worker/sitemap): as a link from a seed's page (depth 1, followed), except that with
 * settings.crawlSitemapUrls off a URL the crawl would fetch is only recorded ('sitemap-only'); a page linking to it
 * later queues it.
 */
export function sitemapCandidate(inScope: boolean, settings: CandidateSettings, crawlSitemapUrls: boolean): Candidate {
  const c = linkCandidate({ kind: 'a', inScope }, 1, settings)!;
  return isQueued(c) && !crawlSitemapUrls ? { kind: c.kind, fate: 'sitemap-only' } : c;
}

/**
 * What becomes of one entry of a read sitemap, in either store: its candidate (sitemapCandidate, and out of scope
 * when a live exclude matches it) and its row's hreflang, as results.hreflang writes alternates ("en=https://…; …").
 */
export function sitemapEntryOutcome(
  entry: SitemapUrl,
  settings: CandidateSettings,
  crawlSitemapUrls: boolean,
  isLiveExcluded: (url: string) => boolean,
): { candidate: Candidate; hreflang: string | null } {
  const c = sitemapCandidate(entry.inScope, settings, crawlSitemapUrls);
  const candidate = c.fate === 'crawl' && isLiveExcluded(entry.url) ? { kind: c.kind, fate: 'out-of-scope' as const } : c;
  const hreflang = entry.alternates.length ? entry.alternates.map((a) => `${a.lang}=${a.url}`).join('; ') : null;
  return { candidate, hreflang };
}
