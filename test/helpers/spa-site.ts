// A client-rendered site on loopback, as React or Vue in client mode make them: every path answers the same empty
// shell and one script, which fetches the site's page list as JSON and then writes the page's title, heading,
// description and navigation links. Page 3's script adds a noindex and a canonical; every request is counted, so a
// test can tell what the crawl fetched (and how often).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SpaSite {
  origin: string;
  /** Requests per path. */
  hits: Map<string, number>;
  /** Every request in order: its path and when it arrived (ms, performance.now()). */
  log: { path: string; at: number }[];
  /** The pages the script knows (paths). */
  pages: string[];
  close(): Promise<void>;
}

const SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loading…</title><script src="/app.js"></script></head>
<body><div id="root"></div></body></html>`;

const APP = `
(async () => {
  const pages = await (await fetch('/api/pages.json')).json();
  const here = location.pathname;
  const page = pages.find((p) => p.path === here) || pages[0];
  document.title = page.title;
  document.documentElement.lang = 'en-GB';
  const meta = document.createElement('meta');
  meta.name = 'description';
  meta.content = 'About ' + page.title;
  document.head.appendChild(meta);
  if (page.noindex) {
    const robots = document.createElement('meta');
    robots.name = 'robots';
    robots.content = 'noindex';
    document.head.appendChild(robots);
    const canonical = document.createElement('link');
    canonical.rel = 'canonical';
    canonical.href = '/p/1';
    document.head.appendChild(canonical);
  }
  const root = document.getElementById('root');
  const h1 = document.createElement('h1');
  h1.textContent = page.title;
  root.appendChild(h1);
  const h2 = document.createElement('h2');
  h2.textContent = 'Section of ' + page.title;
  root.appendChild(h2);
  const nav = document.createElement('nav');
  for (const p of pages) {
    const a = document.createElement('a');
    a.href = p.path;
    a.textContent = p.title;
    nav.appendChild(a);
  }
  root.appendChild(nav);
  if (RESTLESS) setInterval(() => { const p = document.createElement('p'); p.textContent = Date.now(); root.appendChild(p); fetch('/api/tick?' + Date.now()); }, 100);
})();
`;

export interface SpaOptions {
  /** Scripts that never go quiet: the DOM changes and a request starts every 100 ms. */
  restless?: boolean;
  /** The site's robots.txt (default: allow all). */
  robots?: string;
  /** More script URLs the shell loads (each path of this site answers with an empty script). */
  scripts?: string[];
}

export async function serveSpaSite(count = 5, options: SpaOptions = {}): Promise<SpaSite> {
  const app = `const RESTLESS = ${options.restless === true};${APP}`;
  const pages = ['/', ...Array.from({ length: count }, (_, i) => `/p/${i + 1}`)];
  const list = pages.map((path, i) => ({ path, title: spaTitle(i), noindex: path === '/p/3' }));
  const hits = new Map<string, number>();
  const log: { path: string; at: number }[] = [];
  const shell = SHELL.replace('</head>', `${(options.scripts ?? []).map((src) => `<script src="${src}"></script>`).join('')}</head>`);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    log.push({ path, at: performance.now() });
    if (path === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(options.robots ?? 'User-agent: *\nAllow: /\n');
    if (path.startsWith('/js/')) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('// nothing');
    if (path === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    if (path === '/api/tick') return void res.writeHead(204).end();
    if (path === '/api/pages.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
    if (pages.includes(path)) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    log,
    pages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The site's pages as its script titles them: URL and title. */
export function spaPages(spa: SpaSite): { url: string; title: string }[] {
  return spa.pages.map((p, i) => ({ url: `${spa.origin}${p}`, title: spaTitle(i) }));
}

/** The title the script gives the site's i-th page ("/" first). */
const spaTitle = (i: number): string => (i === 0 ? 'Home of the SPA' : `SPA page ${i}`);
