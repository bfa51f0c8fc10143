// <link> elements that name other pages: rel=canonical, next, prev and alternate (with hreflang, a language
// version of the page). Stylesheets are resources (resources.ts).
import { hasToken, type HtmlExtractor } from './extractor-contract.ts';

export const linkRelationsExtractor: HtmlExtractor = {
  name: 'link-relations',
  tags: ['link'],
  attributesOf: ['link'],
  begin(draft) {
    return {
      open(name, attribs) {
        if (name !== 'link' || attribs.href === undefined || !attribs.rel) return;
        const href = attribs.href;
        const rel = attribs.rel;
        if (hasToken(rel, 'canonical')) {
          if (draft.canonicalHref === undefined) {
            draft.canonicalHref = href;
            draft.links.push({ href, anchor: '', kind: 'canonical', nofollow: false });
          }
        } else if (hasToken(rel, 'next')) {
          draft.links.push({ href, anchor: '', kind: 'next', nofollow: false });
        } else if (hasToken(rel, 'prev') || hasToken(rel, 'previous')) {
          draft.links.push({ href, anchor: '', kind: 'prev', nofollow: false });
        } else if (hasToken(rel, 'alternate') && !hasToken(rel, 'stylesheet')) {
          const lang = attribs.hreflang?.trim();
          if (lang) draft.hreflang.push({ lang, href });
          draft.links.push({ href, anchor: '', kind: lang ? 'hreflang' : 'alternate', nofollow: false });
        }
      },
    };
  },
};
