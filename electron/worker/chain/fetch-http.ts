// Fetch: one HTTP exchange for the URL (no redirects followed: each hop is its own URL), with the hardened
// fetcher's timeouts, size cap and error categories (fetch-url.ts).
import type { Processor, Verdict } from './processor.ts';

export const fetchHttp: Processor = {
  name: 'fetch-http',
  step: 'fetching',
  async run(uri, ctx) {
    const outcome = await ctx.fetcher.fetch(uri.job.url, (bytes) => ctx.report('fetching', 'fetch-http', bytes));
    uri.outcome = outcome;
    Object.assign(uri.result, {
      statusCode: outcome.statusCode,
      contentType: outcome.contentType,
      sizeBytes: outcome.sizeBytes,
      responseTimeMs: outcome.responseTimeMs,
      error: outcome.error,
    });
    return 'next' as Verdict;
  },
};
