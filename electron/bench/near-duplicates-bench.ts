// Duplicate content's cost on a crawl file (issue 18.1): the analysis (read the signatures, exact groups, LSH banding,
// checks) cold, the fill of a reader's TEMP table, the content filters' counts, one page's pairs and a diff, and what
// the content table takes in the file. A synthetic crawl (analysis/synthetic-crawl.ts) is built first when the file
// does not exist, its parsed pages given main texts: every 20th an exact copy of an earlier page, every 13th a near
// copy (a few words changed), the others distinct, 150 to 900 words.
//
//   npx tsx electron/bench/near-duplicates-bench.ts --results 100000 [--file /tmp/nd-100k.trawl]
//   npx tsx electron/bench/near-duplicates-bench.ts --file /tmp/manual.trawl
import fs from 'node:fs';
import { diffTexts } from '../../shared/text-diff.ts';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import {
  computeContentAnalysis,
  contentDetailOf,
  mainTextOf,
  nearDuplicatesOf,
  refreshContentAnalysis,
  setContentOptions,
} from '../engine/analysis/near-duplicates.ts';
import { filterCounts } from '../engine/analysis/result-filters.ts';
import { computeContentAnalysisOffThread } from '../engine/analysis/near-duplicates-thread.ts';
import { openCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const results = Number(arg('--results') ?? 100_000);
const file = arg('--file') ?? `/tmp/nd-${results}.trawl`;

if (!fs.existsSync(file)) {
  const started = performance.now();
  buildSyntheticCrawl(file, { results, content: Infinity }).db.close();
  const db = openCrawlFile(file, { readonly: true });
  const pages = (db.prepare('SELECT count(*) AS n FROM content').get() as { n: number }).n;
  db.close();
  console.log(`built ${file}: ${results} results, ${pages} pages with content, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const db = openCrawlFile(file, { readonly: true });
const { n, bytes, sig, text } = db
  .prepare(
    'SELECT count(*) AS n, sum(length(text)) + sum(length(minhash)) + sum(length(text_hash)) AS bytes, sum(length(minhash)) AS sig, sum(length(text)) AS text FROM content',
  )
  .get() as { n: number; bytes: number; sig: number; text: number };
console.log(
  `${file}: ${n} content rows; ${(bytes / 1048576).toFixed(1)} MB stored (signatures ${(sig / 1048576).toFixed(1)} MB, texts ${(text / 1048576).toFixed(1)} MB, ${(text / n / 1024).toFixed(1)} KB a page)`,
);
const ms = (t: number) => `${t.toFixed(0)} ms`;
for (const allPages of [false, true]) {
  const best: number[] = [];
  let last = computeContentAnalysis(db, { threshold: 0.9, allPages, lowContentWords: 200 });
  for (let run = 0; run < 3; run++) {
    last = computeContentAnalysis(db, { threshold: 0.9, allPages, lowContentWords: 200 });
    best.push(last.ms);
  }
  const exact = last.exactCount.filter((c) => c > 1).length;
  const near = last.match.filter((m) => m >= 0).length;
  console.log(
    `analysis (${allPages ? 'every parsed page' : 'indexable pages'}): ${last.pages} pages, best of 3 ${ms(Math.min(...best))}; ${exact} exact duplicates, ${near} near duplicates, ${last.pairs} candidate pairs checked`,
  );
}
setContentOptions(db.name, { threshold: 0.9, allPages: false });
let t = performance.now();
refreshContentAnalysis(db);
console.log(`refresh (compute + fill the TEMP table), first time: ${ms(performance.now() - t)}`);
t = performance.now();
refreshContentAnalysis(db);
console.log(`refresh, nothing changed: ${ms(performance.now() - t)}`);
t = performance.now();
setContentOptions(db.name, { threshold: 0.8 });
refreshContentAnalysis(db);
console.log(`refresh after the threshold changed to 80%: ${ms(performance.now() - t)}`);
t = performance.now();
const counts = filterCounts(db, ['content-exact-duplicates', 'content-near-duplicates', 'content-low']);
console.log(`content filters' counts: ${ms(performance.now() - t)} ${JSON.stringify(counts)}`);
const one = db.prepare('SELECT url_id FROM temp.content_dups WHERE match_id IS NOT NULL LIMIT 1').get() as { url_id: number } | undefined;
if (one) {
  t = performance.now();
  const pairs = nearDuplicatesOf(db, one.url_id);
  const pairMs = performance.now() - t;
  t = performance.now();
  const d = diffTexts(mainTextOf(db, one.url_id) ?? '', mainTextOf(db, pairs[0]!.urlId) ?? '');
  console.log(
    `one page's pairs: ${ms(pairMs)} (${pairs.length}); diff with the closest: ${ms(performance.now() - t)} (${d.ops.length} sentences)`,
  );
  t = performance.now();
  const detail = contentDetailOf(db, one.url_id);
  console.log(`one page's detail section (words, exact and near duplicates): ${ms(performance.now() - t)} (${detail?.near.total} near)`);
}
// Off the thread (as the workbench computes it): the computation's wall time in the worker thread (a tsx run starts
// the worker through tsx's loader, about 0.6 s more than a bundle's), and how long this thread's event loop was busy
// meanwhile (what UI requests would wait for; wall-clock lag is not used: the machine may pause the bench).
{
  const runs: number[] = [];
  const before = performance.eventLoopUtilization();
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    await computeContentAnalysisOffThread(file, { threshold: 0.9, allPages: false, lowContentWords: 200 });
    runs.push(performance.now() - t0);
  }
  const busy = performance.eventLoopUtilization(before);
  console.log(
    `off the thread (worker start, read, band, transfer): best of 3 ${ms(Math.min(...runs))}; this thread busy ${ms(busy.active / 3)} a run`,
  );
}
db.close();
