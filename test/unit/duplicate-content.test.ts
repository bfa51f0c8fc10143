// Duplicate content (issue 18.1): the worker's main-text extractor (what counts as the content area), the fingerprint
// (exact hash, one-permutation MinHash with densification), the similarity estimator against the true Jaccard
// similarity, the LSH banding, and the sentence diff of two stored texts.
import { describe, expect, it } from 'vitest';
import { fingerprint, MAIN_TEXT_MAX, MINHASH_BINS, SHINGLE_WORDS, signatureOf, similarity } from '../../shared/content.ts';
import { diffTexts } from '../../shared/text-diff.ts';
import { bandsFor, nearDuplicates } from '../../electron/engine/analysis/near-duplicates.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { BASE_EXTRACTORS, htmlExtractorsFor } from '../../electron/worker/html/crawl-extractors.ts';
import { wordCountExtractor } from '../../electron/worker/html/word-count.ts';
import { mainContentExtractor } from '../../electron/worker/html/main-content.ts';
import { readHtml } from '../../electron/worker/html/read-html.ts';
import { DUPLICATE_PAGES, words } from '../helpers/duplicate-site.ts';

const DEFAULT = { include: [], exclude: ['nav', 'header', 'footer'] };
const contentOf = (html: string, area: { include: string[]; exclude: string[] } = DEFAULT) =>
  readHtml(html, [mainContentExtractor(area)]).content!;
const textOf = (html: string, area?: { include: string[]; exclude: string[] }) => {
  const t = contentOf(html, area).text;
  return t === null ? '' : t;
};

describe('main content extractor', () => {
  const PAGE = `<html><head><title>T</title><style>p{}</style></head><body>
    <header>Site name</header><nav><a href="/">Home</a> <a href="/x">Menu</a></nav>
    <div class="ad">Buy now</div>
    <main id="content"><h1>Heading</h1><p>First <b>bold</b>word here.</p><script>var x = "script text";</script>
    <p>Second paragraph.</p></main>
    <aside id="side">Related links</aside>
    <footer>Copyright line</footer></body></html>`;

  it('leaves out nav, header, footer and never-shown text by default; blocks on lines of their own', () => {
    expect(textOf(PAGE)).toBe('Buy now\nHeading\nFirst boldword here.\nSecond paragraph.\nRelated links');
    expect(contentOf(PAGE).words).toBe(10);
  });

  it('takes element names, .classes and #ids to include or leave out', () => {
    expect(textOf(PAGE, { include: ['main'], exclude: [] })).toBe('Heading\nFirst boldword here.\nSecond paragraph.');
    expect(textOf(PAGE, { include: ['#content', '#side'], exclude: ['h1'] })).toBe(
      'First boldword here.\nSecond paragraph.\nRelated links',
    );
    expect(textOf(PAGE, { include: [], exclude: ['nav', 'header', 'footer', '.ad', 'aside'] })).toBe(
      'Heading\nFirst boldword here.\nSecond paragraph.',
    );
    // Nothing left out: the nav and footer count too.
    expect(textOf(PAGE, { include: [], exclude: [] })).toContain('Site name\nHome Menu');
  });

  it('asks the reader for no attributes unless a .class or #id is named', () => {
    expect(mainContentExtractor(DEFAULT).attributesOf).toEqual([]);
    expect(mainContentExtractor({ include: ['.post'], exclude: [] }).attributesOf).toBeUndefined();
  });

  it('is in every crawl: a page read with the crawl extractors has its content fingerprint', () => {
    const draft = readHtml(PAGE, htmlExtractorsFor({ checkResources: [] }));
    expect(draft.content?.words).toBe(10);
    expect(draft.content?.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(signatureOf(draft.content!.minhash!)).toHaveLength(MINHASH_BINS);
  });

  it('bounds the text kept: a huge page keeps MAIN_TEXT_MAX characters', () => {
    const huge = `<p>${'lorem ipsum dolor '.repeat(50_000)}</p>`;
    const t = textOf(huge);
    expect(t.length).toBeLessThanOrEqual(MAIN_TEXT_MAX);
    expect(t.length).toBeGreaterThan(MAIN_TEXT_MAX - 100);
  });

  it('counts the page words as the word count does, in its place in a crawl (one pass over the text for both)', () => {
    const crawl = htmlExtractorsFor({ checkResources: [] });
    expect(crawl).not.toContain(wordCountExtractor);
    const pages = [
      PAGE,
      `<p>caf\u00e9\u00a0na\u00efve \u{1d400}\u{1d401} \u{1f600}x \u2014 a\u3000b &amp; &nbsp;c&eacute;</p><nav>one two</nav>three`,
      `<div class="ad">x<span>y</span>z</div><b>foo</b>bar<br>baz<nav>\ud800 lone</nav>`,
      `<p>${'lorem ipsum  dolor\n'.repeat(5000)}</p><p>after the bound</p>`,
      `<main>${'word '.repeat(10)}</main><aside id="side">${'\u{1d400} '.repeat(MAIN_TEXT_MAX)}</aside>tail`,
    ];
    for (const area of [DEFAULT, { include: ['main', '.ad'], exclude: [] }, { include: [], exclude: ['#side', 'b'] }]) {
      for (const html of pages) {
        const words = readHtml(html, BASE_EXTRACTORS).words;
        const list = crawl.map((e) => (e.name === 'main-content' ? mainContentExtractor(area) : e));
        expect(readHtml(html, list).words).toBe(words);
      }
    }
  });

  it('counts an ASCII page from its bytes as the word count counts its text', () => {
    // The worker hands an ASCII page's bytes over with its text (decodeHtmlPage); what is only counted (past the
    // main text's bound, or in an area left out) is then read from the bytes.
    const tokens = '-- | 42 a-b ... x, *** !? 7 ';
    const pages = [
      `<nav>${tokens}</nav><p>${tokens.repeat(3)}</p>`,
      `<p>${`${tokens}\n\t`.repeat(MAIN_TEXT_MAX / 10)}</p><footer>--- ${tokens}</footer>tail ---`,
      `<header>a<b>--</b>b | <i>c</i>-- </header><p>one</p>`,
    ];
    const crawl = htmlExtractorsFor({ checkResources: [] });
    for (const html of pages) {
      const words = readHtml(html, BASE_EXTRACTORS).words;
      expect(readHtml(html, crawl, Buffer.from(html, 'latin1')).words).toBe(words);
    }
  });

  const PGDOCS = '/usr/share/doc/postgresql-doc-15/html';
  it.skipIf(!existsSync(PGDOCS))('counts every 10th page of the PostgreSQL manual as the word count does', { timeout: 180_000 }, () => {
    const crawl = htmlExtractorsFor({ checkResources: [] });
    for (const f of readdirSync(PGDOCS)
      .filter((n) => n.endsWith('.html'))
      .filter((_, i) => i % 10 === 0)) {
      const html = readFileSync(`${PGDOCS}/${f}`, 'utf8');
      expect(readHtml(html, crawl).words, f).toBe(readHtml(html, BASE_EXTRACTORS).words);
    }
  });

  it('fingerprints its kept text as it fingerprinted the stream', () => {
    for (const html of [PAGE, `<p>A<b>b</b>c <span class="ad">skip</span>d</p><p>e\tf  g</p>${'<li>one two three'.repeat(50)}`]) {
      for (const area of [DEFAULT, { include: [], exclude: ['.ad'] }]) {
        const c = contentOf(html, area);
        const f = fingerprint(c.text!);
        expect(f.words).toBe(c.words);
        expect(f.hash).toBe(c.hash);
        expect(signatureOf(c.minhash!)).toEqual(f.signature);
      }
    }
  });

  it('keeps an empty page empty: no words, no hash, no signature', () => {
    const c = contentOf('<html><body><nav>only nav</nav></body></html>');
    expect(c).toEqual({ words: 0, hash: null, minhash: null, text: null });
  });

  it('the fixture site: exact copies hash the same, distinct pages sharing their nav and footer do not look alike', () => {
    const html = (main: string) => `<body><nav>${words(2, 3000, true).join(' ')}</nav><main>${main}</main><footer>x</footer></body>`;
    const a = contentOf(html(DUPLICATE_PAGES['/a']!.main));
    const copy = contentOf(html(DUPLICATE_PAGES['/a-copy']!.main));
    expect(copy.hash).toBe(a.hash);
    const d1 = contentOf(html(DUPLICATE_PAGES['/distinct-1']!.main));
    const d2 = contentOf(html(DUPLICATE_PAGES['/distinct-2']!.main));
    expect(similarity(signatureOf(d1.minhash!)!, signatureOf(d2.minhash!)!)).toBeLessThan(0.2);
    // With the nav counted, the boilerplate makes them look alike.
    const all = { include: [], exclude: [] };
    const n1 = contentOf(html(DUPLICATE_PAGES['/distinct-1']!.main), all);
    const n2 = contentOf(html(DUPLICATE_PAGES['/distinct-2']!.main), all);
    expect(similarity(signatureOf(n1.minhash!)!, signatureOf(n2.minhash!)!)).toBeGreaterThan(0.8);
  });
});

/** The true Jaccard similarity of two texts' sets of SHINGLE_WORDS-word shingles. */
function jaccard(a: string[], b: string[]): number {
  const set = (w: string[]) => new Set(w.slice(0, w.length - SHINGLE_WORDS + 1).map((_, i) => w.slice(i, i + SHINGLE_WORDS).join(' ')));
  const sa = set(a);
  const sb = set(b);
  let both = 0;
  for (const s of sa) if (sb.has(s)) both++;
  return both / (sa.size + sb.size - both);
}

describe('fingerprint and similarity estimator', () => {
  it('the exact hash ignores case, spacing and punctuation, and sees a changed word', () => {
    const f = fingerprint('Hello, World!  This is   a test.');
    expect(fingerprint('hello world\nthis IS a test').hash).toBe(f.hash);
    expect(fingerprint('hello world this is a tests').hash).not.toBe(f.hash);
    expect(f.words).toBe(6);
  });

  it('estimates the Jaccard similarity of 5-word shingles: within 0.15 each, 0.04 on average over 60 pairs', () => {
    let totalError = 0;
    const pairs = 60;
    for (let t = 0; t < pairs; t++) {
      const base = words(100 + t, 400 + t * 10);
      // Change a share of the words (0 to 30%), spread over the text.
      const every = 3 + (t % 20);
      const other = base.map((w, i) => (i % every === 0 && t % 3 !== 0 ? `x${i}` : w));
      const truth = jaccard(base, other);
      const estimate = similarity(fingerprint(base.join(' ')).signature!, fingerprint(other.join(' ')).signature!);
      expect(Math.abs(estimate - truth)).toBeLessThan(0.15);
      totalError += Math.abs(estimate - truth);
    }
    expect(totalError / pairs).toBeLessThan(0.04);
  });

  it('a short text (fewer words than a shingle) is one shingle; densification fills every bin', () => {
    const f = fingerprint('just three words');
    expect(f.signature).toHaveLength(MINHASH_BINS);
    expect(similarity(f.signature!, fingerprint('Just three words.').signature!)).toBe(1);
    expect(similarity(f.signature!, fingerprint('just four words').signature!)).toBeLessThan(0.2);
  });
});

describe('LSH banding', () => {
  it('chooses bands and rows that find 97% of the pairs at the threshold', () => {
    expect(bandsFor(0.9)).toEqual({ bands: 11, rows: 11 });
    expect(bandsFor(0.5).rows).toBeLessThanOrEqual(3);
    for (const t of [0.5, 0.7, 0.8, 0.9, 0.95, 1]) {
      const { bands, rows } = bandsFor(t);
      expect(bands * rows).toBeLessThanOrEqual(MINHASH_BINS);
      expect(1 - (1 - t ** rows) ** bands).toBeGreaterThanOrEqual(0.97);
    }
  });

  it('finds the near-duplicate pairs at the threshold and no others; exact duplicates are not near ones', () => {
    const texts: string[][] = [];
    for (let g = 0; g < 40; g++) {
      const base = words(1000 + g, 500);
      texts.push(base);
      // Each base has a twin with 2 neighbouring words changed (6 of 496 shingles: 97.6% similar, so 128 bins estimate
      // it under 90% once in 70,000 pairs; two words far apart, 96%, were once in 570) and a cousin with a fifth changed.
      texts.push(base.map((w, i) => (i === 100 || i === 101 ? `y${i}` : w)));
      texts.push(base.map((w, i) => (i % 5 === 0 ? `z${i}` : w)));
    }
    texts.push(texts[0]!); // an exact copy of page 0
    const fps = texts.map((t) => fingerprint(t.join(' ')));
    const signatures = new Uint32Array(texts.length * MINHASH_BINS);
    fps.forEach((f, i) => signatures.set(f.signature!, i * MINHASH_BINS));
    const exactGroup = new Int32Array(texts.length).fill(-1);
    exactGroup[0] = 0;
    exactGroup[texts.length - 1] = 0;
    const { match, similarity: sim } = nearDuplicates({ signatures, exactGroup }, 0.9);
    for (let g = 0; g < 40; g++) {
      expect(match[g * 3]).toBe(g * 3 + 1);
      expect(match[g * 3 + 1]).toBe(g * 3);
      expect(sim[g * 3]).toBeGreaterThanOrEqual(0.9);
      expect(match[g * 3 + 2]).toBe(-1);
    }
    // The exact copy shares page 0's match, never page 0 itself.
    expect(match[texts.length - 1]).toBe(1);
  });
});

describe('text diff', () => {
  it('a sentence diff of two texts: what is the same, removed and added', () => {
    const a = 'Intro line.\nFirst sentence here. Second one stays. Third goes away.\nLast line.';
    const b = 'Intro line.\nFirst sentence here. Second one stays. A new third!\nLast line.';
    const d = diffTexts(a, b);
    expect(d.ops).toEqual([
      { op: 'same', text: 'Intro line.' },
      { op: 'same', text: 'First sentence here.' },
      { op: 'same', text: 'Second one stays.' },
      { op: 'removed', text: 'Third goes away.' },
      { op: 'added', text: 'A new third!' },
      { op: 'same', text: 'Last line.' },
    ]);
    expect(d.truncated).toBe(false);
  });

  it('is bounded: long texts are cut to the first sentences, and it says so', () => {
    const long = Array.from({ length: 5000 }, (_, i) => `Sentence ${i}.`).join(' ');
    const d = diffTexts(long, `${long} Extra.`);
    expect(d.truncated).toBe(true);
    expect(d.ops.length).toBeLessThanOrEqual(1000);
  });
});
