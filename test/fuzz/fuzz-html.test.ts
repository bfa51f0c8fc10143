// Property-based tests (fast-check) of the HTML extractor: a page is whatever a site sends, so on any bytes (decoded as
// the worker decodes them, invalid UTF-8 and unknown charsets included) and any markup (unclosed and deeply nested
// elements, huge attributes, entities, broken tags) it must return, never throw, and its output must stay within
// the protocol's caps. Seeded.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { ANCHOR_MAX, UNFETCHABLE_HREF_MAX } from '../../shared/protocol.ts';
import type { ExtractedPage } from '../../electron/worker/html/extract-page.ts';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';
import { htmlExtractorsFor } from '../../electron/worker/html/crawl-extractors.ts';
import { decodeHtml } from '../../electron/worker/fetch-url.ts';
import { MAX_URL_LENGTH } from '../../shared/url/canonical.ts';
import { PAGE_TEXT_MAX } from '../../shared/stored-text.ts';
import { makeNormaliser } from '../../shared/url/normalise.ts';

const RUNS = 10_000;
const SEED = 0x417e13;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

const normalise = makeNormaliser({ stripQueryParams: ['utm_*'] });
const inScope = (url: string) => url.startsWith('https://site.example/');
const PAGE = 'https://site.example/dir/page.html';
const WITH_RESOURCES = htmlExtractorsFor({ checkResources: ['images', 'scripts', 'stylesheets'] });

const pick = <T>(...items: T[]) => fc.constantFrom(...items);
const tagName = pick(
  'a',
  'area',
  'img',
  'base',
  'link',
  'meta',
  'title',
  'h1',
  'h2',
  'html',
  'head',
  'body',
  'div',
  'svg',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'source',
  'p',
  'A',
  'x-y',
);
const attrName = pick(
  'href',
  'src',
  'srcset',
  'alt',
  'rel',
  'name',
  'content',
  'http-equiv',
  'lang',
  'hreflang',
  'charset',
  'HREF',
  'data-x',
);
const attrValue = fc.oneof(
  {
    weight: 4,
    arbitrary: pick(
      '',
      '/',
      '#top',
      '../x',
      'nofollow',
      'canonical',
      'alternate',
      'stylesheet',
      'robots',
      'description',
      'refresh',
      '0; url=/next',
      'noindex, nofollow',
      'en',
      'x-default',
      'mailto:a@b',
      'javascript:void(0)',
      'tel:1',
      'data:text/html,x',
      'http://[::1',
      'https://site.example/%%3641',
      'a.png 1x, b.png 2x',
    ),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => `data:image/png;base64,${'A'.repeat(n)}`) },
);
const quote = pick('"', "'", '');
const attr = fc
  .tuple(attrName, quote, attrValue)
  .map(([n, q, v]) => (q === '' ? `${n}=${v.replace(/[\s>]/g, '')}` : `${n}=${q}${v.replaceAll(q, '')}${q}`));
const text = fc.oneof(
  pick(
    ' ',
    '\n',
    'word',
    'two words',
    '&amp;',
    '&#0;',
    '&#x1F600;',
    '&nbsp;',
    '&bogus;',
    '<',
    '>',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '\u0000',
    '\ud800',
  ),
  fc.string({ maxLength: 12 }),
);
const openTag = fc
  .tuple(tagName, fc.array(attr, { maxLength: 3 }), pick('>', '>', ' />', ''))
  .map(([t, a, end]) => `<${t}${a.map((x) => ` ${x}`).join('')}${end}`);
const closeTag = tagName.map((t) => `</${t}>`);
const token = fc.oneof({ weight: 3, arbitrary: openTag }, { weight: 2, arbitrary: closeTag }, { weight: 3, arbitrary: text });
/** Markup: random tokens, or one of them repeated deep (nesting without end tags). */
const markup = fc.oneof(
  { weight: 6, arbitrary: fc.array(token, { maxLength: 20 }).map((t) => t.join('')) },
  { weight: 1, arbitrary: fc.tuple(openTag, text, fc.integer({ min: 1, max: 200 })).map(([o, t, n]) => `${o}${t}`.repeat(n)) },
);
/** Bytes as a server sends them, with the Content-Type it names. */
const bytes = fc.tuple(
  fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    markup.map((m) => new Uint8Array(Buffer.from(m, 'latin1'))),
  ),
  fc.option(
    pick(
      'text/html',
      'text/html; charset=utf-8',
      'text/html; charset=shift_jis',
      'text/html; charset=utf-16le',
      'text/html; charset=bogus',
      'text/html; charset=iso-2022-jp',
      'text/html; charset=',
    ),
    { nil: null },
  ),
);
const page = fc.oneof(
  markup,
  bytes.map(([b, type]) => decodeHtml(Buffer.from(b), type)),
);

/** Every bound the worker's report must keep, whatever the page. */
function checkBounded(html: string, out: ExtractedPage): void {
  const tags = (html.match(/</g)?.length ?? 0) + 1; // every link comes from a tag (or the meta refresh)
  check(out.links.length + out.unfetchableLinks.length <= 2 * tags, `${out.links.length} links from ${tags} tags`);
  const urls = new Set<string>();
  for (const link of out.links) {
    check(link.anchor.length <= ANCHOR_MAX, `anchor of ${link.anchor.length}`);
    check(link.url.length <= MAX_URL_LENGTH && normalise(link.url) === link.url, `not a normal form: ${link.url}`);
    check(!urls.has(link.url), `link twice: ${link.url}`);
    check(link.inScope === inScope(link.url), `scope of ${link.url}`);
    urls.add(link.url);
  }
  for (const u of out.unfetchableLinks) {
    check(u.href.length <= UNFETCHABLE_HREF_MAX, `unfetchable href of ${u.href.length}`);
    check(u.anchor.length <= ANCHOR_MAX, `unfetchable anchor of ${u.anchor.length}`);
    check(/^[a-z][a-z0-9+.-]*$/.test(u.scheme), `scheme ${u.scheme}`);
  }
  for (const url of [out.canonical, out.metaRefresh, ...out.hreflang.map((h) => h.url)]) {
    if (url !== null) check(url.length <= MAX_URL_LENGTH && normalise(url) === url, `not a normal form: ${url}`);
  }
  check(Number.isInteger(out.wordCount) && out.wordCount >= 0 && out.wordCount <= html.length, `word count ${out.wordCount}`);
  check(out.h1Count >= 0 && out.h1Count <= tags && out.h2Count >= 0 && out.h2Count <= tags, 'heading counts');
  for (const t of [out.title, out.metaDescription, out.h1, out.h2, out.lang, out.metaRobots]) {
    check(t === null || (t.length > 0 && t.length <= html.length && t === t.trim()), `text field ${JSON.stringify(t?.slice(0, 40))}`);
  }
  for (const t of [out.title, out.metaDescription, out.h1, out.h2]) check(t === null || t.length <= PAGE_TEXT_MAX, `text of ${t?.length}`);
}

describe('the HTML extractor, fuzzed', () => {
  it('never throws on any bytes or markup, and keeps its output within the caps', () => {
    fc.assert(
      fc.property(page, (html) => {
        checkBounded(html, extractHtml(html, PAGE, inScope, normalise));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('reads the same with every extractor a crawl can have (resources too)', () => {
    fc.assert(
      fc.property(markup, (html) => {
        checkBounded(html, extractHtml(html, PAGE, inScope, normalise, WITH_RESOURCES));
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
  });
});
