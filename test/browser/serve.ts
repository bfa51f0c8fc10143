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

/** `port` 0 (the default) picks a free one; a console restarted on the port it had takes it again. */
export function startServe(crawlsDir: string, port = 0): ServeProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'out/node/serve.mjs'), '--port', String(port), '--dir', crawlsDir], {
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
      // A process killed by a signal has no exit code but a signal code: it has exited all the same.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}
