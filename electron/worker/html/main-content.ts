// The page's main text, for duplicate content (issue 18.1, shared/content.ts): the visible text outside the areas
// left out (nav, header and footer by default; script, style, head and the like are never text), or only inside the
// areas included when the crawl names some. Elements by name cost nothing extra; a .class or #id makes the reader
// read every tag's attributes (that costs time on every tag). The text is kept only up to MAIN_TEXT_MAX characters,
// as slices of the page, with a line break at each block boundary; at the end it is fingerprinted (words, exact
// hash, MinHash signature) and compressed for the detail pane's diff.
import { constants, deflateRawSync } from 'node:zlib';
import { contentSelectors, fingerprint, MAIN_TEXT_MAX, signatureBytes, type ContentSelectors } from '../../../shared/content.ts';
import type { HtmlExtractor } from './extractor-contract.ts';
import { INLINE } from './word-count.ts';

export interface ContentArea {
  include: readonly string[];
  exclude: readonly string[];
}

const matches = (s: ContentSelectors, name: string, attribs: Record<string, string>): boolean => {
  if (s.elements.has(name)) return true;
  if (s.ids.size > 0 && attribs.id !== undefined && s.ids.has(attribs.id)) return true;
  if (s.classes.size > 0 && attribs.class !== undefined) {
    for (const c of attribs.class.split(/\s+/)) if (s.classes.has(c)) return true;
  }
  return false;
};

export function mainContentExtractor(area: ContentArea): HtmlExtractor {
  const include = contentSelectors(area.include);
  const exclude = contentSelectors(area.exclude);
  const byAttribute = include.classes.size + include.ids.size + exclude.classes.size + exclude.ids.size > 0;
  const including = area.include.length > 0;
  return {
    name: 'main-content',
    // Element names need no attributes; a class or id needs every tag's.
    ...(byAttribute ? {} : { attributesOf: [] }),
    begin(draft) {
      /** Per open element: 1 it starts an area left out, 2 it starts an area included. */
      const flags: number[] = [];
      let excluded = 0;
      let included = 0;
      const chunks: string[] = [];
      let length = 0;
      return {
        open(name, attribs) {
          let f = 0;
          if (matches(exclude, name, attribs)) {
            f = 1;
            excluded++;
          }
          if (including && matches(include, name, attribs)) {
            f |= 2;
            included++;
          }
          flags.push(f);
          if (length < MAIN_TEXT_MAX && !INLINE.has(name)) {
            chunks.push('\n');
            length++;
          }
        },
        text(source, from, to, state) {
          if (state.hidden || excluded > 0 || (including && included === 0) || length >= MAIN_TEXT_MAX) return;
          const end = Math.min(to, from + (MAIN_TEXT_MAX - length));
          chunks.push(from === 0 && end === source.length ? source : source.slice(from, end));
          length += end - from;
        },
        close(name) {
          const f = flags.pop() ?? 0;
          if (f & 1) excluded--;
          if (f & 2) included--;
          if (length < MAIN_TEXT_MAX && !INLINE.has(name)) {
            chunks.push('\n');
            length++;
          }
        },
        end() {
          const text = chunks
            .join('')
            .replace(/[^\S\n]+/g, ' ')
            .replace(/ ?\n[\s]*/g, '\n')
            .trim();
          const f = fingerprint(text);
          draft.content = {
            words: f.words,
            hash: f.hash,
            minhash: f.signature === null ? null : signatureBytes(f.signature),
            // Huffman coding only: half the time of deflate's level 1 on the manual (50 against 100 µs a page), for a
            // text 60% of its size rather than 40% (BENCHMARKS.md).
            text: text === '' ? null : deflateRawSync(text, { level: 1, strategy: constants.Z_HUFFMAN_ONLY }),
          };
        },
      };
    },
  };
}
