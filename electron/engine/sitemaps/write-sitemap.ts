// Writes sitemap.xml from a crawl (issue 17): the crawl's indexable HTML pages that answered 200, in crawl order, each
// with its lastmod from the Last-Modified header the crawl kept (results.response_headers) when it had one. Streamed:
// rows are read one at a time from the crawl file and written as they come, waiting for the file to drain, so a crawl
// of millions of pages costs the memory of one row. Past the protocol's limits (50,000 URLs, 50 MB) the pages go into
// numbered sitemaps (sitemap-1.xml, sitemap-2.xml... beside the output) and the output itself is a sitemap index
// naming them. The app's command, the web console's download and the CLI's --sitemap-out all call writeSitemap.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { readMeta } from '../frontier/sqlite/crawl-file.ts';
import { SQLITE_FILTERS } from '../analysis/result-filters.ts';

export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface WriteSitemapOptions {
  /** URLs per sitemap at most (the protocol's 50,000; smaller in tests). */
  maxUrls?: number;
  /** Bytes per sitemap at most (the protocol's 50 MB). */
  maxBytes?: number;
  /**
   * Where the sitemap files will be served, for the index's <loc>s (a URL ending in /). Defaults to the root of the
   * crawl's first seed.
   */
  baseUrl?: string;
}

export interface WrittenSitemap {
  /** Pages written. */
  urls: number;
  /** The files written: the output first (a sitemap, or the index), then the numbered sitemaps if split. */
  files: string[];
}

/** What the command line says of a sitemap written. */
export function sitemapLine({ urls, files }: WrittenSitemap): string {
  return `Sitemap: ${files[0]} (${urls} URLs${files.length > 1 ? `; an index of ${files.length - 1} sitemaps` : ''})`;
}

/** A page a sitemap lists: its URL and the Last-Modified header the crawl kept (null: none). */
export interface SitemapPage {
  url: string;
  lastModified: unknown;
}

/**
 * The pages a sitemap lists, in crawl order: indexable, status 200, HTML; with their Last-Modified header when kept.
 * Written once for both stores: `instr` is the filters' dialect's, `header` reads a kept header (SQLite's JSON
 * functions, PostgreSQL's).
 */
export function sitemapPagesSql(instr: (text: string, needle: string) => string, header: (name: string) => string): string {
  return `SELECT u.url AS url, ${header('last-modified')} AS "lastModified"
  FROM results r JOIN urls u ON u.id = r.url_id
  WHERE r.indexability = 'indexable' AND r.status_code = 200
    AND lower(trim(substr(r.content_type, 1, ${instr("r.content_type || ';'", "';'")} - 1))) IN ('text/html', 'application/xhtml+xml')
  ORDER BY r.seq`;
}

const PAGES_SQL = sitemapPagesSql(SQLITE_FILTERS.instr, (name) => `json_extract(r.response_headers, '$."${name}"')`);

/** How many pages a sitemap of the crawl lists (PAGES_SQL's rows). */
export function sitemapPageCount(db: Db): number {
  return (db.prepare(`SELECT count(*) AS n FROM (${PAGES_SQL})`).get() as { n: number }).n;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
const TAIL = '</urlset>\n';

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** An HTTP date as W3C Datetime (what <lastmod> takes), or null when it is not a date. */
export function lastmodOf(httpDate: unknown): string | null {
  if (typeof httpDate !== 'string' || httpDate === '') return null;
  const t = Date.parse(httpDate);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.000Z$/, 'Z');
}

/** A file written piece by piece, waiting for the disk when its buffer is full. */
class Out {
  private readonly stream: fs.WriteStream;
  bytes = 0;
  constructor(readonly file: string) {
    this.stream = fs.createWriteStream(file);
  }
  async write(text: string): Promise<void> {
    this.bytes += Buffer.byteLength(text);
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

/** A crawl file's sitemap, to `outPath` (an index and numbered sitemaps beside it past the limits). */
export function writeSitemap(db: Db, outPath: string, options: WriteSitemapOptions = {}): Promise<WrittenSitemap> {
  return writeSitemapPages(
    db.prepare(PAGES_SQL).iterate() as IterableIterator<SitemapPage>,
    () => seedsOf(readMeta(db, 'settings')),
    outPath,
    options,
  );
}

/**
 * The sitemap of `pages` (read once, in order, from either store), to `outPath`; `seeds` are the crawl's, for the
 * index's default base.
 */
export async function writeSitemapPages(
  pages: Iterable<SitemapPage> | AsyncIterable<SitemapPage>,
  seeds: () => string[],
  outPath: string,
  options: WriteSitemapOptions = {},
): Promise<WrittenSitemap> {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  const maxBytes = options.maxBytes ?? SITEMAP_MAX_BYTES;
  fs.mkdirSync(path.dirname(outPath), { recursive: true });
  const ext = path.extname(outPath) || '.xml';
  const stem = path.join(path.dirname(outPath), path.basename(outPath, ext));
  const partFile = (n: number) => `${stem}-${n}${ext}`;
  // Parts are written as numbered files; a crawl that fits one is renamed to the output at the end.
  const parts: string[] = [];
  let out: Out | null = null;
  let inPart = 0;
  let urls = 0;
  const room = Buffer.byteLength(TAIL);
  try {
    for await (const row of pages) {
      const lastmod = lastmodOf(row.lastModified);
      const entry = `  <url><loc>${xmlEscape(row.url)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>\n`;
      if (out && (inPart >= maxUrls || out.bytes + Buffer.byteLength(entry) + room > maxBytes)) {
        await out.write(TAIL);
        await out.close();
        out = null;
      }
      if (!out) {
        out = new Out(partFile(parts.length + 1));
        parts.push(out.file);
        inPart = 0;
        await out.write(HEAD);
      }
      await out.write(entry);
      inPart++;
      urls++;
    }
    if (!out) {
      out = new Out(partFile(1));
      parts.push(out.file);
      await out.write(HEAD);
    }
    await out.write(TAIL);
    await out.close();
    out = null;
  } catch (err) {
    await out?.close().catch(() => undefined);
    for (const p of parts) fs.rmSync(p, { force: true });
    throw err;
  }
  if (parts.length === 1) {
    fs.renameSync(parts[0]!, outPath);
    return { urls, files: [outPath] };
  }
  const base = options.baseUrl ?? defaultBase(seeds());
  const index = new Out(outPath);
  await index.write('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n');
  for (const p of parts) await index.write(`  <sitemap><loc>${xmlEscape(new URL(path.basename(p), base).href)}</loc></sitemap>\n`);
  await index.write('</sitemapindex>\n');
  await index.close();
  return { urls, files: [outPath, ...parts] };
}

/** The seeds of a crawl's settings as stored (JSON), none when they cannot be read. */
function seedsOf(settings: string | null): string[] {
  try {
    return (JSON.parse(settings ?? '{}') as { seeds?: string[] }).seeds ?? [];
  } catch {
    return [];
  }
}

/** The root of the crawl's first seed: where a site's sitemaps usually live. */
function defaultBase(seeds: string[]): string {
  try {
    if (seeds[0]) return `${new URL(seeds[0]).origin}/`;
  } catch {
    // no usable seed: relative names below
  }
  return 'http://localhost/';
}
