// One HTTP fetch, exactly as the crawler sees it: a single hop (redirects are NOT followed, the engine records
// each hop as its own URL), a hard cap on body size that holds for compressed and decompressed bytes alike, a
// whole-response deadline, and network failures turned into short person-readable categories instead of throws.
import { pipeline } from 'node:stream/promises';
import { Readable, type Transform } from 'node:stream';
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { getEncoding } from 'encoding-sniffer/sniffer';
import { type Agent, createAgent, dispatch, type ExchangeHandler, parseRawHeaders } from './http-agent.ts';
import { workerConnector } from './tls-roots.ts';
import type { CrawlSettings } from '../../shared/settings.ts';

export interface FetchOutcome {
  /** HTTP status, or null when no response head arrived. */
  statusCode: number | null;
  /** Response headers with lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The Content-Type header as sent, or null. */
  contentType: string | null;
  /** Body bytes received on the wire (before decompression), also when the fetch failed part-way. */
  sizeBytes: number;
  /** From sending the request to the end of the body (or the failure). */
  responseTimeMs: number;
  /** Decompressed body; only kept for HTML-like responses or when asked (robots.txt), and null on error. */
  body: Buffer | null;
  /** Short person-readable category ("timeout", "connection refused"...), or null. */
  error: string | null;
}

export interface FetchOptions {
  /** Keep the body whatever its Content-Type (robots.txt is text/plain). */
  keepBody?: boolean;
  /**
   * Stop reading, without error, once this many decompressed bytes are kept; the body is cut there. For robots.txt,
   * where RFC 9309 lets a crawler ignore everything past 500 KiB.
   */
  keepAtMost?: number;
  /** Extra request headers for this fetch (custom headers, basic authentication). */
  headers?: Record<string, string>;
  /**
   * A body read as a stream (a sitemap): each chunk as received on the wire (still content-encoded) goes to `sink`
   * with the response's status, nothing is kept; `sink` returns false to stop reading (not a failure).
   */
  sink?: (chunk: Buffer, head: Readonly<FetchOutcome>) => boolean;
  /** The cap on wire bytes for this fetch instead of maxBodyBytes. */
  maxBytes?: number;
}

export interface Fetcher {
  fetch(url: string, onProgress?: (bytes: number) => void, options?: FetchOptions): Promise<FetchOutcome>;
  close(): Promise<void>;
}

export type FetcherSettings = Pick<CrawlSettings, 'userAgent' | 'connectTimeoutMs' | 'responseTimeoutMs' | 'maxBodyBytes'> &
  Partial<Pick<CrawlSettings, 'firstByteTimeoutMs'>>;

/** Progress callbacks are throttled: a busy page would otherwise flood the parent with a message per chunk. */
const PROGRESS_INTERVAL_MS = 200;

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** True for media types whose body we parse for links. */
export function isHtmlContentType(contentType: string | null | undefined): boolean {
  const mime = mediaType(contentType);
  return mime === 'text/html' || mime === 'application/xhtml+xml';
}

/** "Text/HTML; charset=x" -> "text/html"; null when absent. */
function mediaType(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const mime = contentType.split(';', 1)[0]?.trim().toLowerCase();
  return mime || null;
}

/** The charset parameter of a Content-Type, or undefined. */
function charsetOf(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;\s]+))/i.exec(contentType);
  const label = (m?.[1] ?? m?.[2] ?? m?.[3])?.trim();
  return label || undefined;
}

/**
 * Bytes of an HTML page to text, the way a browser picks the encoding: BOM first, then the HTTP charset, then a
 * <meta charset> / http-equiv in the first KiB, else windows-1252. Unknown labels fall back instead of throwing.
 */
export function decodeHtml(body: Buffer, contentType: string | null): string {
  return decodeHtmlPage(body, contentType).html;
}

/**
 * The page's text, and its bytes when the page is ASCII read as UTF-8 or windows-1252 (each character is then the
 * byte at the same index: PageText.ascii). A check of the bytes costs a fraction of decoding them (Node's isAscii is SIMD).
 */
export function decodeHtmlPage(body: Buffer, contentType: string | null): { html: string; ascii: Uint8Array | null } {
  const label = charsetOf(contentType);
  const encoding = label === undefined && declaresUtf8Alone(body) ? 'UTF-8' : sniffEncoding(body, label);
  // An ASCII page read as UTF-8 or as windows-1252 (what a page that names no charset is read as) is its bytes,
  // each character the byte at its index: it has no BOM (its bytes are all below 0x80), and both map those bytes
  // to themselves.
  if ((encoding === 'UTF-8' || encoding === 'windows-1252') && isAscii(body)) {
    return { html: body.toString('latin1'), ascii: body };
  }
  // Most of the web is UTF-8: Node's native decoder is the fast path (a UTF-8 BOM is dropped, as iconv does).
  if (encoding === 'UTF-8') return { html: body.toString('utf8', hasUtf8Bom(body) ? 3 : 0), ascii: null };
  return { html: iconv().decode(body, encoding), ascii: null };
}

function sniffEncoding(body: Buffer, label: string | undefined): string {
  try {
    return getEncoding(body, label ? { transportLayerEncodingLabel: label } : {});
  } catch {
    // A label the sniffer cannot handle: let it decide from the bytes alone.
    return getEncoding(body);
  }
}

/**
 * iconv-lite, loaded at the first page that is not UTF-8 (what encoding-sniffer's decodeBuffer would do with this
 * encoding). Its tables are half a megabyte that every worker's start-up parsed for pages most crawls never see:
 * the bundles leave it out (scripts/build-node.mjs) and Node loads it from node_modules when asked.
 */
let iconvLite: typeof import('iconv-lite') | undefined;
function iconv(): typeof import('iconv-lite') {
  iconvLite ??= createRequire(import.meta.url)('iconv-lite') as typeof import('iconv-lite');
  return iconvLite;
}

/**
 * The common case decided without the sniffer (whose byte-by-byte prescan was a twentieth of a worker's time): no
 * BOM, and the first KiB names a charset once, as UTF-8, in a <meta> before any comment. Anything else (another
 * charset, two of them, a comment that might hide one, a BOM) goes to the sniffer, so the answer is the sniffer's.
 */
function declaresUtf8Alone(body: Buffer): boolean {
  if (body.length >= 2 && (body[0] === 0xef || body[0] === 0xfe || body[0] === 0xff)) return false;
  const head = body.toString('latin1', 0, Math.min(body.length, 1024));
  const at = head.search(/charset/i);
  if (at < 0 || head.slice(at + 7).search(/charset/i) >= 0) return false;
  const tag = head.lastIndexOf('<', at);
  if (tag < 0 || !/^<meta[\s/]/i.test(head.slice(tag, tag + 6)) || head.lastIndexOf('>', at) > tag) return false;
  if (head.lastIndexOf('<!--', at) >= 0 || !plainUpTo(head, tag)) return false;
  // <meta charset=...>, or charset= inside the content of <meta http-equiv="Content-Type"> (the prescan reads no other).
  const before = head.slice(tag, at);
  const inValue = (before.split('"').length - 1) % 2 === 1 || (before.split("'").length - 1) % 2 === 1;
  const end = head.indexOf('>', at);
  if (inValue && !/\shttp-equiv\s*=\s*["']?content-type["'\s/>]/i.test(head.slice(tag, end < 0 ? undefined : end + 1))) return false;
  // Inside a content value only an unquoted label is taken here (a quote there may end the value itself).
  return (inValue ? /^charset\s*=\s*utf-?8(?=["'\s;])/i : /^charset\s*=\s*["']?\s*utf-?8(?=["'\s;/>])/i).test(head.slice(at));
}

/**
 * The markup before `tag` is simple enough that the prescan reaches `tag` as a tag of its own: only text, `<!...>`
 * and `<?...>` declarations, end tags, and start tags whose quoted values close before the tag does (a value
 * holding a '<' or a '>' is left to the sniffer).
 */
const BALANCED_QUOTES = /^<[A-Za-z][^"'<]*(?:"[^"<]*"[^"'<]*|'[^'<]*'[^"'<]*)*$/;

function plainUpTo(head: string, tag: number): boolean {
  let i = head.indexOf('<');
  while (i >= 0 && i < tag) {
    const close = head.indexOf('>', i);
    if (close < 0 || close > tag) return false;
    const construct = head.slice(i, close);
    if (/^<[A-Za-z]/.test(construct) && !BALANCED_QUOTES.test(construct)) return false;
    if (construct.indexOf('<', 1) >= 0) return false;
    i = head.indexOf('<', close);
  }
  return i === tag;
}

function hasUtf8Bom(b: Buffer): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

export function createFetcher(settings: FetcherSettings): Fetcher {
  // One Agent per worker process: keep-alive connections are reused across every thread the process hosts.
  // Three deadlines: connecting, the response head (first byte), and the whole response (the timer below).
  // undici's headersTimeout is the first-byte one; when it is not the shorter, it is set past the whole-response
  // deadline so the two never race. bodyTimeout is an idle timer the whole-response deadline covers anyway.
  const firstByte = settings.firstByteTimeoutMs ?? Infinity;
  const agent = createAgent({
    connect: workerConnector(settings.connectTimeoutMs),
    headersTimeout: firstByte < settings.responseTimeoutMs ? firstByte : settings.responseTimeoutMs + 1_000,
    bodyTimeout: settings.responseTimeoutMs + 1_000,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 60_000,
  });
  const pageCap = settings.maxBodyBytes;

  async function fetchOne(url: string, onProgress?: (bytes: number) => void, options: FetchOptions = {}): Promise<FetchOutcome> {
    const started = performance.now();
    // A body read only up to keepAtMost (robots.txt) is cut there, never failed as too large before it: RFC 9309 has
    // a crawler read at least 500 KiB of robots.txt whatever maxBodyBytes the crawl set for its pages.
    const cap = options.maxBytes ?? (options.keepAtMost === undefined ? pageCap : Math.max(pageCap, 2 * options.keepAtMost));
    let timedOut = false;
    const out: FetchOutcome = {
      statusCode: null,
      headers: {},
      contentType: null,
      sizeBytes: 0,
      responseTimeMs: 0,
      body: null,
      error: null,
    };
    const exchange = new Exchange(out, cap, options, onProgress);
    const timer = setTimeout(() => {
      timedOut = true;
      exchange.abort(new Error('timeout'));
    }, settings.responseTimeoutMs);
    try {
      const target = new URL(url);
      await exchange.run(agent, {
        origin: target.origin,
        path: target.pathname + target.search,
        method: 'GET',
        // Ours last: settings validation keeps custom headers off these names anyway.
        headers: {
          ...options.headers,
          'user-agent': settings.userAgent,
          accept: options.headers?.accept ?? ACCEPT,
          'accept-encoding': ACCEPT_ENCODING,
        },
      });
      if (exchange.keep) {
        const decoders = decodersFor(out.headers['content-encoding']);
        out.body =
          decoders.length === 0
            ? Buffer.concat(exchange.chunks, exchange.kept)
            : await decompress(exchange.chunks, decoders, cap, options.keepAtMost);
      }
    } catch (err) {
      out.body = null;
      out.error = timedOut ? 'timeout' : describeError(err, exchange.phase);
    } finally {
      clearTimeout(timer);
      out.responseTimeMs = Math.round(performance.now() - started);
    }
    return out;
  }

  return {
    fetch: fetchOne,
    async close() {
      // The engine asks a worker to shut down only when none of its threads holds a URL (or it kills it), so
      // there is nothing to finish: close the idle keep-alive sockets at once. A graceful close waited for them.
      await agent.destroy().catch(() => undefined);
    },
  };
}

class TooLarge extends Error {
  constructor(readonly cap: number) {
    super(`too large (over ${cap} bytes)`);
  }
}

/** Thrown by the collector to stop reading once `keepAtMost` bytes are in hand; not a failure. */
class Enough extends Error {}

/** Counts wire bytes as chunks arrive: enforces the cap on them and reports progress, throttled. */
class WireMeter {
  private total = 0;
  private lastReport = 0;

  constructor(
    private readonly cap: number,
    private readonly setSize: (n: number) => void,
    private readonly onProgress?: (bytes: number) => void,
  ) {}

  count(chunk: Buffer): void {
    this.total += chunk.length;
    this.setSize(this.total);
    if (this.total > this.cap) throw new TooLarge(this.cap);
    if (!this.onProgress) return;
    const now = performance.now();
    if (this.lastReport === 0 || now - this.lastReport >= PROGRESS_INTERVAL_MS) {
      this.lastReport = now;
      this.onProgress(this.total);
    }
  }
}

/**
 * One HTTP exchange through undici's dispatch() interface: the response head into the outcome as soon as it
 * arrives (a body that fails later still has its status and headers), the body's chunks collected as they come
 * (counted against the cap, with throttled progress), and a promise for the end. Robots.txt (keepAtMost) stops
 * reading once enough is in hand; a compressed body is cut after decompression instead (decompress()).
 */
class Exchange implements ExchangeHandler {
  phase: 'head' | 'body' = 'head';
  /** Whether the body is kept (HTML, or asked for), decided from the response head. */
  keep = false;
  readonly chunks: Buffer[] = [];
  kept = 0;
  private readonly meter: WireMeter;
  private compressed = false;
  private enough = false;
  private abortConnection: ((reason?: Error) => void) | null = null;
  private reason: Error | null = null;
  private settle: { resolve: () => void; reject: (err: Error) => void } | null = null;

  constructor(
    private readonly out: FetchOutcome,
    cap: number,
    private readonly options: FetchOptions,
    onProgress?: (bytes: number) => void,
  ) {
    this.meter = new WireMeter(cap, (n) => (out.sizeBytes = n), onProgress);
  }

  run(agent: Agent, request: Parameters<typeof dispatch>[1]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
      dispatch(agent, request, this);
    });
  }

  /**
   * Ends the exchange with `reason` (the whole-response deadline, a body over the cap, or enough in hand): after the
   * current parse, or as soon as it is connected. Not at once: inside onData, undici may have the rest of the
   * response in the same buffer, and a response that then completes on a connection that closes after it (HTTP/1.0,
   * `Connection: close`) trips undici's `assert(!this.aborted)`. onComplete settles by the reason instead, and the
   * abort then finds the request completed and does nothing.
   */
  abort(reason: Error): void {
    this.reason ??= reason;
    const abortConnection = this.abortConnection;
    if (abortConnection) queueMicrotask(() => abortConnection(reason));
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.reason) return abort(this.reason);
    this.abortConnection = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // 1xx: the real response follows
    const out = this.out;
    this.phase = 'body';
    out.statusCode = statusCode;
    out.headers = flattenHeaders(parseRawHeaders(rawHeaders));
    out.contentType = out.headers['content-type'] ?? null;
    this.keep = !this.options.sink && (this.options.keepBody === true || isHtmlContentType(out.contentType));
    this.compressed = this.keep && decodersFor(out.headers['content-encoding']).length > 0;
    return true;
  }

  onData(chunk: Buffer): boolean {
    // Decided already (the rest of a buffer parsed before the abort takes effect): ignored.
    if (this.enough || this.reason) return true;
    try {
      this.meter.count(chunk);
    } catch (err) {
      this.abort(err as Error);
      return true;
    }
    if (this.options.sink && !this.options.sink(chunk, this.out)) {
      this.enough = true;
      this.abort(new Enough());
      return true;
    }
    if (!this.keep) return true;
    const limit = this.compressed ? undefined : this.options.keepAtMost;
    if (limit !== undefined && this.kept + chunk.length >= limit) {
      this.chunks.push(chunk.subarray(0, limit - this.kept));
      this.kept = limit;
      this.enough = true;
      this.abort(new Enough());
      return true;
    }
    this.kept += chunk.length;
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    // Completed before a decided abort took effect (see abort()): the reason still decides.
    if (this.reason && !this.enough) this.settle?.reject(this.reason);
    else this.settle?.resolve();
    this.settle = null;
  }

  onError(err: Error): void {
    if (this.enough) this.settle?.resolve();
    else this.settle?.reject(this.reason ?? err);
    this.settle = null;
  }
}

/**
 * A compressed body's bytes, decompressed through the Content-Encoding's decoders (streamed, so a decompression
 * bomb inflates only a few chunks past the cap before it is stopped), cut at `keepAtMost` decompressed bytes.
 */
async function decompress(wire: Buffer[], decoders: Stage[], cap: number, keepAtMost: number | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let enough = false;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      if (keepAtMost !== undefined && kept + chunk.length >= keepAtMost) {
        chunks.push(chunk.subarray(0, keepAtMost - kept));
        kept = keepAtMost;
        enough = true;
        throw new Enough();
      }
      kept += chunk.length;
      if (kept > cap) throw new TooLarge(cap);
      chunks.push(chunk);
    }
  };
  try {
    // The array form takes async-generator stages at runtime; its typings only list streams.
    await pipeline([Readable.from(wire), ...decoders, collect] as unknown as NodeJS.ReadableStream[]);
  } catch (err) {
    if (!enough) throw err;
  }
  return Buffer.concat(chunks, kept);
}

// Lenient flushing, as browsers (and undici's fetch) do: a stream cut short right at the end still yields its text.
// HTTP-level truncation is caught by undici itself (content-length mismatch or socket closed mid-body).
const GZIP_OPTS = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTS = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

export type Stage = (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>;

/** Decoding stages for a Content-Encoding list, undone last-applied first. Unknown codings pass through as is. */
export function decodersFor(contentEncoding: string | undefined): Stage[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  const stages: Stage[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') stages.push(zlibStage(() => zlib.createGunzip(GZIP_OPTS)));
    else if (coding === 'br') stages.push(zlibStage(() => zlib.createBrotliDecompress(BROTLI_OPTS)));
    else if (coding === 'deflate') {
      // "deflate" should be zlib-wrapped (RFC 9110) but some servers send raw deflate; the first byte tells which.
      stages.push(zlibStage((head) => ((head[0]! & 0x0f) === 0x08 ? zlib.createInflate(GZIP_OPTS) : zlib.createInflateRaw(GZIP_OPTS))));
    } else return []; // An encoding we did not ask for: keep the bytes rather than fail.
  }
  return stages;
}

/**
 * Runs the source through a zlib stream chosen from the first chunk. Pulling from the zlib stream (rather than
 * listening to 'data') keeps backpressure end to end, so a decompression bomb only ever inflates a few chunks
 * ahead of the consumer, which stops it at the cap.
 */
export function zlibStage(make: (head: Buffer) => Transform): Stage {
  return async function* (source) {
    const it = source[Symbol.asyncIterator]();
    const first = await it.next();
    if (first.done) return;
    const z = make(first.value);
    async function* all() {
      yield first.value;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    }
    // Errors of the feeding side destroy `z`, so they surface through the iteration below.
    const feeding = pipeline(Readable.from(all()), z).catch(() => undefined);
    try {
      for await (const chunk of z) yield chunk as Buffer;
    } finally {
      z.destroy();
      await feeding;
    }
  };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const TIMEOUT_CODES = new Set(['UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);

/** Maps whatever undici, net, dns or zlib threw to the short category a person reads in the results table. */
export function describeError(err: unknown, phase: 'head' | 'body'): string {
  if (err instanceof TooLarge) return err.message;
  const codes = errorCodes(err);
  const has = (set: Set<string>) => codes.some((c) => set.has(c));
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) return 'timeout (connecting)';
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT')) return 'timeout (no first byte)';
  if (has(TIMEOUT_CODES)) return 'timeout';
  if (codes.includes('ECONNREFUSED')) return 'connection refused';
  if (has(DNS_CODES)) return 'DNS lookup failed';
  if (codes.includes('UND_ERR_RES_CONTENT_LENGTH_MISMATCH')) return 'truncated body';
  if (has(RESET_CODES)) return phase === 'body' ? 'truncated body' : 'connection reset';
  // HTTP parser errors (garbage status line, bad chunking, oversized headers) and undecodable compressed data.
  const name = err instanceof Error ? err.name : '';
  if (name === 'HTTPParserError' || codes.some((c) => c.startsWith('HPE_') || c === 'UND_ERR_HEADERS_OVERFLOW')) {
    return 'invalid response';
  }
  if (codes.some((c) => c === 'Z_DATA_ERROR' || c === 'Z_BUF_ERROR' || c.startsWith('ERR__') || c.startsWith('ERR_BROTLI'))) {
    return 'invalid response';
  }
  const message = err instanceof Error ? err.message : String(err);
  return `network error: ${message || name || 'unknown'}`;
}

/** Error codes of an error, its causes and (for happy-eyeballs AggregateErrors) its members. */
function errorCodes(err: unknown, depth = 0): string[] {
  if (!err || typeof err !== 'object' || depth > 4) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const out: string[] = [];
  if (typeof e.code === 'string') out.push(e.code);
  out.push(...errorCodes(e.cause, depth + 1));
  if (Array.isArray(e.errors)) for (const inner of e.errors) out.push(...errorCodes(inner, depth + 1));
  return out;
}
