// Extract a redirect's target. A redirect ends the chain: it is not parsed, and its target is queued as a URL of
// its own (the engine records every hop and cuts long chains and loops).
import type { Normaliser } from '../../../shared/url/normalise.ts';
import type { FetchOutcome } from '../fetch-url.ts';
import type { Processor } from './processor.ts';

export const extractLocation: Processor = {
  name: 'extract-location',
  step: 'processing',
  run(uri, ctx) {
    if (uri.outcome === null) return 'next';
    const target = redirectTarget(uri.outcome, uri.job.url, ctx.normalise);
    if (target === null) return 'next';
    uri.result.redirectUrl = target;
    uri.result.redirectInScope = ctx.scope(target);
    return 'done';
  },
};

/** Absolute Location of a 3xx response in normal form, or null (not a redirect, no or unusable Location). */
export function redirectTarget(outcome: FetchOutcome, url: string, normalise: Normaliser): string | null {
  const status = outcome.statusCode;
  if (status === null || status < 300 || status > 399) return null;
  const location = outcome.headers['location'];
  if (!location) return null;
  return normalise(location, url);
}
