// Fetch: one HTTP exchange for the URL (no redirects followed: each hop is its own URL), with the hardened
// fetcher's timeouts, size cap and error categories (fetch-url.ts). The crawl's custom headers and basic
// authentication are its credentials: they go only to the exact origins of its seeds and allowed hosts, and only
// when the URL is in scope (shared/credentials.ts), so they never leak to a site a page links to, to another port
// or subdomain the scope takes in, or from an https seed to its plain-http twin. Each redirect hop is a URL of its
// own, so a redirect to another origin is fetched without them.
import { makeCredentialTest } from '../../../shared/credentials.ts';
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { ScopeTest } from '../../../shared/scope.ts';
import type { Processor, Verdict } from './processor.ts';

/** The extra request headers for a URL: the custom ones and Authorization, for in-scope URLs of the credential origins only. */
export function requestHeadersFor(
  settings: Pick<CrawlSettings, 'headers' | 'basicAuth' | 'seeds' | 'allowedHosts'>,
  inScope: ScopeTest,
): (url: string) => Record<string, string> | undefined {
  const extra: Record<string, string> = { ...settings.headers };
  if (settings.basicAuth) {
    const { username, password } = settings.basicAuth;
    extra.authorization = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  }
  if (Object.keys(extra).length === 0) return () => undefined;
  const credentialOrigin = makeCredentialTest(settings);
  return (url) => (credentialOrigin(url) && inScope(url) ? extra : undefined);
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
