// The frontier's model, the same for both stores (sqlite/ and postgres/): the states a URL and a host's robots.txt
// go through, the work a claim hands out, the counters and the limits. Both stores write these numbers into their
// tables (urls.state, hosts.robots_state, hosts.next_fetch_at), so the analysis views read either store alike.

/** urls.state */
export const UrlState = {
  queued: 0,
  /** Claimed under a lease: handed to (or about to be handed to) a thread. */
  claimed: 1,
  /** Fetched: a response was received (any status). */
  done: 2,
  /** Ended without a response: network error, blocked by robots.txt, worker crashed... */
  failed: 3,
  /** Linked to but outside the crawl's scope: in the link graph, never fetched. */
  outOfScope: 4,
  /** In scope but beyond the maximum depth: in the link graph, never fetched. */
  tooDeep: 5,
  /** Only linked to with nofollow: in the link graph, not fetched (unless settings.followNofollow). */
  nofollow: 6,
  /** A redirect target not followed because its chain was too long or looped (the source's row says which). */
  redirectCut: 7,
  /** Found only in a sitemap, with settings.crawlSitemapUrls off: recorded, not fetched (unless a link allows it). */
  sitemapOnly: 8,
} as const;

/** urls.kind: what a URL was found as. Resources are fetched only when the crawl checks their type. */
export const UrlKind = { page: 'page', image: 'image', script: 'script', stylesheet: 'stylesheet' } as const;
export type UrlKindName = (typeof UrlKind)[keyof typeof UrlKind];

/** hosts.next_fetch_at of a host whose only allowed fetch is in flight: not claimable until that fetch returns. */
export const HELD = 9e15;

/** hosts.robots_state */
export const RobotsState = { unknown: 0, fetching: 1, known: 2 } as const;

/** Redirects followed in one chain at most; the hop past it is recorded with an error, not followed. */
export const MAX_REDIRECT_HOPS = 10;
/** A URL that took its worker down this many times is recorded as failed instead of being retried. */
export const MAX_WORKER_CRASHES = 2;
/** Host ids a store keeps by origin in memory (the cache is emptied when it grows past this). */
export const HOST_ID_CACHE = 10_000;

/** A unit of work handed to a crawl thread: a page URL to fetch, or a host's robots.txt. */
export type Claim =
  | {
      kind: 'page';
      urlId: number;
      hostId: number;
      url: string;
      depth: number;
      hops: number;
      /** What the URL was found as (a page, or a resource checked). */
      urlKind: UrlKindName;
      /** Fetched for its status only, not parsed. */
      checkOnly: boolean;
      robotsDisallowed?: boolean;
    }
  | { kind: 'robots'; hostId: number; url: string }
  /** A sitemap (sitemaps.id), fetched through the same politeness and robots.txt as the host's pages. */
  | { kind: 'sitemap'; sitemapId: number; hostId: number; url: string };

export type PageClaim = Extract<Claim, { kind: 'page' }>;
export type RobotsClaim = Extract<Claim, { kind: 'robots' }>;
export type SitemapClaim = Extract<Claim, { kind: 'sitemap' }>;

/** sitemaps.state: a sitemap's place in the crawl's queue of sitemaps. */
export const SitemapState = { queued: 0, claimed: 1, done: 2, failed: 3 } as const;
/** Sitemaps one crawl reads at most (indexes and the sitemaps they name together); more are recorded, not read. */
export const MAX_SITEMAPS = 1_000;
/** Sitemap indexes nested deeper than this are not followed (an index naming an index naming an index...). */
export const MAX_SITEMAP_DEPTH = 3;

/** A hosts row as claiming reads it. */
export interface HostRow {
  id: number;
  origin: string;
  robots_state: number;
  robots_status: number | null;
  robots_txt: string | null;
  robots_error: string | null;
  crawl_delay_ms: number;
  /** How long the host's last fetch took (the polite delay is a multiple of it); null before its first. */
  last_fetch_ms?: number | null;
  /** Only read where claiming needs it (readyHosts). */
  in_flight?: number;
}

export interface FrontierCounts {
  queued: number;
  /** URLs fetched with a response. */
  crawled: number;
  /** URLs ended without a response. */
  failed: number;
}
