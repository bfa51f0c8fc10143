// The extract-html processor: an HTML page's fields and links, read by the crawl's HTML extractors in one pass
// (../html/extract-page.ts). Only 2xx HTML pages that are crawled (not checked only) are read: an error page's
// template links to the whole site on every miss.
import { contentOnWire } from '../../../shared/content.ts';
import { saysNofollow } from '../../../shared/robots-directives.ts';
import { RESOURCE_LINK_KINDS } from '../../../shared/protocol.ts';
import { decodeHtmlPage, isHtmlContentType } from '../fetch-url.ts';
import { extractHtml } from '../html/extract-page.ts';
import type { HtmlExtractor } from '../html/extractor-contract.ts';
import { LinkMemo } from '../html/link-memo.ts';
import type { Processor } from './processor.ts';
import { securityHeaders } from './extract-http-headers.ts';

export function extractHtmlProcessor(extractors: readonly HtmlExtractor[]): Processor {
  // A chain serves one crawl's settings (one normaliser, one scope): its pages share their link resolutions.
  const memo = new LinkMemo();
  return {
    name: 'extract-html',
    step: 'processing',
    run(uri, ctx) {
      const outcome = uri.outcome;
      const status = outcome?.statusCode ?? null;
      if (uri.job.checkOnly || outcome === null || outcome.error !== null || outcome.body === null) return 'next';
      if (status === null || status < 200 || status > 299 || !isHtmlContentType(outcome.contentType)) return 'next';
      ctx.report('processing', 'extract-html', outcome.sizeBytes);
      const { html, ascii } = decodeHtmlPage(outcome.body, outcome.contentType);
      uri.html = html;
      const page = extractHtml(html, uri.job.url, ctx.scope, ctx.normalise, extractors, memo, ascii);
      const r = uri.result;
      // The page's fields carry the result's names; its links are settled below.
      const { links, security, content, ...fields } = page;
      Object.assign(r, fields, { parsed: true });
      if (content) r.content = contentOnWire(content);
      // Security (issue 18.5): the headers that protect a page, beside what its HTML loads and links to.
      r.security = { ...securityHeaders(outcome.headers), ...security };
      // A page that says nofollow (meta robots or X-Robots-Tag) makes its links nofollow; its own resources
      // (images, scripts, stylesheets) are not links and are still checked.
      const pageNofollow = saysNofollow(page.metaRobots) || saysNofollow(r.xRobotsTag);
      r.links = pageNofollow ? links.map((l) => (l.kind in RESOURCE_LINK_KINDS ? l : { ...l, nofollow: true })) : links;
      return 'next';
    },
  };
}
