// The result of a job that ended without a response: built by the worker (an internal error, a worker not ready)
// and by the engine's watchdog (a job that ran past its deadline: "processing timeout"). Plain data, no I/O.
import type { Job, JobResult, PageFetchResult, SitemapFetchResult } from './protocol.ts';

/** A result for a job that ended without a response (an internal error, or the worker had no settings yet). */
export function failedResult(job: Job, error: string): JobResult {
  if (job.kind === 'robots') {
    return {
      kind: 'robots',
      jobId: job.jobId,
      threadId: job.threadId,
      url: job.url,
      statusCode: null,
      body: null,
      responseTimeMs: 0,
      error,
    };
  }
  if (job.kind === 'sitemap') return emptySitemap(job, error);
  return { ...emptyPage(job), error };
}

export function emptyPage(job: Extract<Job, { kind: 'page' }>): PageFetchResult {
  return {
    kind: 'page',
    jobId: job.jobId,
    threadId: job.threadId,
    url: job.url,
    statusCode: null,
    contentType: null,
    sizeBytes: 0,
    responseTimeMs: 0,
    title: null,
    metaDescription: null,
    h1: null,
    h1Count: null,
    h2: null,
    h2Count: null,
    canonical: null,
    lang: null,
    hreflang: [],
    metaRefresh: null,
    wordCount: null,
    redirectUrl: null,
    redirectInScope: false,
    links: [],
    unfetchableLinks: [],
    parsed: false,
    extracted: null,
    error: null,
    retryAfterMs: null,
    metaRobots: null,
    xRobotsTag: null,
    responseHeaders: null,
  };
}

/** A sitemap's result before anything was read from it (a fetched sitemap's, a local file's: jobId 0), or a failed one's. */
export function emptySitemap(
  job: Pick<Extract<Job, { kind: 'sitemap' }>, 'jobId' | 'threadId' | 'url'>,
  error: string | null = null,
): SitemapFetchResult {
  return {
    kind: 'sitemap',
    jobId: job.jobId,
    threadId: job.threadId,
    url: job.url,
    statusCode: null,
    responseTimeMs: 0,
    sizeBytes: 0,
    format: null,
    urls: [],
    invalid: 0,
    overUrlLimit: false,
    overSizeLimit: false,
    error,
  };
}
