// Resources of the page, for crawls that check them (settings.checkResources): images (src and every srcset
// candidate), scripts (src) and stylesheets (<link rel=stylesheet>). Only in the chain when configured.
import type { ResourceType } from '../../../shared/settings.ts';
import { hasToken, type HtmlExtractor } from './extractor-contract.ts';
import { srcsetUrls } from './images.ts';

export function resourcesExtractor(types: readonly ResourceType[]): HtmlExtractor {
  const images = types.includes('images');
  const scripts = types.includes('scripts');
  const stylesheets = types.includes('stylesheets');
  return {
    name: 'resources',
    tags: ['img', 'source', 'script', 'link'],
    attributesOf: ['img', 'source', 'script', 'link'],
    begin(draft) {
      return {
        open(name, attribs) {
          if (images && (name === 'img' || name === 'source')) {
            if (name === 'img' && attribs.src)
              draft.links.push({ href: attribs.src, anchor: attribs.alt ?? '', kind: 'image', nofollow: false });
            if (attribs.srcset)
              for (const href of srcsetUrls(attribs.srcset)) draft.links.push({ href, anchor: '', kind: 'image', nofollow: false });
          } else if (scripts && name === 'script' && attribs.src) {
            draft.links.push({ href: attribs.src, anchor: '', kind: 'script', nofollow: false });
          } else if (stylesheets && name === 'link' && attribs.href && hasToken(attribs.rel, 'stylesheet')) {
            draft.links.push({ href: attribs.href, anchor: '', kind: 'stylesheet', nofollow: false });
          }
        },
      };
    },
  };
}
