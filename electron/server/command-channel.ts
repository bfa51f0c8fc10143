// The web console's WebSocket: the upgrade (Host, token and origin checked), command frames run against the handlers
// derived from the command table, and the session's events pushed to every client. A client gets at most
// MAX_IN_FLIGHT commands running at once, and one that does not read what it is sent is cut off at MAX_SEND_BUFFER,
// so no client can make the server hold unbounded memory.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { isCommandName } from '../../shared/commands.ts';
import type { EventFrame, ReplyFrame } from '../../shared/ws-protocol.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import type { CrawlSnapshot, StateChange } from '../../shared/snapshot.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { runCommand } from '../host/command-handlers.ts';
import type { Handlers } from '../host/command-handlers.ts';
import type { Access } from './access.ts';
import { refuseUpgrade, splitTarget } from './access.ts';

/** Snapshot frames are skipped for a client with more than this much unsent (state frames always go). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Largest command frame accepted. */
const MAX_FRAME_BYTES = 1024 * 1024;
/** Commands one connection may have unanswered; a frame beyond them is answered at once with an error. */
export const MAX_IN_FLIGHT = 32;
/** A connection with more than this unsent (replies and events alike) is closed: its client is not reading. */
export const MAX_SEND_BUFFER = 8 * 1024 * 1024;
/** How long a connection closed for not reading has to take its close frame before it is cut. */
const CLOSE_GRACE_MS = 2_000;

export interface CommandChannel {
  /** Handles an HTTP upgrade request of the server. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Stops pushing the session's events (the server could not listen, or it closes). */
  detach(): void;
  /** Closes every client: the close handshake first, `terminate()` for whatever is left. */
  closeClients(): void;
  terminateClients(): void;
  close(): Promise<void>;
}

export function createCommandChannel(
  session: CrawlSession,
  handlers: Handlers,
  access: Access,
  publicMessage: (err: unknown) => string,
): CommandChannel {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<WebSocket>();

  wss.on('connection', (ws: WebSocket) => {
    clients.add(ws);
    let inFlight = 0;
    ws.on('close', () => clients.delete(ws));
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (ws.readyState !== ws.OPEN) return; // closing: what it still sends is dropped
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
      if (inFlight >= MAX_IN_FLIGHT) {
        const error = `too many commands at once: at most ${MAX_IN_FLIGHT} may wait for their reply on one connection`;
        return send(ws, JSON.stringify({ id, ok: false, error } satisfies ReplyFrame));
      }
      inFlight++;
      void runCommandFrame(handlers, frame as Record<string, unknown>)
        .then(
          (result): ReplyFrame => ({ id, ok: true, result: result ?? null }),
          (err: unknown): ReplyFrame => ({ id, ok: false, error: publicMessage(err) }),
        )
        .then((reply) => {
          inFlight--;
          send(ws, JSON.stringify(reply));
        });
    });
    const snapshot = session.snapshot();
    if (snapshot) send(ws, JSON.stringify({ event: 'snapshot', payload: snapshot } satisfies EventFrame));
  });

  /** Sends a frame to an open client; one with more than MAX_SEND_BUFFER unsent already is closed instead of queued to
   * (so one large reply to a client that reads goes, but no more than the bound and a frame pile up). */
  function send(ws: WebSocket, data: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_SEND_BUFFER) {
      ws.close(1008, `not reading: more than ${MAX_SEND_BUFFER / (1024 * 1024)} MiB of frames unsent`);
      // The close frame waits behind what is unsent; a client that still does not read is cut.
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      return;
    }
    ws.send(data);
  }

  // ---- pushed events ----

  const onSnapshot = (snapshot: CrawlSnapshot) => {
    const data = JSON.stringify({ event: 'snapshot', payload: snapshot } satisfies EventFrame);
    for (const ws of clients) {
      // A client that cannot keep up misses snapshots (each supersedes the last) instead of queueing them.
      if (ws.bufferedAmount <= MAX_BUFFERED_BYTES) send(ws, data);
    }
  };
  const onState = (change: StateChange) => {
    const data = JSON.stringify({ event: 'state', payload: change } satisfies EventFrame);
    for (const ws of clients) send(ws, data);
  };
  // Like a state change, never skipped: a client that missed it would go on showing a crawl no longer in view.
  const onCleared = () => {
    const data = JSON.stringify({ event: 'cleared', payload: null } satisfies EventFrame);
    for (const ws of clients) send(ws, data);
  };
  session.on('snapshot', onSnapshot);
  session.on('state', onState);
  session.on('cleared', onCleared);

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      const { pathname, query } = splitTarget(req.url);
      if (!access.hostAllowed(req))
        return refuseUpgrade(socket, 421, 'Misdirected Request', `Misdirected request: ${access.hostRule()}.\n`);
      if (pathname !== WS_PATH) return refuseUpgrade(socket, 404, 'Not Found', 'Not found\n');
      if (!access.authorised(req, query)) return refuseUpgrade(socket, 403, 'Forbidden', 'Forbidden: missing or wrong token\n');
      const from = req.headers.origin;
      if (from !== undefined && !access.ownOrigins(req).has(from)) {
        return refuseUpgrade(socket, 403, 'Forbidden', 'Forbidden: WebSocket from another origin\n');
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    detach() {
      session.off('snapshot', onSnapshot);
      session.off('state', onState);
      session.off('cleared', onCleared);
    },
    closeClients() {
      for (const ws of clients) ws.close(1001, 'server shutting down');
    },
    terminateClients() {
      for (const ws of clients) ws.terminate();
    },
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}

/** A command frame's command, run; anything wrong with it (an unknown command, bad arguments) is a rejection the reply names. */
export async function runCommandFrame(handlers: Handlers, frame: Record<string, unknown>): Promise<unknown> {
  const cmd = frame.cmd;
  if (!isCommandName(cmd)) throw new Error(`unknown command ${JSON.stringify(cmd) ?? 'undefined'}`);
  if (!Array.isArray(frame.args)) throw new Error(`invalid arguments for ${cmd}: args must be an array`);
  return runCommand(handlers, cmd, frame.args);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
