// One job from the engine, start to finish inside a worker: a page goes through the crawl's fetch chain
// (chain/), a robots.txt is fetched (following its redirects), and a plain result object goes back. Never throws: anything unexpected becomes the result's error, so one odd page cannot take
// down the other threads sharing this worker process.
import type { Job, JobResult, PageFetchResult, RobotsFetchResult } from '../../shared/protocol.ts';
import { emptyPage, failedResult } from '../../shared/job-result.ts';
import { ROBOTS_MAX_REDIRECTS } from '../../shared/protocol.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';
import { runChain } from './chain/chain.ts';
import { redirectTarget } from './chain/extract-location.ts';
import type { ChainContext, PageJob, Processor } from './chain/processor.ts';
import { runSitemap } from './sitemap/run-sitemap.ts';

export type { JobStep } from './chain/processor.ts';
export { failedResult };

export interface RunJobDeps extends ChainContext {
  /** The crawl's fetch chain (chain/chain.ts buildFetchChain). */
  chain: readonly Processor[];
  /** The crawl's custom headers and credentials for a URL (in-scope hosts only), for robots.txt as for pages. */
  headersFor?: (url: string) => Record<string, string> | undefined;
}

/** RFC 9309: a crawler must read at least 500 KiB of robots.txt and may ignore the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export async function runJob(job: Job, deps: RunJobDeps): Promise<JobResult> {
  try {
    if (job.kind === 'sitemap') return await runSitemap(job, deps);
    return job.kind === 'page' ? await runPage(job, deps) : await runRobots(job, deps);
  } catch (err) {
    return failedResult(job, `internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function runPage(job: PageJob, deps: RunJobDeps): Promise<PageFetchResult> {
  const uri = { job, result: emptyPage(job), outcome: null, html: null };
  await runChain(deps.chain, uri, deps);
  return uri.result;
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
  deps.report('fetching', 'fetch-robots', 0);
  let url = job.url;
  for (let hop = 0; ; hop++) {
    // A site behind basic auth answers robots.txt only with the credentials (and only its own hosts get them).
    const headers = deps.headersFor?.(url);
    const outcome = await deps.fetcher.fetch(url, (bytes) => deps.report('fetching', 'fetch-robots', bytes), {
      keepBody: true,
      keepAtMost: ROBOTS_MAX_BYTES,
      ...(headers ? { headers } : {}),
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
  deps.report('processing', 'fetch-robots', 0);
  return result;
}
