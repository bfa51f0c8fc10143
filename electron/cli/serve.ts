// `npm run serve -- [--port 8420] [--host 127.0.0.1] [--dir DIR] [--token TOKEN]`: the web console, the desktop
// app's UI in a browser, driving crawls on this machine. Prints one line, the URL to open (with its token).
import { systemRenderer } from '../engine/render/system-renderer.ts';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ChildProcessSpawner } from '../engine/pool/child-process-spawner.ts';
import { CrawlSession } from '../engine/session/crawl-session.ts';
import { TOKEN_PATTERN, TOKEN_RULE, startWebConsole } from '../server/web-console.ts';
import { redactStoreUrls } from '../engine/frontier/postgres/pg-store-url.ts';

export const SERVE_USAGE = `Usage: npm run serve -- [--port N] [--host ADDRESS] [--dir DIR] [--token TOKEN]

Serves the Trawl web console: open the printed URL (it carries the access token) in a browser.

Options (defaults in brackets):
  --port N         TCP port, 0 for any free one [8420]
  --host ADDRESS   address to listen on; anything but 127.0.0.1 exposes the console to the network [127.0.0.1]
  --dir DIR        folder of the crawl files (.trawl) [./crawls]
  --token TOKEN    access token, at least 32 letters, digits and . _ ~ - [32 random bytes, in hex]
  -h, --help       this help`;

const EXIT = { ok: 0, failed: 1, usage: 2, forced: 130 } as const;

class UsageError extends Error {}

interface ServeRequest {
  port: number;
  host: string;
  dir: string;
  token: string | undefined;
  help: boolean;
}

function parseServeArgs(argv: string[]): ServeRequest {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        dir: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const v = parsed.values;
  const problems: string[] = [];
  const portText = v.port ?? '8420';
  const port = /^\d{1,5}$/.test(portText.trim()) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) problems.push(`--port: must be a whole number from 0 to 65535 (got "${portText}")`);
  const host = v.host ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:%-]+$/.test(host)) problems.push(`--host: "${host}" is not a host name or IP address`);
  const dir = v.dir ?? 'crawls';
  if (dir.trim() === '') problems.push('--dir: must not be empty');
  if (v.token !== undefined && !TOKEN_PATTERN.test(v.token))
    problems.push(`--token: must be ${TOKEN_RULE} (got ${v.token.length} characters)`);
  if (problems.length) throw new UsageError(problems.join('\n'));
  return { port, host, dir: path.resolve(dir), token: v.token, help: v.help ?? false };
}

/** The built renderer: out/renderer beside the bundle's out/node (or the project's, when run from source). */
function staticDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundled = fs.existsSync(path.join(here, 'worker.mjs'));
  return bundled ? path.resolve(here, '../renderer') : path.resolve(here, '../../out/renderer');
}

async function main(argv: string[]): Promise<number> {
  let request: ServeRequest;
  try {
    request = parseServeArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`trawl serve: ${err.message}\n\nRun with --help for the options.\n`);
      return EXIT.usage;
    }
    throw err;
  }
  if (request.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return EXIT.ok;
  }

  let session: CrawlSession;
  try {
    session = new CrawlSession({ crawlsDir: request.dir, spawner: new ChildProcessSpawner(), renderer: systemRenderer() });
  } catch (err) {
    process.stderr.write(`trawl serve: cannot use ${request.dir} for the crawl files: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  let server;
  try {
    server = await startWebConsole({ host: request.host, port: request.port, token: request.token, session, staticDir: staticDir() });
  } catch (err) {
    await session.close();
    process.stderr.write(`trawl serve: cannot listen on ${request.host}:${request.port}: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
  const console_ = server;
  const done = new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = () => {
      if (stopping) {
        process.stderr.write('trawl serve: quitting now\n');
        process.exit(EXIT.forced);
      }
      stopping = true;
      // Stop the server first (no new commands), then let a running crawl finish its URLs in hand.
      void (async () => {
        let code: number = EXIT.ok;
        try {
          await console_.close();
          await session.close();
        } catch (err) {
          process.stderr.write(`trawl serve: ${(err as Error).message}\n`);
          code = EXIT.failed;
        }
        resolve(code);
      })();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  // Only now say where we are: whoever reads this line may signal us at once, and the handlers are in place.
  process.stdout.write(`Trawl web console: ${server.url}\n`);
  return done;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`trawl serve: ${redactStoreUrls(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    process.exit(EXIT.failed);
  },
);
