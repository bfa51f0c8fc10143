// The crawl map's cost on a crawl file (issue 18.6): crawlMap (read the tree, fold it to the node limit, lay it out,
// the per-depth spreads) at 4,000 and 20,000 nodes, three runs each, with the answer's JSON size; the Link Score
// computation it is given is timed apart (the map reuses the session's). A synthetic crawl is built first when the
// file does not exist.
//
//   npx tsx electron/bench/crawl-map-bench.ts --results 100000 [--file /tmp/map-100k.trawl]
//   npx tsx electron/bench/crawl-map-bench.ts --file /tmp/pgdocs.trawl
import fs from 'node:fs';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import { computeLinkScores } from '../engine/analysis/link-score.ts';
import { crawlMap } from '../engine/analysis/crawl-map.ts';
import { openCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const results = Number(arg('--results') ?? 0);
const file = arg('--file') ?? `/tmp/crawl-map-${results}.trawl`;
if (!fs.existsSync(file)) {
  if (!results) throw new Error(`no file ${file}: give --results N to build one`);
  const t = performance.now();
  buildSyntheticCrawl(file, { results, queued: 0 }).db.close();
  console.log(`built ${file} in ${Math.round(performance.now() - t)} ms`);
}
const db = openCrawlFile(file, { readonly: true });
const scores = computeLinkScores(db);
console.log(`Link Score: ${scores.urlIds.length} pages in ${Math.round(scores.ms)} ms`);
for (const maxNodes of [4000, 20000]) {
  const times: number[] = [];
  let last = null as ReturnType<typeof crawlMap> | null;
  for (let run = 0; run < 3; run++) {
    const t = performance.now();
    last = crawlMap(db, { maxNodes }, scores);
    times.push(Math.round(performance.now() - t));
  }
  const m = last!;
  console.log(
    JSON.stringify({
      maxNodes,
      ms: times,
      urls: m.total,
      nodes: m.nodes.kind.length,
      maxDepth: m.maxDepth,
      folded: m.folded,
      jsonBytes: JSON.stringify(m).length,
    }),
  );
}
db.close();
