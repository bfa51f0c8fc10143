// A client of the web console's WebSocket for tests: numbered commands with their replies, every event frame kept
// (and every raw frame, to check what was sent), waits for an event or a snapshot, and the close code. A command
// of the table (shared/commands.ts) answers with its result type; any other name or argument can be sent too,
// to see it refused.
import WebSocket from 'ws';
import type { CommandName, CommandResult } from '../../shared/commands.ts';
import type { CrawlSnapshot } from '../../shared/snapshot.ts';
import type { EventFrame, ReplyFrame, ServerFrame } from '../../shared/ws-protocol.ts';

/** Opens a WebSocket; resolves once open, or rejects with the HTTP status of a refused upgrade. */
export function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    const client = new WsClient(ws);
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`refused: ${res.statusCode} ${body.trim()}`), { status: res.statusCode })));
    });
    ws.once('error', reject);
  });
}

export class WsClient {
  /** Every frame as the server sent it. */
  readonly frames: string[] = [];
  readonly events: EventFrame[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (r: ReplyFrame) => void>();
  private readonly eventWaiters: { test: (e: EventFrame) => boolean; resolve: (e: EventFrame) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = String(data);
      this.frames.push(text);
      const frame = JSON.parse(text) as ServerFrame;
      if ('event' in frame) {
        this.events.push(frame);
        for (const w of this.eventWaiters.splice(0)) {
          if (w.test(frame)) w.resolve(frame);
          else this.eventWaiters.push(w);
        }
      } else {
        this.pending.get(frame.id)?.(frame);
        this.pending.delete(frame.id);
      }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  call(cmd: string, args: unknown[] = []): Promise<ReplyFrame> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, cmd, args }));
    });
  }

  /** The result of a command that must succeed: typed by the command table, or as the test says. */
  ok<K extends CommandName>(cmd: K, args?: unknown[]): Promise<CommandResult<K>>;
  ok<T>(cmd: string, args?: unknown[]): Promise<T>;
  async ok(cmd: string, args: unknown[] = []): Promise<unknown> {
    const reply = await this.call(cmd, args);
    if (!reply.ok) throw new Error(`${cmd} failed: ${reply.error}`);
    return reply.result;
  }

  /** The error of a command that must fail. */
  async error(cmd: string, args: unknown[] = []): Promise<string> {
    const reply = await this.call(cmd, args);
    if (reply.ok) throw new Error(`${cmd} succeeded: ${JSON.stringify(reply.result)}`);
    return reply.error;
  }

  /** The first event, already received or still to come, that satisfies `test`. */
  waitForEvent(test: (e: EventFrame) => boolean, timeoutMs = 30_000, what = 'an event'): Promise<EventFrame> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.eventWaiters.push({ test, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }

  /** The first snapshot frame, already received or still to come, whose snapshot satisfies `test`. */
  async snapshot(test: (s: CrawlSnapshot) => boolean, timeoutMs = 10_000): Promise<CrawlSnapshot> {
    const frame = await this.waitForEvent(
      (e) => e.event === 'snapshot' && e.payload !== null && test(e.payload),
      timeoutMs,
      'a snapshot frame',
    );
    return (frame as Extract<EventFrame, { event: 'snapshot' }>).payload;
  }

  close(): void {
    this.ws.close();
  }
}
