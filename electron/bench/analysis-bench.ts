// Times the analysis queries on two synthetic crawl files (not a test: timings belong here, not in assertions).
//   node --import tsx electron/bench/analysis-bench.ts [--rows 300000] [--dir /tmp/trawl-measure] [--keep]
// Builds <dir>/old.trawl and <dir>/new.trawl (the same site crawled again, changed) unless --keep finds them, then
// prints each call's time (first call, then the median of five) on a read-only connection.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Db } from '../engine/frontier/sqlite/crawl-file.ts';
import { openCrawlForAnalysis } from '../engine/analysis/index.ts';
import { chartCsv, depthDistribution, overTime, responseTimeHistogram, statusDistribution } from '../engine/analysis/charts-data.ts';
import { CrawlComparison } from '../engine/analysis/compare.ts';
import { hostsReport } from '../engine/analysis/hosts-report.ts';
import { queueHosts, queuePrefixes, queueSearch } from '../engine/analysis/queue-inspector.ts';
import { countSql, FILTER_IDS, filterCounts, queryFiltered } from '../engine/analysis/result-filters.ts';
import { buildSyntheticCrawl, syntheticUrl } from '../engine/analysis/synthetic-crawl.ts';
import { issuesOverview } from '../engine/analysis/issues-overview.ts';
import { urlDetail } from '../engine/analysis/url-detail.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '300000' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'trawl-measure') },
    keep: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const dir = values.dir!;
fs.mkdirSync(dir, { recursive: true });
const oldFile = path.join(dir, `old-${rows}.trawl`);
const newFile = path.join(dir, `new-${rows}.trawl`);

for (const [file, variant] of [
  [oldFile, 0],
  [newFile, 1],
] as const) {
  if (values.keep && fs.existsSync(file)) continue;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  const started = performance.now();
  const built = buildSyntheticCrawl(file, { results: rows, variant, startAt: 1_800_000_000_000 + variant * 86_400_000 });
  built.db.pragma('wal_checkpoint(TRUNCATE)');
  built.db.close();
  console.log(
    `built ${path.basename(file)}: ${JSON.stringify(built.counts)} in ${((performance.now() - started) / 1000).toFixed(1)} s, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`,
  );
}

function time(label: string, fn: () => unknown): void {
  const t0 = performance.now();
  fn();
  const first = performance.now() - t0;
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label.padEnd(58)} first ${first.toFixed(1).padStart(7)} ms   median ${runs[2]!.toFixed(1).padStart(7)} ms`);
}

const db: Db = openCrawlForAnalysis(oldFile);
console.log(`\n${rows} results rows, read-only connection:`);
time('filterCounts (every filter)', () => filterCounts(db));
time("issuesOverview (the issues overview: its filters' count passes)", () => issuesOverview(db));
for (const sql of countSql(db)) {
  const ids = Object.keys(db.prepare(sql).get() as object).join(', ');
  time(`  count pass: ${ids.length > 50 ? `${ids.slice(0, 47)}...` : ids}`, () => db.prepare(sql).get());
}
for (const id of FILTER_IDS) {
  time(`queryFiltered ${id}, first page of 100`, () =>
    queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 100 }),
  );
}
time('queryFiltered status-2xx, offset 200000', () =>
  queryFiltered(db, { filter: 'status-2xx', sort: 'seq', descending: false, offset: 200_000, limit: 100 }),
);
time('queryFiltered status-4xx by title', () =>
  queryFiltered(db, { filter: 'status-4xx', sort: 'title', descending: false, offset: 0, limit: 100 }),
);
time('queryFiltered title-duplicate by inlinks desc', () =>
  queryFiltered(db, { filter: 'title-duplicate', sort: 'inlinks', descending: true, offset: 0, limit: 100 }),
);
time('queryFiltered html, text "page-12"', () =>
  queryFiltered(db, { filter: 'html', text: 'page-12', sort: 'seq', descending: false, offset: 0, limit: 100 }),
);
time('urlDetail of the home page (most inlinks)', () => urlDetail(db, { url: syntheticUrl(0) }));
time('urlDetail of a redirect', () => urlDetail(db, { url: syntheticUrl(Math.floor(rows / 2) + 17) }));
time('queueHosts', () => queueHosts(db));
time('queuePrefixes, 2 segments', () => queuePrefixes(db, { hostId: 1, segments: 2 }));
time('queueSearch "queued-2999"', () => queueSearch(db, { text: 'queued-2999', limit: 50 }));
time('hostsReport', () => hostsReport(db));
time('hosts: GROUP BY over results (what the counters replace)', () =>
  db
    .prepare(
      'SELECT u.host_id, count(r.status_code), sum(r.size_bytes), sum(r.status_code IS NULL OR r.status_code >= 400) FROM results r JOIN urls u ON u.id = r.url_id GROUP BY u.host_id',
    )
    .all(),
);
time('statusDistribution', () => statusDistribution(db));
time('depthDistribution', () => depthDistribution(db));
time('responseTimeHistogram', () => responseTimeHistogram(db));
time('overTime (auto buckets)', () => overTime(db));
time('statusDistribution after the last 1000 rows', () => statusDistribution(db, { afterSeq: rows - 1000 }));
time('chartCsv(overTime)', () => chartCsv(overTime(db)));
db.close();

const cmp = CrawlComparison.open(oldFile, newFile);
console.log(`\ncomparison of ${path.basename(oldFile)} and ${path.basename(newFile)}:`);
let summary;
time('summary', () => (summary = cmp.summary()));
console.log(JSON.stringify(summary));
time('page: changed, 100', () => cmp.page('changed', { limit: 100 }));
time('page: removed, 100', () => cmp.page('removed', { limit: 100 }));
time('page: added, 100', () => cmp.page('added', { limit: 100 }));
// Each format's export of every change, with the process's memory before and at most during it.
for (const format of ['csv', 'xlsx'] as const) {
  const out = path.join(dir, `diff.${format}`);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const exported = await cmp.exportCsv(out, { format });
  clearInterval(sampler);
  const what = format === 'csv' ? 'exportCsv (every change)' : 'exportCsv as XLSX (every change)';
  console.log(
    `${what.padEnd(58)} ${(performance.now() - started).toFixed(0)} ms, ${exported.rows} rows, RSS ${(rssBefore / 1e6).toFixed(0)} MB before, ${(rssPeak / 1e6).toFixed(0)} MB at most during`,
  );
}
cmp.close();
