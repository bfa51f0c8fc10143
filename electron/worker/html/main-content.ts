// The page's main text, for duplicate content (issue 18.1, shared/content.ts): the visible text outside the areas
// left out (nav, header and footer by default; script, style, head and the like are never text), or only inside the
// areas included when the crawl names some. Elements by name cost nothing extra; a .class or #id makes the reader
// read every tag's attributes (that costs time on every tag). The text streams through MainTextStream, which keeps it
// (spaces collapsed, a line break at each block boundary, up to MAIN_TEXT_MAX characters) and fingerprints it in the
// same pass over its char codes; the text is sent as it is (no compression in the worker, the crawl's critical path).
// It also counts the page's words (draft.words, as word-count.ts does), so each character is read once for both: a
// crawl runs it in place of the word count (crawl-extractors.ts).
import { contentSelectors, MainTextStream, signatureBytes, type ContentSelectors } from '../../../shared/content.ts';
import type { HtmlExtractor } from './extractor-contract.ts';
import { INLINE } from './word-count.ts';

export interface ContentArea {
  include: readonly string[];
  exclude: readonly string[];
}

/** What a tag is to the extractor, by name (bits): a block boundary, an area left out, an area included. */
const BLOCK = 1;
const EXCLUDED = 2;
const INCLUDED = 4;
/** Tag names whose bits are remembered (a site names its tags; past this many they are worked out each time). */
const NAME_CACHE_MAX = 2000;

const matchesAttributes = (s: ContentSelectors, attribs: Record<string, string>): boolean => {
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
  const bitsByName = new Map<string, number>();
  const bitsOf = (name: string): number => {
    let bits = bitsByName.get(name);
    if (bits === undefined) {
      bits = (INLINE.has(name) ? 0 : BLOCK) | (exclude.elements.has(name) ? EXCLUDED : 0) | (include.elements.has(name) ? INCLUDED : 0);
      if (bitsByName.size < NAME_CACHE_MAX) bitsByName.set(name, bits);
    }
    return bits;
  };
  return {
    name: 'main-content',
    // Element names need no attributes; a class or id needs every tag's.
    ...(byAttribute ? {} : { attributesOf: [] }),
    begin(draft, page) {
      const stream = new MainTextStream();
      // The page's text and, when it is ASCII, its bytes: its own text (not an entity's piece) is counted from them.
      const html = page?.html;
      const ascii = page?.ascii ?? null;
      /** Open areas left out, and (when the crawl names some) open areas included. */
      let excluded = 0;
      let included = 0;
      /** With .class or #id selectors: per open element, the area bits its attributes gave it. */
      const marks: number[] = [];
      return {
        open(name, attribs) {
          let bits = bitsOf(name);
          if (byAttribute) {
            if (matchesAttributes(exclude, attribs)) bits |= EXCLUDED;
            if (including && matchesAttributes(include, attribs)) bits |= INCLUDED;
            marks.push(bits);
          }
          if (bits & EXCLUDED) excluded++;
          if (bits & INCLUDED) included++;
          if (bits & BLOCK) stream.breakTokens();
          if (bits !== 0) stream.boundary((bits & BLOCK) !== 0);
        },
        text(source, from, to, state) {
          if (state.hidden) return;
          const bytes = source === html ? ascii : null;
          if (excluded > 0 || (including && included === 0)) stream.count(source, from, to, bytes);
          else stream.feed(source, from, to, bytes);
        },
        close(name) {
          // The reader closes every element it opened, by name, innermost first: the counts pair up.
          const bits = byAttribute ? (marks.pop() ?? 0) : bitsOf(name);
          if (bits & EXCLUDED) excluded--;
          if (bits & INCLUDED) included--;
          if (bits & BLOCK) stream.breakTokens();
          if (bits !== 0) stream.boundary((bits & BLOCK) !== 0);
        },
        end() {
          draft.words = stream.tokenCount();
          const f = stream.finish();
          draft.content = {
            words: f.words,
            hash: f.hash,
            minhash: f.signature === null ? null : signatureBytes(f.signature),
            text: f.text === '' ? null : f.text,
          };
        },
      };
    },
  };
}
