// A sitemap read as a stream (sitemaps.org protocol): fed text chunk by chunk, it reports each <url> of a urlset,
// each <sitemap> of a sitemap index, or each line of a plain-text sitemap as it is complete, and never holds the
// document. The protocol's limits hold: past MAX_SITEMAP_URLS entries or MAX_SITEMAP_BYTES of text the sitemap is
// marked over the limit and the parser asks to stop (write returns false), so a huge or hostile file costs at most
// the limits' worth of entries. Pure: no I/O (the worker's sitemap job feeds it; tests feed it strings).
import { Parser } from 'htmlparser2';
import type { Hreflang } from '../../../shared/protocol.ts';

/** sitemaps.org: a sitemap (or sitemap index) lists at most 50,000 URLs... */
export const MAX_SITEMAP_URLS = 50_000;
/** ...and is at most 50 MB (52,428,800 bytes) uncompressed. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** A <loc>, <lastmod> or line longer than this is not a URL any crawler takes: cut, so a hostile text stays bounded. */
const MAX_FIELD_CHARS = 8 * 1024;

export type SitemapFormat = 'urlset' | 'index' | 'text';

/** One <url> of a urlset (or one line of a text sitemap; or one <sitemap> of an index, without alternates). */
export interface SitemapEntry {
  /** As written (trimmed): the caller resolves and normalises it. */
  loc: string;
  lastmod: string | null;
  /** <xhtml:link rel="alternate" hreflang="..." href="..."> of the entry, in document order. */
  alternates: Hreflang[];
}

export interface SitemapLimits {
  maxUrls: number;
  maxBytes: number;
}

export const SITEMAP_LIMITS: SitemapLimits = { maxUrls: MAX_SITEMAP_URLS, maxBytes: MAX_SITEMAP_BYTES };

export interface SitemapSummary {
  /** null: nothing recognisable (an empty body, or XML whose root is neither urlset nor sitemapindex). */
  format: SitemapFormat | null;
  /** Entries reported (never more than the URL limit). */
  entries: number;
  overUrlLimit: boolean;
  overSizeLimit: boolean;
  /** Text characters read (UTF-16 units: close enough to bytes for the limit, and never fewer for ASCII). */
  chars: number;
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
};

export class SitemapParser {
  private format: SitemapFormat | null = null;
  private decided = false;
  private entries = 0;
  private chars = 0;
  private overUrlLimit = false;
  private overSizeLimit = false;
  private stopped = false;
  private xml: Parser | null = null;
  // XML state: the entry being read and the field whose text is being collected.
  private entry: SitemapEntry | null = null;
  private field: 'loc' | 'lastmod' | null = null;
  private text = '';
  // Text sitemaps: the line not yet ended.
  private line = '';

  constructor(
    private readonly onEntry: (entry: SitemapEntry, format: SitemapFormat) => void,
    private readonly limits: SitemapLimits = SITEMAP_LIMITS,
  ) {}

  /** Feeds the next piece of text; false once the parser wants no more (over a limit). */
  write(chunk: string): boolean {
    if (this.stopped) return false;
    if (this.chars + chunk.length > this.limits.maxBytes) {
      chunk = chunk.slice(0, this.limits.maxBytes - this.chars);
      this.overSizeLimit = true;
      this.stopped = true;
    }
    this.chars += chunk.length;
    if (!this.decided) {
      const start = chunk.replace(/^\uFEFF/, '').trimStart();
      if (start === '') return !this.stopped;
      this.decided = true;
      if (start.startsWith('<')) this.xml = this.makeXml();
      else this.format = 'text';
    }
    if (this.xml) this.xml.write(chunk);
    else this.writeText(chunk, false);
    return !this.stopped;
  }

  /** Ends the input (whatever is pending is read) and says what the sitemap was. */
  end(): SitemapSummary {
    if (!this.stopped) {
      if (this.xml) this.xml.end();
      else if (this.format === 'text') this.writeText('', true);
    }
    return {
      format: this.format,
      entries: this.entries,
      overUrlLimit: this.overUrlLimit,
      overSizeLimit: this.overSizeLimit,
      chars: this.chars,
    };
  }

  private emit(entry: SitemapEntry): void {
    if (this.stopped || entry.loc === '') return;
    if (this.entries >= this.limits.maxUrls) {
      // The entry past the limit: the sitemap is over it, and nothing more is read.
      this.overUrlLimit = true;
      this.stopped = true;
      this.xml?.pause();
      return;
    }
    this.entries++;
    this.onEntry(entry, this.format!);
  }

  private writeText(chunk: string, last: boolean): void {
    const lines = (this.line + chunk).split(/\r?\n|\r/);
    this.line = last ? '' : lines.pop()!;
    if (this.line.length > MAX_FIELD_CHARS) this.line = this.line.slice(0, MAX_FIELD_CHARS);
    for (const raw of lines) {
      if (this.stopped) return;
      const loc = raw.trim();
      if (loc !== '') this.emit({ loc: loc.slice(0, MAX_FIELD_CHARS), lastmod: null, alternates: [] });
    }
  }

  private makeXml(): Parser {
    return new Parser(
      {
        onopentag: (name, attribs) => {
          const tag = localName(name);
          if (this.format === null) {
            if (tag === 'urlset') this.format = 'urlset';
            else if (tag === 'sitemapindex') this.format = 'index';
            return;
          }
          if ((this.format === 'urlset' && tag === 'url') || (this.format === 'index' && tag === 'sitemap')) {
            this.entry = { loc: '', lastmod: null, alternates: [] };
          } else if (this.entry && (tag === 'loc' || tag === 'lastmod')) {
            this.field = tag;
            this.text = '';
          } else if (this.entry && tag === 'link' && this.format === 'urlset') {
            const rel = (attribs['rel'] ?? '').toLowerCase();
            const lang = attribs['hreflang']?.trim();
            const href = attribs['href']?.trim();
            if (rel === 'alternate' && lang && href && this.entry.alternates.length < 1000) {
              this.entry.alternates.push({ lang: lang.slice(0, 100), url: href.slice(0, MAX_FIELD_CHARS) });
            }
          }
        },
        ontext: (data) => {
          if (this.field && this.text.length < MAX_FIELD_CHARS) this.text += data;
        },
        onclosetag: (name) => {
          const tag = localName(name);
          if (this.field && tag === this.field && this.entry) {
            const value = this.text.trim().slice(0, MAX_FIELD_CHARS);
            if (this.field === 'loc') this.entry.loc = value;
            else this.entry.lastmod = value || null;
            this.field = null;
            this.text = '';
          } else if (this.entry && (tag === 'url' || tag === 'sitemap')) {
            const entry = this.entry;
            this.entry = null;
            this.emit(entry);
          }
        },
      },
      { xmlMode: true, decodeEntities: true },
    );
  }
}
