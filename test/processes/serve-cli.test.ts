// The `npm run serve` bundle as a real process: one line with the URL, then a clean exit on SIGTERM.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openCrawlFile, readMeta } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import type { ReplyFrame } from '../../shared/ws-protocol.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';

const SERVE = path.join(ROOT, 'out/node/serve.mjs');

function startServe(args: string[]) {
  const child = spawn(process.execPath, [SERVE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const firstLine = new Promise<string>((resolve, reject) => {
    const check = () => {
      const nl = stdout.indexOf('\n');
      if (nl >= 0) resolve(stdout.slice(0, nl));
    };
    child.stdout.on('data', check);
    void done.then((r) => reject(new Error(`serve exited (${r.code}) before printing its URL: ${r.stderr}`)));
  });
  firstLine.catch(() => undefined); // observed only by the tests that wait for it
  return { child, done, firstLine };
}

describe('npm run serve', () => {
  it('prints the URL line, serves with the token only, and exits 0 on SIGTERM', async () => {
    const dir = path.join(tempDir(), 'crawls');
    const serve = startServe(['--port', '0', '--dir', dir]);
    const line = await serve.firstLine;
    expect(line).toMatch(/^Trawl web console: http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    expect(fs.existsSync(dir)).toBe(true);

    const url = line.slice('Trawl web console: '.length);
    expect((await fetch(new URL(url).origin + '/')).status).toBe(403);
    // The page of out/renderer beside the bundle when it is built (the browser tests build it), else a page saying
    // to build it: which one is decided by the folder, so the status is exact either way.
    const index = path.join(ROOT, 'out/renderer/index.html');
    const page = await fetch(url);
    const body = await page.text();
    if (fs.existsSync(index)) {
      expect(page.status).toBe(200);
      expect(body).toBe(fs.readFileSync(index, 'utf8'));
    } else {
      expect(page.status).toBe(503);
      expect(body).toMatch(/^The web console's pages are not built yet: run `npm run build`, then reload\./);
    }
    expect(page.headers.get('set-cookie')).toMatch(/^trawl_token[^=]*=[0-9a-f]{64};/);

    serve.child.kill('SIGTERM');
    const run = await serve.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${line}\n`);
    expect(run.stderr).toBe('');
  });

  it('uses the token given, and exits 0 on SIGINT', async () => {
    const token = 'my-token-of-at-least-32-characters';
    const serve = startServe(['--port', '0', '--dir', tempDir(), '--token', token, '--host', '127.0.0.1']);
    expect(await serve.firstLine).toMatch(new RegExp(`^Trawl web console: http://127\\.0\\.0\\.1:\\d+/\\?token=${token}$`));
    serve.child.kill('SIGINT');
    expect((await serve.done).code).toBe(0);
  });

  it('runs a crawl with the bundled worker, and on SIGTERM stops it gracefully, keeping it resumable', async () => {
    const site = await startFixtureSite({ pages: 60, linksPerPage: 3, delayMs: 50 });
    const dir = tempDir();
    const serve = startServe(['--port', '0', '--dir', dir]);
    try {
      const url = new URL((await serve.firstLine).slice('Trawl web console: '.length));
      const ws = new WebSocket(`ws://${url.host}${WS_PATH}${url.search}`);
      await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
      let crawled = 0;
      const replies = new Map<number, ReplyFrame>();
      ws.on('message', (d) => {
        const frame = JSON.parse(String(d)) as { event?: string; payload?: { counters: { crawled: number } }; id?: number };
        if (frame.event === 'snapshot') crawled = frame.payload!.counters.crawled;
        if (frame.id !== undefined) replies.set(frame.id, frame as ReplyFrame);
      });
      ws.send(JSON.stringify({ id: 1, cmd: 'start', args: [{ seeds: [site.url('/p/0')], threads: 2 }] }));
      while (crawled < 5) await new Promise((r) => setTimeout(r, 20));
      const reply = replies.get(1);
      expect(reply).toMatchObject({ id: 1, ok: true, result: { ok: true, file: expect.stringMatching(/\.trawl$/) } });
      const file = path.join(dir, (reply as { result: { file: string } }).result.file);

      serve.child.kill('SIGTERM');
      const run = await serve.done;
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      const db = openCrawlFile(file, { readonly: true });
      try {
        expect(readMeta(db, 'state')).toBe('finished');
        expect(readMeta(db, 'finish_reason')).toBe('stopped');
        expect((db.prepare('SELECT count(*) AS n FROM urls WHERE state = 0').get() as { n: number }).n).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    } finally {
      serve.child.kill('SIGKILL');
      await site.close();
    }
  });

  it('exits 2 on bad arguments, naming them', async () => {
    const run = await startServe(['--port', 'eighty', '--token', 'has space']).done;
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--port: must be a whole number from 0 to 65535 (got "eighty")');
    expect(run.stderr).toContain('--token: must be');
    const unknown = await startServe(['--verbose']).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--verbose'/);
    const positional = await startServe(['somewhere']).done;
    expect(positional.code).toBe(2);
  });

  it('refuses a --token shorter than 32 characters, naming the rule', async () => {
    for (const token of ['a', 'x'.repeat(31)]) {
      const run = await startServe(['--port', '0', '--dir', tempDir(), '--token', token]).done;
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        `--token: must be at least 32 (at most 512) characters from A-Z a-z 0-9 . _ ~ - (got ${token.length} characters)`,
      );
    }
  });
});
