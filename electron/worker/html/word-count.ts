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

  /**
   * Tokens are runs of non-whitespace (\s, as before: ASCII whitespace, NBSP and Unicode spaces), found by two
   * regular expressions rather than a loop per character (word counting was the costliest extractor). Linear:
   * each expression moves forward only.
   */
  feed(text: string): void {
    const tokens = TOKEN;
    const words = WORD_CHAR;
    tokens.lastIndex = 0;
    /** Index of the next word character at or after the current token's start (text.length: none). */
    let nextWord = -1;
    let end = 0;
    for (let m = tokens.exec(text); m !== null; m = tokens.exec(text)) {
      const start = m.index;
      end = tokens.lastIndex;
      if (start > 0) this.boundary();
      this.inToken = true;
      if (!this.tokenHasWordChar) {
        if (nextWord < start) {
          words.lastIndex = start;
          nextWord = words.exec(text)?.index ?? text.length;
        }
        if (nextWord < end) this.tokenHasWordChar = true;
      }
    }
    if (end < text.length) this.boundary();
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

const TOKEN = /\S+/g;
/** A letter or digit (astral ones included: the u flag reads a surrogate pair whole). */
const WORD_CHAR = /[\p{L}\p{N}]/gu;

/** Words of a text, counted as on a page. */
export function countWords(text: string): number {
  const counter = new WordCounter();
  counter.feed(text);
  return counter.total();
}
