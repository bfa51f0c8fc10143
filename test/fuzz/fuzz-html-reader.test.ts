// The crawl's HTML reader (electron/worker/html/read-html.ts, a scanner of its own) against the reader it replaced,
// htmlparser2's Parser (test/helpers/read-html-reference.ts): on generated HTML-ish input and on every page of the
// PostgreSQL manual, both give the same page draft to the crawl's extractors. Seeded.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlExtractorsFor } from '../../electron/worker/html/crawl-extractors.ts';
import { readHtml } from '../../electron/worker/html/read-html.ts';
import { WordCounter } from '../../electron/worker/html/word-count.ts';
import { readHtmlReference } from '../helpers/read-html-reference.ts';

const RUNS = 10_000;
const SEED = 0x5ca22e;
const ALL = htmlExtractorsFor({ checkResources: ['images', 'scripts', 'stylesheets'] });
const BASE = htmlExtractorsFor({ checkResources: [] });
const PGDOCS = '/usr/share/doc/postgresql-doc-15/html';

const pick = <T>(...items: T[]) => fc.constantFrom(...items);
const tagName = pick(
  'a',
  'A',
  'h1',
  'h2',
  'p',
  'li',
  'div',
  'span',
  'b',
  'br',
  'img',
  'area',
  'base',
  'link',
  'meta',
  'html',
  'head',
  'body',
  'svg',
  'math',
  'title',
  'script',
  'Script',
  'style',
  'textarea',
  'xmp',
  'tmp',
  'noscript',
  'template',
  'iframe',
  'source',
  'picture',
  'video',
  'audio',
  'embed',
  'frame',
  'table',
  'tr',
  'td',
  'select',
  'option',
  'desc',
  'foreignObject',
  'x-y',
  's',
  'sc',
  'ti',
);
const attrName = pick(
  'href',
  'HREF',
  'src',
  'srcset',
  'alt',
  'rel',
  'name',
  'content',
  'http-equiv',
  'lang',
  'hreflang',
  'target',
  'type',
  'property',
  'width',
  'itemscope',
  'itemtype',
  'typeof',
  'vocab',
  '=x',
  '"q',
  'a/b',
);
const attrValue = fc.oneof(
  pick(
    '',
    '/',
    '#top',
    'x.html',
    'a&amp;b',
    '&notin',
    '&notin;x',
    '&amp=',
    '&lt',
    '&#x26;',
    'nofollow',
    'canonical',
    'alternate stylesheet',
    'next',
    'description',
    'robots',
    'refresh',
    '0; url=/n',
    'en',
    'a > b',
    "it's",
    'say "hi"',
    'a.png 1x, b.png 2x',
    'http://h.invalid/i.png',
    '_blank',
    'noopener',
    'application/ld+json',
    'og:title',
    'https://schema.org/Thing',
  ),
  fc.string({ maxLength: 12 }),
);
const attr = fc.oneof(
  attrName,
  fc.tuple(attrName, pick('=', ' = ', '='), pick('"', "'", ''), attrValue).map(([n, eq, q, v]) => `${n}${eq}${q}${v}${q}`),
);
const text = fc.oneof(
  pick(
    ' ',
    '\n',
    'word',
    'two words',
    '&amp;',
    '&lt;',
    '&amp',
    '&notin x',
    '&#0;',
    '&#x1F600;',
    '&nbsp;',
    '&bogus;',
    '&',
    '<',
    '>',
    '< b',
    '</>',
    '</ >',
    '</1>',
    '</ a>',
    '</a/>',
    '<!-->',
    '<!--->',
    '<!-- c -->',
    '<!--',
    '-->',
    '--->',
    '<!->',
    '<!>',
    '<!doctype html>',
    '<![CDATA[',
    '<![CDATA[x]]>',
    ']]>',
    '<?xml ?>',
    '<?',
    '</script',
    '</title ',
    '\u001c\u000fscript>',
    '\u0000',
    '/',
    '/>',
  ),
  fc.string({ maxLength: 10 }),
);
const openTag = fc
  .tuple(tagName, fc.array(attr, { maxLength: 3 }), pick('>', '>', '>', ' />', '/>', '', ' '))
  .map(([t, a, end]) => `<${t}${a.map((x) => ` ${x}`).join('')}${end}`);
const closeTag = fc.tuple(tagName, pick('>', ' >', ' x>', '')).map(([t, end]) => `</${t}${end}`);
const token = fc.oneof({ weight: 3, arbitrary: openTag }, { weight: 2, arbitrary: closeTag }, { weight: 3, arbitrary: text });
const markup = fc.oneof(
  { weight: 8, arbitrary: fc.array(token, { maxLength: 25 }).map((t) => t.join('')) },
  { weight: 1, arbitrary: fc.tuple(openTag, text, fc.integer({ min: 1, max: 120 })).map(([o, t, n]) => `${o}${t}`.repeat(n)) },
);

describe('the HTML reader', () => {
  it('gives the extractors what htmlparser2 gave them, on generated markup', () => {
    fc.assert(
      fc.property(markup, fc.boolean(), (html, resources) => {
        const extractors = resources ? ALL : BASE;
        const reference = readHtmlReference(html, extractors);
        expect(readHtml(html, extractors)).toEqual(reference);
        // An ASCII page is also read with its bytes (decodeHtmlPage's ascii), to the same draft.
        const bytes = Buffer.from(html, 'latin1');
        if (bytes.every((b) => b < 0x80)) expect(readHtml(html, extractors, bytes)).toEqual(reference);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('reads a long page of more tag names than it keeps as htmlparser2 did, from its text or its bytes', () => {
    // 1,500 names of the page's own (the reader interns 1,024 for the worker's life, then makes each one anew), in
    // either case, closed out of order, around 60 KB of text (past the main text's bound: the rest is only counted),
    // some of it in areas left out (nav) and in links (the anchors' text waits for an <a> to open).
    const parts: string[] = ['<!doctype html><html><head><title>Long</title></head><body>'];
    for (let i = 0; i < 1500; i++) {
      const name = i % 2 ? `x-${i}` : `X-${i}`;
      parts.push(`<${name} id=t${i}><p>word ${i} in &amp; out</p>`);
      if (i % 7 === 0) parts.push(`<nav>menu <a href="/m${i}">item ${i}</a></nav>`);
      if (i % 3 === 0) parts.push(`</${name.toLowerCase()}>`);
      parts.push('<div>'.concat('lorem ipsum dolor sit amet '.repeat(1 + (i % 3)), '</div>'));
    }
    parts.push('</body></html>');
    const html = parts.join('\n');
    expect(html.length).toBeGreaterThan(60_000);
    const reference = readHtmlReference(html, ALL);
    expect(reference.words).toBeGreaterThan(10_000);
    expect(readHtml(html, ALL)).toEqual(reference);
    expect(readHtml(html, ALL, Buffer.from(html, 'latin1'))).toEqual(reference);
  });

  it.skipIf(!existsSync(PGDOCS))('gives the extractors what htmlparser2 gave them, on every page of the PostgreSQL manual', () => {
    const files = readdirSync(PGDOCS).filter((f) => f.endsWith('.html'));
    expect(files.length).toBeGreaterThan(1000);
    for (const f of files) {
      const html = readFileSync(path.join(PGDOCS, f), 'utf8');
      expect(readHtml(html, ALL), f).toEqual(readHtmlReference(html, ALL));
    }
  });
});

if (!existsSync(PGDOCS)) console.log(`${PGDOCS} is missing (apt-get install postgresql-doc-15): the manual's pages are not compared`);

/** The word counter as it was (a loop per character), the reference for the one of regular expressions. */
class WordCounterReference {
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

function isWordChar(c: number, text: string, i: number): boolean {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  if (c < 0x80) return false;
  const ch = c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!;
  return /[\p{L}\p{N}]/u.test(ch);
}

describe('the word counter', () => {
  const piece = fc.oneof(
    fc.constantFrom(
      ' ',
      '\n',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\ufeff',
      '|',
      '—',
      'a',
      'Z',
      '9',
      'é',
      '日',
      '😀',
      '\ud83d',
      '\ude00',
      '-',
      '.',
    ),
    fc.string({ maxLength: 6, unit: 'binary' }),
  );
  const chunks = fc.array(
    fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
    { maxLength: 8 },
  );
  it('counts what the loop per character counted, however the text is cut into chunks, with boundaries between', () => {
    fc.assert(
      fc.property(chunks, fc.array(fc.boolean(), { maxLength: 8 }), (texts, cuts) => {
        const fast = new WordCounter();
        const slow = new WordCounterReference();
        texts.forEach((t, i) => {
          fast.feed(t);
          slow.feed(t);
          if (cuts[i]) {
            fast.boundary();
            slow.boundary();
          }
        });
        expect(fast.total()).toBe(slow.total());
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
  });
});
