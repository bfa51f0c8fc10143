// --list-tabs, --export-tabs and --bulk-export: the explorer's tabs and the bulk reports of a crawl file, one file
// each in the output folder, as Screaming Frog's command line writes them; a crawl in the PostgreSQL store's tabs,
// bulk reports and pictures' data too (issue 19). A tab is written as the explorer's "Export this view" writes it (the crawl's CrawlViews exportView, every
// column), so the two never differ, whichever store holds the crawl.
import fs from 'node:fs';
import path from 'node:path';
import { BULK_REPORTS, exportTabs, PICTURE_DATA, type PictureDataId } from '../../shared/bulk-reports.ts';
import { type CrawlMap, crawlMapCsv, DEFAULT_CRAWL_MAP_NODES, depthSpreadCsv } from '../../shared/crawl-map.ts';
import { openCrawlFile, readMeta } from '../engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../engine/frontier/model.ts';
import { CrawlAnalysis } from '../engine/session/crawl-analysis.ts';
import { ClusterResults } from '../engine/session/cluster-results.ts';
import { type CrawlViews, fileViews } from '../engine/session/crawl-views.ts';
import type { TabExports } from './args.ts';

/** What --list-tabs prints: each tab and bulk report, its id then its name. */
export function tabList(): string {
  const ids = [...exportTabs().map((t) => t.id), ...BULK_REPORTS.map((r) => r.id), ...PICTURE_DATA.map((p) => p.id)];
  const width = Math.max(...ids.map((id) => id.length)) + 2;
  const line = (id: string, name: string) => `  ${id.padEnd(width)}${name}`;
  return [
    'Tabs (--export-tabs ID or NAME, comma-separated):',
    ...exportTabs().map((t) => line(t.id, t.name)),
    '',
    'Bulk reports (--bulk-export ID or NAME, comma-separated):',
    ...BULK_REPORTS.map((r) => line(r.id, r.label)),
    '',
    "Pictures' data (--bulk-export ID or NAME, always CSV):",
    ...PICTURE_DATA.map((p) => line(p.id, p.label)),
  ].join('\n');
}

/** Makes the output folder (before any crawl, so a bad folder is said at once); a message when it cannot be. */
export function prepareOutputFolder(folder: string): string | null {
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.accessSync(folder, fs.constants.W_OK);
    return null;
  } catch (err) {
    return `--output-folder ${folder}: cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}

/** Whether a crawl file's crawl is over: finished, nothing queued or in hand. Then --resume exports without crawling. */
export function crawlFileFinished(file: string): boolean {
  const db = openCrawlFile(file, { readonly: true });
  try {
    if (readMeta(db, 'state') !== 'finished') return false;
    const open = db.prepare('SELECT EXISTS (SELECT 1 FROM urls WHERE state IN (?, ?)) AS yes').get(UrlState.queued, UrlState.claimed) as {
      yes: number;
    };
    return open.yes === 0;
  } finally {
    db.close();
  }
}

/**
 * Writes each tab, report and picture's data asked for from a crawl file to `<folder>/<id>.<format>`; one line each, as
 * --out's.
 */
export async function writeTabExports(file: string, plan: TabExports, say: (line: string) => void): Promise<void> {
  const analysis = CrawlAnalysis.open(file);
  try {
    // The content tabs' threshold, pages and word count (issue 18.1), for this file's analysis and its exports.
    analysis.setContentOptions(plan.content);
    await writeTabs(
      fileViews(() => analysis),
      plan,
      say,
    );
  } finally {
    analysis.close();
  }
}

/**
 * Writes each tab and bulk report asked for from a crawl in the PostgreSQL store, as writeTabExports does from a crawl
 * file, with the pictures' data. An unknown crawl is a
 * StoreError before anything is written.
 */
export async function writeStoreTabExports(
  storeUrl: string,
  crawlId: string,
  plan: TabExports,
  say: (line: string) => void,
): Promise<void> {
  const views = new ClusterResults(storeUrl, crawlId);
  try {
    // The content tabs' threshold, pages and word count (issue 18.1), for this crawl's analysis and its exports.
    await views.contentOptions(plan.content);
    await writeTabs(views, plan, say);
  } finally {
    await views.close();
  }
}

/**
 * Each tab of `plan` (every column it has) and each bulk report from the crawl's views, to `<folder>/<id>.<format>`;
 * one line each.
 */
async function writeTabs(views: CrawlViews, plan: TabExports, say: (line: string) => void): Promise<void> {
  const label = plan.format.toUpperCase();
  for (const filter of plan.tabs) {
    const out = path.join(plan.folder, `${filter}.${plan.format}`);
    const columns = await views.exportColumns(filter);
    const { rows } = await views.exportView({ filter, text: '', columns, headerPreset: 'trawl', format: plan.format }, out);
    say(`${label}: ${out} (${rows} rows)`);
  }
  for (const report of plan.reports) {
    const out = path.join(plan.folder, `${report}.${plan.format}`);
    const { rows } = await views.exportBulkReport(report, out, plan.format);
    say(`${label}: ${out} (${rows} rows)`);
  }
  // The site structure's data, as the app saves it (always CSV), through `<out>.part` as the other exports.
  if (plan.pictures.includes('site-structure')) {
    const out = path.join(plan.folder, 'site-structure.csv');
    const { rows } = await views.exportStructureCsv(`${out}.part`);
    fs.renameSync(`${out}.part`, out);
    say(`CSV: ${out} (${rows} rows)`);
  }
  // The crawl map's data and its depth charts', from the map as the app draws it (its default node limit, sized by
  // Link Score), read once for both.
  const mapped = plan.pictures.filter((p): p is MapDataId => p !== 'site-structure');
  if (mapped.length) {
    const map = await views.crawlMap({ maxNodes: DEFAULT_CRAWL_MAP_NODES }, false, true);
    for (const picture of mapped) {
      const out = path.join(plan.folder, `${picture}.csv`);
      const { rows } = writeMapData(picture, map, out);
      say(`CSV: ${out} (${rows} rows)`);
    }
  }
}

type MapDataId = Exclude<PictureDataId, 'site-structure'>;

/** The crawl map's data or its depth charts' as the app saves them, to `out` (through `<out>.part`); its rows written. */
function writeMapData(id: MapDataId, map: CrawlMap, out: string): { rows: number } {
  const part = `${out}.part`;
  fs.writeFileSync(part, id === 'crawl-map' ? crawlMapCsv(map) : depthSpreadCsv(map.depths));
  fs.renameSync(part, out);
  return { rows: id === 'crawl-map' ? map.nodes.kind.length : map.depths.length };
}
