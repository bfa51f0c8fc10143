// Whether a fetched page can be indexed by a search engine, and if not why (Screaming Frog's Indexability and
// Indexability Status): the first reason that applies, in the order a search engine would meet them.
import type { UrlKindName } from './model.ts';
import { saysNoindex } from '../../../shared/robots-directives.ts';

export interface IndexabilityInput {
  url: string;
  kind: UrlKindName;
  /** Fetched for its status only: nothing was read from it. */
  checkOnly: boolean;
  statusCode: number | null;
  error: string | null;
  robotsDisallowed: boolean;
  metaRobots: string | null;
  xRobotsTag: string | null;
  canonical: string | null;
}

export interface Indexability {
  status: 'indexable' | 'non-indexable' | null;
  reason: string | null;
}

const NONE: Indexability = { status: null, reason: null };
const non = (reason: string): Indexability => ({ status: 'non-indexable', reason });

export function indexabilityOf(page: IndexabilityInput): Indexability {
  // Resources and links only checked are not pages of the site: indexability says nothing useful about them.
  if (page.kind !== 'page' || page.checkOnly) return NONE;
  if (page.statusCode === null) return non(page.error?.startsWith('blocked') ? 'blocked by robots.txt' : 'no response');
  if (page.robotsDisallowed) return non('blocked by robots.txt');
  // A response cut short (too large, truncated, timed out mid-body) was never read whole.
  if (page.error !== null) return non('incomplete response');
  const s = page.statusCode;
  if (s >= 300 && s <= 399) return non('redirected');
  if (s >= 400 && s <= 499) return non('client error');
  if (s >= 500) return non('server error');
  if (s < 200 || s > 299) return non(`status ${s}`);
  if (saysNoindex(page.metaRobots) || saysNoindex(page.xRobotsTag)) return non('noindex');
  if (page.canonical !== null && page.canonical !== page.url) return non('canonicalised');
  return { status: 'indexable', reason: null };
}
