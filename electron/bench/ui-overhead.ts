// The same crawl with a live UI attached: the web console (`npm run serve`'s bundle) runs it, and one WebSocket
// client receives every snapshot as the browser would. Compared with the headless CLI by the controller's own
// elapsed time, so process start-up counts for neither.
import { spawn } from 'node:child_process';
import path from 'node:path';
import WebSocket from 'ws';
import type { CrawlSnapshot } from '../../shared/snapshot.ts';
import type { ServerFrame } from '../../shared/ws-protocol.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { HEAP_FLAGS } from '../../scripts/v8-flags.mjs';

export interface UiRun {
  elapsedMs: number;
  urls: number;
  snapshotsReceived: number;
}

export async function crawlWithUi(root: string, seed: string, threads: number, crawlsDir: string): Promise<UiRun> {
  const server = spawn(process.execPath, [...HEAP_FLAGS, path.join(root, 'out/node/serve.mjs'), '--port', '0', '--dir', crawlsDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const pageUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (d) => {
        out += d;
        const m = /Trawl web console: (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      server.once('exit', (code) => reject(new Error(`the web console exited with ${code}`)));
    });
    const u = new URL(pageUrl);
    const ws = new WebSocket(`ws://${u.host}${WS_PATH}?token=${u.searchParams.get('token')}`);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    let snapshots = 0;
    const finished = new Promise<CrawlSnapshot>((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as ServerFrame;
        if ('event' in frame && frame.event === 'snapshot') {
          snapshots++;
          if (frame.payload.state === 'finished') resolve(frame.payload);
        }
      });
    });
    ws.send(JSON.stringify({ id: 1, cmd: 'start', args: [{ seeds: [seed], threads }] }));
    const last = await finished;
    ws.close();
    return { elapsedMs: last.counters.elapsedMs, urls: last.counters.crawled + last.counters.failed, snapshotsReceived: snapshots };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
  }
}
