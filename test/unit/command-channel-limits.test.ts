// The web console's WebSocket channel over stub handlers: how many commands one connection may have unanswered,
// and what happens to a connection that does not read its replies.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import type { Handlers } from '../../electron/host/command-handlers.ts';
import { createAccess } from '../../electron/server/access.ts';
import { MAX_IN_FLIGHT, MAX_SEND_BUFFER, createCommandChannel } from '../../electron/server/command-channel.ts';
import type { CommandChannel } from '../../electron/server/command-channel.ts';
import type { ReplyFrame } from '../../shared/ws-protocol.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { connect } from '../helpers/ws-client.ts';
import type { WsClient } from '../helpers/ws-client.ts';

const TOKEN = 'x'.repeat(40);

describe('web console command channel limits', () => {
  const held: (() => void)[] = [];
  let bigReply = '';
  const handlers = {
    // Answers only when the test lets it.
    listCrawls: () => new Promise<[]>((resolve) => held.push(() => resolve([]))),
    // Answers at once, with as much as the test asks for.
    listPresets: async () => [{ name: bigReply, settings: {} }],
  } as unknown as Handlers;
  const session = Object.assign(new EventEmitter(), { snapshot: () => null }) as unknown as CrawlSession;
  let origin = '';
  let channel: CommandChannel;
  let server: http.Server;
  let closeServer: () => Promise<void>;
  const clients: WsClient[] = [];
  const open = async () => {
    const c = await connect(`ws://${new URL(origin).host}${WS_PATH}?token=${TOKEN}`);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    channel = createCommandChannel(
      session,
      handlers,
      createAccess(TOKEN, '127.0.0.1', () => origin),
      (e) => String(e),
    );
    server = http.createServer((_req, res) => res.end());
    server.on('upgrade', (req, socket, head) => channel.upgrade(req, socket, head));
    const listening = await listenOnLoopback(server);
    origin = listening.origin;
    closeServer = listening.close;
  });

  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    channel.detach();
    channel.terminateClients();
    await channel.close();
    await closeServer();
  });

  it(`answers a command beyond ${MAX_IN_FLIGHT} unanswered ones on a connection with an error at once, and runs the rest`, async () => {
    const c = await open();
    const replies = Array.from({ length: MAX_IN_FLIGHT + 8 }, () => c.call('listCrawls'));
    const early: ReplyFrame[] = [];
    for (const r of replies) void r.then((reply) => early.push(reply));
    await expect.poll(() => early.length, { timeout: 10_000 }).toBe(8);
    expect(held).toHaveLength(MAX_IN_FLIGHT);
    for (const reply of early) {
      expect(reply).toEqual({
        id: expect.any(Number),
        ok: false,
        error: `too many commands at once: at most ${MAX_IN_FLIGHT} may wait for their reply on one connection`,
      });
    }
    // Another connection has its own allowance.
    const other = await open();
    const otherReply = other.call('listCrawls');
    await expect.poll(() => held.length).toBe(MAX_IN_FLIGHT + 1);

    for (const release of held.splice(0)) release();
    const all = await Promise.all(replies);
    expect(all.filter((r) => r.ok)).toHaveLength(MAX_IN_FLIGHT);
    expect(await otherReply).toMatchObject({ ok: true, result: [] });
    // Answered, they no longer count.
    const again = c.call('listCrawls');
    await expect.poll(() => held.length).toBe(1);
    held.splice(0)[0]!();
    expect(await again).toMatchObject({ ok: true, result: [] });
  });

  it(`closes a connection that does not read once more than ${MAX_SEND_BUFFER / 2 ** 20} MiB of replies wait for it`, async () => {
    bigReply = 'y'.repeat(512 * 1024);
    const c = await open();
    const socket = (c.ws as unknown as { _socket: net.Socket })._socket;
    socket.pause();
    const sent = 30; // 15 MiB of replies in all, twice the bound, within the command cap
    for (let i = 0; i < sent; i++) void c.call('listPresets');
    // A normal client meanwhile is answered.
    const normal = await open();
    bigReply = 'small';
    expect(await normal.ok('listPresets')).toEqual([{ name: 'small', settings: {} }]);
    await new Promise((r) => setTimeout(r, 200));
    socket.resume();
    const closed = await Promise.race([c.closed, new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
    expect(closed).not.toBeNull();
    // The close frame names why, unless the client was too slow even for that and the connection was cut.
    if (closed!.code === 1008) expect(closed!.reason).toMatch(/not reading: more than 8 MiB/);
    else expect(closed!.code).toBe(1006);
    // Not every reply was queued for it: the server stopped at the bound.
    const replies = c.frames.length;
    expect(replies).toBeLessThan(sent);
    expect(await normal.ok('listPresets')).toEqual([{ name: 'small', settings: {} }]);
  });
});
