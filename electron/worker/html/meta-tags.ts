// <meta> tags: description, robots directives and http-equiv refresh (the first of each).
import type { HtmlExtractor } from './extractor-contract.ts';

export const metaTagsExtractor: HtmlExtractor = {
  name: 'meta-tags',
  tags: ['meta'],
  attributesOf: ['meta'],
  begin(draft) {
    return {
      open(name, attribs) {
        if (name !== 'meta' || attribs.content === undefined) return;
        const metaName = attribs.name?.toLowerCase();
        if (metaName === 'description') draft.metaDescription ??= attribs.content;
        else if (metaName === 'robots') draft.metaRobots ??= attribs.content;
        if (attribs['http-equiv']?.toLowerCase() === 'refresh') draft.refresh ??= attribs.content;
      },
    };
  },
};

/**
 * The URL of a meta refresh's content ("5; url=/next", "0;URL='x'"), or null when it only reloads the page.
 * After the HTML standard's "shared declarative refresh steps", loosely.
 */
export function refreshTarget(content: string): string | null {
  const m = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let url = m?.[1]?.trim() ?? '';
  if (/^['"]/.test(url)) url = url.slice(1).replace(/['"].*$/s, '');
  return url === '' ? null : url;
}
