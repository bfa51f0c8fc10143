// Duplicate content (issue 18.1): what the worker computes from a page's main text and what the analysis compares.
// One place for both sides, so a signature made by a worker and the estimator that reads it always agree. No node:.
//
// - The main text: the page's visible text outside the left-out areas (nav, header, footer by default; the crawl's
//   contentInclude / contentExclude settings), blocks on lines of their own, spaces collapsed, cut at MAIN_TEXT_MAX.
// - Words: runs of letters and digits, lower-cased (punctuation, case and spacing aside, two texts with the same
//   words in the same order are the same).
// - The exact hash: 64 bits (two 32-bit FNV-1a style hashes, 16 hex digits) of the word sequence.
// - The MinHash signature: one-permutation hashing (one 32-bit hash per 5-word shingle, its top bits choosing one of
//   MINHASH_BINS bins, each bin keeping its smallest hash), empty bins filled by rotation densification. The share of
//   equal bins of two signatures estimates the Jaccard similarity of the two pages' shingle sets.
import { ownString } from './own-string.ts';

/** Shingle length in words. */
export const SHINGLE_WORDS = 5;
/** Bins of a signature (a power of two): 128 x 4 bytes = 512 bytes a page (64 bins erred by 0.06 at 0.96 in one pair of 40). */
export const MINHASH_BINS = 128;
const BIN_SHIFT = 32 - Math.log2(MINHASH_BINS);
/** Characters of main text read per page (and kept, as they are, for the detail pane's diff). */
export const MAIN_TEXT_MAX = 32 * 1024;
/** The default near-duplicate threshold (estimated Jaccard similarity, 0-1). */
export const NEAR_DUPLICATE_THRESHOLD = 0.9;
/** The default low-content threshold: pages with fewer main-text words. */
export const LOW_CONTENT_WORDS = 200;
/** The areas left out by default. */
export const DEFAULT_CONTENT_EXCLUDE = ['nav', 'header', 'footer'] as const;
/** An element name, a .class or an #id (what contentInclude / contentExclude take). */
export const CONTENT_SELECTOR = /^([a-z][a-z0-9-]*|[.#][A-Za-z0-9_-]+)$/;

/** A content-area selector list split by kind, as the extractor tests it. */
export interface ContentSelectors {
  elements: ReadonlySet<string>;
  classes: ReadonlySet<string>;
  ids: ReadonlySet<string>;
}

export function contentSelectors(list: readonly string[]): ContentSelectors {
  const elements = new Set<string>();
  const classes = new Set<string>();
  const ids = new Set<string>();
  for (const s of list) {
    if (s.startsWith('.')) classes.add(s.slice(1));
    else if (s.startsWith('#')) ids.add(s.slice(1));
    else elements.add(s.toLowerCase());
  }
  return { elements, classes, ids };
}

const fmix = (h: number): number => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/** What a page's main text gives: its word count, exact hash and signature. */
export interface TextFingerprint {
  words: number;
  /** 16 hex digits; null for a text without words. */
  hash: string | null;
  /** MINHASH_BINS 32-bit values; null for a text without words. */
  signature: Uint32Array | null;
}

// Character kinds, as the word count classifies them (worker/html/word-count.ts): whitespace (\s), a letter or digit
// (\p{L}, \p{N}), anything else. A word is a run of letters and digits.
const SPACE = 0;
const WORD = 1;
const OTHER = 2;
const ASCII_KIND = Uint8Array.from({ length: 128 }, (_, c) =>
  /\s/.test(String.fromCharCode(c)) ? SPACE : /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? WORD : OTHER,
);
/** A kind as the word count's bits: 1 whitespace, 2 a letter or digit (0 anything else). */
const KIND_BITS = Uint8Array.of(1, 2, 0);
const ASCII_BITS = ASCII_KIND.map((kind) => KIND_BITS[kind]!);
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const SPACE_CHAR = /^\s$/;
/** Kinds of the rest of the Basic Multilingual Plane, found once each (kind + 1; 0: not yet). */
let bmpKinds: Uint8Array | undefined;
function bmpKind(c: number): number {
  const table = (bmpKinds ??= new Uint8Array(0x10000));
  const k = table[c]!;
  if (k !== 0) return k - 1;
  const ch = String.fromCharCode(c);
  const kind = SPACE_CHAR.test(ch) ? SPACE : WORD_CHAR.test(ch) ? WORD : OTHER;
  table[c] = kind + 1;
  return kind;
}

/** Multiplier of the shingles' rolling hash, and its SHINGLE_WORDS-th power (taking the oldest word out). */
const ROLL = 0x2545f491;
const ROLL_OUT = (() => {
  let p = 1;
  for (let k = 0; k < SHINGLE_WORDS; k++) p = Math.imul(p, ROLL);
  return p;
})();

/**
 * A page's text, read as it streams past (the worker's main-content extractor feeds it ranges of the page), in one
 * pass over char codes with the state in locals, for two things at once:
 * - the page's word count (worker/html/word-count.ts's tokens: runs of non-whitespace with a letter or digit, over
 *   all its visible text), so the crawl reads each character once for both;
 * - its main text (what `feed` is given; `count` is given the rest): kept with whitespace collapsed (runs of the
 *   page copied as slices, a single space or a line break between them) up to MAIN_TEXT_MAX characters, and
 *   fingerprinted: each word (a run of letters and digits) hashed as it is read (FNV-1a, ASCII lower-cased), the
 *   word hashes chained into the exact hash (two 32-bit hashes), and each window of SHINGLE_WORDS words given a
 *   rolling hash whose mix updates its MinHash bin (one-permutation hashing).
 * No regular expression or string per word; none per character past the first sight of a non-ASCII one.
 *
 * The kept text fingerprints the same as the stream (`fingerprint(text)`): every boundary that ends a word in the
 * stream is a space or line break in the text.
 */
export class MainTextStream {
  private text = '';
  private length = 0;
  /** Separator owed before the next kept character: 0 none, 1 a space, 2 a line break. */
  private sep = 0;
  private words = 0;
  private w = 0x811c9dc5;
  private inWord = false;
  private h1 = 0x811c9dc5;
  private h2 = 0x01000193;
  private roll = 0;
  private readonly ring = new Uint32Array(SHINGLE_WORDS);
  private readonly bins = new Uint32Array(MINHASH_BINS).fill(0xffffffff);
  private readonly filled = new Uint8Array(MINHASH_BINS);
  private full = false;
  /** The word count's tokens: counted, and whether one is open and has a letter or digit. */
  private tokens = 0;
  private inToken = false;
  private tokenWord = false;

  constructor(private readonly max = MAIN_TEXT_MAX) {}

  /**
   * Text source[from, to) of the main text: counted and kept. `ascii`: source's bytes, when each of its characters
   * is the byte at the same index (an ASCII page), for counting past the bound.
   */
  feed(source: string, from: number, to: number, ascii: Uint8Array | null = null): void {
    if (this.full) return this.count(source, from, to, ascii);
    // The kept text is never longer than what is read (plus the separators owed): read at most what fits.
    let end = to;
    if (to - from > this.max - this.length) {
      end = from + Math.max(0, this.max - this.length);
      this.full = true;
    }
    let text = this.text;
    let length = this.length;
    let sep = this.sep;
    let words = this.words;
    let w = this.w;
    let inWord = this.inWord;
    let h1 = this.h1;
    let h2 = this.h2;
    let roll = this.roll;
    let tokens = this.tokens;
    let inToken = this.inToken;
    let tokenWord = this.tokenWord;
    const ring = this.ring;
    const bins = this.bins;
    const filled = this.filled;
    /** Start of the run being kept (-1: none), and where a single space inside it is (-1: none). */
    let run = -1;
    let space = -1;
    let i = from;
    for (; i < end; i++) {
      let c = source.charCodeAt(i);
      const at = i;
      let kind: number;
      if (c < 128) kind = ASCII_KIND[c]!;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        // An astral character (a surrogate pair) is read whole; none is whitespace.
        const low = source.charCodeAt(++i);
        kind = WORD_CHAR.test(String.fromCharCode(c, low)) ? WORD : OTHER;
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      } else kind = bmpKind(c);
      if (kind === WORD) {
        if (run < 0) {
          if (sep !== 0 && length > 0) {
            text += sep === 2 ? '\n' : ' ';
            length++;
          }
          sep = 0;
          run = at;
        }
        space = -1;
        inToken = true;
        tokenWord = true;
        inWord = true;
        // An ASCII letter or digit | 0x20 is its lower case.
        w = Math.imul(w ^ (c < 128 ? c | 0x20 : c), 0x01000193);
        // The rest of an ASCII word, in a loop of its own (most characters are in words).
        while (i + 1 < end) {
          const d = source.charCodeAt(i + 1);
          if (d >= 128 || ASCII_KIND[d] !== WORD) break;
          w = Math.imul(w ^ (d | 0x20), 0x01000193);
          i++;
        }
        continue;
      }
      if (inWord) {
        // A word ends (as in endWord, here with the state in locals).
        const wh = fmix(w);
        w = 0x811c9dc5;
        inWord = false;
        h1 = Math.imul(h1 ^ wh, 0x01000193);
        h2 = Math.imul((h2 << 5) | (h2 >>> 27), 0x5bd1e995) ^ wh;
        const slot = words % SHINGLE_WORDS;
        roll = (Math.imul(roll, ROLL) + wh - Math.imul(ring[slot]!, ROLL_OUT)) | 0;
        ring[slot] = wh;
        words++;
        if (words >= SHINGLE_WORDS) {
          const sh = fmix(roll);
          const bin = sh >>> BIN_SHIFT;
          if (sh < bins[bin]!) bins[bin] = sh;
          filled[bin] = 1;
        }
      }
      if (kind === SPACE) {
        if (inToken && tokenWord) tokens++;
        inToken = false;
        tokenWord = false;
        if (run >= 0) {
          if (c === 32 && space < 0) space = i;
          else {
            // More than a single space: the run kept ends before it.
            const stop = space < 0 ? i : space;
            text += source.slice(run, stop);
            length += stop - run;
            run = -1;
            space = -1;
            if (sep === 0) sep = 1;
          }
        } else if (sep === 0 && length > 0) sep = 1;
      } else {
        inToken = true;
        if (run < 0) {
          if (sep !== 0 && length > 0) {
            text += sep === 2 ? '\n' : ' ';
            length++;
          }
          sep = 0;
          run = at;
        }
        space = -1;
      }
    }
    if (run >= 0) {
      const stop = space < 0 ? i : space;
      text += source.slice(run, stop);
      length += stop - run;
      // A space at the end of the range is owed to what follows.
      if (space >= 0) sep = 1;
    }
    this.text = text;
    this.length = length;
    this.sep = sep;
    this.words = words;
    this.w = w;
    this.inWord = inWord;
    this.h1 = h1;
    this.h2 = h2;
    this.roll = roll;
    this.tokens = tokens;
    this.inToken = inToken;
    this.tokenWord = tokenWord;
    // Past the bound (an astral character may have taken i one past it): counted only.
    if (i < to) {
      if (this.inWord) this.endWord();
      this.count(source, i, to, ascii);
    }
  }

  /**
   * Text source[from, to) outside the main text (or past its bound): counted only. `ascii`: as for feed. Reading
   * bytes is two to three times as fast as reading a string's char codes, and most of a large page's text is only
   * counted (past MAIN_TEXT_MAX).
   */
  count(source: string, from: number, to: number, ascii: Uint8Array | null = null): void {
    if (ascii !== null) return this.countAscii(ascii, from, to);
    let tokens = this.tokens;
    let open = this.inToken ? 1 : 0;
    let word = this.tokenWord ? 1 : 0;
    for (let i = from; i < to; i++) {
      const c = source.charCodeAt(i);
      let bits: number;
      if (c < 128) bits = ASCII_BITS[c]!;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (source.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bits = WORD_CHAR.test(source.slice(i, i + 2)) ? KIND_BITS[WORD]! : KIND_BITS[OTHER]!;
        i++;
      } else bits = KIND_BITS[bmpKind(c)]!;
      // As in countAscii.
      const space = bits & 1;
      tokens += space & open & word;
      open = space ^ 1;
      word = (word | (bits >> 1)) & open;
    }
    this.tokens = tokens;
    this.inToken = open === 1;
    this.tokenWord = word === 1;
  }

  /**
   * count() over ASCII bytes: each is its own character, and none needs more than the table. Without a branch on the
   * character: a token is counted where a space ends it after a letter or digit in it (the branches on each character's
   * kind mispredicted at every edge of a word, and most of a large page's text is only counted).
   */
  private countAscii(bytes: Uint8Array, from: number, to: number): void {
    let tokens = this.tokens;
    let open = this.inToken ? 1 : 0;
    let word = this.tokenWord ? 1 : 0;
    for (let i = from; i < to; i++) {
      const bits = ASCII_BITS[bytes[i]!]!;
      const space = bits & 1;
      tokens += space & open & word;
      open = space ^ 1;
      word = (word | (bits >> 1)) & open;
    }
    this.tokens = tokens;
    this.inToken = open === 1;
    this.tokenWord = word === 1;
  }

  /** A boundary of the word count (any element but an inline one). */
  breakTokens(): void {
    if (this.inToken && this.tokenWord) this.tokens++;
    this.inToken = false;
    this.tokenWord = false;
  }

  /** The word count's tokens so far (those still open counted). */
  tokenCount(): number {
    return this.tokens + (this.inToken && this.tokenWord ? 1 : 0);
  }

  /** A boundary of the main text: a line break (a block element) or a space (an area left out or taken in). */
  boundary(lineBreak: boolean): void {
    if (this.inWord) this.endWord();
    if (lineBreak) this.sep = 2;
    else if (this.sep === 0) this.sep = 1;
  }

  private endWord(): void {
    // As in feed (kept there inline, with the state in locals).
    const wh = fmix(this.w);
    this.w = 0x811c9dc5;
    this.inWord = false;
    this.h1 = Math.imul(this.h1 ^ wh, 0x01000193);
    this.h2 = Math.imul((this.h2 << 5) | (this.h2 >>> 27), 0x5bd1e995) ^ wh;
    const slot = this.words % SHINGLE_WORDS;
    this.roll = (Math.imul(this.roll, ROLL) + wh - Math.imul(this.ring[slot]!, ROLL_OUT)) | 0;
    this.ring[slot] = wh;
    this.words++;
    if (this.words >= SHINGLE_WORDS) {
      const sh = fmix(this.roll);
      const bin = sh >>> BIN_SHIFT;
      if (sh < this.bins[bin]!) this.bins[bin] = sh;
      this.filled[bin] = 1;
    }
  }

  /** The kept text (blocks on lines, spaces collapsed, trimmed) and its fingerprint. */
  finish(): TextFingerprint & { text: string } {
    if (this.inWord) this.endWord();
    const words = this.words;
    // The text is a rope of slices of the pages it was fed: as it is, it keeps the whole page alive (a 3 MB page for
    // its 32 K characters) until the draft is sent and dropped. A worker reading large pages held 40-60 MB more
    // without its own copy.
    const text = ownString(this.text);
    if (words === 0) return { words, hash: null, signature: null, text };
    // A text shorter than a shingle is one shingle of all its words.
    if (words < SHINGLE_WORDS) {
      const sh = fmix(this.roll);
      const bin = sh >>> BIN_SHIFT;
      this.bins[bin] = sh;
      this.filled[bin] = 1;
    }
    const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
    return {
      words,
      hash: hex(fmix(this.h1 ^ words)) + hex(fmix(this.h2 ^ words)),
      signature: densify(this.bins, this.filled),
      text,
    };
  }
}

/** Words, hash and signature of a text, as the worker finds them in a page's main text (MainTextStream). */
export function fingerprint(text: string): TextFingerprint {
  const stream = new MainTextStream(Number.POSITIVE_INFINITY);
  stream.feed(text, 0, text.length);
  const { words, hash, signature } = stream.finish();
  return { words, hash, signature };
}

/** Rotation densification: an empty bin takes the next filled bin's value (circularly), offset by the distance. */
function densify(bins: Uint32Array, filled: Uint8Array): Uint32Array {
  const k = bins.length;
  const out = new Uint32Array(k);
  for (let i = 0; i < k; i++) {
    if (filled[i]) {
      out[i] = bins[i]!;
      continue;
    }
    let d = 1;
    while (!filled[(i + d) % k]) d++;
    out[i] = (bins[(i + d) % k]! + Math.imul(d, 0x9e3779b1)) >>> 0;
  }
  return out;
}

/** Estimated Jaccard similarity of two signatures: the share of equal bins. */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/** A signature as stored (little-endian bytes) and back. */
export function signatureBytes(sig: Uint32Array): Uint8Array {
  const out = new Uint8Array(sig.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < sig.length; i++) view.setUint32(i * 4, sig[i]!, true);
  return out;
}

export function signatureOf(bytes: Uint8Array): Uint32Array | null {
  if (bytes.length !== MINHASH_BINS * 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(MINHASH_BINS);
  for (let i = 0; i < MINHASH_BINS; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/** What a worker's HTML reader finds for a parsed page (sent as ContentOnWire). */
export interface PageContent {
  /** Main-text words (counted in the first MAIN_TEXT_MAX characters). */
  words: number;
  hash: string | null;
  /** signatureBytes(signature), or null. */
  minhash: Uint8Array | null;
  /** The main text (blocks on lines, spaces collapsed), at most MAIN_TEXT_MAX characters (and a separator); null when empty. */
  text: string | null;
}

/** The duplicate-content analysis's parameters: changed after the crawl, without crawling again. */
export interface ContentAnalysisOptions {
  /** Near-duplicate threshold: estimated similarity 0.5-1. */
  threshold: number;
  /** Compare every parsed page, not only the indexable ones. */
  allPages: boolean;
  /** Low content: fewer main-text words than this. */
  lowContentWords: number;
}

/** The largest low-content word count the analysis takes. */
export const LOW_CONTENT_WORDS_MAX = 100_000;

export const DEFAULT_CONTENT_ANALYSIS: ContentAnalysisOptions = {
  threshold: NEAR_DUPLICATE_THRESHOLD,
  allPages: false,
  lowContentWords: LOW_CONTENT_WORDS,
};

/** The options as given (a part, possibly out of range), brought into their ranges. */
export function contentAnalysisOptions(given: Partial<ContentAnalysisOptions> | undefined): ContentAnalysisOptions {
  const o = { ...DEFAULT_CONTENT_ANALYSIS, ...given };
  const threshold = Number.isFinite(o.threshold) ? Math.min(1, Math.max(0.5, o.threshold)) : NEAR_DUPLICATE_THRESHOLD;
  const low = Number.isFinite(o.lowContentWords)
    ? Math.min(LOW_CONTENT_WORDS_MAX, Math.max(0, Math.round(o.lowContentWords)))
    : LOW_CONTENT_WORDS;
  return { threshold, allPages: o.allPages === true, lowContentWords: low };
}

/**
 * PageContent as a page's result carries it from the worker to the engine: the text as its UTF-8 bytes. The main
 * text is most of a result (12 of the PostgreSQL manual's 14 MB of results), and a text with one character past
 * Latin-1 is a two-byte string, which the IPC serializer writes at two bytes a character: the bytes are half of that, cost the
 * worker (the crawl's bottleneck) less to write, and go into SQLite as they are (CAST(? AS TEXT)).
 */
export type ContentOnWire = Omit<PageContent, 'text'> & { text: Uint8Array | null };

const utf8 = new TextEncoder();

/** A page's content as its result carries it (ContentOnWire). */
export function contentOnWire(content: PageContent): ContentOnWire {
  return { ...content, text: content.text === null ? null : utf8.encode(content.text) };
}
