// Every content and link analysis of issue 18 timed on one crawl file, as the workbench runs them on a read-only
// connection: duplicate content, Link Score, the images, structured data, security and hreflang filters (their count
// passes and each filter's first page), the bulk reports they add, the site structure and the crawl map with its depth
// charts. One table per file, so the manual and a generated crawl are measured by the same code. Each line: the first
// call, then the median of the next runs (the analyses that keep a result per connection are timed on a fresh one).
// The section benches (link-score-, near-duplicates-, images-, crawl-map-bench.ts ...) go deeper into one analysis.
//
//   node --import tsx electron/bench/content-link-bench.ts --file /tmp/manual.trawl
//   node --import tsx electron/bench/content-link-bench.ts --results 100000 [--file /tmp/content-link-100000.trawl] [--runs 3]
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { BULK_REPORTS } from '../../shared/bulk-reports.ts';
import { FILTER_IDS, RESULT_FILTERS, type FilterId } from '../../shared/analysis.ts';
import { openCrawlForAnalysis } from '../engine/analysis/index.ts';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import { computeLinkScores } from '../engine/analysis/link-score.ts';
import { computeContentAnalysis, refreshContentAnalysis } from '../engine/analysis/near-duplicates.ts';
import { countSql, queryFiltered } from '../engine/analysis/result-filters.ts';
import { writeBulkReport } from '../engine/analysis/bulk-reports.ts';
import { siteStructure } from '../engine/analysis/site-structure.ts';
import { crawlMap } from '../engine/analysis/crawl-map.ts';
import type { Db } from '../engine/frontier/sqlite/crawl-file.ts';

const { values } = parseArgs({
  options: { file: { type: 'string' }, results: { type: 'string' }, runs: { type: 'string', default: '3' } },
});
const results = Number(values.results ?? 0);
const file = values.file ?? `/tmp/content-link-${results}.trawl`;
const runs = Math.max(1, Number(values.runs));
if (!fs.existsSync(file)) {
  if (!results) throw new Error(`no file ${file}: give --results N to build a generated crawl there`);
  const t = performance.now();
  const built = buildSyntheticCrawl(file, {
    results,
    images: true,
    structuredData: true,
    sitemaps: true,
    content: Number.POSITIVE_INFINITY,
  });
  built.db.pragma('wal_checkpoint(TRUNCATE)');
  built.db.close();
  console.log(`built ${file}: ${results.toLocaleString('en')} results in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** The analyses of issue 18, by the filter groups they add. */
const GROUPS = ['content', 'images', 'structured', 'security', 'hreflang'] as const;
const groupOf = new Map<FilterId, string>(RESULT_FILTERS.map((f) => [f.id, f.group]));
const lines: [string, string, string][] = [];

const ms = (t: number) => (t < 10 ? t.toFixed(1) : Math.round(t).toLocaleString('en'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Times fn once (first) and `runs` more times (median); fresh() gives the connection each call gets. */
async function time(label: string, fn: (db: Db) => unknown, fresh = false): Promise<void> {
  const shared = openCrawlForAnalysis(file);
  const once = async () => {
    const db = fresh ? openCrawlForAnalysis(file) : shared;
    const t = performance.now();
    await fn(db);
    const took = performance.now() - t;
    if (fresh) db.close();
    return took;
  };
  const first = await once();
  const rest: number[] = [];
  for (let i = 0; i < runs; i++) rest.push(await once());
  shared.close();
  lines.push([label, ms(first), ms(median(rest))]);
  console.log(`${label.padEnd(66)} ${ms(first).padStart(8)} ms  median ${ms(median(rest)).padStart(8)} ms`);
}
/** A sink for the bulk reports (their CSV written and thrown away: the time is the report's, not the disk's). */
const sink = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

{
  const db = openCrawlForAnalysis(file);
  const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  console.log(
    `${file}: ${n('SELECT count(*) AS n FROM results').toLocaleString('en')} results, ${n('SELECT count(*) AS n FROM links').toLocaleString('en')} links, ${n('SELECT count(*) AS n FROM content').toLocaleString('en')} pages with main text\n`,
  );
  db.close();
}

await time('duplicate content: the analysis (signatures, exact groups, LSH)', (db) => computeContentAnalysis(db));
await time(
  'duplicate content: a view\u2019s refresh (first: analysis + TEMP table; then the table only)',
  (db) => refreshContentAnalysis(db),
  true,
);
await time('Link Score: the computation (graph read, PageRank, 0-100)', (db) => computeLinkScores(db));
for (const group of GROUPS) {
  const ids = FILTER_IDS.filter((id) => groupOf.get(id) === group);
  await time(`${group}: count passes of its ${ids.length} filters`, (db) => {
    refreshContentAnalysis(db);
    for (const sql of countSql(db)) {
      const st = db.prepare(sql);
      if (st.columns().some((c) => ids.includes(c.name as FilterId))) st.get();
    }
  });
  const firsts: number[] = [];
  const db = openCrawlForAnalysis(file);
  refreshContentAnalysis(db);
  for (const id of ids) {
    const each: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const t = performance.now();
      queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 100 });
      each.push(performance.now() - t);
    }
    firsts.push(median(each));
  }
  db.close();
  const label = `${group}: a filter's first 100 rows (fastest-slowest filter, median)`;
  const range = `${ms(Math.min(...firsts))}-${ms(Math.max(...firsts))}`;
  lines.push([label, '', range]);
  console.log(`${label.padEnd(66)} ${''.padStart(8)}    median ${range.padStart(8)} ms`);
}
for (const report of BULK_REPORTS.filter((r) => ['images-missing-alt', 'structured-data-types', 'hreflang-alternates'].includes(r.id)))
  await time(`bulk report ${report.id} (CSV)`, (db) => writeBulkReport(db, report.id, sink()));
await time('site structure: hosts and the first level (the whole fold)', (db) => siteStructure(db, { paths: [], limit: 200 }), true);
{
  const db = openCrawlForAnalysis(file);
  const scores = computeLinkScores(db);
  await time('crawl map and depth charts, 4,000 nodes (Link Score given)', (conn) => crawlMap(conn, { maxNodes: 4000 }, scores), true);
  db.close();
}

console.log('\n| analysis | first | median |\n| --- | ---: | ---: |');
for (const [label, first, med] of lines) console.log(`| ${label} | ${first ? `${first} ms` : ''} | ${med} ms |`);
