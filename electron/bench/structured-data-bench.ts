// The structured data analysis's cost on a crawl file (issue 18.4): the 'Structured data' group's counts (one pass),
// the first page of each of its filters, and the schema.org types report, each the best of 3 on a read-only
// connection. A synthetic crawl (analysis/synthetic-crawl.ts, with structured data) is built first when the file does
// not exist.
//
//   npx tsx electron/bench/structured-data-bench.ts --results 100000 [--file /tmp/sd-100k.trawl]
//   npx tsx electron/bench/structured-data-bench.ts --file /tmp/pgdocs.trawl
import fs from 'node:fs';
import { RESULT_FILTERS } from '../../shared/analysis.ts';
import { bulkReport } from '../engine/analysis/bulk-reports.ts';
import { filterCounts, queryFiltered } from '../engine/analysis/result-filters.ts';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import { openCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const results = Number(arg('--results') ?? 100_000);
const file = arg('--file') ?? `/tmp/trawl-structured-${results}.trawl`;
if (!fs.existsSync(file)) {
  const start = performance.now();
  buildSyntheticCrawl(file, { results, queued: 0, structuredData: true }).db.close();
  console.log(`built ${file} (${results.toLocaleString('en')} results) in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
const db = openCrawlFile(file, { readonly: true });
const ids = RESULT_FILTERS.filter((f) => f.group === 'structured').map((f) => f.id);
const best = (label: string, run: () => unknown) => {
  let ms = Number.POSITIVE_INFINITY;
  let out: unknown;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    out = run();
    ms = Math.min(ms, performance.now() - start);
  }
  console.log(`${label.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms  ${typeof out === 'string' ? out : ''}`);
};
const pages = (db.prepare('SELECT count(*) AS n FROM results WHERE h1_count IS NOT NULL').get() as { n: number }).n;
console.log(`${file}: ${pages.toLocaleString('en')} parsed pages`);
best('counts of the group (one pass)', () => JSON.stringify(filterCounts(db, ids)));
for (const id of ids)
  best(
    `first page of ${id}`,
    () => `${queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 100 }).total} rows`,
  );
best('schema.org types report', () => `${[...bulkReport(db, 'structured-data-types').pages].flat().length} rows`);
db.close();
