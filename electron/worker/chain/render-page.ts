// The render processor (issue 16): with rendering on, an HTML page read by extract-html is also loaded in a
// browser, and the crawl's extractors read the DOM its scripts made. The browsers are the engine's (one render
// pool per crawl, bounded, in the parent: electron/engine/render), so this asks the parent and waits; every
// sub-resource the page loads is fetched by the engine too. Raw fields stay as extract-html found them; the
// rendered ones go in result.rendered, links only the rendered DOM has join the page's links marked `rendered`,
// and a script's location change becomes a link of kind "javascript". Custom extraction then reads the rendered DOM.
import { contentOnWire } from '../../../shared/content.ts';
import { RESOURCE_LINK_KINDS, type FoundLink } from '../../../shared/protocol.ts';
import { type RenderedPage, viewportOf } from '../../../shared/render.ts';
import { saysNofollow } from '../../../shared/robots-directives.ts';
import type { CrawlSettings } from '../../../shared/settings.ts';
import { extractHtml } from '../html/extract-page.ts';
import type { HtmlExtractor } from '../html/extractor-contract.ts';
import { LinkMemo } from '../html/link-memo.ts';
import type { Processor, Verdict } from './processor.ts';

export function renderPage(settings: CrawlSettings, extractors: readonly HtmlExtractor[]): Processor {
  const memo = new LinkMemo();
  const options = {
    waitMs: settings.renderWaitMs,
    viewport: viewportOf(settings.viewport),
    userAgent: settings.userAgent,
    blockPatterns: settings.renderBlock,
  };
  return {
    name: 'render',
    step: 'rendering',
    async run(uri, ctx): Promise<Verdict> {
      const r = uri.result;
      if (uri.html === null || ctx.render === undefined || !r.parsed) return 'next';
      ctx.report('rendering', 'render', r.sizeBytes);
      const answer = await ctx.render({
        url: uri.job.url,
        status: r.statusCode ?? 200,
        headers: r.responseHeaders ?? (r.contentType ? { 'content-type': r.contentType } : {}),
        html: uri.html,
        options,
      });
      const rendered: RenderedPage = {
        title: null,
        metaDescription: null,
        h1: null,
        h1Count: 0,
        h2: null,
        h2Count: 0,
        canonical: null,
        metaRobots: null,
        lang: null,
        hreflang: [],
        wordCount: 0,
        renderedLinks: 0,
        jsRedirect: null,
        consoleErrors: answer.consoleErrors,
        pageErrors: answer.pageErrors,
        failedResources: answer.failedResources,
        blockedResources: answer.blockedResources,
        renderMs: answer.renderMs,
        error: answer.error,
      };
      const known = new Set(r.links.map((l) => l.url));
      const added: FoundLink[] = [];
      if (answer.html !== null) {
        ctx.report('processing', 'extract-rendered', r.sizeBytes);
        const page = extractHtml(answer.html, uri.job.url, ctx.scope, ctx.normalise, extractors, memo);
        rendered.title = page.title;
        rendered.metaDescription = page.metaDescription;
        rendered.h1 = page.h1;
        rendered.h1Count = page.h1Count;
        rendered.h2 = page.h2;
        rendered.h2Count = page.h2Count;
        rendered.canonical = page.canonical;
        rendered.metaRobots = page.metaRobots;
        rendered.lang = page.lang;
        rendered.hreflang = page.hreflang;
        rendered.wordCount = page.wordCount;
        // Duplicate content compares what the rendered page shows, as its other fields (issue 18.1).
        if (page.content) r.content = contentOnWire(page.content);
        const nofollow = saysNofollow(page.metaRobots) || saysNofollow(r.xRobotsTag);
        for (const link of page.links) {
          if (known.has(link.url)) continue;
          known.add(link.url);
          const made: FoundLink = { ...link, rendered: true };
          if (nofollow && !(link.kind in RESOURCE_LINK_KINDS)) made.nofollow = true;
          added.push(made);
        }
        uri.html = answer.html;
      }
      if (answer.jsRedirect !== null) {
        const target = ctx.normalise(answer.jsRedirect, uri.job.url);
        if (target !== null) {
          rendered.jsRedirect = target;
          if (!known.has(target)) added.push({ url: target, anchor: '', kind: 'javascript', inScope: ctx.scope(target), rendered: true });
        }
      }
      rendered.renderedLinks = added.length;
      if (added.length > 0) r.links = [...r.links, ...added];
      r.rendered = rendered;
      return 'next';
    },
  };
}
