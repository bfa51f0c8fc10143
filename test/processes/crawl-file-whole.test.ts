// Issue 13, finding 6: after a crawl finishes or is stopped, the .trawl file alone is the whole crawl. A reader (the
// results view) is open while the crawl writes, as in the app and the web console, so SQLite's own checkpoint on the
// last close never runs for the writer; the store checkpoints the WAL into the file and truncates it on close.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import type { ResultsQuery } from '../../shared/crawler-api.ts';
import type { StateChange } from '../../shared/snapshot.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { ROOT, spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';

const FIRST_ROWS: ResultsQuery = { offset: 0, limit: 10, sort: 'seq', descending: false, text: '', statusClass: null };

function finished(session: CrawlSession): Promise<StateChange> {
  return new Promise((resolve) => {
    const check = (c: StateChange) => {
      if (c.to !== 'finished') return;
      session.off('state', check);
      resolve(c);
    };
    session.on('state', check);
  });
}

/** What a copy of the .trawl file alone (no -wal, no -shm) holds. */
function copyAlone(file: string): { rows: number; state: string | null; reason: string | null } {
  const copy = path.join(tempDir(), 'copy.trawl');
  fs.copyFileSync(file, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const meta = (key: string) =>
      (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
    return {
      rows: (db.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n,
      state: meta('state'),
      reason: meta('finish_reason'),
    };
  } finally {
    db.close();
  }
}

function walSize(file: string): number {
  return fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
}

describe('the crawl file alone', () => {
  let site: FixtureSite;
  let session: CrawlSession;

  beforeAll(async () => {
    // Enough pages for the WAL to pass SQLite's automatic checkpoint (1,000 pages) and hold a tail after it.
    site = await startFixtureSite({ pages: 300, linksPerPage: 4, delayMs: (p) => (p.startsWith('/p/') ? 2 : 0) });
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 3 });
  });

  afterAll(async () => {
    await session?.close();
    await site?.close();
  });

  it('holds every result row and the final state once the crawl finishes, with a reader open meanwhile', async () => {
    const started = await session.start({ seeds: [site.url('/p/0')], threads: 4 });
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    const end = finished(session);
    // The results view reads while the crawl writes: its connection stays open past the crawl's end.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await session.queryResults(FIRST_ROWS);
    expect((await end).reason).toBe('completed');
    await session.queryResults(FIRST_ROWS);

    const counters = session.snapshot()!.counters;
    expect(counters.crawled + counters.failed).toBe(300);
    expect(copyAlone(started.file)).toEqual({ rows: 300, state: 'finished', reason: 'completed' });
    expect(walSize(started.file)).toBe(0);
  });

  it('holds every result row and the final state after a stop', async () => {
    const started = await session.start({ seeds: [site.url('/p/0')], threads: 2 });
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    await session.setMaxRate(40);
    const end = finished(session);
    await new Promise<void>((resolve) => {
      const check = () => {
        const s = session.snapshot();
        if (s && s.counters.crawled >= 20) {
          session.off('snapshot', check);
          resolve();
        }
      };
      session.on('snapshot', check);
    });
    await session.queryResults(FIRST_ROWS);
    await session.stop();
    expect((await end).reason).toBe('stopped');

    const counters = session.snapshot()!.counters;
    const alone = copyAlone(started.file);
    expect(alone).toEqual({ rows: counters.crawled + counters.failed, state: 'finished', reason: 'stopped' });
    expect(alone.rows).toBeGreaterThanOrEqual(20);
    expect(walSize(started.file)).toBe(0);
  });
});

describe('the crawl file alone, after the web console exits', () => {
  it('holds every result row and the final state when SIGTERM stops a crawl a client was reading', async () => {
    const site = await startFixtureSite({ pages: 200, linksPerPage: 3, delayMs: 20 });
    const dir = tempDir();
    const child = spawn(process.execPath, [path.join(ROOT, 'out/node/serve.mjs'), '--port', '0', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /Trawl web console: (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}`)));
      });
      const url = new URL(line);
      const ws = new WebSocket(`ws://${url.host}${WS_PATH}${url.search}`);
      await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
      let crawled = 0;
      const replies = new Map<number, { result?: { file?: string } }>();
      ws.on('message', (d) => {
        const frame = JSON.parse(String(d)) as { event?: string; payload?: { counters: { crawled: number } }; id?: number };
        if (frame.event === 'snapshot') crawled = frame.payload!.counters.crawled;
        if (frame.id !== undefined) replies.set(frame.id, frame as { result?: { file?: string } });
      });
      ws.send(JSON.stringify({ id: 1, cmd: 'start', args: [{ seeds: [site.url('/p/0')], threads: 3 }] }));
      while (crawled < 20) await new Promise((r) => setTimeout(r, 20));
      // A client reads the results: the console's reader connection is open when the process stops.
      ws.send(JSON.stringify({ id: 2, cmd: 'queryResults', args: [FIRST_ROWS] }));
      while (!replies.has(2)) await new Promise((r) => setTimeout(r, 20));
      const file = path.join(dir, replies.get(1)!.result!.file!);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const whole = new Database(file, { readonly: true });
      const rows = (whole.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;
      whole.close();
      expect(rows).toBeGreaterThanOrEqual(20);
      expect(copyAlone(file)).toEqual({ rows, state: 'finished', reason: 'stopped' });
    } finally {
      child.kill('SIGKILL');
      await site.close();
    }
  });
});
