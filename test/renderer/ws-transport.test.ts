// The web console's WebSocket transport against a real `ws` server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { createWsApi } from '../../renderer/src/api/ws-transport.ts';
import type { SocketConstructor, WsApi } from '../../renderer/src/api/ws-transport.ts';
import type { ConnectionStatus } from '../../renderer/src/api/connection.ts';
import type { CommandFrame } from '../../shared/ws-protocol.ts';
import type { CrawlSnapshot, StateChange } from '../../shared/snapshot.ts';
import { snapshot } from './helpers.ts';
import { COMMAND_NAMES } from '../../shared/commands.ts';

type Handler = (frame: CommandFrame, socket: WebSocket) => unknown;

interface TestServer {
  wss: WebSocketServer;
  url: string;
  frames: CommandFrame[];
  requests: IncomingMessage[];
  sockets: Set<WebSocket>;
  handler: Handler;
  broadcast(frame: unknown): void;
  close(): Promise<void>;
}

async function startServer(port = 0): Promise<TestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const server: TestServer = {
    wss,
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api?token=t0k%2Fen`,
    frames: [],
    requests: [],
    sockets: new Set(),
    handler: (f) => ({ id: f.id, ok: true, result: { echo: f.cmd, args: f.args } }),
    broadcast(frame) {
      for (const s of server.sockets) s.send(JSON.stringify(frame));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of server.sockets) s.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (socket, req) => {
    server.sockets.add(socket);
    server.requests.push(req);
    socket.on('close', () => server.sockets.delete(socket));
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as CommandFrame;
      server.frames.push(frame);
      const reply = server.handler(frame, socket);
      if (reply !== undefined) socket.send(JSON.stringify(reply));
    });
  });
  return server;
}

const open: { api: WsApi | null; server: TestServer | null } = { api: null, server: null };
afterEach(async () => {
  open.api?.close();
  await open.server?.close();
  open.api = null;
  open.server = null;
});

function connect(server: TestServer, extra: Partial<Parameters<typeof createWsApi>[0]> = {}): WsApi {
  const api = createWsApi({
    url: server.url,
    exportUrl: 'http://127.0.0.1/export.csv?token=x',
    WebSocket: WebSocket as unknown as SocketConstructor,
    reconnect: { initialMs: 20, maxMs: 200 },
    ...extra,
  });
  open.api = api;
  return api;
}

function until(check: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() > end) reject(new Error('condition not met in time'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

describe('WebSocket transport', () => {
  it('pairs requests with replies by id, passing the token on the socket URL', async () => {
    const server = (open.server = await startServer());
    // Replies out of order: the second command is answered first.
    const held: CommandFrame[] = [];
    server.handler = (f, socket) => {
      held.push(f);
      if (held.length === 2) {
        for (const h of [...held].reverse()) socket.send(JSON.stringify({ id: h.id, ok: true, result: { cmd: h.cmd, args: h.args } }));
      }
      return undefined;
    };
    const api = connect(server);
    const [a, b] = await Promise.all([
      api.setThreads(12),
      api.queryResults({ offset: 0, limit: 50, sort: 'seq', descending: false, text: '', statusClass: null }),
    ]);
    expect(a).toEqual({ cmd: 'setThreads', args: [12] });
    expect(b).toMatchObject({ cmd: 'queryResults', args: [{ limit: 50 }] });
    expect(new Set(server.frames.map((f) => f.id)).size).toBe(2);
    expect(server.requests[0]?.url).toBe('/api?token=t0k%2Fen');
  });

  it("rejects with the host's own message when a command fails", async () => {
    const server = (open.server = await startServer());
    server.handler = (f) => ({ id: f.id, ok: false, error: 'cannot pause the crawl: it has finished' });
    const api = connect(server);
    await expect(api.pause()).rejects.toThrow('cannot pause the crawl: it has finished');
    await expect(api.pause()).rejects.toMatchObject({ name: 'CommandError', command: 'pause' });
  });

  it('times out with a clear message when no reply comes', async () => {
    const server = (open.server = await startServer());
    server.handler = () => undefined;
    const api = connect(server, { timeoutMs: 150 });
    await expect(api.resume()).rejects.toThrow(/no reply to "resume" from the Trawl host within 0\.2 s/);
  });

  it('dispatches pushed events to every listener, and gives a late listener the current snapshot', async () => {
    const server = (open.server = await startServer());
    const api = connect(server);
    const statuses: ConnectionStatus['state'][] = [];
    api.onConnection((s) => statuses.push(s.state));
    await until(() => statuses.includes('connected'));
    const got: CrawlSnapshot[] = [];
    const changes: StateChange[] = [];
    const off = api.onSnapshot((s) => got.push(s));
    api.onState((c) => changes.push(c));
    const snap = snapshot({ at: 42 }, { crawled: 7 });
    server.broadcast({ event: 'snapshot', payload: snap });
    server.broadcast({ event: 'state', payload: { from: 'running', to: 'paused', reason: null, error: null, at: 43 } });
    server.broadcast({ event: 'snapshot', payload: null }); // "no crawl yet": ignored
    server.broadcast('not even an object');
    await until(() => got.length === 1 && changes.length === 1);
    expect(got[0]).toEqual(snap);
    expect(changes[0]?.to).toBe('paused');

    const late: CrawlSnapshot[] = [];
    api.onSnapshot((s) => late.push(s));
    expect(late).toEqual([snap]);

    off();
    server.broadcast({ event: 'snapshot', payload: snapshot({ at: 44 }) });
    await until(() => late.length === 2);
    expect(got).toHaveLength(1);
  });

  it('passes "nothing in view" on, and then gives a late listener no snapshot', async () => {
    const server = (open.server = await startServer());
    const api = connect(server);
    const got: CrawlSnapshot[] = [];
    let cleared = 0;
    api.onSnapshot((s) => got.push(s));
    api.onCleared(() => cleared++);
    await until(() => server.sockets.size === 1);
    server.broadcast({ event: 'snapshot', payload: snapshot({ at: 42 }) });
    await until(() => got.length === 1);
    server.broadcast({ event: 'cleared', payload: null });
    await until(() => cleared === 1);
    const late: CrawlSnapshot[] = [];
    api.onSnapshot((s) => late.push(s));
    expect(late).toEqual([]);
  });

  it('reconnects after the connection drops, and keeps working', async () => {
    const server = (open.server = await startServer());
    const api = connect(server);
    const statuses: ConnectionStatus[] = [];
    api.onConnection((s) => statuses.push(s));
    await expect(api.defaults()).resolves.toMatchObject({ echo: 'defaults' });

    for (const s of server.sockets) s.terminate();
    await until(() => statuses.some((s) => s.state === 'reconnecting'));
    await until(() => statuses[statuses.length - 1]?.state === 'connected');
    expect(server.requests).toHaveLength(2);
    await expect(api.listCrawls()).resolves.toMatchObject({ echo: 'listCrawls' });

    // Events flow on the new socket too.
    const got: CrawlSnapshot[] = [];
    api.onSnapshot((s) => got.push(s));
    server.broadcast({ event: 'snapshot', payload: snapshot({ at: 99 }) });
    await until(() => got.some((s) => s.at === 99));
  });

  it('fails a command in flight when the connection drops, but sends a read again', async () => {
    const server = (open.server = await startServer());
    let drop = true;
    server.handler = (f, socket) => {
      if (drop) {
        drop = false;
        socket.terminate();
        return undefined;
      }
      return { id: f.id, ok: true, result: f.cmd };
    };
    const api = connect(server);
    await expect(api.stop()).rejects.toThrow(/connection to the Trawl host was lost before "stop" replied/);

    drop = true;
    await expect(api.listCrawls()).resolves.toBe('listCrawls');
    expect(server.frames.filter((f) => f.cmd === 'listCrawls')).toHaveLength(2);
  });

  it('holds commands issued before the host is up, and sends them once it is', async () => {
    const probe = await startServer();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    // Nothing listens on the port yet: the transport retries.
    const api = createWsApi({
      url: `ws://127.0.0.1:${port}/api`,
      exportUrl: 'x',
      WebSocket: WebSocket as unknown as SocketConstructor,
      reconnect: { initialMs: 20, maxMs: 50 },
    });
    open.api = api;
    const answer = api.defaults();
    await new Promise((r) => setTimeout(r, 120));
    const server = (open.server = await startServer(port));
    await expect(answer).resolves.toMatchObject({ echo: 'defaults' });
    expect(server.frames).toHaveLength(1);
  });

  it('exports by downloading from the export URL, with nothing to say about rows or file', async () => {
    const server = (open.server = await startServer());
    let open_ = false;
    server.handler = (f) => ({
      id: f.id,
      ok: true,
      result: open_ ? { ok: true, rows: null, file: null } : { ok: false, error: 'no crawl is open; start or open a crawl first' },
    });
    const downloads: string[] = [];
    const api = connect(server, { download: (url) => downloads.push(url) });
    // Nothing open: the host's refusal comes back, and nothing is downloaded.
    await expect(api.exportCsv()).resolves.toEqual({ ok: false, error: 'no crawl is open; start or open a crawl first' });
    expect(downloads).toEqual([]);
    open_ = true;
    await expect(api.exportCsv()).resolves.toEqual({ ok: true, rows: null, file: null });
    expect(downloads).toEqual(['http://127.0.0.1/export.csv?token=x']);
    expect(server.frames.map((f) => f.cmd)).toEqual(['exportCsv', 'exportCsv']);
  });

  it('fails pending commands and stops reconnecting once closed', async () => {
    const server = (open.server = await startServer());
    server.handler = () => undefined;
    const api = connect(server);
    const pending = api.pause();
    await until(() => server.frames.length === 1);
    api.close();
    await expect(pending).rejects.toThrow(/closed/);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests).toHaveLength(1);
    await expect(api.resume()).rejects.toThrow(/closed/);
  });
});

describe('the methods', () => {
  it('has a method for every command of the table (shared/commands.ts), and the events', () => {
    const Idle = class {
      readyState = 0;
      onopen = null;
      onmessage = null;
      onerror = null;
      onclose = null;
      send() {}
      close() {}
    } as unknown as SocketConstructor;
    const api = createWsApi({ url: 'ws://127.0.0.1:1/api', exportUrl: 'http://127.0.0.1:1/export.csv', WebSocket: Idle });
    try {
      for (const name of COMMAND_NAMES) expect(typeof (api as unknown as Record<string, unknown>)[name], name).toBe('function');
      for (const name of ['onSnapshot', 'onState', 'onCleared'] as const) expect(typeof api[name]).toBe('function');
    } finally {
      api.close();
    }
  });
});
