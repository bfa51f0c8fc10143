// Extract from the response head what the engine acts on: Retry-After (for the retry policy) and X-Robots-Tag
// (indexability and nofollow).
import type { Processor } from './processor.ts';

export const extractHttpHeaders: Processor = {
  name: 'extract-http-headers',
  step: 'processing',
  run(uri) {
    const headers = uri.outcome?.headers ?? {};
    uri.result.retryAfterMs = parseRetryAfter(headers['retry-after']);
    uri.result.xRobotsTag = headers['x-robots-tag'] ?? null;
    return 'next';
  },
};

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3), in ms from now; null when absent or unusable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
