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

/** Shingle length in words. */
export const SHINGLE_WORDS = 5;
/** Bins of a signature (a power of two): 128 x 4 bytes = 512 bytes a page (64 bins erred by 0.06 at 0.96 in one pair of 40). */
export const MINHASH_BINS = 128;
const BIN_SHIFT = 32 - Math.log2(MINHASH_BINS);
/** Characters of main text read per page (and kept, compressed, for the detail pane's diff). */
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
  /** MINHASH_BINS 32-bit values; null for a text with fewer words than a shingle... and no words at all. */
  signature: Uint32Array | null;
}

/** 1: ASCII letter or digit (part of a word); 0: a separator. Other characters are word characters unless spaces. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => (/[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0));
const isSpaceOrPunct = (c: number) =>
  c === 0xa0 ||
  (c >= 0x2000 && c <= 0x206f) ||
  c === 0x3000 ||
  c === 0x3001 ||
  c === 0x3002 ||
  c === 0xfeff ||
  (c >= 0xff01 && c <= 0xff0f);

/**
 * Words, hash and signature of a text in one pass over its char codes: each word is hashed as it is read (FNV-1a,
 * ASCII lower-cased), the word hashes chained into the exact hash, and each window of SHINGLE_WORDS word hashes
 * mixed into a shingle hash that updates its bin. No strings, arrays or regular expressions per word.
 */
export function fingerprint(text: string): TextFingerprint {
  const ring = new Uint32Array(SHINGLE_WORDS);
  const bins = new Uint32Array(MINHASH_BINS).fill(0xffffffff);
  const filled = new Uint8Array(MINHASH_BINS);
  let words = 0;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  let w = 0x811c9dc5;
  let inWord = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const wordChar = c < 128 ? ASCII_WORD[c] === 1 : !isSpaceOrPunct(c);
    if (wordChar) {
      // ASCII upper case to lower case.
      w = Math.imul(w ^ (c >= 65 && c <= 90 ? c | 0x20 : c), 0x01000193);
      inWord = true;
      continue;
    }
    if (!inWord) continue;
    const wh = fmix(w);
    w = 0x811c9dc5;
    inWord = false;
    ring[words % SHINGLE_WORDS] = wh;
    words++;
    h1 = Math.imul(h1 ^ wh, 0x01000193);
    h2 = fmix(h2 ^ wh) + 0x9e3779b9;
    if (words >= SHINGLE_WORDS) addShingle(ring, words, bins, filled);
  }
  if (words === 0) return { words, hash: null, signature: null };
  // A text shorter than a shingle is one shingle of all its words.
  if (words < SHINGLE_WORDS) addShingle(ring, words, bins, filled, words);
  const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  return { words, hash: hex(fmix(h1 ^ words)) + hex(fmix(h2 >>> 0)), signature: densify(bins, filled) };
}

function addShingle(ring: Uint32Array, words: number, bins: Uint32Array, filled: Uint8Array, length = SHINGLE_WORDS): void {
  let s = 0x2545f491;
  // The window in reading order (the oldest word first).
  for (let k = length; k > 0; k--) s = fmix(Math.imul(s, 31) ^ ring[(words - k) % SHINGLE_WORDS]!);
  const bin = s >>> BIN_SHIFT;
  if (s < bins[bin]!) bins[bin] = s;
  filled[bin] = 1;
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

/** What a worker sends for a parsed page (PageFetchResult.content). */
export interface PageContent {
  /** Main-text words (counted in the first MAIN_TEXT_MAX characters). */
  words: number;
  hash: string | null;
  /** signatureBytes(signature), or null. */
  minhash: Uint8Array | null;
  /** The main text (blocks on lines), deflateRaw'ed, at most MAIN_TEXT_MAX characters before compression. */
  text: Uint8Array | null;
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

export const DEFAULT_CONTENT_ANALYSIS: ContentAnalysisOptions = {
  threshold: NEAR_DUPLICATE_THRESHOLD,
  allPages: false,
  lowContentWords: LOW_CONTENT_WORDS,
};

/** The options as given (a part, possibly out of range), brought into their ranges. */
export function contentAnalysisOptions(given: Partial<ContentAnalysisOptions> | undefined): ContentAnalysisOptions {
  const o = { ...DEFAULT_CONTENT_ANALYSIS, ...given };
  const threshold = Number.isFinite(o.threshold) ? Math.min(1, Math.max(0.5, o.threshold)) : NEAR_DUPLICATE_THRESHOLD;
  const low = Number.isFinite(o.lowContentWords) ? Math.min(100_000, Math.max(0, Math.round(o.lowContentWords))) : LOW_CONTENT_WORDS;
  return { threshold, allPages: o.allPages === true, lowContentWords: low };
}
