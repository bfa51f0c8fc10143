// `npm run serve` (the built out/node/serve.mjs) as a real process on a free port, for the browser tests: its
// console URL (with the token) read from its first output, and a stop that waits for it to exit.
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { ROOT } from '../helpers/engine.ts';

export interface ServeProcess {
  child: ChildProcess;
  /** The web console's URL as printed ("Trawl web console: URL"); rejects if the process exits first. */
  url: Promise<string>;
  /** SIGTERM, resolved once it has exited (at once if it already has). */
  stop(): Promise<void>;
}

export function startServe(crawlsDir: string): ServeProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'out/node/serve.mjs'), '--port', '0', '--dir', crawlsDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Trawl web console: (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return {
    child,
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}
