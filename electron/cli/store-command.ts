// `npm run crawl -- --store URL --crawl ID --control pause|resume|stop|status | --set-threads N | --out FILE.csv|FILE.xlsx`:
// one command to a crawl in the PostgreSQL store, from any machine that reaches it; every node obeys at once.
import { connect } from '../engine/frontier/postgres/pg-client.ts';
import { serverLabel } from '../engine/frontier/postgres/pg-store-url.ts';
import { commandCluster, readClusterSnapshot } from '../engine/frontier/postgres/pg-control.ts';
import { exportCsvFromStore } from '../engine/export/pg-csv-export.ts';
import { exportFormatOf } from '../engine/export/export-format.ts';
import type { StoreRequest } from './args.ts';
import { formatDuration } from './progress.ts';

/** Runs the command and prints what it did; false when it could not be done. */
export async function runStoreCommand(store: StoreRequest, out: string | null): Promise<boolean> {
  const crawlId = store.crawl!;
  const client = await connect(store.url);
  try {
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
  return true;
}
