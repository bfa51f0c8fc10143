// The web console (the built `npm run serve`, as a real process) against a client that floods commands and never
// reads a reply: the server's memory stays bounded, it closes that socket, and a normal client is served meanwhile.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { connect } from '../helpers/ws-client.ts';
import type { WsClient } from '../helpers/ws-client.ts';

const SERVE = path.join(ROOT, 'out/node/serve.mjs');
const FRAMES = 200_000;

/** Resident memory of a process, from /proc (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
}

const tick = () => new Promise((r) => setImmediate(r));

describe.skipIf(!fs.existsSync('/proc/self/status'))('web console under a flood of unread commands', () => {
  const child = spawn(process.execPath, [SERVE, '--port', '0', '--dir', tempDir()], { stdio: ['ignore', 'pipe', 'inherit'] });
  let wsUrl: string;
  let normal: WsClient;

  beforeAll(async () => {
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /Trawl web console: (\S+)/.exec(out);
        if (m) resolve(new URL(m[1]!));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    wsUrl = `ws://${url.host}${WS_PATH}${url.search}`;
    normal = await connect(wsUrl);
  });

  afterAll(async () => {
    normal?.close();
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('keeps the server bounded and closes the socket of a client that never reads, serving a normal client meanwhile', async () => {
    // Warm up: the commands the flood sends have all run once, so their code and caches are already in memory.
    for (let i = 0; i < 50; i++) await normal.ok('defaults');
    await normal.ok('listCrawls');
    const before = rssMiB(child.pid!);

    const flooder = new WebSocket(wsUrl);
    flooder.on('error', () => undefined); // the server cutting it off shows as a reset on the client's side
    await new Promise((resolve, reject) => (flooder.once('open', resolve), flooder.once('error', reject)));
    const closed = new Promise<number>((resolve) => flooder.once('close', (code) => resolve(code)));
    // It never reads: the socket is paused, so replies pile up on the server's side (or are refused there).
    (flooder as unknown as { _socket: import('node:net').Socket })._socket.pause();

    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid!))), 25);
    const answered: unknown[] = [];
    let sentCount = 0;
    try {
      for (let i = 1; i <= FRAMES; i++) {
        if (flooder.readyState !== WebSocket.OPEN) break;
        flooder.send(JSON.stringify({ id: i, cmd: 'defaults', args: [] }));
        sentCount = i;
        if (i % 2_000 === 0) {
          await tick();
          // A normal client, meanwhile, gets its answers.
          if (i % 20_000 === 0) answered.push(await normal.ok('listCrawls'));
        }
      }
      // Let the server read what is still on its way.
      for (let i = 0; i < 40; i++) {
        answered.push(await normal.ok('defaults'));
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      clearInterval(sampler);
    }
    const after = rssMiB(child.pid!);
    console.log(
      `serve RSS: ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB, ${after.toFixed(0)} MiB after ${sentCount} frames`,
    );
    expect(answered.length).toBeGreaterThanOrEqual(40);

    // The server closed the flooding socket: once the client reads again it sees the close (a policy violation,
    // or the connection cut outright), not 200,000 replies.
    (flooder as unknown as { _socket: import('node:net').Socket })._socket.resume();
    const code = await Promise.race([closed, new Promise<'open'>((r) => setTimeout(() => r('open'), 20_000))]);
    flooder.terminate();
    expect(code).not.toBe('open');
    expect([1006, 1008]).toContain(code);
    expect(peak - before).toBeLessThan(96);

    // And the normal client is still served.
    expect(await normal.ok<unknown[]>('listCrawls')).toEqual([]);
  });
});
