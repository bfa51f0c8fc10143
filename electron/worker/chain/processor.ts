// The fetch chain's contract, after Heritrix's processor chains: a URL (CrawlUri) goes through an ordered list of
// processors, each a small module with one job that reads and adds to the URL's result. A processor may end the
// chain for its URL (a redirect is not parsed). The chain is assembled from the crawl's settings (chain.ts), and
// the thread's live step names the processor it is in.
import type { Job, PageFetchResult } from '../../../shared/protocol.ts';
import type { RenderRequest, RenderResult } from '../../../shared/render.ts';
import type { ScopeTest } from '../../../shared/scope.ts';
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { Normaliser } from '../../../shared/url/normalise.ts';
import type { FetchOutcome, Fetcher } from '../fetch-url.ts';

export type JobStep = 'fetching' | 'processing' | 'rendering';

export type PageJob = Extract<Job, { kind: 'page' }>;

/** One URL on its way through the chain (Heritrix's CrawlURI). */
export interface CrawlUri {
  readonly job: PageJob;
  /** Filled in processor by processor; what goes back to the engine. */
  readonly result: PageFetchResult;
  /** The HTTP exchange, once fetched. */
  outcome: FetchOutcome | null;
  /** The page's text, decoded, once an HTML page has been read (for extractors that need the source). */
  html: string | null;
}

/** What the processors of one worker share. */
export interface ChainContext {
  fetcher: Fetcher;
  settings: CrawlSettings;
  scope: ScopeTest;
  /** The crawl's normaliser (shared/url/normalise.ts), for links and redirect targets. */
  normalise: Normaliser;
  /** The thread's step, the processor it is in and the bytes received so far, for the live thread view. */
  report(step: JobStep, processor: string, bytes: number): void;
  /** Renders a page in the engine's render pool (present when the crawl renders). */
  render?: (request: RenderRequest) => Promise<RenderResult>;
}

/** 'next': on to the following processor; 'done': the URL's result is complete. */
export type Verdict = 'next' | 'done';

export interface Processor {
  /** Shown as the thread's processor, e.g. "fetch-http". */
  readonly name: string;
  readonly step: JobStep;
  run(uri: CrawlUri, ctx: ChainContext): Verdict | Promise<Verdict>;
}
