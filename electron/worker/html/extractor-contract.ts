import type { PageContent } from '../../../shared/content.ts';
import type { LinkKind, SocialTag, StructuredDataItem } from '../../../shared/protocol.ts';

// The contract of one HTML extractor: a small module that reads one thing from a page while the page streams
// past once (open, text and close events, as htmlparser2 reports them), and writes it into the page draft. Adding an extractor means adding a module
// here and listing it in crawl-extractors.ts; the parse loop (read-html.ts) never changes.

/** What extractors write while the page streams past; read-html.ts turns it into the page's result. */
export interface PageDraft {
  title?: string;
  metaDescription?: string;
  metaRobots?: string;
  /** content of <meta http-equiv="refresh">, as written. */
  refresh?: string;
  h1?: string;
  h1Count: number;
  h2?: string;
  h2Count: number;
  lang?: string;
  baseHref?: string;
  canonicalHref?: string;
  hreflang: { lang: string; href: string }[];
  /** Every reference to another URL, in document order, before resolution. */
  links: RawLink[];
  words: number;
  /** Images the page uses, in document order (images.ts), and how many were left out past the bound. */
  images?: RawImage[];
  imagesOver?: number;
  /** Structured data and social tags (structured-data.ts), when the page has any. */
  structuredData?: StructuredDataItem[];
  socialTags?: SocialTag[];
  /** Security (security.ts): hrefs that may load over plain HTTP, and target=_blank links without noopener, as written. */
  security?: { httpResources: { href: string; kind: string }[]; blankLinks: string[] };
  /** The main text's fingerprint and compressed text (main-content.ts, issue 18.1), when the crawl reads it. */
  content?: PageContent;
}

/** One use of an image on a page, before resolution (issue 18.3). */
export interface RawImage {
  src: string;
  /** The alt attribute, whitespace collapsed and cut to IMAGE_ALT_MAX; null when the attribute is absent. */
  alt: string | null;
  /** The collapsed alt's real length; null when absent. */
  altLength: number | null;
  /** width and height attributes as written (trimmed, cut), null when absent or empty. */
  width: string | null;
  height: string | null;
}

export type RawLinkKind = Exclude<LinkKind, 'redirect'>;

export interface RawLink {
  href: string;
  anchor: string;
  kind: RawLinkKind;
  /** rel contains "nofollow". */
  nofollow: boolean;
}

/** Where the parse is, kept by the runner so extractors do not each track it. */
export interface ParseState {
  /** Inside a subtree never shown as text (script, style, head, template...). */
  hidden: boolean;
  /** Inside an inline <svg> (whose <title> is a tooltip, not the document's). */
  inSvg: boolean;
}

export interface HtmlHandlers {
  open?(name: string, attribs: Record<string, string>, state: ParseState): void;
  /**
   * Text source.slice(from, to). Most of a page's text arrives as a range of the page itself, so a handler that
   * only looks at it (word count) or ignores it (a capture with nothing open) copies nothing.
   */
  text?(source: string, from: number, to: number, state: ParseState): void;
  close?(name: string, state: ParseState): void;
  /** The page has ended (implied closes already reported). */
  end?(): void;
}

/** The page an extractor's handlers are begun for. */
export interface PageText {
  html: string;
  /** What the extractor's everyTagAttributesIf said of this page. */
  everyTagAttributes: boolean;
  /**
   * The page's bytes when each character of `html` is the byte at the same index (an ASCII page), else
   * null: a handler that reads every character of the page's own text reads them faster here.
   */
  ascii: Uint8Array | null;
}

export interface HtmlExtractor {
  /** Short name, for the list of extractors a crawl runs. */
  readonly name: string;
  /**
   * The tags whose open and close events this extractor handles; the reader hands it no other tag's. Left out,
   * every tag's (only the word count needs them: a call per tag per extractor was a large part of reading a page).
   * A page for which everyTagAttributesIf says yes hands it every tag's as well.
   */
  readonly tags?: readonly string[];
  /**
   * The tags whose attributes `open` reads ([] for none); the others get an empty attribute record. Left out, every
   * tag's attributes are read (which costs the reader time on every tag of every page).
   */
  readonly attributesOf?: readonly string[];
  /**
   * The elements inside which `text` is wanted: the reader calls it only while one of them is open. Left out, every
   * text of the page (the word count's and the main text's). A capture of a title, heading or link reads a few texts
   * of thousands, and a call for each of them was a large part of reading a page of many paragraphs.
   */
  readonly textWithin?: readonly string[];
  /**
   * For attributes that may sit on any tag (microdata's itemscope, RDFa's typeof): true when this page may hold
   * them, and every tag's attributes are then read for the page. A cheap test of the page's text, so a page without
   * them costs one scan, not the attributes of all its tags.
   */
  everyTagAttributesIf?(html: string): boolean;
  /**
   * Fresh handlers for one page, writing into `draft`. `page` (left out by a caller that does not give it: then
   * assume the page may hold anything) is the page's text, for a cheap test that leaves handlers out, and what
   * everyTagAttributesIf said of it.
   */
  begin(draft: PageDraft, page?: PageText): HtmlHandlers;
}

/** Whitespace collapsed and trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A space-separated attribute (rel) contains `token`, case-insensitively. */
export function hasToken(value: string | undefined, token: string): boolean {
  if (!value) return false;
  return value.toLowerCase().split(/\s+/).includes(token);
}

/**
 * Text of an element while it is open: opened at its start tag, closed at the matching end tag (htmlparser2
 * reports implied closes too). `limit` bounds what is kept, so a link wrapping a whole page does not copy it.
 * The text is kept once, however many elements are open (a page of 100,000 unclosed links), and each element's is
 * put together when it closes: copying every text into each open element cost time and garbage quadratic in the
 * nesting (a 55 KB page of "<a href=x>t" took seconds, a megabyte minutes).
 */
export class TextCapture {
  /** Open elements, innermost last; `from` is the first of `chunks` in each one's text. */
  private parts: { element: string; from: number; onClose(text: string): void }[] = [];
  /** Text seen since the outermost open element started; dropped when none is open. */
  private chunks: string[] = [];
  /** Open elements by name, so the end tag of an element not captured costs nothing (every </div> of a page). */
  private readonly openCount = new Map<string, number>();

  constructor(private readonly limit = Infinity) {}

  start(element: string, onClose: (text: string) => void): void {
    this.parts.push({ element, from: this.chunks.length, onClose });
    this.openCount.set(element, (this.openCount.get(element) ?? 0) + 1);
  }

  isOpen(element: string): boolean {
    return (this.openCount.get(element) ?? 0) > 0;
  }

  text(source: string, from: number, to: number): void {
    if (this.parts.length > 0) this.chunks.push(from === 0 && to === source.length ? source : source.slice(from, to));
  }

  close(element: string): void {
    const count = this.openCount.get(element) ?? 0;
    if (count === 0) return;
    for (let i = this.parts.length - 1; i >= 0; i--) {
      const p = this.parts[i]!;
      if (p.element !== element) continue;
      this.parts.splice(i, 1);
      this.openCount.set(element, count - 1);
      // Whole chunks until the limit is reached, as the text was kept before (text events are never empty, so
      // at most `limit` chunks are read).
      let end = p.from;
      for (let length = 0; end < this.chunks.length && length < this.limit; end++) length += this.chunks[end]!.length;
      const text = this.chunks.slice(p.from, end).join('');
      if (this.parts.length === 0) this.chunks = [];
      p.onClose(text);
      return;
    }
  }
}
