// `npm run crawl -- <seed URL>...`: the headless front door to the engine.
import { CrawlFileError, openCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';
import { sitemapLine, writeSitemap } from '../engine/sitemaps/write-sitemap.ts';
import { SettingsError } from '../../shared/settings.ts';
import { StoreError, parseStoreUrl, redactStoreUrls } from '../engine/frontier/postgres/pg-store-url.ts';
import { USAGE, UsageError, parseCli, type TabExports } from './args.ts';
import { openClusterRun, openLocalRun, type CrawlRun } from './crawl-runs.ts';
import { exportStoreSitemap, exportStoreTabs, runStoreCommand } from './store-command.ts';
import { ChromiumNotFoundError } from '../engine/render/find-chromium.ts';
import { exportFormatOf } from '../engine/export/export-format.ts';
import { progressLine, summaryLine } from './progress.ts';
import { crawlFileFinished, prepareOutputFolder, tabList, writeTabExports } from './tab-exports.ts';
import { exportCsv } from '../engine/export/csv-export.ts';

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
  if (request.help || request.listTabs) {
    process.stdout.write(`${request.help ? USAGE : tabList()}\n`);
    return EXIT.finished;
  }
  const exports = request.exports;
  // Made before any crawl, so a bad folder is said at once; a crawl of the store exported without crawling (--crawl)
  // makes it once the crawl is known to exist (store-command.ts).
  const folderProblem = exports && request.mode !== 'control' && prepareOutputFolder(exports.folder);
  if (folderProblem) {
    process.stderr.write(`trawl: ${folderProblem}\n`);
    return EXIT.usage;
  }

  // A finished crawl file resumed to export tabs or reports: nothing left to crawl, so no worker is started and nothing
  // fetched (--out alone resumes as it always did: the crawl finds nothing to do, then exports).
  if (request.mode === 'resume' && (exports || request.sitemapOut !== null)) {
    let finished: boolean;
    try {
      finished = crawlFileFinished(request.resume!);
    } catch (err) {
      if (!(err instanceof CrawlFileError)) throw err;
      process.stderr.write(`trawl: ${err.message}\n`);
      return EXIT.usage;
    }
    if (finished) {
      process.stdout.write(`Finished crawl ${request.resume}: exporting it, nothing crawled\n`);
      return (await writeExports(request.resume!, request.out, exports, request.sitemapOut)) ? EXIT.finished : EXIT.failed;
    }
  }

  if (request.store) {
    try {
      parseStoreUrl(request.store.url);
      if (request.mode === 'control')
        return (await runStoreCommand(request.store, request.out, exports, request.sitemapOut)) ? EXIT.finished : EXIT.failed;
    } catch (err) {
      if (err instanceof StoreError || err instanceof UsageError) {
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
  if ((exports || request.sitemapOut !== null) && run.file !== null && !(await writeExports(run.file, null, exports, request.sitemapOut)))
    code = EXIT.failed;
  // A crawl in the store: its tabs, reports, pictures' data and sitemap, as they are once this node is done.
  if (exports && run.crawlId !== null && request.store && !(await exportStoreTabs(request.store.url, run.crawlId, exports)))
    code = EXIT.failed;
  if (
    request.sitemapOut !== null &&
    run.crawlId !== null &&
    request.store &&
    !(await exportStoreSitemap(request.store.url, run.crawlId, request.sitemapOut))
  )
    code = EXIT.failed;
  const endLine = run.end(info.snapshot);
  if (endLine) process.stdout.write(`${endLine}\n`);
  return code;
}

/**
 * --out, --export-tabs, --bulk-export and --sitemap-out from a crawl file; false (having said why) when one could not be
 * written.
 */
async function writeExports(file: string, out: string | null, exports: TabExports | null, sitemapOut: string | null): Promise<boolean> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (out) {
      const { rows } = await exportCsv(file, out, { format: exportFormatOf(out) });
      say(`${exportFormatOf(out).toUpperCase()}: ${out} (${rows} rows)`);
    }
    if (exports) await writeTabExports(file, exports, say);
    if (sitemapOut !== null) {
      const db = openCrawlFile(file, { readonly: true });
      try {
        say(sitemapLine(await writeSitemap(db, sitemapOut)));
      } finally {
        db.close();
      }
    }
    return true;
  } catch (err) {
    process.stderr.write(`trawl: could not export: ${(err as Error).message}\n`);
    return false;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`trawl: ${redactStoreUrls(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    process.exit(EXIT.failed);
  },
);
