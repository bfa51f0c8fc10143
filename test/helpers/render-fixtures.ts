// Loopback fixture sites for the render tests, and a ResourceFetcher over them that counts what it fetched (the
// crawl's side of a render: every sub-resource a page loads must come through it).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findChromium } from '../../electron/engine/render/find-chromium.ts';
import { listProcs, readCmdline } from '../../electron/engine/render/proc.ts';
import type { RenderOptions, RenderRequest, ResourceAnswer, ResourceFetcher } from '../../electron/engine/render/renderer.ts';

/** The Chromium the tests drive, or null (the tests then skip, saying why). */
export function testChromium(): { path: string | null; why: string } {
  try {
    return { path: findChromium({ explicit: process.env['CHROMIUM_PATH'] ?? null }), why: '' };
  } catch (err) {
    return { path: null, why: err instanceof Error ? err.message : String(err) };
  }
}

export interface FixtureResponse {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  body: string;
  /** Never answered (an endless request). */
  hang?: boolean;
}

export interface FixtureSite {
  origin: string;
  /** Paths served, as often as each was asked for (by the fetcher or anything else). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function serveSite(pages: Record<string, FixtureResponse | ((url: URL) => FixtureResponse)>): Promise<FixtureSite> {
  const hits = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const entry = pages[url.pathname];
    const page = typeof entry === 'function' ? entry(url) : entry;
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    if (page.hang) {
      hanging.add(res);
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...page.headers });
    res.end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fetcher that fetches over the network, as the crawl's would, and counts each URL it was asked for. */
export function countingFetcher(): ResourceFetcher & { calls: { url: string; type: string }[] } {
  const calls: { url: string; type: string }[] = [];
  const fetcher = async (url: string, type: string, signal: AbortSignal): Promise<ResourceAnswer> => {
    calls.push({ url, type });
    try {
      const res = await fetch(url, { signal, redirect: 'follow' });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { kind: 'response', status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
    } catch (err) {
      return { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
    }
  };
  return Object.assign(fetcher, { calls });
}

export const DESKTOP: RenderOptions = {
  waitMs: 5_000,
  viewport: { width: 1280, height: 800, mobile: false },
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Trawl-test',
  blockPatterns: [],
};

/** The document as the crawl fetched it: fetched here once, as the crawl does, then handed to the renderer. */
export async function fetchDocument(url: string, options: Partial<RenderOptions> = {}): Promise<RenderRequest> {
  const res = await fetch(url);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { url, status: res.status, headers, html: await res.text(), options: { ...DESKTOP, ...options } };
}

/** Pids of every live Chromium process (by the executable's name), with their command lines. */
export function chromiumProcesses(): { pid: number; pgid: number; rssBytes: number; args: string[] }[] {
  return listProcs()
    .filter((p) => /chrom/i.test(p.comm))
    .map((p) => ({ pid: p.pid, pgid: p.pgid, rssBytes: p.rssBytes, args: readCmdline(p.pid) ?? [] }));
}
