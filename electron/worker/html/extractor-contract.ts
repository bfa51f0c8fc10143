import type { LinkKind } from '../../../shared/protocol.ts';

// The contract of one HTML extractor: a small module that reads one thing from a page while the page streams
// past once (htmlparser2 events), and writes it into the page draft. Adding an extractor means adding a module
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
  text?(text: string, state: ParseState): void;
  close?(name: string, state: ParseState): void;
  /** The page has ended (implied closes already reported). */
  end?(): void;
}

export interface HtmlExtractor {
  /** Short name, for the list of extractors a crawl runs. */
  readonly name: string;
  /** Fresh handlers for one page, writing into `draft`. */
  begin(draft: PageDraft): HtmlHandlers;
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
 */
export class TextCapture {
  private parts: { element: string; text: string; onClose(text: string): void }[] = [];

  constructor(private readonly limit = Infinity) {}

  start(element: string, onClose: (text: string) => void): void {
    this.parts.push({ element, text: '', onClose });
  }

  isOpen(element: string): boolean {
    return this.parts.some((p) => p.element === element);
  }

  text(text: string): void {
    for (const p of this.parts) if (p.text.length < this.limit) p.text += text;
  }

  close(element: string): void {
    for (let i = this.parts.length - 1; i >= 0; i--) {
      const p = this.parts[i]!;
      if (p.element !== element) continue;
      this.parts.splice(i, 1);
      p.onClose(p.text);
      return;
    }
  }
}
