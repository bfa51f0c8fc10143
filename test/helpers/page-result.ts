// A worker's answer for a fetched HTML page, as the frontier tests hand it to a store: status 200, the given links
// (each in scope or not by the test's rule), nothing else extracted. One builder for every frontier test.
import type { PageFetchResult } from '../../shared/protocol.ts';

export interface PageResultOptions {
  /** Whether a link is in the crawl's scope, as the worker's scope rule would say. */
  inScope: (url: string) => boolean;
  /** Fields that differ from a plain 200 page. */
  extra?: Partial<PageFetchResult>;
}

export function fetchedPage(url: string, links: string[], { inScope, extra = {} }: PageResultOptions): PageFetchResult {
  return {
    kind: 'page',
    jobId: 1,
    threadId: 1,
    url,
    statusCode: 200,
    contentType: 'text/html',
    sizeBytes: 10,
    responseTimeMs: 5,
    title: null,
    metaDescription: null,
    h1: null,
    h1Count: 0,
    h2: null,
    h2Count: 0,
    canonical: null,
    lang: null,
    hreflang: [],
    metaRefresh: null,
    wordCount: 0,
    redirectUrl: null,
    redirectInScope: false,
    links: links.map((u) => ({ url: u, anchor: '', kind: 'a' as const, inScope: inScope(u) })),
    unfetchableLinks: [],
    parsed: true,
    extracted: null,
    responseHeaders: null,
    error: null,
    retryAfterMs: null,
    metaRobots: null,
    xRobotsTag: null,
    ...extra,
  };
}
