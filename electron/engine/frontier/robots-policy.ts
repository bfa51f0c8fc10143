// What robots.txt decides, the same in both stores: whether a host's robots.txt is fetched before its URLs, what
// becomes of a URL it disallows, and when a robots.txt fetch that failed is tried again (RFC 9309).
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { RobotsFetchResult } from '../../../shared/protocol.ts';
import { MAX_WORKER_CRASHES, RobotsState } from './model.ts';
import { retryDelayMs } from './retry-policy.ts';
import type { RobotsRules } from './robots-rules.ts';

/** Whether a host's URLs wait for its robots.txt (its rules are not known yet and the crawl reads them). */
export function awaitsRobots(settings: Pick<CrawlSettings, 'robots'>, robotsState: number): boolean {
  return settings.robots !== 'ignore' && robotsState !== RobotsState.known;
}

/**
 * What the host's rules make of one of its URLs: fetched; fetched and marked (mode "report"); or not fetched and
 * recorded as failed with `reason` (mode "respect"): rules.blockedReason, or why the URL could not be evaluated.
 */
export function robotsVerdict(
  rules: RobotsRules | null,
  url: string,
  settings: Pick<CrawlSettings, 'robots'>,
): { verdict: 'allowed' | 'reported' | 'blocked'; reason: string | null } {
  const reason = rules === null ? null : rules.refusal(url);
  if (reason === null) return { verdict: 'allowed', reason };
  return { verdict: settings.robots === 'respect' ? 'blocked' : 'reported', reason };
}

/**
 * Whether a robots.txt fetch failed for the moment: a 5xx or no response means "crawl nothing for now", tried
 * again after a backoff (the host's URLs wait in the queue). So does a 2xx whose body did not arrive whole (reset
 * or cut mid-body): RFC 9309 2.3.1.4 takes an incomplete fetch as unreachable, never as an empty file (allow all).
 * A name that does not resolve is a verdict (as for pages, see retry-policy.ts), not a moment's trouble; so is a job
 * that ran past its deadline (the watchdog killed its worker; another attempt would do it again).
 */
export function robotsFetchFailed(result: Pick<RobotsFetchResult, 'statusCode' | 'error'>): boolean {
  if (result.statusCode === null) return !FINAL_ROBOTS_ERRORS.test(result.error ?? '');
  return result.statusCode >= 500 || (result.statusCode < 300 && result.statusCode >= 200 && result.error !== null);
}

/** Fetch errors that are a verdict on a robots.txt at once (see robotsFetchFailed). */
const FINAL_ROBOTS_ERRORS = /^(DNS lookup failed|processing timeout)/;

/** The error a robots.txt keeps when its fetch took its worker down MAX_WORKER_CRASHES times. */
export const ROBOTS_WORKER_CRASHED = 'worker crashed';

/**
 * Whether a robots.txt fetch whose worker died, with `failures` failed fetches of it now (this one counted), is
 * given up: after MAX_WORKER_CRASHES, as a URL would be, its host's robots.txt is taken as unreachable (its URLs are
 * blocked, "robots.txt unreachable (worker crashed)") instead of being fetched in a loop.
 */
export function robotsCrashSettles(failures: number): boolean {
  return failures >= MAX_WORKER_CRASHES;
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
