// The case a clock per kind of fetch gets wrong (issue 16, point 4): a page fetch and a sub-resource fetch of the same
// host. Once the browser is up (the first page's render starts it), a page's render asks for its script at once,
// right after the page's fetch; only a clock the page fetches share holds it back for the crawl's delay. Without it,
// that gap is how long a warm render takes to ask: tens of ms, but 0.5-2.5 s on two cores loaded twelve deep; with
// it, the gap can lose against the delay what sending the page's request late costs (up to 0.7 s seen there). The
// delay is long beside both, so that a check tells the two apart even under load. Used with a crawl file and with
// the PostgreSQL store (test/processes and test/postgres render-politeness tests).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, type CliRun } from './cli.ts';

/** The crawl's delay between two fetches of one host. */
export const SHARED_DELAY_MS = 5_000;
/** What the server's view of two requests may lose against the crawl's clock (see above). */
export const SHARED_SLACK_MS = 1_000;
/** A loose hang bound for one such crawl: a browser's start on a loaded machine, four delays. */
export const CHAIN_TIMEOUT_MS = 180_000;
/** What the crawl requests from the site, in order (robots.txt left out). */
export const CHAIN_REQUESTS = ['/', '/p/1', '/js/1.js', '/p/2', '/js/2.js'];

/**
 * Three plain pages in a chain: "/" (no script: its render starts the browser), then /p/1 and /p/2, each loading a
 * script of its own (no render can take it from the fetcher's cache). Every request is logged with its arrival time.
 */
async function serveChain(): Promise<{ origin: string; log: { path: string; at: number }[]; close(): Promise<void> }> {
  const pages: Record<string, string> = {
    '/': '<a href="/p/1">one</a>',
    '/p/1': '<script src="/js/1.js"></script><a href="/p/2">two</a>',
    '/p/2': '<script src="/js/2.js"></script><p>end</p>',
  };
  const log: { path: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    log.push({ path, at });
    const page = pages[path];
    if (page !== undefined)
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><head><title>${path}</title></head><body>${page}</body></html>`);
    if (path.startsWith('/js/')) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('// nothing');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Crawls the chain site with rendering and the delay (`store`: --db FILE or --store URL): the CLI's run, the paths
 * the site was asked for in order of arrival (robots.txt left out) and the gap before each.
 */
export async function crawlChainSite(
  chromium: string,
  store: string[],
): Promise<{ run: CliRun; requests: string[]; gaps: { between: string; ms: number }[] }> {
  const site = await serveChain();
  try {
    const run = await runCli([
      `${site.origin}/`,
      '--render',
      '--chromium',
      chromium,
      '--delay',
      String(SHARED_DELAY_MS),
      // A script waits for its slot before the load event: the render waits for it longer than that.
      '--render-wait',
      String(3 * SHARED_DELAY_MS),
      // Only the pages and what their renders load (a /sitemap.xml look-up would take a slot of its own).
      '--no-sitemaps',
      ...store,
      '--quiet',
    ]);
    const log = site.log.filter((r) => r.path !== '/robots.txt').sort((a, b) => a.at - b.at);
    const gaps = log.slice(1).map((r, i) => ({ between: `${log[i]!.path} -> ${r.path}`, ms: Math.round(r.at - log[i]!.at) }));
    return { run, requests: log.map((r) => r.path), gaps };
  } finally {
    await site.close();
  }
}
