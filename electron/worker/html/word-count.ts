// Words of visible text: whitespace-separated tokens with at least one letter or digit (so "|" or "—" are not
// words). Text in script, style, head and the like is left out (ParseState.hidden); text nodes run together
// unless a block boundary separates them ("<b>foo</b>bar" is one word).
import type { HtmlExtractor } from './extractor-contract.ts';

/** Elements that do not break words. Anything else separates words. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
  'img',
]);

export const wordCountExtractor: HtmlExtractor = {
  name: 'word-count',
  attributesOf: [],
  begin(draft) {
    const words = new WordCounter();
    return {
      open(name) {
        if (!INLINE.has(name)) words.boundary();
      },
      text(text, state) {
        if (!state.hidden) words.feed(text);
      },
      close(name) {
        if (!INLINE.has(name)) words.boundary();
      },
      end() {
        draft.words = words.total();
      },
    };
  },
};

export class WordCounter {
  private count = 0;
  private inToken = false;
  private tokenHasWordChar = false;

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || (c > 0x7f && /\s/.test(text[i]!))) {
        this.boundary();
        continue;
      }
      this.inToken = true;
      if (!this.tokenHasWordChar && isWordChar(c, text, i)) this.tokenHasWordChar = true;
    }
  }

  boundary(): void {
    if (this.inToken && this.tokenHasWordChar) this.count++;
    this.inToken = false;
    this.tokenHasWordChar = false;
  }

  total(): number {
    this.boundary();
    return this.count;
  }
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordChar(c: number, text: string, i: number): boolean {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  if (c < 0x80) return false;
  // Astral characters (a surrogate pair) are tested whole.
  const ch = c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!;
  return WORD_CHAR.test(ch);
}

/** Words of a text, counted as on a page. */
export function countWords(text: string): number {
  const counter = new WordCounter();
  counter.feed(text);
  return counter.total();
}
