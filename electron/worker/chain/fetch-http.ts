// Fetch: one HTTP exchange for the URL (no redirects followed: each hop is its own URL), with the hardened
// fetcher's timeouts, size cap and error categories (fetch-url.ts). The crawl's custom headers and basic
// authentication go only to hosts in its scope: credentials must not leak to every site a page links to.
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { ScopeTest } from '../../../shared/scope.ts';
import type { Processor, Verdict } from './processor.ts';

/** The extra request headers for a URL: the custom ones and Authorization, for hosts in scope only. */
export function requestHeadersFor(
  settings: Pick<CrawlSettings, 'headers' | 'basicAuth'>,
  inScope: ScopeTest,
): (url: string) => Record<string, string> | undefined {
  const extra: Record<string, string> = { ...settings.headers };
  if (settings.basicAuth) {
    const { username, password } = settings.basicAuth;
    extra.authorization = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  }
  if (Object.keys(extra).length === 0) return () => undefined;
  return (url) => (inScope(url) ? extra : undefined);
}

export function fetchHttp(headersFor: (url: string) => Record<string, string> | undefined): Processor {
  return {
    name: 'fetch-http',
    step: 'fetching',
    async run(uri, ctx) {
      const headers = headersFor(uri.job.url);
      const outcome = await ctx.fetcher.fetch(
        uri.job.url,
        (bytes) => ctx.report('fetching', 'fetch-http', bytes),
        headers ? { headers } : {},
      );
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
}
