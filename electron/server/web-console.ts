// The web console (`npm run serve`): the built renderer over HTTP and the CrawlerApi over a WebSocket, so a crawl
// can be driven from a browser. Every request needs the access token (in ?token= or the cookie set when the page
// is opened with it) and, on a loopback bind, a loopback Host; WebSocket upgrades must also come from this server's
// own pages. Plain Node: no electron.
// This module wires the parts: access.ts (token, origins, headers), static-files.ts (the pages), downloads.ts
// (the CSV routes), console-handlers.ts with crawl-names.ts (the commands) and command-channel.ts (the WebSocket).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { TOKEN_PATTERN, TOKEN_RULE, createAccess, splitTarget, text, urlHost } from './access.ts';
import { createCommandChannel } from './command-channel.ts';
import { webConsoleHandlers } from './console-handlers.ts';
import { crawlNames } from './crawl-names.ts';
import { createDownloads } from './downloads.ts';
import { serveStatic } from './static-files.ts';

export { TOKEN_PATTERN, TOKEN_RULE } from './access.ts';
export { MAX_BUFFERED_BYTES, MAX_IN_FLIGHT, MAX_SEND_BUFFER } from './command-channel.ts';

export interface WebConsoleOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The access token; 32 random bytes in hex when not given. */
  token?: string;
  session: CrawlSession;
  /** The built renderer: index.html and its assets. */
  staticDir: string;
}

export interface WebConsole {
  /** http://HOST:PORT/?token=TOKEN */
  url: string;
  token: string;
  /** Closes every WebSocket and the HTTP server (the session is the host's to close). */
  close(): Promise<void>;
}

export async function startWebConsole(opts: WebConsoleOptions): Promise<WebConsole> {
  const { session } = opts;
  const token = opts.token ?? crypto.randomBytes(32).toString('hex');
  // It goes into a URL and a cookie as it is.
  if (!TOKEN_PATTERN.test(token)) throw new Error(`the token must be ${TOKEN_RULE} (got ${token.length} characters)`);
  const staticDir = path.resolve(opts.staticDir);
  let origin = ''; // http://HOST:PORT once listening

  const access = createAccess(token, opts.host, () => origin);
  const names = crawlNames(session.crawlsDir);
  const downloads = createDownloads(session, names);
  const handlers = webConsoleHandlers(session, names, downloads);

  const server = http.createServer();
  const channel = createCommandChannel(session, handlers, access, names.publicMessage);

  server.on('request', (req, res) => {
    handleRequest(req, res).catch((err: unknown) => {
      text(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    });
  });
  server.on('upgrade', (req: http.IncomingMessage, socket, head: Buffer) => channel.upgrade(req, socket, head));

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { pathname, query } = splitTarget(req.url);
    const headers = access.securityHeaders(req);
    if (!access.hostAllowed(req)) return text(res, 421, `Misdirected request: ${access.hostRule()}.\n`, headers);
    if (!access.authorised(req, query))
      return text(res, 403, 'Forbidden: open the link with ?token= that `npm run serve` printed.\n', headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'Method not allowed\n', { ...headers, Allow: 'GET, HEAD' });
    if (await downloads.serve(pathname, query, req, res, headers)) return;
    return serveStatic(req, res, pathname, staticDir, headers, access.tokenCookie(query));
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    channel.detach();
    void channel.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  origin = `http://${urlHost(opts.host)}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    token,
    close() {
      closing ??= (async () => {
        channel.detach();
        channel.closeClients();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Give clients a moment to answer the close handshake, then cut whatever is left.
        await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000).unref())]);
        channel.terminateClients();
        server.closeAllConnections();
        await channel.close();
        await closed;
      })();
      return closing;
    },
  };
}
