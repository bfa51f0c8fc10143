// robots.txt rules for one host, interpreted as RFC 9309 says (robots-txt.ts parses and matches).
import { LIMITS } from '../../../shared/settings.ts';
import { parseRobotsTxt } from './robots-txt.ts';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Why the URL is refused (blockedReason, or ROBOTS_TOO_COMPLEX), or null when it may be fetched. */
  refusal(url: string): string | null;
  /** robots.txt Crawl-delay for our user agent (or *), capped; 0 when none. */
  crawlDelayMs: number;
  /** Why a URL is refused when it is, for its error row. */
  blockedReason: string;
}

/** Where a host's robots.txt is, for the host of `origin` (scheme://host[:port]). */
export function robotsUrlOf(origin: string): string {
  return `${origin}/robots.txt`;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Why a URL is refused when matching it against the host's robots.txt went past ROBOTS_MATCH_BUDGET. */
export const ROBOTS_TOO_COMPLEX = 'blocked: robots.txt too complex to evaluate';

const ALLOW_ALL: RobotsRules = { isAllowed: () => true, refusal: () => null, crawlDelayMs: 0, blockedReason: '' };

/** Rules that refuse every URL for `reason`. */
function refuseAll(reason: string): RobotsRules {
  return { isAllowed: () => false, refusal: () => reason, crawlDelayMs: 0, blockedReason: reason };
}

/**
 * Builds the rules from a robots.txt fetch: 2xx is parsed; 4xx (and a redirect chain that never ends) means
 * there are no rules; 5xx, no response or a 2xx whose body did not arrive whole means the site is not to be crawled
 * (RFC 9309 section 2.3.1).
 */
export function robotsRulesFrom(
  robotsUrl: string,
  status: number | null,
  body: string | null,
  userAgent: string,
  fetchError: string | null = null,
): RobotsRules {
  if (status !== null && status >= 200 && status < 300 && fetchError === null) {
    const parsed = parseRobotsTxt(body ?? '');
    const delaySeconds = parsed.crawlDelay(userAgent) ?? 0;
    const crawlDelayMs = Math.min(LIMITS.crawlDelayCapMs, Math.max(0, Math.round(delaySeconds * 1000)));
    const origin = originOf(robotsUrl);
    const blockedReason = 'blocked by robots.txt';
    // A URL of another origin is not this robots.txt's business (it cannot happen for URLs of this host).
    const refusal = (url: string): string | null => {
      if (originOf(url) !== origin) return null;
      const check = parsed.checkUrl(url, userAgent);
      return check === 'allowed' ? null : check === 'disallowed' ? blockedReason : ROBOTS_TOO_COMPLEX;
    };
    return { isAllowed: (url) => refusal(url) === null, refusal, crawlDelayMs, blockedReason };
  }
  if (status !== null && status < 500 && !(status >= 200 && status < 300)) return ALLOW_ALL;
  // A host whose name does not resolve has no pages to block: its URLs fail for that reason.
  if (status === null && fetchError?.startsWith('DNS lookup failed')) return refuseAll(fetchError);
  // Say what went wrong with the host itself: "connection refused" tells an analyst more than "blocked".
  const why =
    status === null
      ? `unreachable (${fetchError ?? 'no response'})`
      : status < 300
        ? `incomplete (HTTP ${status}, ${fetchError ?? 'no body'})`
        : `HTTP ${status}`;
  return refuseAll(`blocked: robots.txt ${why}`);
}

/** A small LRU of parsed rules per host, so a crawl over many hosts does not keep every parse in memory. */
export class RobotsCache {
  private readonly entries = new Map<number, RobotsRules>();
  constructor(private readonly capacity = 2_000) {}

  get(hostId: number): RobotsRules | undefined {
    const rules = this.entries.get(hostId);
    if (rules) {
      this.entries.delete(hostId);
      this.entries.set(hostId, rules);
    }
    return rules;
  }

  set(hostId: number, rules: RobotsRules): void {
    this.entries.delete(hostId);
    this.entries.set(hostId, rules);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /**
   * A host's rules from its hosts row, parsed once and kept (both stores read robots.txt from the row they claim
   * from); null when the crawl ignores robots.txt.
   */
  rulesFor(host: StoredRobots, settings: { robots: string; userAgent: string }): RobotsRules | null {
    if (settings.robots === 'ignore') return null;
    let rules = this.get(host.id);
    if (!rules) {
      rules = robotsRulesFrom(robotsUrlOf(host.origin), host.robots_status, host.robots_txt, settings.userAgent, host.robots_error);
      this.set(host.id, rules);
    }
    return rules;
  }
}

/** What a hosts row keeps of a host's robots.txt. */
export interface StoredRobots {
  id: number;
  origin: string;
  robots_status: number | null;
  robots_txt: string | null;
  robots_error: string | null;
}
