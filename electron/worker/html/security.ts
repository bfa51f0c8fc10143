// Security (issue 18.5): what a page loads over plain HTTP (mixed content on an HTTPS page: images, scripts,
// stylesheets, iframes, media), whether or not the crawl checks resources, and <a target="_blank"> links without rel
// noopener or noreferrer. Only hrefs that can matter are kept (an absolute http: one, or a relative one under an
// http: <base>; every _blank link without the rel), at most SECURITY_CANDIDATES_MAX of each; extract-page.ts resolves
// them and keeps those that are plain HTTP, or to another origin.
import { hasToken, type HtmlExtractor, type PageDraft } from './extractor-contract.ts';

/** Candidates kept per page and list before resolution (a hostile page of 100,000 such links costs no more). */
export const SECURITY_CANDIDATES_MAX = 500;

const HTTP = /^\s*http:/i;
const SCHEME = /^\s*[a-z][a-z0-9+.-]*:/i;

/** Attributes that load a resource, per element. */
const RESOURCE_ATTRIBUTE: Record<string, { attr: string; kind: string }> = {
  img: { attr: 'src', kind: 'image' },
  script: { attr: 'src', kind: 'script' },
  iframe: { attr: 'src', kind: 'iframe' },
  frame: { attr: 'src', kind: 'iframe' },
  video: { attr: 'src', kind: 'media' },
  audio: { attr: 'src', kind: 'media' },
  source: { attr: 'src', kind: 'media' },
  embed: { attr: 'src', kind: 'object' },
};

export const securityExtractor: HtmlExtractor = {
  name: 'security',
  tags: ['a', 'area', 'img', 'script', 'iframe', 'frame', 'video', 'audio', 'source', 'embed', 'link'],
  attributesOf: ['a', 'area', 'img', 'script', 'iframe', 'frame', 'video', 'audio', 'source', 'embed', 'link'],
  begin(draft) {
    const sec: NonNullable<PageDraft['security']> = { httpResources: [], blankLinks: [] };
    draft.security = sec;
    /** Whether an href loads over plain HTTP: absolute http:, or relative under an http: <base>. */
    const loadsHttp = (href: string): boolean =>
      HTTP.test(href) || (draft.baseHref !== undefined && HTTP.test(draft.baseHref) && !SCHEME.test(href));
    const resource = (href: string | undefined, kind: string) => {
      if (href && sec.httpResources.length < SECURITY_CANDIDATES_MAX && loadsHttp(href)) sec.httpResources.push({ href, kind });
    };
    return {
      open(name, attribs) {
        if (name === 'a' || name === 'area') {
          const target = attribs.target;
          if (
            target !== undefined &&
            attribs.href !== undefined &&
            sec.blankLinks.length < SECURITY_CANDIDATES_MAX &&
            target.trim().toLowerCase() === '_blank' &&
            !hasToken(attribs.rel, 'noopener') &&
            !hasToken(attribs.rel, 'noreferrer')
          )
            sec.blankLinks.push(attribs.href);
          return;
        }
        if (name === 'link') {
          if (attribs.href !== undefined && hasToken(attribs.rel, 'stylesheet')) resource(attribs.href, 'stylesheet');
          return;
        }
        const r = RESOURCE_ATTRIBUTE[name];
        if (r === undefined) return;
        resource(attribs[r.attr], r.kind);
        const srcset = attribs.srcset;
        // Only a srcset naming http: (or under an http: base) is split.
        if (srcset !== undefined && (name === 'img' || name === 'source') && (srcset.includes(':') || draft.baseHref !== undefined))
          for (const candidate of srcset.split(/,\s+|,$/)) resource(candidate.trim().split(/\s+/, 1)[0], 'image');
      },
    };
  },
};
