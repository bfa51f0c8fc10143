// A hostile site on 127.0.0.1: everything a real crawl meets on the web as it is, in one place. Each route says
// what a crawler should record for it; tests compare the crawl's rows with `expectations`.
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.ts';
import zlib from 'node:zlib';

export interface HostileSite {
  origin: string;
  url(path: string): string;
  /** Every request, in order (path with query). */
  log: string[];
  /** When each request arrived (epoch ms), by path with query, in order. */
  times: Map<string, number[]>;
  close(): Promise<void>;
}

const html = (res: http.ServerResponse, body: string | Buffer, headers: http.OutgoingHttpHeaders = {}, status = 200) =>
  void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

/** Links of the home page: one to every trap below. */
export const TRAPS = [
  '/redirect/1', // a chain of 3 redirects ending on a page
  '/loop/a', // a -> b -> a
  '/redirect-forever/1', // every hop redirects to a new URL
  '/slow', // answers after 1.5 s
  '/never', // accepts the connection, never answers
  '/huge', // 30 MB body
  '/bomb', // gzip of 200 MB of zeros, about 200 KB on the wire
  '/latin1', // ISO-8859-1 page, charset in the header
  '/sjis', // Shift_JIS page, charset in <meta>
  '/reset', // the connection is destroyed before any answer
  '/truncated', // Content-Length larger than the body sent
  '/many-links', // 20,000 distinct links (to /gen/N, which all answer 404)
  '/calendar/2026/1', // an infinite calendar: every month links to the next
  '/private/secret', // disallowed by robots.txt
  '/malformed', // broken markup
  '/binary', // random bytes labelled text/html
  '/not-found', // 404
  '/server-error', // 500
  '/image.png', // not HTML
  '/flapping', // 503, 503, then 200: flapping until the third attempt
  '/rate-limited', // 429 with Retry-After: 1, then 200
  '/seo', // every field the extractors read, resources, and links no crawler can fetch
  '/nofollow-page', // meta robots noindex, nofollow: its link is recorded, not followed
];

/** The resources /seo uses (checked when the crawl checks images, scripts and stylesheets). */
export const SEO_RESOURCES = ['/img/logo.png', '/img/logo-2x.png', '/app.js', '/style.css', '/img/missing.png'];

const SEO_PAGE = `<!doctype html><html lang="en-GB"><head>
<title>All the fields</title>
<meta name="description" content="A page with everything">
<meta http-equiv="refresh" content="30; url=/seo-refreshed">
<link rel="canonical" href="/seo-canonical">
<link rel="alternate" hreflang="de" href="/de/seo"><link rel="alternate" hreflang="x-default" href="/seo">
<link rel="next" href="/seo?page=2">
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script>
</head><body>
<h1>First heading</h1><h2>Sub one</h2><h2>Sub two</h2><h1>Second heading</h1>
<img src="/img/logo.png" srcset="/img/logo.png 1x, /img/logo-2x.png 2x" alt="Logo"><img src="/img/missing.png" alt="">
<a href="mailto:someone@example.invalid">mail</a> <a href="tel:+15550100">call</a> <a href="javascript:void(0)">js</a>
<a href="data:text/html,hello">data</a> <a href="http://[broken">broken</a>
</body></html>`;

export async function startHostileSite(): Promise<HostileSite> {
  const log: string[] = [];
  const times = new Map<string, number[]>();
  const seen = (p: string) => times.get(p)?.length ?? 0;
  const bomb = zlib.gzipSync(Buffer.alloc(200 * 1024 * 1024));

  const server = http.createServer((req, res) => {
    const raw = req.url ?? '/';
    log.push(raw);
    times.set(raw, [...(times.get(raw) ?? []), Date.now()]);
    const path = raw.split('?')[0]!;
    if (path === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (path === '/') {
      return html(
        res,
        `<title>Hostile home</title>${TRAPS.map((t) => `<a href="${t}">${t}</a>`).join('\n')}
        <a href="mailto:someone@example.invalid">mail</a><a href="javascript:void(0)">js</a><a href="http://elsewhere.invalid/">out</a>`,
      );
    }
    const redirect = /^\/redirect\/(\d+)$/.exec(path);
    if (redirect) {
      const n = Number(redirect[1]);
      return n < 3 ? void res.writeHead(301, { location: `/redirect/${n + 1}` }).end() : html(res, '<title>End of chain</title>');
    }
    const forever = /^\/redirect-forever\/(\d+)$/.exec(path);
    if (forever) return void res.writeHead(302, { location: `/redirect-forever/${Number(forever[1]) + 1}` }).end();
    if (path === '/loop/a') return void res.writeHead(302, { location: '/loop/b' }).end();
    if (path === '/loop/b') return void res.writeHead(302, { location: '/loop/a' }).end();
    if (path === '/slow') return void setTimeout(() => html(res, '<title>Slow</title>'), 1_500);
    if (path === '/never') return; // hold the socket open
    if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 30 && res.write(chunk)) sent++;
        if (sent >= 30) return void res.end();
        res.once('drain', () => (sent++, pump()));
      };
      return pump();
    }
    if (path === '/bomb') return html(res, bomb, { 'content-encoding': 'gzip' });
    if (path === '/latin1') {
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' })
        .end(Buffer.from('<title>Caf\xe9 cr\xe8me</title>', 'latin1'));
    }
    if (path === '/sjis') {
      // "日本語" in Shift_JIS, with the charset only in <meta>.
      const title = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(Buffer.concat([Buffer.from('<meta charset="shift_jis"><title>'), title, Buffer.from('</title>')]));
    }
    if (path === '/reset') return void req.socket.destroy();
    if (path === '/truncated') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000' });
      res.write('<title>Cut short</title>');
      return void setTimeout(() => req.socket.destroy(), 50);
    }
    if (path === '/many-links') {
      const links: string[] = [];
      for (let i = 0; i < 20_000; i++) links.push(`<a href="/gen/${i}">${i}</a>`);
      return html(res, `<title>Many links</title>${links.join('')}`);
    }
    const month = /^\/calendar\/(\d+)\/(\d+)$/.exec(path);
    if (month) {
      const [y, m] = [Number(month[1]), Number(month[2])];
      const next = m === 12 ? `/calendar/${y + 1}/1` : `/calendar/${y}/${m + 1}`;
      return html(res, `<title>${y}-${m}</title><a href="${next}">next month</a>`);
    }
    if (path === '/private/secret') return html(res, '<title>Secret</title>');
    if (path === '/malformed')
      return html(res, '<title>Malformed<body><a href="/malformed-target">x<div><p><table><a href=/ok>ok</a></b></i>');
    if (path === '/binary') {
      const bytes = Buffer.alloc(64 * 1024);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
      return html(res, bytes, { 'content-type': 'text/html' });
    }
    if (path === '/server-error') return html(res, '<title>Oops</title>', {}, 500);
    if (path === '/flapping') return seen(raw) <= 2 ? html(res, '<title>Busy</title>', {}, 503) : html(res, '<title>Steady now</title>');
    if (path === '/rate-limited') {
      return seen(raw) === 1
        ? html(res, '<title>Slow down</title>', { 'retry-after': '1' }, 429)
        : html(res, '<title>Thanks for waiting</title>');
    }
    if (path === '/seo') return html(res, SEO_PAGE);
    if (path === '/nofollow-page')
      return html(res, '<meta name="robots" content="noindex, nofollow"><title>No follow</title><a href="/nf-target">t</a>');
    if (path === '/img/logo.png' || path === '/img/logo-2x.png')
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(512));
    if (path === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('console.log(1)');
    if (path === '/style.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end('body{}');
    if (path === '/image.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048));
    return html(res, '<title>Not found</title>', {}, 404);
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    url: (p) => origin + p,
    log,
    times,
    close,
  };
}
