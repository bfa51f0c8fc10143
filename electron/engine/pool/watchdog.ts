// The pool's watchdog: every job has a deadline, its fetch timeouts plus the crawl's processing budget. A worker
// process runs several threads on one event loop, so a job that spins there (a CPU-bound loop in parsing or
// extraction) holds every thread of that process and never lets its own fetch timers fire: only the parent can end
// it. These are the plain decisions; worker-pool.ts acts on them (kills the process, replaces it, and the
// controller records the job as "processing timeout").
import { ROBOTS_MAX_REDIRECTS } from '../../../shared/protocol.ts';
import type { CrawlSettings } from '../../../shared/settings.ts';

/** The error recorded for a URL whose job ran past its deadline (never tried again: retry-policy.ts). */
export const PROCESSING_TIMEOUT = 'processing timeout';

export type DeadlineSettings = Pick<CrawlSettings, 'responseTimeoutMs' | 'processingBudgetMs'>;

/**
 * The longest its fetches may take. The whole-response timer (responseTimeoutMs) starts before connecting and
 * covers the connection, the first byte and the body, so it bounds one fetch; a robots.txt job follows up to
 * ROBOTS_MAX_REDIRECTS redirects, one fetch each.
 */
export function fetchAllowanceMs(kind: 'page' | 'robots' | 'sitemap', settings: DeadlineSettings): number {
  const fetches = kind === 'page' ? 1 : ROBOTS_MAX_REDIRECTS + 1;
  return fetches * settings.responseTimeoutMs;
}

/**
 * What the watchdog makes of a job `elapsedMs` after it was handed to its thread:
 *   'on time'  within its fetch allowance;
 *   'overdue'  past it: any fetch is over by now, so the job is spending its processing budget (the grid flags the
 *              thread);
 *   'overran'  past its deadline (allowance + budget): its worker is killed and the URL recorded as
 *              "processing timeout".
 */
export type WatchdogVerdict = 'on time' | 'overdue' | 'overran';

export function watchdogVerdict(kind: 'page' | 'robots' | 'sitemap', elapsedMs: number, settings: DeadlineSettings): WatchdogVerdict {
  const allowance = fetchAllowanceMs(kind, settings);
  if (elapsedMs > allowance + settings.processingBudgetMs) return 'overran';
  if (elapsedMs > allowance) return 'overdue';
  return 'on time';
}

/** How often the pool looks at its busy threads: often enough that a kill lands soon after a deadline. */
export function watchdogTickMs(settings: DeadlineSettings): number {
  return Math.min(1_000, Math.max(50, Math.floor(settings.processingBudgetMs / 4)));
}
