// The first <h1> and <h2> (their text) and how many of each the page has.
import { TextCapture, type HtmlExtractor } from './extractor-contract.ts';

export const headingsExtractor: HtmlExtractor = {
  name: 'headings',
  tags: ['h1', 'h2'],
  attributesOf: [],
  textWithin: ['h1', 'h2'],
  begin(draft) {
    const capture = new TextCapture();
    return {
      open(name) {
        if (name === 'h1') {
          draft.h1Count++;
          if (draft.h1 === undefined && !capture.isOpen('h1')) capture.start('h1', (text) => (draft.h1 ??= text));
        } else if (name === 'h2') {
          draft.h2Count++;
          if (draft.h2 === undefined && !capture.isOpen('h2')) capture.start('h2', (text) => (draft.h2 ??= text));
        }
      },
      text: (source, from, to) => capture.text(source, from, to),
      close: (name) => capture.close(name),
    };
  },
};
