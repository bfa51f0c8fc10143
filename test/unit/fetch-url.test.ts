// The single-hop fetcher against real HTTP servers on 127.0.0.1: statuses, redirects, decompression, caps,
// timeouts, network failures and character sets.
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, decodeHtml, decodeHtmlPage, type Fetcher, type FetcherSettings } from '../../electron/worker/fetch-url.ts';
import { startFixtureSite, type FixtureSite, type RouteHandler } from '../helpers/fixture-site.ts';

const MiB = 1024 * 1024;
/** A body cap small enough to build bodies of exactly its size, and large enough to arrive in several chunks. */
const CAP = 200_000;
const PAGE = '<!doctype html><html><head><title>Hello</title></head><body><p>Hello there, crawler.</p></body></html>';

function settings(over: Partial<FetcherSettings> = {}): FetcherSettings {
  return { userAgent: 'TrawlTest/1.0', connectTimeoutMs: 2_000, responseTimeoutMs: 5_000, maxBodyBytes: MiB, ...over };
}

/** A gzip of `total` zero bytes, built in 1 MiB steps so the test itself never holds the inflated data. */
async function gzipOfZeros(total: number): Promise<Buffer> {
  const gz = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gz.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  for (let written = 0; written < total; written += MiB) {
    if (!gz.write(zeros)) await new Promise((r) => gz.once('drain', r));
  }
  gz.end();
  await done;
  return Buffer.concat(out);
}

const html =
  (body: Buffer | string, headers: http.OutgoingHttpHeaders = {}): RouteHandler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };

/** An HTTP/1.1 response whose connection closes after it. */
function closingResponse(status: string, body: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
}

let site: FixtureSite;
let bomb: Buffer;
const seenHeaders: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  bomb = await gzipOfZeros(512 * MiB); // ~0.5 MB on the wire, 512 MiB inflated
  site = await startFixtureSite({
    routes: {
      '/page': (req, res) => {
        seenHeaders.push(req.headers);
        html(PAGE, { 'x-custom': 'Yes' })(req, res);
      },
      '/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>nope</title>'),
      '/error': (_req, res) => void res.writeHead(503).end('busy'),
      '/moved': (_req, res) => void res.writeHead(301, { location: '/page', 'content-type': 'text/html' }).end('<a href="/page">moved</a>'),
      '/gzip': html(zlib.gzipSync(PAGE), { 'content-encoding': 'gzip' }),
      '/br': html(zlib.brotliCompressSync(PAGE), { 'content-encoding': 'br' }),
      '/deflate': html(zlib.deflateSync(PAGE), { 'content-encoding': 'deflate' }),
      '/deflate-raw': html(zlib.deflateRawSync(PAGE), { 'content-encoding': 'deflate' }),
      '/bad-gzip': html(Buffer.from('this is not gzip at all, not even close'), { 'content-encoding': 'gzip' }),
      '/bomb': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb),
      '/bomb-binary': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' }).end(bomb),
      '/big': html(Buffer.alloc(3 * MiB, 'a')),
      '/big-gzip': html(zlib.gzipSync(Buffer.alloc(3 * MiB, 'a')), { 'content-encoding': 'gzip' }),
      // Bodies of exactly CAP bytes and of one byte more, plain HTML, binary and gzip-compressed HTML (CAP inflated).
      ...Object.fromEntries(
        [0, 1].flatMap((extra): [string, RouteHandler][] => [
          [`/html-cap+${extra}`, html(Buffer.alloc(CAP + extra, 'a'))],
          [
            `/binary-cap+${extra}`,
            (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.alloc(CAP + extra, 1)),
          ],
          [`/gzip-cap+${extra}`, html(zlib.gzipSync(Buffer.alloc(CAP + extra, 'a')), { 'content-encoding': 'gzip' })],
        ]),
      ),
      '/big-binary': (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.alloc(3 * MiB, 1)),
      '/pdf': (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.alloc(5000, 7)),
      '/robots.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n'),
      '/slow-head': async (_req, res) => {
        await new Promise((r) => setTimeout(r, 3_000));
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      },
      '/slow-body': (_req, res) => {
        // Headers at once, then a trickle that never finishes within the deadline.
        res.writeHead(200, { 'content-type': 'text/html' });
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('<p>more</p>')), 100);
        res.on('close', () => clearInterval(t));
      },
      '/drip': (_req, res) => {
        // 20 chunks of 1 KiB over ~1 s: progress must be reported, but throttled.
        res.writeHead(200, { 'content-type': 'text/html' });
        let n = 0;
        const t = setInterval(() => {
          res.write(Buffer.alloc(1024, 'x'));
          if (++n === 20) clearInterval(t), res.end();
        }, 50);
        res.on('close', () => clearInterval(t));
      },
      '/reset': (req) => void req.socket.destroy(),
      '/truncated': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '1000' });
        res.write('x'.repeat(500));
        setTimeout(() => req.socket.destroy(), 50);
      },
      '/garbage': (req) => void req.socket.end('HTTP/1.1 abc\r\n\r\n'),
      // Whole responses in one write on a connection closed after them, as Python's http.server and many Apache
      // sites answer: the buffer that decides to stop reading also completes the response.
      '/close-404': (req) => void req.socket.end(closingResponse('404 Not Found', '<html>not found</html>')),
      '/close-page': (req) => void req.socket.end(closingResponse('200 OK', 'p'.repeat(2_000))),
      '/close-over-cap': (req) => void req.socket.end(closingResponse('200 OK', 'a'.repeat(CAP + 1))),
      '/sjis': html(Buffer.from('3c68746d6c3e3c7469746c653e' + '93fa967b8cea82cc8379815b8357' + '3c2f7469746c653e3c2f68746d6c3e', 'hex'), {
        'content-type': 'text/html; charset=Shift_JIS',
      }),
      '/latin1-meta': html(Buffer.from('<html><head><meta charset="ISO-8859-1"><title>Café déjà vu</title></head></html>', 'latin1'), {
        'content-type': 'text/html',
      }),
      '/latin1-header': html(Buffer.from('<html><head><title>Crème brûlée</title></head></html>', 'latin1'), {
        'content-type': 'text/html; charset="iso-8859-1"',
      }),
    },
  });
});

afterAll(async () => {
  await site?.close();
});

async function withFetcher<T>(s: FetcherSettings, fn: (f: Fetcher) => Promise<T>): Promise<T> {
  const f = createFetcher(s);
  try {
    return await fn(f);
  } finally {
    await f.close();
  }
}

describe('fetch-url', () => {
  it('fetches an HTML page with its status, lower-case headers, size, time and body, sending our headers', async () => {
    await withFetcher(settings(), async (f) => {
      const out = await f.fetch(site.url('/page'));
      expect(out.error).toBeNull();
      expect(out.statusCode).toBe(200);
      expect(out.contentType).toBe('text/html; charset=utf-8');
      expect(out.headers['x-custom']).toBe('Yes');
      expect(out.sizeBytes).toBe(Buffer.byteLength(PAGE));
      expect(out.body?.toString('utf8')).toBe(PAGE);
      expect(out.responseTimeMs).toBeGreaterThanOrEqual(0);
      const sent = seenHeaders.at(-1)!;
      expect(sent['user-agent']).toBe('TrawlTest/1.0');
      expect(sent['accept']).toMatch(/^text\/html/);
      expect(sent['accept-encoding']).toBe('gzip, deflate, br');
    });
  });

  it('reports error statuses as responses, not errors', async () => {
    await withFetcher(settings(), async (f) => {
      const missing = await f.fetch(site.url('/missing'));
      expect([missing.statusCode, missing.error]).toEqual([404, null]);
      const busy = await f.fetch(site.url('/error'));
      expect([busy.statusCode, busy.error]).toEqual([503, null]);
    });
  });

  it('does not follow redirects: the Location is reported and only one request is made', async () => {
    await withFetcher(settings(), async (f) => {
      const before = site.log.length;
      const out = await f.fetch(site.url('/moved'));
      expect(out.statusCode).toBe(301);
      expect(out.headers['location']).toBe('/page');
      expect(out.error).toBeNull();
      await new Promise((r) => setTimeout(r, 50));
      expect(site.log.slice(before).map((e) => e.path)).toEqual(['/moved']);
    });
  });

  it('decodes gzip, br and both kinds of deflate; sizeBytes counts wire bytes', async () => {
    await withFetcher(settings(), async (f) => {
      for (const path of ['/gzip', '/br', '/deflate', '/deflate-raw']) {
        const out = await f.fetch(site.url(path));
        expect(out.error, path).toBeNull();
        expect(out.body?.toString('utf8'), path).toBe(PAGE);
      }
      const gz = await f.fetch(site.url('/gzip'));
      expect(gz.sizeBytes).toBe(zlib.gzipSync(PAGE).length);
    });
  });

  it('reports undecodable compressed data as an invalid response', async () => {
    await withFetcher(settings(), async (f) => {
      const out = await f.fetch(site.url('/bad-gzip'));
      expect(out.statusCode).toBe(200);
      expect(out.error).toBe('invalid response');
      expect(out.body).toBeNull();
    });
  });

  it('stops a gzip bomb at the cap without inflating it into memory', async () => {
    await withFetcher(settings({ maxBodyBytes: 2 * MiB }), async (f) => {
      const base = process.memoryUsage().rss;
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const started = Date.now();
      const out = await f.fetch(site.url('/bomb'));
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(out.error).toBe(`too large (over ${2 * MiB} bytes)`);
      expect(out.body).toBeNull();
      expect(out.sizeBytes).toBeLessThanOrEqual(bomb.length);
      // Inflating all of it would need 512 MiB; stopping at the cap needs a few.
      expect(peak - base).toBeLessThan(100 * MiB);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });

  it('counts but does not inflate or keep non-HTML bodies', async () => {
    await withFetcher(settings({ maxBodyBytes: 2 * MiB }), async (f) => {
      const pdf = await f.fetch(site.url('/pdf'));
      expect([pdf.statusCode, pdf.error, pdf.body, pdf.sizeBytes]).toEqual([200, null, null, 5000]);
      const bin = await f.fetch(site.url('/bomb-binary'));
      expect([bin.error, bin.body, bin.sizeBytes]).toEqual([null, null, bomb.length]);
    });
  });

  it('keeps any body when asked (robots.txt), and can stop early at keepAtMost', async () => {
    await withFetcher(settings(), async (f) => {
      const robots = await f.fetch(site.url('/robots.txt'), undefined, { keepBody: true });
      expect(robots.body?.toString()).toBe('User-agent: *\nDisallow: /private\n');
      const cut = await f.fetch(site.url('/big'), undefined, { keepBody: true, keepAtMost: 1000 });
      expect(cut.error).toBeNull();
      expect(cut.body?.length).toBe(1000);
    });
  });

  it('reads keepAtMost bytes (robots.txt: 500 KiB) even when the crawl caps page bodies below that', async () => {
    const keepAtMost = 500 * 1024;
    await withFetcher(settings({ maxBodyBytes: 64 * 1024 }), async (f) => {
      for (const path of ['/big', '/big-gzip']) {
        const cut = await f.fetch(site.url(path), undefined, { keepBody: true, keepAtMost });
        expect([path, cut.statusCode, cut.error, cut.body?.length]).toEqual([path, 200, null, keepAtMost]);
      }
      // Pages keep the crawl's cap.
      expect((await f.fetch(site.url('/big'))).error).toMatch(/^too large/);
    });
  });

  it('fails a body over the cap with "too large", HTML or not, as soon as the cap is passed', async () => {
    await withFetcher(settings({ maxBodyBytes: MiB }), async (f) => {
      for (const path of ['/big', '/big-binary']) {
        const out = await f.fetch(site.url(path));
        expect(out.statusCode, path).toBe(200);
        expect(out.error, path).toBe(`too large (over ${MiB} bytes)`);
        expect(out.body, path).toBeNull();
        expect(out.sizeBytes, path).toBeGreaterThan(MiB);
        expect(out.sizeBytes, path).toBeLessThan(2 * MiB);
      }
    });
  });

  it('takes a body of exactly the cap and fails one byte more, counted on the wire and inflated', async () => {
    await withFetcher(settings({ maxBodyBytes: CAP }), async (f) => {
      for (const kind of ['html', 'binary', 'gzip']) {
        const at = await f.fetch(site.url(`/${kind}-cap+0`));
        expect([at.statusCode, at.error], kind).toEqual([200, null]);
        if (kind === 'binary') expect(at.sizeBytes, kind).toBe(CAP);
        else expect(at.body?.length, kind).toBe(CAP);
        const over = await f.fetch(site.url(`/${kind}-cap+1`));
        expect([over.statusCode, over.error, over.body], kind).toEqual([200, `too large (over ${CAP} bytes)`, null]);
      }
    });
  });

  it('times out a response whose headers or body take longer than the deadline', async () => {
    await withFetcher(settings({ responseTimeoutMs: 400 }), async (f) => {
      const head = await f.fetch(site.url('/slow-head'));
      expect([head.statusCode, head.error]).toEqual([null, 'timeout']);
      expect(head.responseTimeMs).toBeGreaterThanOrEqual(350);
      expect(head.responseTimeMs).toBeLessThan(2_500);
      const body = await f.fetch(site.url('/slow-body'));
      expect([body.statusCode, body.error, body.body]).toEqual([200, 'timeout', null]);
      expect(body.sizeBytes).toBeGreaterThan(0);
    });
  });

  it('gives up on a server that sends no response head within the first-byte timeout, and says so', async () => {
    await withFetcher(settings({ firstByteTimeoutMs: 300, responseTimeoutMs: 1_500 }), async (f) => {
      const head = await f.fetch(site.url('/slow-head'));
      expect([head.statusCode, head.error]).toEqual([null, 'timeout (no first byte)']);
      expect(head.responseTimeMs).toBeLessThan(2_500);
      // The first byte came in time: only the whole-response deadline applies to the body.
      const body = await f.fetch(site.url('/slow-body'));
      expect([body.statusCode, body.error]).toEqual([200, 'timeout']);
      expect(body.responseTimeMs).toBeGreaterThanOrEqual(1_400);
    });
  });

  it('reports progress while a body arrives, at most every ~200 ms', async () => {
    await withFetcher(settings(), async (f) => {
      const calls: Array<{ bytes: number; at: number }> = [];
      const out = await f.fetch(site.url('/drip'), (bytes) => calls.push({ bytes, at: Date.now() }));
      expect(out.sizeBytes).toBe(20 * 1024);
      expect(calls.length).toBeGreaterThanOrEqual(3);
      expect(calls.length).toBeLessThanOrEqual(8);
      for (let i = 1; i < calls.length; i++) {
        expect(calls[i]!.bytes).toBeGreaterThan(calls[i - 1]!.bytes);
        expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(180);
      }
    });
  });

  it('stops reading a response in the buffer that completes it, on a connection closed after it, by what it decided', async () => {
    // The stop takes effect after undici's parse of the buffer (fetch-url.ts, Exchange.abort), which may complete the
    // response first: the outcome is still what was decided.
    await withFetcher(settings({ maxBodyBytes: CAP }), async (f) => {
      // A sitemap's read refuses a body that is not a 2xx response's (run-sitemap.ts).
      const refusing = (_chunk: Buffer, head: { statusCode: number | null }) => head.statusCode === 200;
      for (let i = 0; i < 3; i++) {
        const notFound = await f.fetch(site.url('/close-404'), undefined, { sink: refusing });
        expect([notFound.statusCode, notFound.error]).toEqual([404, null]);
        const cut = await f.fetch(site.url('/close-page'), undefined, { keepBody: true, keepAtMost: 1000 });
        expect([cut.statusCode, cut.error, cut.body?.length]).toEqual([200, null, 1000]);
        // Over the cap in the very buffer that completes it: too large, not a body cut short.
        const over = await f.fetch(site.url('/close-over-cap'));
        expect([over.statusCode, over.error, over.body]).toEqual([200, `too large (over ${CAP} bytes)`, null]);
      }
    });
  });

  it('maps network failures to short categories and never throws', async () => {
    // A port that was just free: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));

    await withFetcher(settings(), async (f) => {
      expect((await f.fetch(`http://127.0.0.1:${closedPort}/`)).error).toBe('connection refused');
      const reset = await f.fetch(site.url('/reset'));
      expect([reset.statusCode, reset.error]).toEqual([null, 'connection reset']);
      const truncated = await f.fetch(site.url('/truncated'));
      expect([truncated.statusCode, truncated.error, truncated.sizeBytes]).toEqual([200, 'truncated body', 500]);
      expect((await f.fetch(site.url('/garbage'))).error).toBe('invalid response');
      expect((await f.fetch('not a url')).error).toMatch(/^network error: /);
      // The fetcher still works after all that.
      expect((await f.fetch(site.url('/page'))).statusCode).toBe(200);
    });
  });

  it('decodes Shift_JIS and ISO-8859-1 pages from the header charset or <meta charset>', async () => {
    await withFetcher(settings(), async (f) => {
      const sjis = await f.fetch(site.url('/sjis'));
      expect(decodeHtml(sjis.body!, sjis.contentType)).toBe('<html><title>日本語のページ</title></html>');
      const meta = await f.fetch(site.url('/latin1-meta'));
      expect(decodeHtml(meta.body!, meta.contentType)).toContain('<title>Café déjà vu</title>');
      const header = await f.fetch(site.url('/latin1-header'));
      expect(decodeHtml(header.body!, header.contentType)).toContain('<title>Crème brûlée</title>');
      // A UTF-8 BOM beats a wrong header; an unknown label falls back instead of throwing.
      const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>naïve</p>')]);
      expect(decodeHtml(bom, 'text/html; charset=iso-8859-1')).toBe('<p>naïve</p>');
      expect(decodeHtml(Buffer.from('<p>plain</p>'), 'text/html; charset=no-such-charset')).toBe('<p>plain</p>');
    });
  });

  it("hands over an ASCII page's bytes with its text, and no other page's", () => {
    const ascii = Buffer.from('<meta charset="utf-8"><p>plain &amp; simple</p>');
    const page = decodeHtmlPage(ascii, 'text/html');
    expect(page).toEqual({ html: ascii.toString(), ascii });
    // A page that names no charset is read as windows-1252, which maps ASCII to itself too.
    expect(decodeHtmlPage(Buffer.from('<p>x</p>'), null).ascii).not.toBeNull();
    expect(decodeHtmlPage(Buffer.from('<p>x</p>'), 'text/html; charset=iso-8859-1').ascii).not.toBeNull();
    // Not ASCII, or not read as UTF-8: the characters are not the bytes.
    expect(decodeHtmlPage(Buffer.from('<p>naïve</p>'), 'text/html; charset=utf-8')).toEqual({ html: '<p>naïve</p>', ascii: null });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>x</p>')]);
    expect(decodeHtmlPage(bom, null)).toEqual({ html: '<p>x</p>', ascii: null });
    const utf16 = Buffer.from('\ufeff<p>x</p>', 'utf16le');
    expect(decodeHtmlPage(utf16, null)).toEqual({ html: '<p>x</p>', ascii: null });
    expect(decodeHtmlPage(Buffer.from('<p>x</p>'), 'text/html; charset=shift_jis').ascii).toBeNull();
  });
});
