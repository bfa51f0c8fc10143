// Who may use the web console: the Host a request names (on a loopback bind), the access token (in ?token= or the
// cookie the page set), the origins a WebSocket may come from, and the security headers every response carries.
// Also the plain replies a refusal sends.
import crypto from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { tokenCookieName } from '../../shared/ws-protocol.ts';

/** What a token may be made of: safe in a URL query and a cookie without escaping, and too long to guess. */
export const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{32,512}$/;
/** TOKEN_PATTERN in words, for the messages refusing a token. */
export const TOKEN_RULE = 'at least 32 (at most 512) characters from A-Z a-z 0-9 . _ ~ -';

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** Names a page of a loopback-bound console may be reached by (with its port). */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

const isLoopback = (host: string) => LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);

/** A host as written in a URL: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Constant-time comparison of a presented token with the real one (hashing first evens out the lengths). */
export function tokenMatches(presented: string | null | undefined, token: string): boolean {
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
export function splitTarget(target: string | undefined): { pathname: string; query: URLSearchParams } {
  const raw = target ?? '/';
  const q = raw.indexOf('?');
  return { pathname: q < 0 ? raw : raw.slice(0, q), query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

/** A plain-text reply (or, once the status line is gone, a cut connection). */
export const text = (res: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}) => {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
};

/** Refuses a WebSocket upgrade with a plain HTTP response, before any handshake. */
export function refuseUpgrade(socket: Duplex, status: number, reason: string, body: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.once('finish', () => socket.destroy());
}

export interface Access {
  /** The Host the request names may be this console: on a loopback bind only a loopback name with its port (a page of
   * another name reaching it is a DNS rebinding attack); bound elsewhere, any. */
  hostAllowed(req: http.IncomingMessage): boolean;
  /** Why a request of another Host is refused. */
  hostRule(): string;
  /** The request presents the token (query or cookie). */
  authorised(req: http.IncomingMessage, query: URLSearchParams): boolean;
  /** The origins a page of this server has: the configured one, its loopback aliases, or (bound to all) the Host asked for. */
  ownOrigins(req: http.IncomingMessage): Set<string>;
  securityHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders;
  /** Opening the page with a valid ?token= leaves the token in a cookie for its assets and its WebSocket. */
  tokenCookie(query: URLSearchParams): http.OutgoingHttpHeaders;
}

/** The access rules of a console listening on `host`; `origin()` is http://HOST:PORT once it listens. */
export function createAccess(token: string, host: string, origin: () => string): Access {
  const wildcard = WILDCARD_HOSTS.has(host);
  const loopback = isLoopback(host);
  const port = () => new URL(origin()).port || '80';
  const cookieName = () => tokenCookieName(port());
  const loopbackNames = [...new Set([...LOOPBACK_NAMES, urlHost(host.toLowerCase())])];
  const loopbackHosts = () => {
    const out = new Set(loopbackNames.map((h) => `${h}:${port()}`));
    // Port 80 may go unsaid.
    if (port() === '80') for (const h of loopbackNames) out.add(h);
    return out;
  };
  return {
    hostAllowed: (req) => !loopback || loopbackHosts().has((req.headers.host ?? '').toLowerCase()),
    hostRule: () =>
      `this console answers only to the Host ${loopbackNames.map((h) => `${h}:${port()}`).join(', ')} (a page of another name reaching it may be a DNS rebinding attack)`,
    authorised: (req, query) =>
      tokenMatches(query.get('token'), token) || tokenMatches(cookieValue(req.headers.cookie, cookieName()), token),
    ownOrigins(req) {
      const out = new Set([origin()]);
      if (LOOPBACK_HOSTS.has(host)) for (const h of LOOPBACK_NAMES) out.add(`http://${h}:${new URL(origin()).port}`);
      const asked = req.headers.host;
      if (wildcard && asked && /^[A-Za-z0-9.\-[\]:]+$/.test(asked)) out.add(`http://${asked}`);
      return out;
    },
    securityHeaders(req) {
      const asked = req.headers.host;
      const wsHost = wildcard && asked && /^[A-Za-z0-9.\-[\]:]+$/.test(asked) ? asked : new URL(origin()).host;
      return {
        'Content-Security-Policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://${wsHost}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      };
    },
    tokenCookie: (query) =>
      tokenMatches(query.get('token'), token) ? { 'Set-Cookie': `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {},
  };
}
