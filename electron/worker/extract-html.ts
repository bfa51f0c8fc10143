// What the crawler reads from an HTML page: the SEO basics (title, description, first h1, canonical, word count)
// and the distinct outlinks, in one streaming pass of htmlparser2, the parser cheerio is built on. Building
// cheerio's DOM and walking it cost three times as much per page (on the PostgreSQL manual: 810 ms against
// 250 ms for 1,169 pages, with a fifth of a worker's time in garbage collection), and a page is read once, top
// to bottom, so no tree is needed. Forgiving: malformed markup or binary garbage never throws.
import { Parser } from 'htmlparser2';
import { ANCHOR_MAX, type Outlink } from '../../shared/protocol.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';
import type { Normaliser } from '../../shared/url/normalise.ts';

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
  /** <meta name="robots" content>, whitespace collapsed, or null. */
  metaRobots: string | null;
}

/**
 * Reads a page. Links and the canonical link are put in the crawl's normal form by `normalise` (the crawl's
 * normaliser: canonical form and stripped query parameters; plain canonical form when not given) and tested
 * with `inScope`.
 */
export function extractHtml(
  html: string,
  pageUrl: string,
  inScope: (url: string) => boolean,
  normalise: Normaliser = canonicalUrl,
): ExtractedPage {
  const found = readPage(html);
  const pageCanonical = normalise(pageUrl);
  const base = baseUrl(found.baseHref, pageUrl);
  return {
    title: clean(found.title),
    metaDescription: clean(found.metaDescription),
    h1: clean(found.h1),
    canonical: found.canonicalHref === undefined ? null : normalise(found.canonicalHref, base),
    wordCount: found.words,
    links: resolveLinks(found.links, base, pageCanonical, inScope, normalise),
    metaRobots: clean(found.metaRobots),
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

/** Links resolve against the first <base href> (itself relative to the page), as in a browser. */
function baseUrl(href: string | undefined, pageUrl: string): string {
  if (href === undefined) return pageUrl;
  try {
    const resolved = new URL(href.trim(), pageUrl);
    // A javascript: or data: base would make every link unusable; browsers ignore those too.
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : pageUrl;
  } catch {
    return pageUrl;
  }
}

interface RawLink {
  href: string;
  anchor: string;
  /** rel contains "nofollow". */
  nofollow: boolean;
}

function resolveLinks(
  raw: RawLink[],
  base: string,
  pageCanonical: string | null,
  inScope: (url: string) => boolean,
  normalise: Normaliser,
): Outlink[] {
  const seen = new Set<string>();
  const links: Outlink[] = [];
  // Navigation repeats the same hrefs; resolve each spelling once per page.
  const resolved = new Map<string, string | null>();
  const byUrl = new Map<string, Outlink>();
  for (const { href, anchor, nofollow } of raw) {
    let url = resolved.get(href);
    if (url === undefined) {
      url = normalise(href, base); // null for mailto:, javascript:, tel:, data: and unparsable hrefs
      resolved.set(href, url);
    }
    if (url === null) continue;
    // "#top" (or an empty href) is the page pointing at itself: not a link worth recording.
    const trimmed = href.trim();
    if ((trimmed === '' || trimmed.startsWith('#')) && url === pageCanonical) continue;
    if (seen.has(url)) {
      // One followable link to a URL is enough to follow it.
      if (!nofollow) delete byUrl.get(url)!.nofollow;
      continue;
    }
    seen.add(url);
    const link: Outlink = nofollow ? { url, anchor, inScope: inScope(url), nofollow: true } : { url, anchor, inScope: inScope(url) };
    byUrl.set(url, link);
    links.push(link);
  }
  return links;
}

/** Subtrees that are never shown as text. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'object']);

/** Elements that do not break words: "<b>foo</b>bar" is one word. Anything else separates words. */
const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr', 'img',
]);

interface Found {
  title: string | undefined;
  metaDescription: string | undefined;
  h1: string | undefined;
  canonicalHref: string | undefined;
  baseHref: string | undefined;
  metaRobots: string | undefined;
  links: RawLink[];
  words: number;
}

/** Text being gathered for an element still open: the title, the first h1, or a link's anchor. */
interface Capture {
  element: string;
  text: string;
  /** For links: the first <img alt> inside (used when the link has no text). */
  imgAlt?: string;
  onClose(text: string, imgAlt: string | undefined): void;
}

/** One streaming pass over the page. htmlparser2 reports every element closed, implied closes included. */
function readPage(html: string): Found {
  const found: Found = { title: undefined, metaDescription: undefined, h1: undefined, canonicalHref: undefined, baseHref: undefined, metaRobots: undefined, links: [], words: 0 };
  const words = new WordCounter();
  const captures: Capture[] = [];
  let hiddenDepth = 0;
  let svgDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!INLINE.has(name)) words.boundary();
        if (HIDDEN.has(name)) hiddenDepth++;
        if (name === 'svg') svgDepth++;
        switch (name) {
          case 'title':
            // The document's title, not an inline SVG's <title> (a tooltip).
            if (found.title === undefined && svgDepth === 0 && !captures.some((c) => c.element === 'title')) {
              captures.push({ element: 'title', text: '', onClose: (text) => (found.title ??= text) });
            }
            break;
          case 'h1':
            if (found.h1 === undefined && !captures.some((c) => c.element === 'h1')) {
              captures.push({ element: 'h1', text: '', onClose: (text) => (found.h1 ??= text) });
            }
            break;
          case 'meta':
            if (attribs.content !== undefined) {
              const metaName = attribs.name?.toLowerCase();
              if (found.metaDescription === undefined && metaName === 'description') found.metaDescription = attribs.content;
              if (found.metaRobots === undefined && metaName === 'robots') found.metaRobots = attribs.content;
            }
            break;
          case 'link':
            if (found.canonicalHref === undefined && attribs.href !== undefined && hasToken(attribs.rel, 'canonical')) {
              found.canonicalHref = attribs.href;
            }
            break;
          case 'base':
            if (found.baseHref === undefined && attribs.href !== undefined) found.baseHref = attribs.href;
            break;
          case 'img':
            if (attribs.alt !== undefined) for (const c of captures) if (c.element === 'a') c.imgAlt ??= attribs.alt;
            break;
          case 'area':
            if (attribs.href !== undefined) found.links.push({ href: attribs.href, anchor: anchorOf('', attribs.alt), nofollow: hasToken(attribs.rel, 'nofollow') });
            break;
          case 'a':
            if (attribs.href !== undefined) {
              // Recorded now, so links keep document order; the anchor text is filled in at </a>.
              const link: RawLink = { href: attribs.href, anchor: '', nofollow: hasToken(attribs.rel, 'nofollow') };
              found.links.push(link);
              captures.push({ element: 'a', text: '', onClose: (text, imgAlt) => (link.anchor = anchorOf(text, imgAlt)) });
            }
            break;
        }
      },
      ontext(text) {
        if (hiddenDepth === 0) words.feed(text);
        for (const c of captures) {
          // An anchor is cut to ANCHOR_MAX anyway; a link wrapping a whole page must not copy the page.
          if (c.element !== 'a' || c.text.length < 4 * ANCHOR_MAX) c.text += text;
        }
      },
      onclosetag(name) {
        if (!INLINE.has(name)) words.boundary();
        if (HIDDEN.has(name) && hiddenDepth > 0) hiddenDepth--;
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        for (let i = captures.length - 1; i >= 0; i--) {
          const c = captures[i]!;
          if (c.element !== name) continue;
          captures.splice(i, 1);
          c.onClose(c.text, c.imgAlt);
          break;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  found.words = words.total();
  return found;
}

/** A space-separated attribute (rel) contains `token`, case-insensitively. */
function hasToken(value: string | undefined, token: string): boolean {
  if (!value) return false;
  return value.toLowerCase().split(/\s+/).includes(token);
}

/** What a person sees as the link: its text, else an image's alt (or the <area>'s alt), cut to ANCHOR_MAX. */
function anchorOf(text: string, alt: string | undefined): string {
  let anchor = collapse(text);
  if (anchor === '') anchor = collapse(alt ?? '');
  return anchor.length > ANCHOR_MAX ? anchor.slice(0, ANCHOR_MAX) : anchor;
}

/**
 * Counts words as text streams past: whitespace-separated tokens with at least one letter or digit (so "|" or
 * "—" are not words). Text nodes run together unless a block boundary separates them.
 */
class WordCounter {
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

const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordChar(c: number, text: string, i: number): boolean {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  if (c < 0x80) return false;
  // Astral characters (a surrogate pair) are tested whole.
  const ch = c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!;
  return WORD_CHAR.test(ch);
}

/** Whitespace-separated tokens that contain at least one letter or digit (so "|" or "—" are not words). */
export function countWords(text: string): number {
  const counter = new WordCounter();
  counter.feed(text);
  return counter.total();
}
