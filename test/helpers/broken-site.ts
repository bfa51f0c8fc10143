// A loopback site with what the bulk reports list: broken links (a 404, a 500, a port where nothing listens), a redirect
// chain of three hops, a redirect loop, a canonical chain and a noindex page. It counts the requests it answers, so
// a test can tell that an export read the crawl file and fetched nothing.
import http from 'node:http';
import net from 'node:net';
import { listenOnLoopback } from './loopback-server.ts';

export interface BrokenSite {
  origin: string;
  /** http://127.0.0.1:<port>/gone, where nothing listens. */
  dead: string;
  url(path: string): string;
  requests(): number;
  close(): Promise<void>;
}

/** A port that was free a moment ago and is closed now: a connection to it is refused. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startBrokenSite(): Promise<BrokenSite> {
  const dead = `http://127.0.0.1:${await deadPort()}/gone`;
  let requests = 0;
  const page = (res: http.ServerResponse, head: string, body: string, status = 200) =>
    void res
      .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><head><title>t</title>${head}</head><body><h1>h</h1>${body}</body></html>`);
  const redirect = (res: http.ServerResponse, to: string, status = 301) => void res.writeHead(status, { location: to }).end();
  const routes: Record<string, (res: http.ServerResponse) => void> = {
    '/': (res) =>
      page(
        res,
        '',
        `<a href="/a">Page A</a> <a href="/missing">Missing page</a> <a href="/broken">Broken page</a> <a href="${dead}">Dead host</a>
         <a href="/r1">Old address</a> <a href="/loop1">Loop</a> <a href="/c1">C1</a> <a href="/noindex">Hidden</a>`,
      ),
    '/a': (res) => page(res, '', '<a href="/missing">=gone</a> <a href="/noindex" rel="nofollow">hidden again</a> <a href="/">home</a>'),
    '/missing': (res) => page(res, '', 'not here', 404),
    '/broken': (res) => page(res, '', 'oops', 500),
    '/r1': (res) => redirect(res, '/r2', 301),
    '/r2': (res) => redirect(res, '/r3', 302),
    '/r3': (res) => redirect(res, '/final', 301),
    '/final': (res) => page(res, '', 'the end'),
    '/loop1': (res) => redirect(res, '/loop2', 301),
    '/loop2': (res) => redirect(res, '/loop1', 301),
    '/c1': (res) => page(res, '<link rel="canonical" href="/c2">', 'c1'),
    '/c2': (res) => page(res, '<link rel="canonical" href="/c3">', 'c2'),
    '/c3': (res) => page(res, '<link rel="canonical" href="/c3">', 'c3'),
    '/noindex': (res) => page(res, '<meta name="robots" content="noindex">', 'hidden'),
  };
  const server = http.createServer((req, res) => {
    requests++;
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, dead, url: (p) => `${origin}${p}`, requests: () => requests, close };
}
