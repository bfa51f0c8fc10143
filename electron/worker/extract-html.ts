// What the crawler reads from an HTML page: the SEO basics (title, description, first h1, canonical, word count)
// and the distinct outlinks. cheerio's slim build (htmlparser2 only) is forgiving and fast; it never throws on
// malformed markup or binary garbage, it just builds some tree.
import { load, type CheerioAPI } from 'cheerio/slim';
import { ANCHOR_MAX, type Outlink } from '../../shared/protocol.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';

export interface ExtractedPage {
  title: string | null;
  metaDescription: string | null;
  /** Text of the first <h1>. */
  h1: string | null;
  /** <link rel="canonical">, resolved and in canonical form. */
  canonical: string | null;
  /** Words of visible text (script, style, noscript, template and <head> left out). */
  wordCount: number;
  /** Distinct http(s) links in document order, first anchor text kept. */
  links: Outlink[];
}

export function extractHtml(html: string, pageUrl: string, inScope: (canonical: string) => boolean): ExtractedPage {
  const $ = load(html);
  const pageCanonical = canonicalUrl(pageUrl);
  const base = baseUrl($, pageUrl);

  const canonicalHref = $('link[rel~="canonical" i][href]').first().attr('href');
  return {
    title: clean(documentTitle($)),
    metaDescription: clean($('meta[name="description" i][content]').first().attr('content')),
    h1: clean($('h1').first().text()),
    canonical: canonicalHref === undefined ? null : canonicalUrl(canonicalHref, base),
    wordCount: countWords(visibleText($)),
    links: extractLinks($, base, pageCanonical, inScope),
  };
}

/** Trimmed, whitespace collapsed; empty -> null. */
function clean(text: string | undefined | null): string | null {
  if (text == null) return null;
  const out = collapse(text);
  return out === '' ? null : out;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The document's <title>, not an inline SVG's <title> (which htmlparser2 reports the same way). */
function documentTitle($: CheerioAPI): string | undefined {
  const title = $('title')
    .filter((_, el) => $(el).closest('svg').length === 0)
    .first();
  return title.length ? title.text() : undefined;
}

/** Links resolve against the first <base href> (itself relative to the page), as in a browser. */
function baseUrl($: CheerioAPI, pageUrl: string): string {
  const href = $('base[href]').first().attr('href');
  if (href === undefined) return pageUrl;
  try {
    const resolved = new URL(href.trim(), pageUrl);
    // A javascript: or data: base would make every link unusable; browsers ignore those too.
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : pageUrl;
  } catch {
    return pageUrl;
  }
}

function extractLinks($: CheerioAPI, base: string, pageCanonical: string | null, inScope: (c: string) => boolean): Outlink[] {
  const seen = new Set<string>();
  const links: Outlink[] = [];
  $('a[href], area[href]').each((_, el) => {
    const node = $(el);
    const href = node.attr('href') ?? '';
    const url = canonicalUrl(href, base); // null for mailto:, javascript:, tel:, data: and unparsable hrefs
    if (url === null) return;
    // "#top" (or an empty href) is the page pointing at itself: not a link worth recording.
    const trimmed = href.trim();
    if ((trimmed === '' || trimmed.startsWith('#')) && url === pageCanonical) return;
    if (seen.has(url)) return;
    seen.add(url);
    links.push({ url, anchor: anchorText($, el), inScope: inScope(url) });
  });
  return links;
}

/** What a person sees as the link: its text, else an image's alt (or the <area>'s alt). */
function anchorText($: CheerioAPI, el: Parameters<CheerioAPI>[0]): string {
  const node = $(el);
  let text = collapse(node.text());
  if (text === '') {
    const alt = node.is('area') ? node.attr('alt') : node.find('img[alt]').first().attr('alt');
    text = collapse(alt ?? '');
  }
  return text.length > ANCHOR_MAX ? text.slice(0, ANCHOR_MAX) : text;
}

// Minimal view of htmlparser2's DOM nodes, enough for the text walk (domhandler is not a direct dependency).
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

/** Subtrees that are never shown as text. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'object']);

/** Elements that do not break words: "<b>foo</b>bar" is one word. Anything else separates words. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
]);

/** Visible text of the document. Iterative, so absurdly deep (or garbage) nesting cannot overflow the stack. */
function visibleText($: CheerioAPI): string {
  const parts: string[] = [];
  const root = $.root()[0] as unknown as DomNode;
  const stack: Array<DomNode | ' '> = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === ' ') {
      parts.push(' ');
      continue;
    }
    if (node.type === 'text') {
      parts.push(node.data ?? '');
      continue;
    }
    if (node.type === 'comment' || node.type === 'directive') continue;
    const name = node.name?.toLowerCase();
    if (name !== undefined && HIDDEN.has(name)) continue;
    const children = node.children;
    if (!children?.length) continue;
    const block = name !== undefined && !INLINE.has(name);
    if (block) stack.push(' ');
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    if (block) stack.push(' ');
  }
  return parts.join('');
}

/** Whitespace-separated tokens that contain at least one letter or digit (so "|" or "—" are not words). */
export function countWords(text: string): number {
  let n = 0;
  for (const token of text.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(token)) n++;
  return n;
}
