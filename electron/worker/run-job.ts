// One job from the engine, start to finish inside a worker: fetch, then (for a page) read it, and hand back a
// plain result object. Never throws: anything unexpected becomes the result's error, so one odd page cannot take
// down the other threads sharing this worker process.
import type { Job, JobResult, PageFetchResult, RobotsFetchResult } from '../../shared/protocol.ts';
import type { CrawlSettings } from '../../shared/settings.ts';
import type { ScopeTest } from '../../shared/scope.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';
import type { Normaliser } from '../../shared/url/normalise.ts';
import { decodeHtml, isHtmlContentType, type Fetcher, type FetchOutcome } from './fetch-url.ts';
import { extractHtml } from './extract-html.ts';

export type JobStep = 'fetching' | 'processing';

export interface RunJobDeps {
  fetcher: Fetcher;
  settings: CrawlSettings;
  scope: ScopeTest;
  /** The crawl's normaliser (shared/url/normalise.ts), for links and redirect targets. */
  normalise: Normaliser;
  /** The thread's current step and bytes received so far, for the live thread view. */
  onStep(step: JobStep, bytes: number): void;
}

/** RFC 9309: crawlers should follow at least five consecutive redirects for robots.txt. */
export const ROBOTS_MAX_REDIRECTS = 5;
/** RFC 9309: a crawler must read at least 500 KiB of robots.txt and may ignore the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export async function runJob(job: Job, deps: RunJobDeps): Promise<JobResult> {
  try {
    return job.kind === 'page' ? await runPage(job, deps) : await runRobots(job, deps);
  } catch (err) {
    return failedResult(job, `internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A result for a job that ended without a response (an internal error, or the worker had no settings yet). */
export function failedResult(job: Job, error: string): JobResult {
  if (job.kind === 'robots') {
    return { kind: 'robots', jobId: job.jobId, threadId: job.threadId, url: job.url, statusCode: null, body: null, responseTimeMs: 0, error };
  }
  return { ...emptyPage(job), error };
}

function emptyPage(job: Extract<Job, { kind: 'page' }>): PageFetchResult {
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
    canonical: null,
    wordCount: null,
    redirectUrl: null,
    redirectInScope: false,
    links: [],
    error: null,
    retryAfterMs: null,
    metaRobots: null,
    xRobotsTag: null,
  };
}

/** A robots directive list ("noindex, nofollow", or "googlebot: nofollow") says nofollow. */
export function saysNofollow(directives: string | null): boolean {
  return directives !== null && /(^|[\s,:])(nofollow|none)(?=$|[\s,])/i.test(directives);
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3), in ms from now; null when absent or unusable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

async function runPage(job: Extract<Job, { kind: 'page' }>, deps: RunJobDeps): Promise<PageFetchResult> {
  deps.onStep('fetching', 0);
  const outcome = await deps.fetcher.fetch(job.url, (bytes) => deps.onStep('fetching', bytes));
  deps.onStep('processing', outcome.sizeBytes);

  const result: PageFetchResult = {
    ...emptyPage(job),
    statusCode: outcome.statusCode,
    contentType: outcome.contentType,
    sizeBytes: outcome.sizeBytes,
    responseTimeMs: outcome.responseTimeMs,
    error: outcome.error,
    retryAfterMs: parseRetryAfter(outcome.headers['retry-after']),
    xRobotsTag: outcome.headers['x-robots-tag'] ?? null,
  };

  const redirect = redirectTarget(outcome, job.url, deps.normalise);
  if (redirect !== null) {
    // Not parsed: the target is queued as its own URL and recorded as a separate hop.
    result.redirectUrl = redirect;
    result.redirectInScope = deps.scope(redirect);
    return result;
  }

  // Error pages are recorded but not mined for links: a 404 template links to the whole site on every miss.
  const status = outcome.statusCode;
  if (outcome.error === null && outcome.body !== null && status !== null && status >= 200 && status < 300 && isHtmlContentType(outcome.contentType)) {
    const page = extractHtml(decodeHtml(outcome.body, outcome.contentType), job.url, deps.scope, deps.normalise);
    result.title = page.title;
    result.metaDescription = page.metaDescription;
    result.h1 = page.h1;
    result.canonical = page.canonical;
    result.wordCount = page.wordCount;
    result.metaRobots = page.metaRobots;
    // A page that says nofollow (meta robots or X-Robots-Tag) makes every one of its links nofollow.
    const pageNofollow = saysNofollow(page.metaRobots) || saysNofollow(result.xRobotsTag);
    result.links = pageNofollow ? page.links.map((l) => ({ ...l, nofollow: true })) : page.links;
  }
  return result;
}

/** Absolute Location of a 3xx response in normal form, or null (not a redirect, no or unusable Location). */
function redirectTarget(outcome: FetchOutcome, url: string, normalise: Normaliser): string | null {
  const status = outcome.statusCode;
  if (status === null || status < 300 || status > 399) return null;
  const location = outcome.headers['location'];
  if (!location) return null;
  return normalise(location, url);
}

async function runRobots(job: Extract<Job, { kind: 'robots' }>, deps: RunJobDeps): Promise<RobotsFetchResult> {
  const result: RobotsFetchResult = {
    kind: 'robots',
    jobId: job.jobId,
    threadId: job.threadId,
    url: job.url,
    statusCode: null,
    body: null,
    responseTimeMs: 0,
    error: null,
  };
  deps.onStep('fetching', 0);
  let url = job.url;
  for (let hop = 0; ; hop++) {
    const outcome = await deps.fetcher.fetch(url, (bytes) => deps.onStep('fetching', bytes), {
      keepBody: true,
      keepAtMost: ROBOTS_MAX_BYTES,
    });
    result.responseTimeMs += outcome.responseTimeMs;
    result.statusCode = outcome.statusCode;
    result.error = outcome.error;
    if (outcome.error !== null) break;

    // robots.txt is fetched where it redirects to; it never enters the crawl, so it is only made absolute.
    const next = redirectTarget(outcome, url, canonicalUrl);
    if (next !== null) {
      // RFC 9309 2.3.1.2: past five redirects the file MAY be taken as unavailable (the 4xx case: allow all).
      if (hop >= ROBOTS_MAX_REDIRECTS) {
        result.error = 'too many redirects';
        break;
      }
      url = next;
      continue;
    }
    const status = outcome.statusCode;
    if (status !== null && status >= 200 && status < 300 && outcome.body !== null) {
      // robots.txt is UTF-8 by definition; TextDecoder drops a BOM and replaces invalid bytes.
      result.body = new TextDecoder('utf-8').decode(outcome.body.subarray(0, ROBOTS_MAX_BYTES));
    }
    break;
  }
  deps.onStep('processing', 0);
  return result;
}
