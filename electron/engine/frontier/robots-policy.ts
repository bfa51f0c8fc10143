// What robots.txt decides, the same in both stores: whether a host's robots.txt is fetched before its URLs, what
// becomes of a URL it disallows, and when a robots.txt fetch that failed is tried again (RFC 9309).
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { RobotsFetchResult } from '../../../shared/protocol.ts';
import { RobotsState } from './model.ts';
import { retryDelayMs } from './retry-policy.ts';
import type { RobotsRules } from './robots-rules.ts';

/** Whether a host's URLs wait for its robots.txt (its rules are not known yet and the crawl reads them). */
export function awaitsRobots(settings: Pick<CrawlSettings, 'robots'>, robotsState: number): boolean {
  return settings.robots !== 'ignore' && robotsState !== RobotsState.known;
}

/**
 * What the host's rules make of one of its URLs: fetched; fetched and marked (mode "report"); or not fetched and
 * recorded as failed with rules.blockedReason (mode "respect").
 */
export function robotsVerdict(
  rules: RobotsRules | null,
  url: string,
  settings: Pick<CrawlSettings, 'robots'>,
): 'allowed' | 'reported' | 'blocked' {
  if (rules === null || rules.isAllowed(url)) return 'allowed';
  return settings.robots === 'respect' ? 'blocked' : 'reported';
}

/**
 * Whether a robots.txt fetch failed for the moment: a 5xx or no response means "crawl nothing for now", tried
 * again after a backoff (the host's URLs wait in the queue). A name that does not resolve is a verdict (as for
 * pages, see retry-policy.ts), not a moment's trouble.
 */
export function robotsFetchFailed(result: Pick<RobotsFetchResult, 'statusCode' | 'error'>): boolean {
  const unresolvable = result.statusCode === null && result.error?.startsWith('DNS lookup failed') === true;
  return !unresolvable && (result.statusCode === null || result.statusCode >= 500);
}

/**
 * Ms before a robots.txt that failed `failures` times is fetched again; null once settings.maxAttempts failures
 * are reached, when the failure is the verdict (its rules block the host's URLs for this crawl).
 */
export function robotsRetryWaitMs(
  failures: number,
  settings: Pick<CrawlSettings, 'maxAttempts' | 'retryDelayMs' | 'maxRetryAfterMs'>,
): number | null {
  if (failures >= settings.maxAttempts) return null;
  return retryDelayMs({ statusCode: 503, error: null, retryAfterMs: null }, failures, settings) ?? settings.retryDelayMs;
}
