// The crawl's side of a render: what a page loads is fetched by the crawl (electron/engine/render/resource-fetcher.ts),
// once per crawl, only where robots.txt allows, with the crawl's credentials only on its own hosts, within its size
// limit. Real loopback servers; the fetcher is called as a render calls it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robotsRulesFrom, robotsUrlOf, type RobotsRules } from '../../electron/engine/frontier/robots-rules.ts';
import { CrawlResourceFetcher, type CrawlHosts } from '../../electron/engine/render/resource-fetcher.ts';
import { parseSettings, type CrawlSettings } from '../../shared/settings.ts';

/** A crawl's hosts as a store keeps them, without politeness: robots.txt recorded once fetched (the fetcher fetches it). */
function crawlHosts(settings: CrawlSettings): CrawlHosts {
  const known = new Map<number, RobotsRules>();
  const ids = new Map<string, number>();
  const idOf = (origin: string) => ids.get(origin) ?? (ids.set(origin, ids.size + 1), ids.size);
  return {
    reserveFetch: async (_origin, now = Date.now()) => now,
    robotsFor: async (origin) => {
      const rules = known.get(idOf(origin));
      return rules ? { rules } : { fetch: { kind: 'robots', hostId: idOf(origin), url: robotsUrlOf(origin) } };
    },
    recordRobots: async (claim, r) =>
      void known.set(claim.hostId, robotsRulesFrom(claim.url, r.statusCode, r.body, settings.userAgent, r.error)),
  };
}
function fetcherFor(settings: CrawlSettings): CrawlResourceFetcher {
  return new CrawlResourceFetcher(settings, crawlHosts(settings));
}

interface Site {
  origin: string;
  hits: Map<string, number>;
  auth: Map<string, string | undefined>;
  close(): Promise<void>;
}

async function site(robots: string): Promise<Site> {
  const hits = new Map<string, number>();
  const auth = new Map<string, string | undefined>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    auth.set(path, req.headers.authorization);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (path === '/big.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('x'.repeat(4096));
    if (path === '/moved.js') return void res.writeHead(301, { location: '/app.js' }).end();
    res.writeHead(200, { 'content-type': 'text/javascript', 'x-served': path }).end(`/* ${path} */`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    auth,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('the crawl resource fetcher', () => {
  let own: Site;
  let other: Site;
  beforeAll(async () => {
    own = await site('User-agent: *\nDisallow: /private/\n');
    other = await site('User-agent: *\nAllow: /\n');
  });
  afterAll(async () => {
    await own?.close();
    await other?.close();
  });
  const signal = new AbortController().signal;

  it('fetches a resource once for the whole crawl, and passes redirects to the browser', async () => {
    const fetcher = fetcherFor(parseSettings({ seeds: [`${own.origin}/`] }));
    const [a, b] = await Promise.all([
      fetcher.fetch(`${own.origin}/app.js`, 'script', signal),
      fetcher.fetch(`${own.origin}/app.js`, 'script', signal),
    ]);
    const c = await fetcher.fetch(`${own.origin}/app.js`, 'script', signal);
    expect(a).toMatchObject({ kind: 'response', status: 200 });
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(own.hits.get('/app.js')).toBe(1);
    expect(new TextDecoder().decode((a as { body: Uint8Array }).body)).toBe('/* /app.js */');
    expect(fetcher.stats).toMatchObject({ fetched: 1, fromCache: 1 });
    const moved = await fetcher.fetch(`${own.origin}/moved.js`, 'script', signal);
    expect(moved).toMatchObject({ kind: 'response', status: 301, headers: { location: '/app.js' } });
  });

  it("records what the host's robots.txt forbids as blocked, without fetching it", async () => {
    const fetcher = fetcherFor(parseSettings({ seeds: [`${own.origin}/`] }));
    own.hits.delete('/private/x.js');
    expect(await fetcher.fetch(`${own.origin}/private/x.js`, 'script', signal)).toEqual({
      kind: 'blocked',
      reason: 'blocked by robots.txt',
    });
    expect(own.hits.get('/private/x.js')).toBeUndefined();
    // robots.txt "ignore" fetches it.
    const ignoring = fetcherFor(parseSettings({ seeds: [`${own.origin}/`], robots: 'ignore' }));
    expect(await ignoring.fetch(`${own.origin}/private/x.js`, 'script', signal)).toMatchObject({ kind: 'response', status: 200 });
  });

  it("sends the crawl's credentials to its own hosts only, and keeps to its size limit", async () => {
    const fetcher = fetcherFor(
      parseSettings({ seeds: [`${own.origin}/`], basicAuth: { username: 'u', password: 'p' }, maxBodyBytes: 1024 }),
    );
    await fetcher.fetch(`${own.origin}/own.js`, 'script', signal);
    await fetcher.fetch(`${other.origin}/third-party.js`, 'script', signal);
    expect(own.auth.get('/own.js')).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(other.auth.get('/third-party.js')).toBeUndefined();
    expect(await fetcher.fetch(`${own.origin}/big.js`, 'script', signal)).toEqual({ kind: 'failed', reason: 'too large' });
    expect(await fetcher.fetch('data:text/plain,hi', 'other', signal)).toEqual({ kind: 'blocked', reason: 'data: not fetched' });
  });
});
