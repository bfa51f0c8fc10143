// `npm run crawl -- --store URL --crawl ID --control pause|resume|stop|status | --set-threads N | --out FILE.csv|FILE.xlsx
// | --export-tabs TAB,... --bulk-export REPORT,... [--output-folder DIR]`: one command to a crawl in the PostgreSQL store, from any machine that
// reaches it; every node obeys at once. Its exports read the store as it is, whether the crawl runs or not.
import { connect } from '../engine/frontier/postgres/pg-client.ts';
import { serverLabel } from '../engine/frontier/postgres/pg-store-url.ts';
import { commandCluster, readClusterSnapshot, readCrawl } from '../engine/frontier/postgres/pg-control.ts';
import { exportCsvFromStore } from '../engine/export/pg-csv-export.ts';
import { exportFormatOf } from '../engine/export/export-format.ts';
import { UsageError, type StoreRequest, type TabExports } from './args.ts';
import { formatDuration } from './progress.ts';
import { prepareOutputFolder, writeStoreTabExports } from './tab-exports.ts';
import { writeStoreSitemap } from '../engine/sitemaps/pg-sitemap.ts';
import { sitemapLine } from '../engine/sitemaps/write-sitemap.ts';

/**
 * Runs the command and prints what it did; false when it could not be done. An unknown crawl (a StoreError) or an output
 * folder that cannot be made (a UsageError) is said before anything is done or written.
 */
export async function runStoreCommand(
  store: StoreRequest,
  out: string | null,
  exports: TabExports | null,
  sitemapOut: string | null,
): Promise<boolean> {
  const crawlId = store.crawl!;
  const client = await connect(store.url);
  try {
    await readCrawl(client, crawlId);
    // Made once the crawl is known to be there (crawl.ts leaves it to this), so a mistaken ID leaves no folder behind.
    const folderProblem = exports && prepareOutputFolder(exports.folder);
    if (folderProblem) throw new UsageError(folderProblem);
    if (store.control === 'pause' || store.control === 'resume' || store.control === 'stop') {
      const state = store.control === 'pause' ? 'paused' : store.control === 'resume' ? 'running' : 'stopped';
      await commandCluster(client, crawlId, { state });
      process.stdout.write(`Crawl ${crawlId}: told every node to ${store.control}\n`);
    }
    if (store.setThreads !== null) {
      await commandCluster(client, crawlId, { threads: store.setThreads });
      process.stdout.write(`Crawl ${crawlId}: ${store.setThreads} threads over the cluster\n`);
    }
    if (store.control === 'status' || store.control === null) {
      const s = await readClusterSnapshot(client, crawlId, serverLabel(store.url));
      if (store.control === 'status') {
        const c = s.counters;
        process.stdout.write(
          `Crawl ${crawlId} in ${serverLabel(store.url)}: ${s.state}${s.reason ? ` (${s.reason})` : ''}, ${c.crawled} crawled, ${c.failed} failed, ` +
            `${c.queued} queued, ${c.inFlight} in flight, ${s.threadTarget} threads, ${formatDuration(c.elapsedMs)}\n`,
        );
        for (const n of s.nodes ?? []) {
          process.stdout.write(
            `  ${n.live ? '●' : '○'} ${n.name} (${n.hostname}, pid ${n.pid}): ${n.state}, ${n.threads} threads, ${n.pagesDone} URLs\n`,
          );
        }
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  if (out) {
    const format = exportFormatOf(out);
    const { rows } = await exportCsvFromStore(store.url, crawlId, out, { format });
    process.stdout.write(`${format.toUpperCase()}: ${out} (${rows} rows)\n`);
  }
  return (
    (!exports || (await exportStoreTabs(store.url, crawlId, exports))) &&
    (sitemapOut === null || (await exportStoreSitemap(store.url, crawlId, sitemapOut)))
  );
}

/** --sitemap-out of a crawl in the store, as of a crawl file; false (having said why) when it could not be written. */
export async function exportStoreSitemap(storeUrl: string, crawlId: string, sitemapOut: string): Promise<boolean> {
  try {
    process.stdout.write(`${sitemapLine(await writeStoreSitemap(storeUrl, crawlId, sitemapOut))}\n`);
    return true;
  } catch (err) {
    process.stderr.write(`trawl: could not write ${sitemapOut}: ${(err as Error).message}\n`);
    return false;
  }
}

/** --export-tabs and --bulk-export from crawl `crawlId` of the store: one line each; false (having said why) when one could not be written. */
export async function exportStoreTabs(storeUrl: string, crawlId: string, exports: TabExports): Promise<boolean> {
  try {
    await writeStoreTabExports(storeUrl, crawlId, exports, (line) => process.stdout.write(`${line}\n`));
    return true;
  } catch (err) {
    process.stderr.write(`trawl: could not export: ${(err as Error).message}\n`);
    return false;
  }
}
