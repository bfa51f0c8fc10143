// `npm run crawl -- <seed URL>...`: the headless front door to the engine.
import { CrawlFileError } from '../engine/frontier/sqlite/crawl-file.ts';
import { SettingsError } from '../../shared/settings.ts';
import { StoreError, parseStoreUrl, redactStoreUrls } from '../engine/frontier/postgres/pg-store-url.ts';
import { USAGE, UsageError, parseCli } from './args.ts';
import { openClusterRun, openLocalRun, type CrawlRun } from './crawl-runs.ts';
import { runStoreCommand } from './store-command.ts';
import { ChromiumNotFoundError } from '../engine/render/find-chromium.ts';
import { exportFormatOf } from '../engine/export/export-format.ts';
import { progressLine, summaryLine } from './progress.ts';

const EXIT = { finished: 0, failed: 1, usage: 2, interrupted: 130 } as const;

async function main(argv: string[]): Promise<number> {
  let request;
  try {
    request = parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`trawl: ${err.message}\n\nRun with --help for the options.\n`);
      return EXIT.usage;
    }
    throw err;
  }
  if (request.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.finished;
  }

  if (request.store) {
    try {
      parseStoreUrl(request.store.url);
      if (request.mode === 'control') return (await runStoreCommand(request.store, request.out)) ? EXIT.finished : EXIT.failed;
    } catch (err) {
      if (err instanceof StoreError) {
        process.stderr.write(`trawl: ${err.message}\n`);
        return EXIT.usage;
      }
      throw err;
    }
  }

  let run: CrawlRun;
  try {
    run = request.store ? await openClusterRun(request) : openLocalRun(request);
  } catch (err) {
    if (
      err instanceof SettingsError ||
      err instanceof CrawlFileError ||
      err instanceof StoreError ||
      err instanceof ChromiumNotFoundError
    ) {
      process.stderr.write(`trawl: ${err instanceof ChromiumNotFoundError ? `--render needs a Chromium: ${err.message}` : err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
  const { controller } = run;

  const live = process.stderr.isTTY && !request.quiet;
  const draw = (line: string) => process.stderr.write(`\r\x1b[2K${line}`);
  if (live) controller.on('snapshot', (s) => s.state !== 'finished' && draw(progressLine(s)));
  controller.on('store', ({ error }) => {
    if (live) process.stderr.write('\r\x1b[2K');
    process.stderr.write(
      error ? `trawl: the store is unreachable (${error}); waiting for it, nothing is lost\n` : 'trawl: the store is back; continuing\n',
    );
  });
  controller.on('workerDied', (d) => {
    if (live) process.stderr.write('\r\x1b[2K');
    process.stderr.write(`trawl: ${d.worker} ${d.reason}; ${d.requeued} URL(s) queued again, ${d.failed} recorded as crashed\n`);
  });

  let interrupted = false;
  const onSignal = () => {
    if (interrupted) {
      process.stderr.write('\ntrawl: stopping now\n');
      process.exit(EXIT.interrupted);
    }
    interrupted = true;
    process.stderr.write('\ntrawl: stopping after the URLs in hand (Ctrl-C again to quit at once)\n');
    // In a cluster this node leaves (its URLs go back to the queue at once); the other nodes go on.
    void controller.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const before = controller.snapshot().counters;
  const startLine = run.startLine(before);
  if (startLine) process.stderr.write(`${startLine}\n`);
  controller.start();
  const info = await controller.done;
  if (live) process.stderr.write('\r\x1b[2K');
  process.stdout.write(`${summaryLine(info.snapshot, before.crawled + before.failed)}\n`);

  let code: number = info.reason === 'failed' ? EXIT.failed : interrupted ? EXIT.interrupted : EXIT.finished;
  if (request.out) {
    try {
      const { rows } = await run.exportCsv(request.out);
      process.stdout.write(`${exportFormatOf(request.out).toUpperCase()}: ${request.out} (${rows} rows)\n`);
    } catch (err) {
      process.stderr.write(`trawl: could not write ${request.out}: ${(err as Error).message}\n`);
      code = EXIT.failed;
    }
  }
  const endLine = run.end(info.snapshot);
  if (endLine) process.stdout.write(`${endLine}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`trawl: ${redactStoreUrls(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    process.exit(EXIT.failed);
  },
);
