// The two ways `npm run crawl` runs a crawl, behind one shape: in a crawl file (--db, --resume, or a temporary file
// removed at exit) or as a node of a crawl in a PostgreSQL store (--store, new or --join). crawl.ts runs either the
// same way: start, report progress, export the CSV, say where the crawl is kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CrawlSnapshot } from '../../shared/snapshot.ts';
import { CrawlController } from '../engine/controller/crawl-controller.ts';
import { exportCsv } from '../engine/export/csv-export.ts';
import { exportCsvFromStore } from '../engine/export/pg-csv-export.ts';
import { exportFormatOf } from '../engine/export/export-format.ts';
import { serverLabel } from '../engine/frontier/postgres/pg-store-url.ts';
import { createPgCrawl, joinPgCrawl } from '../engine/frontier/postgres/pg-crawl.ts';
import { ChildProcessSpawner } from '../engine/pool/child-process-spawner.ts';
import { CLUSTER_KEY_ENV } from '../engine/secrets/cluster-key.ts';
import { findChromium } from '../engine/render/find-chromium.ts';
import { systemRenderer } from '../engine/render/system-renderer.ts';
import type { CliRequest } from './args.ts';

export interface CrawlRun {
  controller: CrawlController;
  /** The crawl file (read by --export-tabs and --bulk-export), or null for a crawl in a PostgreSQL store. */
  file: string | null;
  /** The crawl's ID in the PostgreSQL store (read by --export-tabs), or null for a crawl file. */
  crawlId: string | null;
  /** Said before the crawl starts, or null. */
  startLine(counters: CrawlSnapshot['counters']): string | null;
  /** The crawl's results to the file `out`: XLSX when its name ends in .xlsx, else CSV. */
  exportCsv(out: string): Promise<{ rows: number }>;
  /** Once done: removes a temporary crawl file, or says where the crawl is kept (and how to go on). */
  end(last: CrawlSnapshot): string | null;
}

/** A crawl in a crawl file: --resume's, --db's, or a temporary one (removed at exit, and when this fails). */
export function openLocalRun(request: CliRequest): CrawlRun {
  let tempDir: string | null = null;
  const dbPath = request.resume ?? request.db ?? path.join((tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-'))), 'crawl.trawl');
  const cleanup = () => tempDir && fs.rmSync(tempDir, { recursive: true, force: true });
  let controller: CrawlController;
  try {
    const options = { dbPath, spawner: new ChildProcessSpawner(), renderer: systemRenderer(request.chromium) };
    // A crawl that renders needs a browser: said before its file is made (a resumed crawl's settings say it later).
    if (request.mode === 'new' && request.settings.render) findChromium({ explicit: request.chromium });
    if (request.mode === 'new') controller = CrawlController.create(request.settings, { ...options, sitemapFiles: request.sitemapFiles });
    else if (request.mode === 'resume') controller = CrawlController.resume(options, request.settings);
    else throw new Error(`a crawl file is for a new or a resumed crawl, not "${request.mode}"`);
  } catch (err) {
    cleanup();
    throw err;
  }
  return {
    controller,
    file: dbPath,
    crawlId: null,
    startLine: (before) =>
      request.mode === 'resume' ? `Resuming ${dbPath}: ${before.crawled + before.failed} URLs done, ${before.queued} queued` : null,
    exportCsv: (out) => exportCsv(dbPath, out, { format: exportFormatOf(out) }),
    end(last) {
      if (tempDir) {
        cleanup();
        return null;
      }
      return `Crawl file: ${dbPath}${last.counters.queued > 0 ? ` (continue with --resume ${dbPath})` : ''}`;
    },
  };
}

/** A new crawl in the --store, or one more node on one (--join): the controller over the shared store. */
export async function openClusterRun(request: CliRequest): Promise<CrawlRun> {
  const store = request.store!;
  const options = { dbPath: '', spawner: new ChildProcessSpawner(), renderer: systemRenderer(request.chromium) };
  // Seals and opens the crawl's credentials in the store; from the environment, never the command line (ps shows it).
  const clusterKey = process.env[CLUSTER_KEY_ENV] ?? null;
  let controller: CrawlController;
  let crawlId: string;
  if (request.mode === 'join') {
    const node = await joinPgCrawl(store.url, store.join!, { name: store.nodeName, clusterKey });
    process.stderr.write(`Joined crawl ${node.crawlId} in ${serverLabel(store.url)} as node ${node.store.cluster.nodeName}\n`);
    controller = CrawlController.withStore(node.store, node.settings, options, node.store.recoverLeases());
    crawlId = node.crawlId;
  } else if (request.mode === 'new') {
    const node = await createPgCrawl(store.url, request.settings, { name: store.nodeName, leaseMs: store.leaseMs, clusterKey });
    process.stderr.write(
      `Crawl ${node.crawlId} in ${serverLabel(store.url)}, node ${node.store.cluster.nodeName}. More nodes: npm run crawl -- --store URL --join ${node.crawlId}\n`,
    );
    controller = CrawlController.withStore(node.store, node.settings, options, node.store.addSeeds(node.settings.seeds));
    crawlId = node.crawlId;
  } else {
    throw new Error(`a crawl in the store is created or joined, not "${request.mode}"`);
  }
  return {
    controller,
    file: null,
    crawlId,
    startLine: () => null,
    exportCsv: (out) => exportCsvFromStore(store.url, crawlId, out, { format: exportFormatOf(out) }),
    end: () => `Crawl: ${crawlId} in ${serverLabel(store.url)}`,
  };
}
