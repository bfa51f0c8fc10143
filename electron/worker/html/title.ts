// The document's <title>: the first one outside an inline SVG (an SVG's <title> is a tooltip).
import { TextCapture, type HtmlExtractor } from './extractor-contract.ts';

export const titleExtractor: HtmlExtractor = {
  name: 'title',
  tags: ['title'],
  attributesOf: [],
  textWithin: ['title'],
  begin(draft) {
    const capture = new TextCapture();
    return {
      open(name, _attribs, state) {
        if (name === 'title' && draft.title === undefined && !state.inSvg && !capture.isOpen('title')) {
          capture.start('title', (text) => (draft.title ??= text));
        }
      },
      text: (source, from, to) => capture.text(source, from, to),
      close: (name) => capture.close(name),
    };
  },
};
