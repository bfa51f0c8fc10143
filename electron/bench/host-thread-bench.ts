// How long the views of a large crawl hold the thread that answers the UI (and, in the app, runs the crawl's
// controller): the explorer's badges, its first page, a URL's detail, the site structure and the crawl map asked
// together, as the workbench asks them when a crawl is opened, each answer's time and the thread's longest hold while
// they are computed. Not a test: timings belong here.
//   node --import tsx electron/bench/host-thread-bench.ts --file x.trawl            # a crawl file
//   node --import tsx electron/bench/host-thread-bench.ts --rows 300000             # a synthetic one, built first
//   node --import tsx electron/bench/host-thread-bench.ts --store URL --crawl ID    # a crawl in the PostgreSQL store
// The worker threads the views start load their TypeScript through tsx when the bench runs from source (1.1 s of CPU
// each): to time them as the app runs them, bundled, run it through scripts/bench-bundled.mjs:
//   node scripts/bench-bundled.mjs electron/bench/host-thread-bench.ts --file x.trawl
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import { CrawlAnalysis } from '../engine/session/crawl-analysis.ts';
import { ClusterResults } from '../engine/session/cluster-results.ts';
import { type CrawlViews, fileViews } from '../engine/session/crawl-views.ts';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    rows: { type: 'string', default: '300000' },
    store: { type: 'string' },
    crawl: { type: 'string' },
  },
});

let views: CrawlViews & { close?: () => unknown };
let close: () => unknown;
if (values.store) {
  if (!values.crawl) throw new Error('--store needs --crawl ID');
  const c = new ClusterResults(values.store, values.crawl);
  views = c;
  close = () => c.close();
  console.log(`crawl ${values.crawl} in the store`);
} else {
  let file = values.file;
  if (!file) {
    file = path.join(os.tmpdir(), `trawl-host-thread-${values.rows}.trawl`);
    if (!fs.existsSync(file)) buildSyntheticCrawl(file, { results: Number(values.rows) }).db.close();
  }
  const analysis = CrawlAnalysis.open(file);
  views = fileViews(() => analysis);
  close = () => analysis.close();
  console.log(`crawl file ${file}`);
}

// The thread's holds: a timer every 10 ms notes how late it fires.
const t0 = performance.now();
let last = t0;
let longest = 0;
let over50 = 0;
const tick = () => {
  const now = performance.now();
  const held = now - last - 10;
  if (held > longest) longest = held;
  if (held > 50) over50 += held;
  last = now;
};
const timer = setInterval(tick, 10);
const done = (label: string) => () => console.log(`${label.padEnd(44)} ${(performance.now() - t0).toFixed(0).padStart(7)} ms`);
const page = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 } as const;
await Promise.all([
  views.filterCounts(false).then(done('the badges')),
  views.queryFiltered(page, false).then(done('explorer, all, first 100')),
  views.urlDetail({ id: 2 }, false).then(done('a URL detail')),
  views.siteStructure({ paths: [], limit: 100 }).then(done('site structure, the hosts')),
  views.crawlMap({ maxNodes: 4000 }, false).then(done('crawl map, 4,000 nodes')),
]);
// The hold still running when the last answer came (the timer may not have fired once).
tick();
clearInterval(timer);
console.log(`the thread's longest hold: ${longest.toFixed(0)} ms; holds over 50 ms: ${over50.toFixed(0)} ms in all`);
await close();
process.exit(0);
