// Images a page uses (issue 18.3), in every crawl: <img src>, each candidate of an <img srcset>, and each candidate of a
// <picture>'s <source srcset>, with the alt attribute (absent and empty kept apart), width and height as written. A
// <source> takes the alt and dimensions of its <picture>'s <img>. Bounded: at most MAX_PAGE_IMAGES uses per page (the
// rest are left out, counted in imagesOver), alt cut to IMAGE_ALT_MAX characters (its real length kept), width and
// height to IMAGE_DIMENSION_MAX. Only <img> and <source> attributes are read; no text is copied.
import { IMAGE_ALT_MAX, IMAGE_DIMENSION_MAX, MAX_PAGE_IMAGES } from '../../../shared/protocol.ts';
import { collapse, type HtmlExtractor, type RawImage } from './extractor-contract.ts';

export const imagesExtractor: HtmlExtractor = {
  name: 'images',
  tags: ['img', 'source', 'picture'],
  attributesOf: ['img', 'source'],
  begin(draft) {
    const images: RawImage[] = [];
    draft.images = images;
    draft.imagesOver = 0;
    /** Open <picture> elements, innermost last: the uses of their <source>s, waiting for the <img>'s alt. */
    const pictures: RawImage[][] = [];
    const add = (image: RawImage): RawImage | null => {
      if (images.length >= MAX_PAGE_IMAGES) {
        draft.imagesOver!++;
        return null;
      }
      images.push(image);
      return image;
    };
    return {
      open(name, attribs) {
        if (name === 'picture') pictures.push([]);
        else if (name === 'img') {
          const alt = altOf(attribs.alt);
          const width = dimension(attribs.width);
          const height = dimension(attribs.height);
          const use = (src: string) => add({ src, alt: alt.text, altLength: alt.length, width, height });
          if (attribs.src) use(attribs.src);
          if (attribs.srcset) for (const src of srcsetUrls(attribs.srcset)) use(src);
          const sources = pictures[pictures.length - 1];
          if (sources) {
            for (const s of sources)
              Object.assign(s, { alt: alt.text, altLength: alt.length, width: s.width ?? width, height: s.height ?? height });
            sources.length = 0;
          }
        } else if (name === 'source' && pictures.length > 0 && attribs.srcset) {
          const sources = pictures[pictures.length - 1]!;
          for (const src of srcsetUrls(attribs.srcset)) {
            const use = add({ src, alt: null, altLength: null, width: dimension(attribs.width), height: dimension(attribs.height) });
            if (use) sources.push(use);
          }
        }
      },
      close(name) {
        if (name === 'picture') pictures.pop();
      },
    };
  },
};

/** An alt attribute collapsed (whitespace only counts as empty), cut to IMAGE_ALT_MAX, with its real length; null when absent. */
function altOf(alt: string | undefined): { text: string | null; length: number | null } {
  if (alt === undefined) return { text: null, length: null };
  const text = collapse(alt);
  return { text: text.length > IMAGE_ALT_MAX ? text.slice(0, IMAGE_ALT_MAX) : text, length: text.length };
}

/** A width or height attribute as written, trimmed and cut; null when absent or empty. */
function dimension(value: string | undefined): string | null {
  if (value === undefined) return null;
  const v = value.trim();
  return v === '' ? null : v.slice(0, IMAGE_DIMENSION_MAX);
}

/** The URLs of a srcset ("a.png 1x, b.png 2x"); a candidate is a URL and an optional descriptor. */
export function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(/,\s+|,$/)
    .map((candidate) => candidate.trim().split(/\s+/, 1)[0] ?? '')
    .filter((url) => url !== '');
}
