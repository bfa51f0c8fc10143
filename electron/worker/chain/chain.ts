// The fetch chain of a crawl's worker, assembled from its settings: fetch, then the extractors. Preconditions
// (scope, robots.txt, politeness) run in the engine before a URL is handed out, and disposition (recording the
// result and link graph, scheduling candidates) after it comes back: see shared/processors.ts for the whole.
import type { CrawlSettings } from '../../../shared/settings.ts';
import { htmlExtractorsFor } from '../html/crawl-extractors.ts';
import { extractHtmlProcessor } from './extract-html.ts';
import { extractHttpHeaders } from './extract-http-headers.ts';
import { extractLocation } from './extract-location.ts';
import { fetchHttp, requestHeadersFor } from './fetch-http.ts';
import { makeScope } from '../../../shared/scope.ts';
import { extractCustom } from './extract-custom.ts';
import { renderPage } from './render-page.ts';
import type { ChainContext, CrawlUri, Processor } from './processor.ts';

export function buildFetchChain(settings: CrawlSettings): Processor[] {
  const extractors = htmlExtractorsFor(settings);
  const chain = [
    fetchHttp(requestHeadersFor(settings, makeScope(settings))),
    extractHttpHeaders,
    extractLocation,
    extractHtmlProcessor(extractors),
  ];
  if (settings.render) chain.push(renderPage(settings, extractors));
  if (settings.extraction.length > 0) chain.push(extractCustom(settings.extraction));
  return chain;
}

/** Runs the URL through the chain, reporting each processor as the thread's step. */
export async function runChain(chain: readonly Processor[], uri: CrawlUri, ctx: ChainContext): Promise<void> {
  for (const processor of chain) {
    ctx.report(processor.step, processor.name, uri.result.sizeBytes);
    if ((await processor.run(uri, ctx)) === 'done') return;
  }
}
