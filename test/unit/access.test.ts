// The web console's access rules (electron/server/access.ts) called directly: which Host names a loopback console
// answers to, where the token may come from (query or this port's cookie, nothing else), which origins are its own
// and what the replies carry. web-console.test.ts checks them through a running server, one case per route; here
// each rule is checked at its edges, so a one-character slip in them (a port ignored, a cookie of another console
// taken) fails a test.
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TOKEN_PATTERN, createAccess, refuseUpgrade, splitTarget, text, tokenMatches, urlHost } from '../../electron/server/access.ts';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz0123456789';
const req = (headers: http.IncomingHttpHeaders) => ({ headers }) as http.IncomingMessage;
const noQuery = new URLSearchParams();

describe('web console access', () => {
  it('takes tokens of 32 to 512 URL- and cookie-safe characters', () => {
    expect(TOKEN_PATTERN.test('a'.repeat(32))).toBe(true);
    expect(TOKEN_PATTERN.test('a'.repeat(31))).toBe(false);
    expect(TOKEN_PATTERN.test('A-z.0_9~'.repeat(64))).toBe(true);
    expect(TOKEN_PATTERN.test('a'.repeat(513))).toBe(false);
    expect(TOKEN_PATTERN.test(`${'a'.repeat(32)};`)).toBe(false);
    expect(TOKEN_PATTERN.test(`${'a'.repeat(32)}\n`)).toBe(false);
  });

  it('compares a presented token with the real one only', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN.slice(1), TOKEN)).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
    expect(tokenMatches(null, TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
    // A token of 1024 characters is compared; a longer one is refused before hashing.
    const long = 'a'.repeat(1024);
    expect(tokenMatches(long, long)).toBe(true);
    expect(tokenMatches(`${long}a`, `${long}a`)).toBe(false);
  });

  it('on a loopback bind answers only to loopback names with its port (80 may go unsaid)', () => {
    const access = createAccess(TOKEN, '127.0.0.1', () => 'http://127.0.0.1:8123');
    for (const host of ['127.0.0.1:8123', 'localhost:8123', 'LOCALHOST:8123', '[::1]:8123'])
      expect(access.hostAllowed(req({ host })), host).toBe(true);
    for (const host of ['evil.example:8123', '127.0.0.1:8124', '127.0.0.1', 'localhost', '', 'evil.example'])
      expect(access.hostAllowed(req({ host })), host).toBe(false);
    expect(access.hostAllowed(req({}))).toBe(false);
    expect(access.hostRule()).toContain('127.0.0.1:8123, localhost:8123, [::1]:8123');

    const on80 = createAccess(TOKEN, 'localhost', () => 'http://localhost');
    expect(on80.hostAllowed(req({ host: 'localhost' }))).toBe(true);
    expect(on80.hostAllowed(req({ host: '127.0.0.1:80' }))).toBe(true);
    expect(on80.hostAllowed(req({ host: 'evil.example' }))).toBe(false);
    // Another port: its bare names are not this console.
    const other = createAccess(TOKEN, '127.0.0.2', () => 'http://127.0.0.2:9000');
    expect(other.hostAllowed(req({ host: '127.0.0.2:9000' }))).toBe(true);
    expect(other.hostAllowed(req({ host: '127.0.0.2' }))).toBe(false);
    // Any 127.x.y.z bind is loopback: the Host check holds there too.
    const wide = createAccess(TOKEN, '127.10.20.30', () => 'http://127.10.20.30:9000');
    expect(wide.hostAllowed(req({ host: 'evil.example:9000' }))).toBe(false);
    expect(wide.hostAllowed(req({ host: '127.10.20.30:9000' }))).toBe(true);
    const v6 = createAccess(TOKEN, '::1', () => 'http://[::1]:9000');
    expect(v6.hostAllowed(req({ host: '[::1]:9000' }))).toBe(true);
  });

  it('bound to another address or all of them, answers to any Host', () => {
    for (const host of ['0.0.0.0', '192.168.1.20', '::'])
      expect(createAccess(TOKEN, host, () => 'http://192.168.1.20:8123').hostAllowed(req({ host: 'crawler.lan:8123' })), host).toBe(true);
  });

  it("takes the token from ?token= or this port's cookie, nothing else", () => {
    const access = createAccess(TOKEN, '127.0.0.1', () => 'http://127.0.0.1:8123');
    const none = req({});
    expect(access.authorised(none, new URLSearchParams({ token: TOKEN }))).toBe(true);
    expect(access.authorised(none, new URLSearchParams({ token: `${TOKEN}x` }))).toBe(false);
    expect(access.authorised(none, noQuery)).toBe(false);
    expect(access.authorised(req({ cookie: `trawl_token_8123=${TOKEN}` }), noQuery)).toBe(true);
    expect(access.authorised(req({ cookie: `a=b; trawl_token_8123=${TOKEN}; c=d` }), noQuery)).toBe(true);
    expect(access.authorised(req({ cookie: ` trawl_token_8123 = ${TOKEN} ` }), noQuery)).toBe(true);
    expect(access.authorised(req({ cookie: `trawl_token_8123=${encodeURIComponent(TOKEN)}` }), noQuery)).toBe(true);
    // Another console's cookie (another port), a look-alike name, or a cookie without a value: refused.
    expect(access.authorised(req({ cookie: `trawl_token_8124=${TOKEN}` }), noQuery)).toBe(false);
    expect(access.authorised(req({ cookie: `xtrawl_token_8123=${TOKEN}` }), noQuery)).toBe(false);
    expect(access.authorised(req({ cookie: `trawl_token_8123` }), noQuery)).toBe(false);
    expect(access.authorised(req({ cookie: `trawl_token_8123=wrong; x=${TOKEN}` }), noQuery)).toBe(false);
    // A malformed escape is taken as written, not thrown on.
    expect(access.authorised(req({ cookie: 'trawl_token_8123=%E0%A4%A' }), noQuery)).toBe(false);
    const weird = 'abcdefghijklmnopqrstuvwxyz012345%zz';
    expect(
      createAccess(weird, '127.0.0.1', () => 'http://127.0.0.1:8123').authorised(req({ cookie: `trawl_token_8123=${weird}` }), noQuery),
    ).toBe(true);
  });

  it('sets the cookie, named for its port, only for a valid ?token=', () => {
    const access = createAccess(TOKEN, '127.0.0.1', () => 'http://127.0.0.1:8123');
    expect(access.tokenCookie(new URLSearchParams({ token: TOKEN }))).toEqual({
      'Set-Cookie': `trawl_token_8123=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`,
    });
    expect(access.tokenCookie(new URLSearchParams({ token: 'wrong' }))).toEqual({});
    expect(access.tokenCookie(noQuery)).toEqual({});
  });

  it('counts its own origin and, on loopback, its aliases as its own; bound to all, the Host asked for if it is one', () => {
    const loop = createAccess(TOKEN, '127.0.0.1', () => 'http://127.0.0.1:8123');
    expect([...loop.ownOrigins(req({ host: 'evil.example:8123' }))].sort()).toEqual([
      'http://127.0.0.1:8123',
      'http://[::1]:8123',
      'http://localhost:8123',
    ]);
    const lan = createAccess(TOKEN, '192.168.1.20', () => 'http://192.168.1.20:8123');
    expect([...lan.ownOrigins(req({ host: 'other:8123' }))]).toEqual(['http://192.168.1.20:8123']);
    const all = createAccess(TOKEN, '0.0.0.0', () => 'http://0.0.0.0:8123');
    expect([...all.ownOrigins(req({ host: 'crawler.lan:8123' }))]).toEqual(['http://0.0.0.0:8123', 'http://crawler.lan:8123']);
    expect([...all.ownOrigins(req({ host: '[fe80::1]:8123' }))]).toContain('http://[fe80::1]:8123');
    // A Host that is not a host[:port] never becomes an origin.
    expect([...all.ownOrigins(req({ host: 'a.test/x' }))]).toEqual(['http://0.0.0.0:8123']);
    expect([...all.ownOrigins(req({ host: 'x y' }))]).toEqual(['http://0.0.0.0:8123']);
    expect([...all.ownOrigins(req({}))]).toEqual(['http://0.0.0.0:8123']);
  });

  it('sends a strict CSP whose WebSocket source is this console, and no sniffing or referrer', () => {
    const loop = createAccess(TOKEN, '127.0.0.1', () => 'http://127.0.0.1:8123');
    const headers = loop.securityHeaders(req({ host: 'evil.example:8123' }));
    expect(headers['Content-Security-Policy']).toContain("connect-src 'self' ws://127.0.0.1:8123;");
    expect(headers['Content-Security-Policy']).toContain("default-src 'self'; script-src 'self'");
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Referrer-Policy']).toBe('no-referrer');
    const all = createAccess(TOKEN, '0.0.0.0', () => 'http://0.0.0.0:8123');
    expect(all.securityHeaders(req({ host: 'crawler.lan:8123' }))['Content-Security-Policy']).toContain('ws://crawler.lan:8123;');
    expect(all.securityHeaders(req({ host: 'a b' }))['Content-Security-Policy']).toContain('ws://0.0.0.0:8123;');
    expect(all.securityHeaders(req({}))['Content-Security-Policy']).toContain('ws://0.0.0.0:8123;');
  });

  it('writes hosts and request targets as they are, without resolving dot segments', () => {
    expect(urlHost('::1')).toBe('[::1]');
    expect(urlHost('[::1]')).toBe('[::1]');
    expect(urlHost('127.0.0.1')).toBe('127.0.0.1');
    const { pathname, query } = splitTarget('/../x.csv?token=t&a=1');
    expect(pathname).toBe('/../x.csv');
    expect([query.get('token'), query.get('a')]).toEqual(['t', '1']);
    expect(splitTarget('/a').pathname).toBe('/a');
    expect(splitTarget('/a').query.size).toBe(0);
    expect(splitTarget(undefined).pathname).toBe('/');
    expect(splitTarget('/a?').pathname).toBe('/a');
  });

  it('replies in plain text with its length, and cuts a connection whose status line is gone', () => {
    const calls: unknown[] = [];
    const res = {
      headersSent: false,
      writeHead: (...args: unknown[]) => calls.push(['head', ...args]),
      end: (body: string) => calls.push(['end', body]),
      destroy: () => calls.push(['destroy']),
    } as unknown as http.ServerResponse;
    text(res, 403, 'Forbidden é\n', { 'X-A': '1' });
    expect(calls).toEqual([
      ['head', 403, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': 13, 'X-A': '1' }],
      ['end', 'Forbidden é\n'],
    ]);
    calls.length = 0;
    (res as { headersSent: boolean }).headersSent = true;
    text(res, 500, 'late\n');
    expect(calls).toEqual([['destroy']]);
  });

  it('refuses a WebSocket upgrade with a whole HTTP response, then closes', async () => {
    const socket = new PassThrough();
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    refuseUpgrade(socket, 403, 'Forbidden', 'Forbidden: wrong token\n');
    await closed;
    expect(Buffer.concat(chunks).toString()).toBe(
      'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 23\r\n\r\nForbidden: wrong token\n',
    );
    expect(socket.destroyed).toBe(true);
    const gone = new PassThrough();
    gone.end();
    await new Promise((r) => setImmediate(r));
    gone.destroy();
    refuseUpgrade(gone, 403, 'Forbidden', 'x');
    expect(gone.destroyed).toBe(true);
  });
});
