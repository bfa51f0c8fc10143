// The streaming extractor against cheerio's DOM and selectors, as the reference reading of the same HTML:
// whatever markup a page has, both must find the same links, title, h1, description and canonical.
import fs from 'node:fs';
import path from 'node:path';
import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';
import { pageHtml } from '../helpers/fixture-site.ts';

const PAGE = 'http://site.test/docs/page.html';
const collapse = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim() || null;

function reference(html: string) {
  const $ = load(html);
  const baseHref = $('base[href]').first().attr('href');
  const base = baseHref ? new URL(baseHref, PAGE).href : PAGE;
  const seen = new Set<string>();
  const links: string[] = [];
  const unfetchable: string[] = [];
  const self = canonicalUrl(PAGE);
  let canonicalSeen = false;
  // Every element that names another URL, in document order: a and area, and link rel=canonical (the first),
  // next, prev, alternate.
  $('a[href], area[href], link[href][rel]').each((_, el) => {
    const href = $(el).attr('href')!;
    const tag = (el as { tagName: string }).tagName.toLowerCase();
    if (tag === 'link') {
      const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('canonical')) {
        if (canonicalSeen) return;
        canonicalSeen = true;
      } else if (!rel.some((r) => ['next', 'prev', 'previous'].includes(r)) && !(rel.includes('alternate') && !rel.includes('stylesheet')))
        return;
    }
    const url = canonicalUrl(href, base);
    if (!url) {
      if (!unfetchable.includes(href.trim())) unfetchable.push(href.trim());
      return;
    }
    if (seen.has(url)) return;
    if (url === self && (href.trim() === '' || href.trim().startsWith('#') || tag === 'link')) return;
    seen.add(url);
    links.push(url);
  });
  const title = $('title')
    .filter((_, el) => $(el).closest('svg').length === 0)
    .first();
  return {
    title: title.length ? collapse(title.text()) : null,
    h1: $('h1').length ? collapse($('h1').first().text()) : null,
    metaDescription: collapse($('meta[name="description" i][content]').first().attr('content')),
    h1Count: $('h1').length,
    h2: $('h2').length ? collapse($('h2').first().text()) : null,
    h2Count: $('h2').length,
    lang: collapse($('html[lang]').first().attr('lang')),
    links,
    unfetchable,
  };
}

const documents: [string, string][] = [
  ['fixture page', pageHtml(7, 50, 6)],
  [
    'unclosed tags and entities',
    '<title>A &amp; B</title><h1>One<p>two</h1><a href="/x?a=1&amp;b=2">x<a href=y>y</a><div><a href="../up">up',
  ],
  [
    'base, area and odd hrefs',
    '<base href="/other/"><map><area href="a.html"></map><a href=" spaced.html ">s</a><a href="HTTP://SITE.test:80/Z">z</a><a href="#frag">f</a><a href="javascript:void 0">j</a>',
  ],
  [
    'svg title, uppercase tags',
    '<HTML><HEAD><TITLE>Real</TITLE><META NAME="Description" CONTENT="d"></HEAD><BODY><svg><title>tip</title></svg><H1>Big</H1><A HREF="Q">q</A></BODY></HTML>',
  ],
  [
    'link relations, headings, language and unfetchable links',
    '<html lang=" en-GB "><head><link rel="canonical" href="page.html"><link rel="next" href="p2.html"><link rel="prev" href="p0.html">' +
      '<link rel="alternate" hreflang="de" href="/de/page.html"><link rel="alternate" type="application/rss+xml" href="/feed.xml">' +
      '<link rel="stylesheet" href="s.css"></head><body><h2>Sub <b>one</b></h2><h1>A</h1><h1>B</h1><h2>Two</h2>' +
      '<a href="mailto:x@y.test">m</a><a href=" tel:+1 ">t</a><a href="javascript:void(0)">j</a><a href="data:text/plain,hi">d</a>' +
      '<a href="mailto:x@y.test">again</a><a href="http://[::1">bad</a><a href="p2.html">next</a><a href="page.html">self</a></body></html>',
  ],
  [
    'links in noscript and template',
    '<noscript><a href="/n">n</a></noscript><template><a href="/t">t</a></template><script>var a = "<a href=\'/s\'>s</a>";</script>',
  ],
];

// The PostgreSQL manual, when installed (../shared/sites/serve-pgdocs.sh puts it there): real pages in bulk.
const PGDOCS = '/usr/share/doc/postgresql-doc-15/html';
if (fs.existsSync(PGDOCS)) {
  for (const f of fs
    .readdirSync(PGDOCS)
    .filter((n) => n.endsWith('.html'))
    .slice(0, 60)) {
    documents.push([`pgdocs ${f}`, fs.readFileSync(path.join(PGDOCS, f), 'utf8')]);
  }
}

describe('streaming extraction agrees with cheerio', () => {
  it.each(documents)('%s', (_name, html) => {
    const ours = extractHtml(html, PAGE, () => true);
    const ref = reference(html);
    expect(ours.links.map((l) => l.url)).toEqual(ref.links);
    expect(ours.unfetchableLinks.map((l) => l.href)).toEqual(ref.unfetchable);
    expect({ h1Count: ours.h1Count, h2: ours.h2, h2Count: ours.h2Count, lang: ours.lang }).toEqual({
      h1Count: ref.h1Count,
      h2: ref.h2,
      h2Count: ref.h2Count,
      lang: ref.lang,
    });
    expect({ title: ours.title, h1: ours.h1, metaDescription: ours.metaDescription }).toEqual({
      title: ref.title,
      h1: ref.h1,
      metaDescription: ref.metaDescription,
    });
  });
});
