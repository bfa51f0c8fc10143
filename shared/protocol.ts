// Messages between the engine (parent) and its worker processes. Both ends type-check against this file;
// structured-clone safe (plain objects, strings and numbers only).
import type { CrawlSettings } from './settings.ts';

export type Job =
  | { kind: 'page'; jobId: number; threadId: number; url: string; depth: number }
  | { kind: 'robots'; jobId: number; threadId: number; url: string };

export interface Outlink {
  /** Canonical absolute URL. */
  url: string;
  /** Anchor text, whitespace-collapsed and cut to ANCHOR_MAX characters. */
  anchor: string;
  inScope: boolean;
  /** rel="nofollow" on every link to it on the page, or the page says nofollow (meta robots, X-Robots-Tag). */
  nofollow?: boolean;
}

export const ANCHOR_MAX = 200;

export interface PageFetchResult {
  kind: 'page';
  jobId: number;
  threadId: number;
  /** The URL as fetched (the job's URL). */
  url: string;
  statusCode: number | null;
  contentType: string | null;
  /** Body bytes as received on the wire. */
  sizeBytes: number;
  /** Time from sending the request to the end of the body. */
  responseTimeMs: number;
  title: string | null;
  metaDescription: string | null;
  h1: string | null;
  canonical: string | null;
  wordCount: number | null;
  /** Canonical Location of a 3xx response, if any. */
  redirectUrl: string | null;
  redirectInScope: boolean;
  /** Distinct links found on the page, in document order. */
  links: Outlink[];
  /** A person-readable error ("timeout", "connection refused", "too large"...), or null. */
  error: string | null;
  /** The response's Retry-After, in ms from now, when it had a usable one. */
  retryAfterMs: number | null;
  /** <meta name="robots" content> as written (e.g. "noindex, nofollow"), or null. */
  metaRobots: string | null;
  /** The X-Robots-Tag response header, or null. */
  xRobotsTag: string | null;
}

export interface RobotsFetchResult {
  kind: 'robots';
  jobId: number;
  threadId: number;
  url: string;
  statusCode: number | null;
  body: string | null;
  responseTimeMs: number;
  error: string | null;
}

export type JobResult = PageFetchResult | RobotsFetchResult;

export interface ThreadStepReport {
  threadId: number;
  jobId: number;
  step: 'fetching' | 'processing';
  bytes: number;
}

/**
 * Workers batch step reports on this period: a UI shows about ten updates a second, so a step shorter than
 * this is never worth a message, and a fast crawl does not pay an IPC write per step.
 */
export const STEP_REPORT_MS = 100;

export type ParentToWorker =
  | { t: 'init'; workerName: string; settings: CrawlSettings }
  | { t: 'job'; job: Job }
  | { t: 'shutdown' };

export type WorkerToParent =
  | { t: 'ready'; pid: number }
  /** Current steps of the worker's busy threads, sent at most every STEP_REPORT_MS, only what changed. */
  | { t: 'steps'; steps: ThreadStepReport[] }
  | { t: 'result'; result: JobResult }
  | { t: 'fatal'; message: string };
