// The web console (`npm run serve`): the built renderer over HTTP and the CrawlerApi over a WebSocket, so a crawl
// can be driven from a browser. Every request needs the access token (in ?token= or the cookie set when the page
// is opened with it); WebSocket upgrades must also come from this server's own pages. Plain Node: no electron.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import type { CrawlFileInfo, StartResult } from '../../shared/crawler-api.ts';
import type { CompareQuery, ComparisonSummary } from '../../shared/analysis.ts';
import type { CommandName } from '../../shared/ipc-contract.ts';
import { isCommandName, parseCommandArgs } from '../../shared/ipc-contract.ts';
import type { EventFrame, ReplyFrame } from '../../shared/ws-protocol.ts';
import { CHART_EXPORT_PATH, COMPARE_EXPORT_PATH, EXPORT_PATH, TOKEN_COOKIE, VIEW_EXPORT_PATH, WS_PATH } from '../../shared/ws-protocol.ts';
import type { CrawlSnapshot, StateChange } from '../../shared/snapshot.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { CRAWL_FILE_EXT } from '../engine/session/crawl-session.ts';

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

/** Snapshot frames are skipped for a client with more than this much unsent (state frames always go). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Largest command frame accepted. */
const MAX_FRAME_BYTES = 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/** What a token may be made of: safe in a URL query and a cookie without escaping. */
export const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{1,512}$/;

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** A host as written in a URL: IPv6 addresses in brackets. */
function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Constant-time comparison of a presented token with the real one (hashing first evens out the lengths). */
function tokenMatches(presented: string | null | undefined, token: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 1024) return false;
  const a = crypto.createHash('sha256').update(presented).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** The path and query of a request target, without normalising dot segments (so traversal is seen, not hidden). */
function splitTarget(target: string | undefined): { pathname: string; query: URLSearchParams } {
  const raw = target ?? '/';
  const q = raw.indexOf('?');
  return { pathname: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

const text = (res: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}) => {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
};

/** Refuses a WebSocket upgrade with a plain HTTP response, before any handshake. */
function refuseUpgrade(socket: Duplex, status: number, reason: string, body: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

export async function startWebConsole(opts: WebConsoleOptions): Promise<WebConsole> {
  const { session } = opts;
  const token = opts.token ?? crypto.randomBytes(32).toString('hex');
  // It goes into a URL and a cookie as it is.
  if (!TOKEN_PATTERN.test(token)) throw new Error('the token must be 1-512 characters from A-Z a-z 0-9 . _ ~ -');
  const staticDir = path.resolve(opts.staticDir);
  const wildcard = WILDCARD_HOSTS.has(opts.host);
  let origin = ''; // http://HOST:PORT once listening

  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<WebSocket>();

  const authorised = (req: http.IncomingMessage, query: URLSearchParams) =>
    tokenMatches(query.get('token'), token) || tokenMatches(cookieValue(req.headers.cookie, TOKEN_COOKIE), token);

  /** The origin a page of this server has: the configured one, its loopback aliases, or (bound to all) the Host asked for. */
  const ownOrigins = (req: http.IncomingMessage): Set<string> => {
    const port = new URL(origin).port;
    const out = new Set([origin]);
    if (LOOPBACK_HOSTS.has(opts.host)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) out.add(`http://${h}:${port}`);
    const host = req.headers.host;
    if (wildcard && host && /^[A-Za-z0-9.\-[\]:]+$/.test(host)) out.add(`http://${host}`);
    return out;
  };

  const securityHeaders = (req: http.IncomingMessage): http.OutgoingHttpHeaders => {
    const host = req.headers.host;
    const wsHost = wildcard && host && /^[A-Za-z0-9.\-[\]:]+$/.test(host) ? host : new URL(origin).host;
    return {
      'Content-Security-Policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://${wsHost}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    };
  };

  // ---- HTTP ----

  server.on('request', (req, res) => {
    handleRequest(req, res).catch((err: unknown) => {
      text(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    });
  });

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const { pathname, query } = splitTarget(req.url);
    const headers = securityHeaders(req);
    if (!authorised(req, query)) return text(res, 403, 'Forbidden: open the link with ?token= that `npm run serve` printed.\n', headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'Method not allowed\n', { ...headers, Allow: 'GET, HEAD' });

    if (pathname === EXPORT_PATH) return sendExport(req, res, headers);
    if (pathname === VIEW_EXPORT_PATH || pathname === CHART_EXPORT_PATH || pathname === COMPARE_EXPORT_PATH) {
      return sendAnalysisExport(pathname, query, req, res, headers);
    }

    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return text(res, 400, 'Bad request path\n', headers);
    }
    if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) {
      return text(res, 403, 'Forbidden path\n', headers);
    }
    const isIndex = decoded === '/' || decoded === '/index.html';
    const file = path.resolve(staticDir, `.${isIndex ? '/index.html' : decoded}`);
    if (!file.startsWith(staticDir + path.sep)) return text(res, 403, 'Forbidden path\n', headers);

    // Opening the page with a valid ?token= leaves the token in a cookie for its assets and its WebSocket.
    const cookie: http.OutgoingHttpHeaders =
      isIndex && tokenMatches(query.get('token'), token) ? { 'Set-Cookie': `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {};

    let stat: fs.Stats | null = null;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      stat = null;
    }
    if (!stat || !stat.isFile()) {
      if (isIndex) {
        return text(res, 503, `The web console's pages are not built yet: run \`npm run build\`, then reload.\nstatic folder: ${staticDir}\n`, {
          ...headers,
          ...cookie,
        });
      }
      return text(res, 404, 'Not found\n', headers);
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { ...headers, ...cookie, 'Content-Type': type, 'Content-Length': stat.size, 'Cache-Control': 'no-cache' });
    if (req.method === 'HEAD') return void res.end();
    const stream = fs.createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  async function sendExport(req: http.IncomingMessage, res: http.ServerResponse, headers: http.OutgoingHttpHeaders): Promise<void> {
    const current = session.currentFile();
    const attached = session.attachedStore();
    if (current === null && attached === null) return text(res, 404, 'No crawl is open: start or open a crawl first.\n', headers);
    const stem = attached ? `cluster-${attached.crawlId}` : path.basename(current!, CRAWL_FILE_EXT);
    const name = stem.replace(/[^A-Za-z0-9._-]+/g, '_') || 'crawl';
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}.csv"`,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return void res.end();
    const result = await session.exportCsv(res);
    // The status line is gone already; a failed export can only cut the download short, which the browser shows.
    if (!result.ok) res.destroy();
  }

  /**
   * The analyst workbench's downloads. Their query is checked exactly as the matching command's arguments (the
   * same schemas, the same crawl-name rules) before the status line goes out, so a refusal is a plain 400 or 404.
   */
  async function sendAnalysisExport(
    pathname: string,
    query: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    headers: http.OutgoingHttpHeaders,
  ): Promise<void> {
    let write: (out: NodeJS.WritableStream) => Promise<{ ok: boolean }>;
    let name: string;
    try {
      const json = (key: string): unknown => {
        const raw = query.get(key);
        if (raw === null) throw new Error(`?${key}= is missing`);
        try {
          return JSON.parse(raw);
        } catch {
          throw new Error(`?${key}= is not JSON`);
        }
      };
      if (pathname === VIEW_EXPORT_PATH) {
        const [view] = parseCommandArgs('exportView', [json('view')]);
        const problem = session.viewExportProblem(view);
        if (problem) throw new Error(problem);
        name = `${crawlName()}-${view.filter}`;
        write = (out) => session.exportView(view, out);
      } else if (pathname === CHART_EXPORT_PATH) {
        const [kind] = parseCommandArgs('exportChartCsv', [query.get('kind')]);
        const problem = session.chartExportProblem();
        if (problem) throw new Error(problem);
        name = `${crawlName()}-${kind}`;
        write = (out) => session.exportChartCsv(kind, out);
      } else {
        const [q] = parseCommandArgs('exportComparison', [json('query')]);
        const resolved = resolveCompare(q);
        // Opens both files: a name that is not a crawl is refused here, before the download starts.
        await session.compareCrawls(resolved);
        name = `compare-${path.basename(q.oldFile, CRAWL_FILE_EXT)}-${path.basename(q.newFile, CRAWL_FILE_EXT)}`;
        write = (out) => session.exportComparison(resolved, out);
      }
    } catch (err) {
      return text(res, 400, `${publicMessage(err)}\n`, headers);
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 150) || 'trawl'}.csv"`,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return void res.end();
    const result = await write(res);
    if (!result.ok) res.destroy();
  }

  const crawlName = () => path.basename(session.currentFile() ?? 'crawl', CRAWL_FILE_EXT);

  // ---- WebSocket ----

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const { pathname, query } = splitTarget(req.url);
    if (pathname !== WS_PATH) return refuseUpgrade(socket, 404, 'Not Found', 'Not found\n');
    if (!authorised(req, query)) return refuseUpgrade(socket, 403, 'Forbidden', 'Forbidden: missing or wrong token\n');
    const from = req.headers.origin;
    if (from !== undefined && !ownOrigins(req).has(from)) {
      return refuseUpgrade(socket, 403, 'Forbidden', 'Forbidden: WebSocket from another origin\n');
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      let frame: unknown;
      try {
        if (isBinary) throw new Error('binary frame');
        frame = JSON.parse(rawText(data));
      } catch {
        return ws.close(1003, 'frames must be JSON text');
      }
      const id = (frame as { id?: unknown } | null)?.id;
      if (typeof frame !== 'object' || frame === null || Array.isArray(frame) || typeof id !== 'number' || !Number.isSafeInteger(id)) {
        return ws.close(1003, 'frames must be objects with a numeric id');
      }
      void runCommand(frame as Record<string, unknown>).then(
        (result): ReplyFrame => ({ id, ok: true, result: result ?? null }),
        (err: unknown): ReplyFrame => ({ id, ok: false, error: publicMessage(err) }),
      ).then((reply) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
      });
    });
    const snapshot = session.snapshot();
    if (snapshot) ws.send(JSON.stringify({ event: 'snapshot', payload: snapshot } satisfies EventFrame));
  });

  const crawlsDir = session.crawlsDir;
  /** Error messages without the server's own folder, which clients have no use for. */
  const publicMessage = (err: unknown): string => {
    const message = err instanceof Error ? err.message : String(err);
    return message.split(crawlsDir + path.sep).join('');
  };

  /** A crawl name from a client: a plain .trawl file name in the crawls folder, nothing else. */
  const resolveName = (name: string): string => {
    const bad =
      name.includes('/') || name.includes('\\') || name.includes('..') || name.includes('\0') || !name.endsWith(CRAWL_FILE_EXT) || name.length <= CRAWL_FILE_EXT.length;
    const file = path.join(crawlsDir, name);
    if (bad || path.dirname(file) !== crawlsDir) throw new Error(`"${name}" is not the name of a crawl in the crawls folder`);
    return file;
  };
  const named = (info: CrawlFileInfo): CrawlFileInfo => ({ ...info, file: path.basename(info.file) });
  const resolveCompare = (q: CompareQuery): CompareQuery => ({ ...q, oldFile: resolveName(q.oldFile), newFile: resolveName(q.newFile) });
  const namedSummary = (s: ComparisonSummary): ComparisonSummary => ({ ...s, old_file: path.basename(s.old_file), new_file: path.basename(s.new_file) });
  const namedStart = (result: StartResult): StartResult => {
    if (result.ok) return { ok: true, file: path.basename(result.file) };
    return { ok: false, problems: result.problems.map((p) => ({ field: p.field, message: publicMessage(new Error(p.message)) })) };
  };

  async function runCommand(frame: Record<string, unknown>): Promise<unknown> {
    const cmd = frame.cmd;
    if (!isCommandName(cmd)) throw new Error(`unknown command ${JSON.stringify(cmd) ?? 'undefined'}`);
    if (!Array.isArray(frame.args)) throw new Error(`invalid arguments for ${cmd}: args must be an array`);
    return dispatch(cmd, frame.args);
  }

  async function dispatch(cmd: CommandName, rawArgs: unknown[]): Promise<unknown> {
    switch (cmd) {
      case 'defaults':
        parseCommandArgs(cmd, rawArgs);
        return session.defaults();
      case 'start': {
        const [settings] = parseCommandArgs(cmd, rawArgs);
        return namedStart(await session.start(settings));
      }
      case 'pause':
        parseCommandArgs(cmd, rawArgs);
        return session.pause();
      case 'resume':
        parseCommandArgs(cmd, rawArgs);
        return session.resume();
      case 'stop':
        parseCommandArgs(cmd, rawArgs);
        return session.stop();
      case 'setThreads': {
        const [threads] = parseCommandArgs(cmd, rawArgs);
        return session.setThreads(threads);
      }
      case 'setMaxRate': {
        const [perSecond] = parseCommandArgs(cmd, rawArgs);
        return session.setMaxRate(perSecond);
      }
      case 'addExclude': {
        const [pattern] = parseCommandArgs(cmd, rawArgs);
        return session.addExclude(pattern);
      }
      case 'deprioritise': {
        const [pattern] = parseCommandArgs(cmd, rawArgs);
        return session.deprioritise(pattern);
      }
      case 'testExtraction': {
        const [url, settings] = parseCommandArgs(cmd, rawArgs);
        return session.testExtraction(url, settings);
      }
      case 'listPresets':
        parseCommandArgs(cmd, rawArgs);
        return session.listPresets();
      case 'savePreset': {
        const [name, settings] = parseCommandArgs(cmd, rawArgs);
        return session.savePreset(name, settings);
      }
      case 'deletePreset': {
        const [name] = parseCommandArgs(cmd, rawArgs);
        return session.deletePreset(name);
      }
      case 'listCrawls':
        parseCommandArgs(cmd, rawArgs);
        return (await session.listCrawls()).map(named);
      case 'openCrawl': {
        const [name] = parseCommandArgs(cmd, rawArgs);
        if (name === null) throw new Error('choose a crawl from the list');
        return named(await session.openCrawl(resolveName(name)));
      }
      case 'resumeCrawl': {
        const [name] = parseCommandArgs(cmd, rawArgs);
        return namedStart(await session.resumeCrawl(resolveName(name)));
      }
      case 'queryResults': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.queryResults(query);
      }
      case 'exportCsv': {
        parseCommandArgs(cmd, rawArgs);
        const problem = session.exportProblem();
        if (problem) return { ok: false, error: problem };
        // The browser does the writing: the client downloads EXPORT_PATH.
        return { ok: true, rows: null, file: null };
      }
      case 'filterCounts':
        parseCommandArgs(cmd, rawArgs);
        return session.filterCounts();
      case 'queryFiltered': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.queryFiltered(query);
      }
      case 'urlDetail': {
        const [ref] = parseCommandArgs(cmd, rawArgs);
        return session.urlDetail(ref);
      }
      case 'urlInlinks': {
        const [urlId, after] = parseCommandArgs(cmd, rawArgs);
        return session.urlInlinks(urlId, after);
      }
      case 'urlOutlinks': {
        const [urlId, after] = parseCommandArgs(cmd, rawArgs);
        return session.urlOutlinks(urlId, after);
      }
      case 'queueHosts': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.queueHosts(query);
      }
      case 'queuePrefixes': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.queuePrefixes(query);
      }
      case 'queueSearch': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.queueSearch(query);
      }
      case 'hostsReport': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.hostsReport(query);
      }
      case 'chartData': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return session.chartData(query);
      }
      case 'exportChartCsv': {
        parseCommandArgs(cmd, rawArgs);
        const problem = session.chartExportProblem();
        if (problem) return { ok: false, error: problem };
        // The browser does the writing: the client downloads CHART_EXPORT_PATH.
        return { ok: true, rows: null, file: null };
      }
      case 'exportView': {
        const [view] = parseCommandArgs(cmd, rawArgs);
        const problem = session.viewExportProblem(view);
        // The browser does the writing: the client downloads VIEW_EXPORT_PATH.
        return problem ? { ok: false, error: problem } : { ok: true, rows: null, file: null };
      }
      case 'compareCrawls': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        return namedSummary(await session.compareCrawls(resolveCompare(query)));
      }
      case 'comparePage': {
        const [query, kind, after] = parseCommandArgs(cmd, rawArgs);
        return session.comparePage(resolveCompare(query), kind, after);
      }
      case 'exportComparison': {
        const [query] = parseCommandArgs(cmd, rawArgs);
        await session.compareCrawls(resolveCompare(query));
        // The browser does the writing: the client downloads COMPARE_EXPORT_PATH.
        return { ok: true, rows: null, file: null };
      }
      case 'listStoreCrawls': {
        const [storeUrl] = parseCommandArgs(cmd, rawArgs);
        return session.listStoreCrawls(storeUrl);
      }
      case 'attachStore': {
        const [storeUrl, crawlId] = parseCommandArgs(cmd, rawArgs);
        return session.attachStore(storeUrl, crawlId);
      }
      case 'detachStore':
        parseCommandArgs(cmd, rawArgs);
        return session.detachStore();
    }
  }

  // ---- pushed events ----

  const onSnapshot = (snapshot: CrawlSnapshot) => {
    const data = JSON.stringify({ event: 'snapshot', payload: snapshot } satisfies EventFrame);
    for (const ws of clients) {
      // A client that cannot keep up misses snapshots (each supersedes the last) instead of queueing them.
      if (ws.readyState === ws.OPEN && ws.bufferedAmount <= MAX_BUFFERED_BYTES) ws.send(data);
    }
  };
  const onState = (change: StateChange) => {
    const data = JSON.stringify({ event: 'state', payload: change } satisfies EventFrame);
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(data);
  };
  // Like a state change, never skipped: a client that missed it would go on showing a crawl no longer in view.
  const onCleared = () => {
    const data = JSON.stringify({ event: 'cleared', payload: null } satisfies EventFrame);
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(data);
  };
  session.on('snapshot', onSnapshot);
  session.on('state', onState);
  session.on('cleared', onCleared);

  // ---- listen ----

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    session.off('snapshot', onSnapshot);
    session.off('state', onState);
    session.off('cleared', onCleared);
    wss.close();
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
        session.off('snapshot', onSnapshot);
        session.off('state', onState);
        session.off('cleared', onCleared);
        for (const ws of clients) ws.close(1001, 'server shutting down');
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Give clients a moment to answer the close handshake, then cut whatever is left.
        await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000).unref())]);
        for (const ws of clients) ws.terminate();
        server.closeAllConnections();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await closed;
      })();
      return closing;
    },
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
