// Words of visible text: whitespace-separated tokens with at least one letter or digit (so "|" or "—" are not
// words). Text in script, style, head and the like is left out (ParseState.hidden); text nodes run together
// unless a block boundary separates them ("<b>foo</b>bar" is one word).
import type { HtmlExtractor } from './extractor-contract.ts';

/** Elements that do not break words. Anything else separates words. */
export const INLINE = new Set([
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
      text(source, from, to, state) {
        if (!state.hidden) words.feed(source, from, to);
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
   * Tokens are runs of non-whitespace (\s: ASCII whitespace, NBSP and the Unicode spaces). One pass over char codes
   * with the state in locals: ASCII (nearly all of a page's text) is classified by a table, other characters by a
   * regular expression. Word counting was the costliest extractor: a method call per character, and then a regular
   * expression match per token (an array each, for the garbage collector), cost 5 to 10 times this.
   */
  feed(text: string, from = 0, to = text.length): void {
    let inToken = this.inToken;
    let hasWordChar = this.tokenHasWordChar;
    let count = this.count;
    for (let i = from, n = to; i < n; i++) {
      const c = text.charCodeAt(i);
      let kind: number;
      if (c < 128) kind = ASCII_KIND[c]!;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        // An astral character (a surrogate pair) is read whole; none is whitespace.
        kind = WORD_CHAR.test(text.slice(i, i + 2)) ? WORD : OTHER;
        i++;
      } else kind = SPACE_CHAR.test(text[i]!) ? SPACE : WORD_CHAR.test(text[i]!) ? WORD : OTHER;
      if (kind === SPACE) {
        if (inToken && hasWordChar) count++;
        inToken = false;
        hasWordChar = false;
      } else {
        inToken = true;
        if (kind === WORD) hasWordChar = true;
      }
    }
    this.inToken = inToken;
    this.tokenHasWordChar = hasWordChar;
    this.count = count;
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

const SPACE = 0;
const WORD = 1;
const OTHER = 2;
/** The kind of each ASCII character: whitespace (\s), a letter or digit, or anything else. */
const ASCII_KIND = Uint8Array.from({ length: 128 }, (_, c) =>
  /\s/.test(String.fromCharCode(c)) ? SPACE : /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? WORD : OTHER,
);
/** A letter or digit (astral ones included: the u flag reads a surrogate pair whole). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const SPACE_CHAR = /^\s$/;

/** Words of a text, counted as on a page. */
export function countWords(text: string): number {
  const counter = new WordCounter();
  counter.feed(text);
  return counter.total();
}
