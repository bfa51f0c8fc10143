// `npm run crawl -- <seed URL>...`: the headless front door to the engine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CrawlController } from '../engine/controller/crawl-controller.ts';
import { ChildProcessSpawner } from '../engine/pool/child-process-spawner.ts';
import { exportCsv } from '../engine/export/csv-export.ts';
import { CrawlFileError } from '../engine/frontier/crawl-file.ts';
import { SettingsError, type ParsedSettings } from '../../shared/settings.ts';
import { StoreError, parseStoreUrl, serverLabel } from '../engine/frontier/postgres/pg-connect.ts';
import { createPgCrawl, joinPgCrawl } from '../engine/frontier/postgres/pg-crawl.ts';
import { exportCsvFromStore } from '../engine/export/pg-csv-export.ts';
import { USAGE, UsageError, parseCli, type CliRequest } from './args.ts';
import { runStoreCommand } from './store-command.ts';
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

  // Without --db (or --store) the crawl lives in a temporary folder that is removed at exit.
  let tempDir: string | null = null;
  const dbPath = request.store ? '' : (request.resume ?? request.db ?? path.join((tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-'))), 'crawl.trawl'));
  const cleanup = () => tempDir && fs.rmSync(tempDir, { recursive: true, force: true });

  let controller: CrawlController;
  let crawlId: string | null = null;
  try {
    const options = { dbPath, spawner: new ChildProcessSpawner() };
    if (request.store) {
      ({ controller, crawlId } = await openStoreCrawl(request, options));
    } else {
      controller =
        // A new crawl's settings were parsed by parseCli (args.ts), typed there as the input they came from.
        request.mode === 'resume' ? CrawlController.resume(options, request.settings) : CrawlController.create(request.settings as ParsedSettings, options);
    }
  } catch (err) {
    cleanup();
    if (err instanceof SettingsError || err instanceof CrawlFileError || err instanceof StoreError) {
      process.stderr.write(`trawl: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }

  const live = process.stderr.isTTY && !request.quiet;
  const draw = (line: string) => process.stderr.write(`\r\x1b[2K${line}`);
  if (live) controller.on('snapshot', (s) => s.state !== 'finished' && draw(progressLine(s)));
  controller.on('store', ({ error }) => {
    if (live) process.stderr.write('\r\x1b[2K');
    process.stderr.write(error ? `trawl: the store is unreachable (${error}); waiting for it, nothing is lost\n` : 'trawl: the store is back; continuing\n');
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
  if (request.mode === 'resume') {
    process.stderr.write(`Resuming ${dbPath}: ${before.crawled + before.failed} URLs done, ${before.queued} queued\n`);
  }
  controller.start();
  const info = await controller.done;
  if (live) process.stderr.write('\r\x1b[2K');
  process.stdout.write(`${summaryLine(info.snapshot, before.crawled + before.failed)}\n`);

  let code: number = info.reason === 'failed' ? EXIT.failed : interrupted ? EXIT.interrupted : EXIT.finished;
  if (request.out) {
    try {
      const { rows } = request.store ? await exportCsvFromStore(request.store.url, crawlId!, request.out) : await exportCsv(dbPath, request.out);
      process.stdout.write(`CSV: ${request.out} (${rows} rows)\n`);
    } catch (err) {
      process.stderr.write(`trawl: could not write ${request.out}: ${(err as Error).message}\n`);
      code = EXIT.failed;
    }
  }
  if (tempDir) cleanup();
  else if (request.store) {
    process.stdout.write(`Crawl: ${crawlId} in ${serverLabel(request.store.url)}\n`);
  } else {
    process.stdout.write(`Crawl file: ${dbPath}${info.snapshot.counters.queued > 0 ? ` (continue with --resume ${dbPath})` : ''}\n`);
  }
  return code;
}

/** A new crawl in the --store, or one more node on one (--join): the controller over the shared store. */
async function openStoreCrawl(request: CliRequest, options: { spawner: ChildProcessSpawner }): Promise<{ controller: CrawlController; crawlId: string }> {
  const store = request.store!;
  if (request.mode === 'join') {
    const node = await joinPgCrawl(store.url, store.join!, { name: store.nodeName });
    process.stderr.write(`Joined crawl ${node.crawlId} in ${serverLabel(store.url)} as node ${node.store.cluster.nodeName}\n`);
    return { controller: CrawlController.withStore(node.store, node.settings, options, node.store.recoverLeases()), crawlId: node.crawlId };
  }
  const node = await createPgCrawl(store.url, request.settings, { name: store.nodeName, leaseMs: store.leaseMs });
  process.stderr.write(
    `Crawl ${node.crawlId} in ${serverLabel(store.url)}, node ${node.store.cluster.nodeName}. More nodes: npm run crawl -- --store URL --join ${node.crawlId}\n`,
  );
  return { controller: CrawlController.withStore(node.store, node.settings, options, node.store.addSeeds(node.settings.seeds)), crawlId: node.crawlId };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`trawl: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(EXIT.failed);
  },
);
