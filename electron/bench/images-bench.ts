// Times the images analysis (issue 18.3) on a synthetic crawl with images (not a test: timings belong here).
//   node --import tsx electron/bench/images-bench.ts [--rows 100000] [--dir /tmp/trawl-measure]
// Builds <dir>/images-<rows>.trawl, then prints the Images count pass, each Images filter's first page, a page's and an
// image's detail, and the images-missing-alt bulk report (CSV to /dev/null): the first call, then the median of five.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Writable } from 'node:stream';
import { openCrawlForAnalysis } from '../engine/analysis/index.ts';
import { writeBulkReport } from '../engine/analysis/bulk-reports.ts';
import { FILTER_IDS, filterCounts, queryFiltered } from '../engine/analysis/result-filters.ts';
import { buildSyntheticCrawl, SYNTHETIC_ORIGIN } from '../engine/analysis/synthetic-crawl.ts';
import { imagePages, pageImages } from '../engine/analysis/url-detail.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, dir: { type: 'string', default: path.join(os.tmpdir(), 'trawl-measure') } },
});
const rows = Number(values.rows);
fs.mkdirSync(values.dir!, { recursive: true });
const file = path.join(values.dir!, `images-${rows}.trawl`);
for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
const started = performance.now();
const built = buildSyntheticCrawl(file, { results: rows, images: true });
built.db.pragma('wal_checkpoint(TRUNCATE)');
const uses = (built.db.prepare('SELECT count(*) AS n FROM image_uses').get() as { n: number }).n;
built.db.close();
console.log(`built ${path.basename(file)}: ${rows} results, ${uses} image uses in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const db = openCrawlForAnalysis(file);
async function time(label: string, fn: () => unknown): Promise<void> {
  const t0 = performance.now();
  await fn();
  const first = performance.now() - t0;
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label.padEnd(52)} first ${first.toFixed(1).padStart(8)} ms   median ${runs[2]!.toFixed(1).padStart(8)} ms`);
}
const IMAGE_FILTERS = FILTER_IDS.filter((id) => id.startsWith('images-'));
await time('count pass: every Images filter', () => filterCounts(db, IMAGE_FILTERS));
for (const id of IMAGE_FILTERS)
  await time(`queryFiltered ${id}, first 100`, () =>
    queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 100 }),
  );
await time('queryFiltered images-alt-missing by image URL', () =>
  queryFiltered(db, { filter: 'images-alt-missing', sort: 'url', descending: false, offset: 0, limit: 100 }),
);
await time("URL detail: a page's images", () => pageImages(db, 2));
await time("URL detail: the logo's pages (first 500)", () => imagePages(db, `${SYNTHETIC_ORIGIN}/static/logo.svg`));
const sink = () => new Writable({ write: (_c, _e, done) => done() });
await time('bulk report images-missing-alt (CSV)', () => writeBulkReport(db, 'images-missing-alt', sink()));
console.log(JSON.stringify(filterCounts(db, IMAGE_FILTERS)));
db.close();
