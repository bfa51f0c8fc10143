// A deterministic site served on 127.0.0.1 for tests: /p/0 .. /p/N-1, each linking to a few others, plus
// any extra routes a test adds. Every request is logged so tests can assert exactly what was fetched and when.
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.ts';

export interface RequestLogEntry {
  path: string;
  at: number;
  userAgent: string | undefined;
}

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export interface FixtureSiteOptions {
  pages?: number;
  linksPerPage?: number;
  /** Delay before each page response, in ms (or a function of the path). */
  delayMs?: number | ((path: string) => number);
  /** robots.txt body; 404 when absent. */
  robotsTxt?: string;
  routes?: Record<string, RouteHandler>;
}

export interface FixtureSite {
  origin: string;
  url(path: string): string;
  log: RequestLogEntry[];
  /** Paths fetched, in order, excluding the crawl's own look-ups: /robots.txt and /sitemap.xml (issue 17). */
  fetchedPaths(): string[];
  /** Every page path the site serves from /p/0 (what a complete crawl must fetch). */
  pagePaths(): string[];
  close(): Promise<void>;
}

/** Links of page i: a spanning tree (2i+1, 2i+2) plus a few deterministic cross links, all within the site. */
export function pageLinks(i: number, pages: number, linksPerPage: number): number[] {
  const out = new Set<number>();
  for (const c of [2 * i + 1, 2 * i + 2]) if (c < pages) out.add(c);
  // A 32-bit LCG in integer arithmetic (Math.imul: a float product would lose the low bits), high bits used.
  let x = Math.imul(i + 1, 2654435761) >>> 0;
  const want = Math.min(linksPerPage, pages - 1);
  for (let tries = 0; out.size < want && tries < 100 * want; tries++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const target = (x >>> 8) % pages;
    if (target !== i) out.add(target);
  }
  return [...out];
}

export function pageHtml(i: number, pages: number, linksPerPage: number): string {
  const links = pageLinks(i, pages, linksPerPage)
    .map((t) => `<li><a href="/p/${t}">Page ${t}</a></li>`)
    .join('');
  return `<!doctype html><html><head><title>Page ${i}</title><meta name="description" content="About page ${i}"></head>
<body><h1>Heading ${i}</h1><p>Some words on page number ${i}.</p><ul>${links}</ul>
<a href="http://elsewhere.invalid/from/${i}">external</a><a href="#top">top</a></body></html>`;
}

export async function startFixtureSite(options: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const pages = options.pages ?? 20;
  const linksPerPage = options.linksPerPage ?? 4;
  const log: RequestLogEntry[] = [];

  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    log.push({ path: req.url ?? '/', at: Date.now(), userAgent: req.headers['user-agent'] });
    const route = options.routes?.[path];
    if (route) return void (await route(req, res));
    if (path === '/robots.txt') {
      if (options.robotsTxt === undefined) return void res.writeHead(404).end('not found');
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(options.robotsTxt);
    }
    const m = /^\/p\/(\d+)$/.exec(path);
    const i = m ? Number(m[1]) : -1;
    if (i < 0 || i >= pages) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    const delay = typeof options.delayMs === 'function' ? options.delayMs(path) : (options.delayMs ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(i, pages, linksPerPage));
  });
  const { origin, close } = await listenOnLoopback(server);

  return {
    origin,
    url: (path) => origin + path,
    log,
    fetchedPaths: () => log.map((e) => e.path).filter((p) => p !== '/robots.txt' && p !== '/sitemap.xml'),
    pagePaths: () => {
      // Breadth-first from /p/0 over the link structure: exactly what a complete crawl reaches.
      const seen = new Set([0]);
      const queue = [0];
      while (queue.length) {
        const i = queue.shift()!;
        for (const t of pageLinks(i, pages, linksPerPage)) if (!seen.has(t)) seen.add(t), queue.push(t);
      }
      return [...seen].map((i) => `/p/${i}`);
    },
    close,
  };
}
