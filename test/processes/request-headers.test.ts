// Custom request headers and basic authentication reach the exact origins of the crawl's seeds and allowed hosts,
// never a host outside its scope (even one whose links are checked), nor another origin its scope takes in.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { newCrawl } from '../helpers/engine.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function serve(handler: http.RequestListener) {
  const requests: { url: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url!, headers: req.headers });
    handler(req, res);
  });
  const { origin, close } = await listenOnLoopback(server);
  closers.push(close);
  return { origin, requests };
}

describe('request headers and basic authentication', () => {
  it('are sent with robots.txt too, so a site behind basic auth has its rules read', async () => {
    const expected = `Basic ${Buffer.from('ana:pw').toString('base64')}`;
    const site = await serve((req, res) => {
      if (req.headers.authorization !== expected) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="t"' }).end();
      if (req.url === '/robots.txt')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/private/x">secret</a><a href="/open">open</a>');
    });
    const { controller } = newCrawl({ seeds: [`${site.origin}/`], threads: 2, basicAuth: { username: 'ana', password: 'pw' } });
    controller.start();
    await controller.done;
    // Without the credentials robots.txt would answer 401 (no rules) and /private/x would be fetched. (/sitemap.xml: the
    // crawl looks for a sitemap on the seed's host, issue 17.)
    expect(site.requests.map((r) => r.url).sort()).toEqual(['/', '/open', '/robots.txt', '/sitemap.xml']);
  });

  it('are sent to the hosts in scope only', async () => {
    const other = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>other</title>'));
    const expected = `Basic ${Buffer.from('analyst:s3cret:x').toString('base64')}`;
    const site = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.headers.authorization !== expected) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="t"' }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="/inner">in</a><a href="${other.origin}/page">out</a>`);
    });
    const { controller } = newCrawl({
      seeds: [`${site.origin}/`],
      threads: 2,
      checkExternal: true,
      headers: { 'X-Api-Key': 'k-123', Cookie: 'consent=yes' },
      basicAuth: { username: 'analyst', password: 's3cret:x' },
    });
    controller.start();
    const info = await controller.done;
    expect(info.snapshot.counters.crawled).toBe(3);
    const pages = site.requests.filter((r) => r.url !== '/robots.txt');
    expect(pages.map((r) => r.url).sort()).toEqual(['/', '/inner', '/sitemap.xml']);
    for (const r of pages) expect(r.headers).toMatchObject({ authorization: expected, 'x-api-key': 'k-123', cookie: 'consent=yes' });
    // The external host was checked, and saw none of them.
    expect(other.requests.map((r) => r.url).sort()).toEqual(['/page', '/robots.txt']);
    for (const r of other.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers['x-api-key']).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
    }
  });

  it('go to the seed and allowed-host origins only: not to another port the scope crawls, nor through a redirect', async () => {
    const expected = `Basic ${Buffer.from('ana:pw').toString('base64')}`;
    const page =
      (body: string): http.RequestListener =>
      (req, res) => {
        if (req.url === '/robots.txt') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end(body);
      };
    // Another port of the seed's host: in "subdomains" scope (an IP address is in scope on any port).
    const otherPort = await serve(page('<title>other port</title>'));
    const allowed = await serve(page('<title>allowed</title>'));
    const seed = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/moved') return void res.writeHead(302, { location: `${otherPort.origin}/landing` }).end();
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<a href="${otherPort.origin}/page">port</a><a href="${allowed.origin}/page">allowed</a><a href="/moved">moved</a>`);
    });
    const { controller } = newCrawl({
      seeds: [`${seed.origin}/`],
      scope: 'subdomains',
      allowedHosts: [new URL(allowed.origin).host],
      threads: 2,
      headers: { Cookie: 'session=s3cret' },
      basicAuth: { username: 'ana', password: 'pw' },
    });
    controller.start();
    await controller.done;
    expect(otherPort.requests.map((r) => r.url).sort()).toEqual(['/landing', '/page', '/robots.txt']);
    for (const r of otherPort.requests) {
      expect(r.headers.authorization, r.url).toBeUndefined();
      expect(r.headers.cookie, r.url).toBeUndefined();
    }
    for (const r of [...seed.requests, ...allowed.requests])
      expect(r.headers, r.url).toMatchObject({ authorization: expected, cookie: 'session=s3cret' });
    expect(allowed.requests.map((r) => r.url).sort()).toEqual(['/page', '/robots.txt']);
    expect(seed.requests.map((r) => r.url).sort()).toEqual(['/', '/moved', '/robots.txt', '/sitemap.xml']);
  });
});
