// The processor chain every URL goes through, after Heritrix's chains: preconditions (in the engine, before the
// URL is handed to a thread), fetch and extract (in the thread's worker process, electron/worker/chain/), and
// disposition (in the engine, when the result comes back). A thread's live step names the processor it is in.
// This list is the map of the chain, for the UI's legend and for people; the modules named are where each runs.

export type ProcessorStage = 'precondition' | 'fetch' | 'extract' | 'disposition';

export interface ProcessorInfo {
  name: string;
  stage: ProcessorStage;
  /** What it does, in a line. */
  does: string;
}

export const PROCESSOR_CHAIN: readonly ProcessorInfo[] = [
  {
    name: 'preconditions',
    stage: 'precondition',
    does: 'scope, robots.txt and politeness: the frontier hands out only URLs in scope, allowed, and whose host may be fetched now (engine/frontier)',
  },
  { name: 'fetch-robots', stage: 'fetch', does: "fetch a host's robots.txt before its first URL (worker/run-job.ts)" },
  {
    name: 'fetch-sitemap',
    stage: 'fetch',
    does: 'fetch and read an XML sitemap as a stream: indexes, gzip, text, the protocol limits (worker/sitemap/run-sitemap.ts)',
  },
  {
    name: 'fetch-http',
    stage: 'fetch',
    does: 'one HTTP exchange with timeouts, a size cap and error categories (worker/chain/fetch-http.ts)',
  },
  { name: 'extract-http-headers', stage: 'extract', does: 'Retry-After and X-Robots-Tag (worker/chain/extract-http-headers.ts)' },
  {
    name: 'extract-location',
    stage: 'extract',
    does: 'the target of a redirect; a redirect is not parsed (worker/chain/extract-location.ts)',
  },
  { name: 'extract-html', stage: 'extract', does: "the page's fields and links, read by the HTML extractors in one pass (worker/html/)" },
  {
    name: 'render',
    stage: 'extract',
    does: "with --render: the page loaded in the engine's browsers, its sub-resources fetched by the crawl (worker/chain/render-page.ts, engine/render)",
  },
  {
    name: 'extract-rendered',
    stage: 'extract',
    does: 'the HTML extractors again, over the DOM the scripts made (worker/chain/render-page.ts)',
  },
  {
    name: 'disposition',
    stage: 'disposition',
    does: 'record the result and link graph, retry or schedule the candidates (engine/frontier)',
  },
];

/** Processor names a thread reports. */
export const PROCESSOR_NAMES = PROCESSOR_CHAIN.map((p) => p.name);
