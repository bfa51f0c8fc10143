// The candidate chain (Heritrix's CandidateChain): what becomes of each URL a fetched page refers to, or a
// redirect points to, before it enters the frontier. Pure rules over the crawl's settings; the frontier applies
// the verdict in the same transaction that records the page.
import { RESOURCE_LINK_KINDS, type LinkKind } from '../../../shared/protocol.ts';
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { UrlKindName } from './sqlite/crawl-file.ts';

/**
 * crawl: queued, fetched and parsed; check: queued, fetched for its status only (a resource, or an out-of-scope
 * link when the crawl checks them); the rest are recorded in the link graph and never fetched.
 */
export type CandidateFate = 'crawl' | 'check' | 'out-of-scope' | 'nofollow' | 'too-deep' | 'redirect-cut';

export type CandidateSettings = Pick<CrawlSettings, 'followNofollow' | 'checkExternal' | 'checkResources' | 'maxDepth'>;

export interface Candidate {
  fate: CandidateFate;
  kind: UrlKindName;
}

/** The urls.kind a link of this kind names. */
export function urlKindOf(link: LinkKind): UrlKindName {
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
