// How wide a title or a meta description is in a search result, in pixels: the sum of each character's advance in
// the SERP's font, Arial (Google draws result titles at 20 px and snippets at 14 px), from a declared table of
// Arial's advance widths (the font's units per em, 1000; Arial has Helvetica's widths, which its metrics were made to
// match). A character the table lacks counts as a CJK ideograph (a full em) when it is one, else as an average
// lower-case letter. Screaming Frog's SEO Spider measures the same way and truncates where Google does; its limits
// are below (see https://www.screamingfrog.co.uk/guides/serp-snippet/: "the truncation point ... is calculated based
// upon pixel width, rather than number of characters", the limits shown as its "Over X Pixels" filters, and
// https://www.screamingfrog.co.uk/page-title-meta-description-lengths-by-pixel-width/ on measuring in Arial).
// No node:, no DOM: the engine's SQL (a function of the crawl file's connections) and the renderer use it.

/** Arial's advance widths for the printable ASCII characters, space (0x20) to tilde (0x7e), in 1/1000 em. */
// biome-ignore format: a table of 16 widths a line, as the code points run
export const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space ! " # $ % & ' ( ) * + , - . /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0-9 : ; < = > ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ A-O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P-Z [ \ ] ^ _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` a-o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p-z { | } ~
] as const;

/** A character the table lacks: an average lower-case letter's width. */
export const DEFAULT_WIDTH = 556;
/** A full-width character (CJK ideographs, kana, hangul, full-width forms): one em. */
export const FULL_WIDTH = 1000;
/** The full-width ranges of the Basic Multilingual Plane, as [first, last] code units. */
export const WIDE_RANGES = [
  [0x1100, 0x115f],
  [0x2e80, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
] as const;

/** The font size Google's results use for a title and for a snippet (the meta description), in CSS pixels. */
export const SERP_FONT_PX = { title: 20, description: 14 } as const;

/**
 * Screaming Frog's default limits (its Page Titles and Meta Description tabs): titles over 561 px or 60 characters
 * are cut, under 200 px or 30 characters waste the space; descriptions over 985 px or 155 characters are cut, under
 * 400 px or 70 characters say too little.
 */
export const SERP_LIMITS = {
  title: { maxChars: 60, minChars: 30, maxPx: 561, minPx: 200 },
  description: { maxChars: 155, minChars: 70, maxPx: 985, minPx: 400 },
} as const;

/** Whitespace as JavaScript's \s knows it (HTML shows a run of it as one space). */
function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x80 &&
      (code === 0xa0 ||
        code === 0x1680 ||
        (code >= 0x2000 && code <= 0x200a) ||
        code === 0x2028 ||
        code === 0x2029 ||
        code === 0x202f ||
        code === 0x205f ||
        code === 0x3000 ||
        code === 0xfeff))
  );
}

/** A character's advance in 1/1000 em, by its UTF-16 code unit (a surrogate pair: its high half). */
function charWidth(code: number): number {
  if (code >= 0x20 && code <= 0x7e) return ASCII_WIDTHS[code - 0x20]!;
  for (const [first, last] of WIDE_RANGES) if (code >= first && code <= last) return FULL_WIDTH;
  return DEFAULT_WIDTH;
}

/**
 * The width of `text` in Arial at `fontPx` pixels, in pixels (to a tenth); whitespace runs count as one space, as
 * HTML shows them, and none at either end. A loop over code units, no allocation: the explorer's filters call it
 * for every distinct title and description of a crawl.
 */
export function serpPixelWidth(text: string, fontPx: number): number {
  let units = 0;
  let space = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      space = started;
      continue;
    }
    if (space) units += ASCII_WIDTHS[0]!;
    space = false;
    started = true;
    units += charWidth(code);
    // The low half of a surrogate pair is the same character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
  }
  return Math.round((units * fontPx) / 100) / 10;
}

/** A title's width in Google's results, in pixels. */
export const titlePixelWidth = (title: string): number => serpPixelWidth(title, SERP_FONT_PX.title);
/** A meta description's width in Google's results, in pixels. */
export const descriptionPixelWidth = (description: string): number => serpPixelWidth(description, SERP_FONT_PX.description);
