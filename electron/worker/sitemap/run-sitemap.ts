// A sitemap job in the worker: the sitemap is fetched (redirects followed, as robots.txt's are) and read as a
// stream: the wire's chunks go through their Content-Encoding's decoders, then through gunzip when the bytes are
// gzip themselves (a sitemap.xml.gz served without Content-Encoding), then into the streaming parser
// (sitemap-parser.ts), which stops the fetch once a protocol limit is passed. Only the entries (at most 50,000,
// resolved, normalised and tested against the scope here) go back to the engine, in the one result message: the
// engine records the sitemap and its URLs in one transaction, so a worker that dies mid-sitemap loses nothing (the
// sitemap is released and fetched again, like a page).
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { ROBOTS_MAX_REDIRECTS, type Job, type SitemapFetchResult, type SitemapUrl } from '../../../shared/protocol.ts';
import { emptySitemap } from '../../../shared/job-result.ts';
import { canonicalUrl } from '../../../shared/url/canonical.ts';
import { decodersFor, type FetchOutcome, type Stage, zlibStage } from '../fetch-url.ts';
import { redirectTarget } from '../chain/extract-location.ts';
import type { ChainContext } from '../chain/processor.ts';
import { SITEMAP_LIMITS, SitemapParser, type SitemapEntry, type SitemapLimits } from './sitemap-parser.ts';

type SitemapJob = Extract<Job, { kind: 'sitemap' }>;

/** What a sitemap job needs of the worker: its fetcher, scope and normaliser, and the crawl's credentials per URL. */
export type SitemapDeps = Pick<ChainContext, 'fetcher' | 'scope' | 'normalise' | 'report'> & {
  headersFor?: (url: string) => Record<string, string> | undefined;
};

/**
 * Wire bytes read at most: the protocol's 50 MB uncompressed bound a compressed body too (a little over it, so that
 * the parser, which counts the text, is what finds a plain sitemap over the limit).
 */
const MAX_WIRE_BYTES = SITEMAP_LIMITS.maxBytes + 64 * 1024;

/** Gunzips a body whose own bytes are gzip (first two bytes 1f 8b); passes any other through. */
const sniffGzip: Stage = async function* (source) {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  async function* rest() {
    yield first.value;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const isGzip = first.value.length >= 2 && first.value[0] === 0x1f && first.value[1] === 0x8b;
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  yield* isGzip ? zlibStage(() => zlib.createGunzip(flush))(rest()) : rest();
};

export async function runSitemap(job: SitemapJob, deps: SitemapDeps, limits: SitemapLimits = SITEMAP_LIMITS): Promise<SitemapFetchResult> {
  const result = emptySitemap(job);
  const onEntry = entriesInto(result, deps);
  deps.report('fetching', 'fetch-sitemap', 0);
  let url = job.url;
  for (let hop = 0; ; hop++) {
    const parser = new SitemapParser(onEntry, limits);
    const body = new Readable({ read() {} });
    let stop = false;
    let consuming: Promise<void> | null = null;
    const headers = deps.headersFor?.(url);
    const sink = (chunk: Buffer, head: Readonly<FetchOutcome>): boolean => {
      const status = head.statusCode;
      if (status === null || status < 200 || status > 299) return false;
      consuming ??= consume(body, decodersFor(head.headers['content-encoding']), parser, () => (stop = true));
      body.push(chunk);
      return !stop;
    };
    const outcome = await deps.fetcher.fetch(url, (bytes) => deps.report('fetching', 'fetch-sitemap', bytes), {
      sink,
      maxBytes: MAX_WIRE_BYTES,
      headers: { accept: 'application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5', ...headers },
    });
    body.push(null);
    const readError = consuming
      ? await (consuming as Promise<void>).then(
          () => null,
          (err: unknown) => String(err instanceof Error ? err.message : err),
        )
      : null;
    result.responseTimeMs += outcome.responseTimeMs;
    result.sizeBytes = outcome.sizeBytes;
    result.statusCode = outcome.statusCode;
    const summary = parser.end();
    result.overUrlLimit = summary.overUrlLimit;
    result.overSizeLimit = summary.overSizeLimit;
    // A body cut at the wire cap is over the size limit too (its text would be at least that long): read up to there.
    const tooLarge = outcome.error?.startsWith('too large') === true;
    if (tooLarge) result.overSizeLimit = true;
    else result.error = outcome.error;
    if (outcome.error === null && readError !== null) result.error = `unreadable: ${readError}`;
    if (outcome.error !== null && !tooLarge) break;
    const next = redirectTarget(outcome, url, canonicalUrl);
    if (next !== null) {
      if (hop >= ROBOTS_MAX_REDIRECTS) {
        result.error = 'too many redirects';
        break;
      }
      url = next;
      continue;
    }
    const status = outcome.statusCode;
    if (status !== null && (status < 200 || status > 299)) result.error = `HTTP ${status}`;
    else {
      result.format = summary.format;
      if (summary.format === null && result.error === null) result.error = 'not a sitemap';
    }
    break;
  }
  deps.report('processing', 'fetch-sitemap', 0);
  return result;
}

/** Each entry read, resolved and in the crawl's normal form, into `result.urls` (once per URL); the others counted. */
function entriesInto(result: SitemapFetchResult, deps: Pick<SitemapDeps, 'scope' | 'normalise'>) {
  const seen = new Set<string>();
  return (entry: SitemapEntry, format: 'urlset' | 'index' | 'text') => {
    const url = absoluteUrl(entry.loc, deps.normalise);
    if (url === null) {
      result.invalid++;
      return;
    }
    if (seen.has(url)) return;
    seen.add(url);
    const alternates =
      format === 'urlset'
        ? entry.alternates.flatMap((a) => {
            const alt = absoluteUrl(a.url, deps.normalise);
            return alt === null ? [] : [{ lang: a.lang, url: alt }];
          })
        : [];
    const out: SitemapUrl = { url, inScope: deps.scope(url), lastmod: entry.lastmod, alternates };
    result.urls.push(out);
  };
}

/**
 * A sitemap in a local file (`--sitemap FILE`; gzip or not), read as a fetched one is, as its file: URL: what the
 * engine records before the crawl starts (crawl-file-store.ts).
 */
export async function readSitemapFile(
  file: string,
  deps: Pick<SitemapDeps, 'scope' | 'normalise'>,
  limits: SitemapLimits = SITEMAP_LIMITS,
): Promise<SitemapFetchResult> {
  const result = emptySitemap({ jobId: 0, threadId: 0, url: pathToFileURL(file).href });
  result.sizeBytes = fs.statSync(file).size;
  const parser = new SitemapParser(entriesInto(result, deps), limits);
  try {
    await consume(fs.createReadStream(file), [], parser, () => undefined);
  } catch (err) {
    result.error = `unreadable: ${err instanceof Error ? err.message : String(err)}`;
  }
  const summary = parser.end();
  result.overUrlLimit = summary.overUrlLimit;
  result.overSizeLimit = summary.overSizeLimit;
  result.format = result.error === null ? summary.format : null;
  if (result.format === null && result.error === null) result.error = 'not a sitemap';
  return result;
}

/** Reads the body's decoded text into the parser until it ends or the parser has had enough (`stopped`). */
async function consume(body: Readable, decoders: Stage[], parser: SitemapParser, stopped: () => void): Promise<void> {
  let source: AsyncIterable<Buffer> = body;
  for (const stage of decoders) source = stage(source);
  source = sniffGzip(source);
  // Sitemaps are UTF-8 by the protocol; TextDecoder drops a BOM and replaces invalid bytes.
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of source) {
    if (!parser.write(decoder.decode(chunk, { stream: true }))) {
      stopped();
      body.destroy();
      return;
    }
  }
  parser.write(decoder.decode());
}

/** An entry's <loc> as an absolute http(s) URL in the crawl's normal form, or null. */
function absoluteUrl(loc: string, normalise: SitemapDeps['normalise']): string | null {
  if (!/^https?:\/\//i.test(loc)) return null;
  return normalise(loc);
}
