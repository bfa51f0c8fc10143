// A client-rendered site on loopback, as React or Vue in client mode make them: every path answers the same empty
// shell and one script, which fetches the site's page list as JSON and then writes the page's title, heading,
// description and navigation links. Page 3's script adds a noindex and a canonical; every request is counted, so a
// test can tell what the crawl fetched (and how often). With `faulty`, the scripts also do what renders record as
// findings: console errors, an uncaught exception, a failed and a blockable resource, a JavaScript redirect.
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
  if (FAULTY) {
    if (page.redirect) return void location.replace(page.redirect);
    console.error('no consent banner on ' + here);
    const tracker = document.createElement('script');
    tracker.src = '/track.js';
    document.head.appendChild(tracker);
    fetch('/api/missing.json').catch(() => {});
    if (page.broken) setTimeout(() => { throw new Error(page.title + ' broke'); }, 0);
  }
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
    if (p.hidden) continue;
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
  /**
   * What renders find wrong: every page's script logs a console error, loads /track.js (for a test to block) and
   * fetches /api/missing.json (a 404); page 4's script throws; /moved's script sends the page to /landing (a
   * JavaScript redirect; /landing is linked from nowhere else).
   */
  faulty?: boolean;
}

export async function serveSpaSite(count = 5, options: SpaOptions = {}): Promise<SpaSite> {
  const faulty = options.faulty === true;
  const app = `const RESTLESS = ${options.restless === true}; const FAULTY = ${faulty};${APP}`;
  const pages = ['/', ...Array.from({ length: count }, (_, i) => `/p/${i + 1}`), ...(faulty ? ['/moved', '/landing'] : [])];
  const list = pages.map((path, i) => ({
    path,
    title: spaTitle(i, path),
    noindex: path === '/p/3',
    ...(faulty && path === '/p/4' ? { broken: true } : {}),
    ...(path === '/moved' ? { redirect: '/landing' } : {}),
    ...(path === '/landing' ? { hidden: true } : {}),
  }));
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
    if (path === '/track.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.tracked = true;');
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
  return spa.pages.map((p, i) => ({ url: `${spa.origin}${p}`, title: spaTitle(i, p) }));
}

/** The title the script gives the site's i-th page ("/" first). */
const spaTitle = (i: number, path: string): string =>
  i === 0 ? 'Home of the SPA' : path.startsWith('/p/') ? `SPA page ${i}` : path.slice(1);
