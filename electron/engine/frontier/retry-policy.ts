// When a failed fetch is tried again, and after how long: network trouble and an overloaded server are worth
// another attempt (with exponential backoff and jitter, or the server's own Retry-After); a verdict is not.
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { PageFetchResult } from '../../../shared/protocol.ts';

/** Longest wait between two attempts from backoff alone. */
const MAX_BACKOFF_MS = 60_000;

/** Errors that say something about the page, not about the moment: another attempt would end the same way. */
// "processing timeout": the job spun past its deadline and its worker was killed (pool/watchdog.ts); another
// attempt would spin again and take a worker down with it.
const FINAL_ERRORS = /^(too large|invalid response|internal error|DNS lookup failed|processing timeout)/;

/** Statuses that mean "not now": server errors, overload, rate limiting. 501 is a verdict. */
function retryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status !== 501);
}

/**
 * Ms to wait before attempt number `attemptsMade + 1`, or null when this result is final (not retryable, or
 * settings.maxAttempts reached).
 */
export function retryDelayMs(
  result: Pick<PageFetchResult, 'statusCode' | 'error' | 'retryAfterMs'>,
  attemptsMade: number,
  settings: Pick<CrawlSettings, 'maxAttempts' | 'retryDelayMs' | 'maxRetryAfterMs'>,
  random: () => number = Math.random,
): number | null {
  if (attemptsMade >= settings.maxAttempts) return null;
  const status = result.statusCode;
  // An error after the status line (a truncated body, a reset mid-body) is network trouble like any other.
  const retryable = result.error !== null ? !FINAL_ERRORS.test(result.error) : status !== null && retryableStatus(status);
  if (!retryable) return null;
  const backoff = Math.min(MAX_BACKOFF_MS, settings.retryDelayMs * 2 ** (attemptsMade - 1) * (0.5 + random()));
  const asked =
    (status === 429 || status === 503) && result.retryAfterMs !== null ? Math.min(result.retryAfterMs, settings.maxRetryAfterMs) : 0;
  return Math.round(Math.max(backoff, asked));
}
