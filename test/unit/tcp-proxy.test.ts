// The loopback TCP proxy the PostgreSQL tests use to make the server "go away": checked against an echo server.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import type { TcpProxy } from '../helpers/tcp-proxy.ts';

interface EchoServer {
  port: number;
  /** Connections the echo server has accepted so far. */
  accepted: number;
  /** Resolves when the server side of the n-th accepted connection (0-based) closes. */
  serverSideClosed(n: number): Promise<void>;
  close(): Promise<void>;
}

async function startEchoServer(): Promise<EchoServer> {
  const closed: Promise<void>[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    closed.push(new Promise<void>((resolve) => s.on('close', () => resolve())));
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    s.pipe(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return closed.length;
    },
    serverSideClosed: (n) => closed[n] ?? Promise.reject(new Error(`no connection ${n}`)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Conn {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  closed: Promise<void>;
}

async function connect(port: number): Promise<Conn> {
  const socket = net.connect({ host: '127.0.0.1', port });
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (data += d));
  socket.on('error', () => {}); // a cut may reset the connection; 'close' follows either way
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => data, closed };
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function echoes(conn: Conn, text: string): Promise<void> {
  const before = conn.received().length;
  conn.socket.write(text);
  await until(() => conn.received().length >= before + text.length, `echo of ${text}`);
  expect(conn.received().slice(before)).toBe(text);
}

const withinMs = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms))]);

describe('TCP proxy', () => {
  let echo: EchoServer;
  let proxy: TcpProxy;

  beforeAll(async () => {
    echo = await startEchoServer();
    proxy = await startTcpProxy('127.0.0.1', echo.port);
  });
  afterAll(async () => {
    await proxy?.close();
    await echo?.close();
  });

  it('rewrites a URL to itself', () => {
    expect(proxy.viaProxy('postgres://trawl:trawl@db.example:5432/trawl_test?sslmode=disable')).toBe(
      `postgres://trawl:trawl@127.0.0.1:${proxy.port}/trawl_test?sslmode=disable`,
    );
  });

  it('passes data both ways; cut() kills open connections and closes new ones at once; restore() lets them through', async () => {
    const a = await connect(proxy.port);
    await echoes(a, 'hello');
    await echoes(a, 'x'.repeat(200_000)); // more than one chunk
    expect(echo.accepted).toBe(1);
    expect(proxy.openConnections).toBe(1);

    proxy.cut();
    // Both ends of the open connection go: the client's and the server's.
    await withinMs(a.closed, 2000, 'client side closed');
    await withinMs(echo.serverSideClosed(0), 2000, 'server side closed');
    expect(proxy.openConnections).toBe(0);

    // A new connection is accepted by the proxy's listener and closed straight away, never reaching the server.
    const b = await connect(proxy.port);
    b.socket.write('anyone there?');
    await withinMs(b.closed, 2000, 'new connection closed while cut');
    expect(b.received()).toBe('');
    expect(echo.accepted).toBe(1);

    proxy.restore();
    const c = await connect(proxy.port);
    await echoes(c, 'back again');
    expect(echo.accepted).toBe(2);
    c.socket.destroy();
    await c.closed;
    await until(() => proxy.openConnections === 0, 'proxy to forget the closed connection');
  });

  it('close() ends open connections', async () => {
    const p = await startTcpProxy('127.0.0.1', echo.port);
    const d = await connect(p.port);
    await echoes(d, 'ping');
    await p.close();
    await withinMs(d.closed, 2000, 'connection closed by close()');
  });
});
