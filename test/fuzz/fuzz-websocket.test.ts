// Property-based test (fast-check) of the web console's command channel: any client holding the token can send any
// frame, so random JSON, random command names and random arguments must each get an error reply or a result (or,
// for a frame that is not a JSON object with a numeric id, the socket closed with 1003, as the protocol says), and
// the server must go on answering. A real session over a temporary crawls folder behind a real WebSocket server, in
// process; no worker process is started (the spawner refuses, so a command that would start one fails). Seeded.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WorkerSpawner } from '../../electron/engine/pool/worker-spawner.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { startWebConsole } from '../../electron/server/web-console.ts';
import type { WebConsole } from '../../electron/server/web-console.ts';
import { COMMAND_NAMES } from '../../shared/commands.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { tempDir } from '../helpers/engine.ts';

const RUNS = 10_000;
const SEED = 0x5c13;
/** A reply slower than this is a hang (commands here touch only an empty crawls folder). */
const REPLY_BOUND_MS = 20_000;

const noWorkers: WorkerSpawner = {
  spawn() {
    throw new Error('no worker processes in this test');
  },
};

/** A raw client: sends text as given, and hands out the next reply frame or the close. */
class RawClient {
  private waiting: ((frame: Record<string, unknown> | { closed: number }) => void) | null = null;
  private readonly queue: (Record<string, unknown> | { closed: number })[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if ('event' in frame) return; // snapshots and state changes: not replies
      this.push(frame);
    });
    ws.on('close', (code) => this.push({ closed: code }));
  }

  static open(url: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new RawClient(ws)));
      ws.once('error', reject);
    });
  }

  private push(frame: Record<string, unknown> | { closed: number }): void {
    const w = this.waiting;
    this.waiting = null;
    if (w) w(frame);
    else this.queue.push(frame);
  }

  next(what: string): Promise<Record<string, unknown> | { closed: number }> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply within ${REPLY_BOUND_MS} ms to ${what}`)), REPLY_BOUND_MS);
      this.waiting = (frame) => {
        clearTimeout(timer);
        resolve(frame);
      };
    });
  }
}

const pick = <T>(...items: T[]) => fc.constantFrom(...items);
/** One of these values, whatever their types. */
const oneOf = (...items: unknown[]) => fc.constantFrom(...items);
const argValue = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 2,
    arbitrary: oneOf(
      '',
      'x.trawl',
      '../../etc/passwd',
      '/etc/passwd',
      'postgres://u:p@127.0.0.1:1/db',
      'https://127.0.0.1:1/',
      '(a+)+$',
      '[',
      -1,
      0,
      1,
      1e9,
      null,
      true,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        offset: fc.integer({ min: -1, max: 5 }),
        limit: fc.integer({ min: 0, max: 1001 }),
        sort: pick('url', 'status_code', 'bogus'),
        descending: fc.boolean(),
        text: fc.string({ maxLength: 10 }),
        statusClass: pick(null, '2xx', 'x'),
        filter: pick('all', 'html', 'bogus'),
        kind: pick('throughput', 'bogus'),
        url: pick('https://example.com/', ''),
        id: fc.integer({ min: 0, max: 3 }),
        oldFile: pick('a.trawl', ''),
        newFile: pick('b.trawl', ''),
      },
      { requiredKeys: [] },
    ),
  },
);
/** A command frame: a command of the table or not, arguments of any shape, any id. */
const commandFrame = fc.record(
  {
    id: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 2 ** 40 }) }, { weight: 1, arbitrary: fc.integer() }),
    cmd: fc.oneof(
      { weight: 6, arbitrary: pick(...COMMAND_NAMES) },
      { weight: 1, arbitrary: pick('constructor', '__proto__', 'toString', 'hasOwnProperty', 'close', 'run', '') },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    args: fc.oneof({ weight: 6, arbitrary: fc.array(argValue, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['id'] },
);
/** Any text frame: mostly command frames, some other JSON, some not JSON at all. */
const frame = fc.oneof(
  { weight: 18, arbitrary: commandFrame.map((f) => ({ text: JSON.stringify(f), id: f.id as number | undefined })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ text: JSON.stringify(v), id: undefined })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((text) => ({ text, id: undefined })) },
);

describe('the web console command channel, fuzzed', () => {
  let crawlsDir: string;
  let session: CrawlSession;
  let server: WebConsole;
  let wsUrl: string;

  beforeAll(async () => {
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Trawl</title>');
    crawlsDir = tempDir();
    session = new CrawlSession({ crawlsDir, spawner: noWorkers, cpuCount: 3 });
    server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    wsUrl = `ws://${new URL(server.url).host}${WS_PATH}?token=${server.token}`;
  });

  afterAll(async () => {
    await server?.close();
    await session?.close();
  });

  it('answers every frame with a reply of its id (or closes on one that is not a command object) and keeps answering', async () => {
    let client = await RawClient.open(wsUrl);
    let replies = 0;
    let closes = 0;
    /** Commands that got a result: the generator reaches the handlers, not only the argument checks. */
    const succeeded = new Set<string>();
    await fc.assert(
      fc.asyncProperty(frame, async ({ text, id }) => {
        client.ws.send(text);
        const got = await client.next(text.slice(0, 200));
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const isCommandObject =
          typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Number.isSafeInteger((parsed as { id?: unknown }).id);
        if ('closed' in got) {
          if (isCommandObject) throw new Error(`socket closed (${got.closed}) on a command frame: ${text.slice(0, 200)}`);
          if (got.closed !== 1003) throw new Error(`closed with ${got.closed}, not 1003`);
          closes++;
          client = await RawClient.open(wsUrl);
          return;
        }
        if (!isCommandObject) throw new Error(`a reply to a frame that is not a command object: ${text.slice(0, 200)}`);
        replies++;
        if (got.id !== id) throw new Error(`reply for id ${String(got.id)}, not ${id}`);
        if (got.ok === true) {
          succeeded.add(String((parsed as { cmd?: unknown }).cmd));
          return;
        }
        if (got.ok !== false || typeof got.error !== 'string' || got.error === '') throw new Error(`not a reply: ${JSON.stringify(got)}`);
        // Errors never show the server's paths (the web console names crawls, never paths).
        if (got.error.includes(crawlsDir)) throw new Error(`error shows the crawls folder: ${got.error}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Still answering, on the same socket and a new one.
    client.ws.send(JSON.stringify({ id: 1, cmd: 'listCrawls', args: [] }));
    expect(await client.next('listCrawls')).toEqual({ id: 1, ok: true, result: expect.any(Array) });
    const fresh = await RawClient.open(wsUrl);
    fresh.ws.send(JSON.stringify({ id: 2, cmd: 'defaults', args: [] }));
    expect(await fresh.next('defaults')).toMatchObject({ id: 2, ok: true });
    expect(replies + closes).toBe(RUNS);
    expect(succeeded.size).toBeGreaterThan(5);
    client.ws.close();
    fresh.ws.close();
  }, 600_000);
});
