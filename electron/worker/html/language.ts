// The page's language: the lang attribute of <html>.
import type { HtmlExtractor } from './extractor-contract.ts';

export const languageExtractor: HtmlExtractor = {
  name: 'language',
  tags: ['html'],
  attributesOf: ['html'],
  begin(draft) {
    return {
      open(name, attribs) {
        if (name === 'html' && draft.lang === undefined && attribs.lang !== undefined) draft.lang = attribs.lang;
      },
    };
  },
};
