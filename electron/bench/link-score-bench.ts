// Link Score's cost on a crawl file: the computation (read the graph, iterate) in a fresh process, with its time and
// the process's peak RSS against its RSS before; then the same through the worker thread as the session runs it, and
// the fill of a reader connection's TEMP table. A synthetic crawl (analysis/synthetic-crawl.ts) is built first when
// the file does not exist.
//
//   npx tsx electron/bench/link-score-bench.ts --results 100000 [--file /tmp/ls-100k.trawl]
//   npx tsx electron/bench/link-score-bench.ts --file /tmp/pgdocs.trawl
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import { computeLinkScores } from '../engine/analysis/link-score.ts';
import { computeLinkScoresOffThread, fillLinkScores } from '../engine/analysis/link-score-thread.ts';
import { openCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

if (args[0] === '--measure') {
  // The child: only the computation, so the peak RSS is its own.
  const file = args[1]!;
  const db = openCrawlFile(file, { readonly: true });
  const before = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const s = computeLinkScores(db);
  const used = process.cpuUsage(cpu);
  const peak = process.resourceUsage().maxRSS * 1024;
  const { nodes } = { nodes: s.urlIds.length };
  const edges = (db.prepare("SELECT count(*) AS n FROM links WHERE kind IN ('a', 'area')").get() as { n: number }).n;
  console.log(
    JSON.stringify({
      ms: s.ms,
      cpuMs: (used.user + used.system) / 1000,
      iterations: s.iterations,
      converged: s.converged,
      nodes,
      edges,
      before,
      peak,
    }),
  );
  db.close();
} else {
  const results = Number(arg('--results') ?? 0);
  const file = arg('--file') ?? `/tmp/trawl-linkscore-${results}.trawl`;
  if (!fs.existsSync(file)) {
    if (!results) throw new Error(`${file} does not exist; give --results N to build a synthetic crawl`);
    const t = performance.now();
    buildSyntheticCrawl(file, { results }).db.close();
    console.log(`built ${file} (${results} results) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const self = fileURLToPath(import.meta.url);
  for (let run = 1; run <= 3; run++) {
    const out = execFileSync(process.execPath, [...process.execArgv, self, '--measure', file], { encoding: 'utf8' });
    const m = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number>;
    console.log(
      `in-process run ${run}: ${m.nodes} pages, ${m.edges} hyperlinks: ${m.ms!.toFixed(0)} ms (CPU ${m.cpuMs!.toFixed(0)} ms), ${m.iterations} iterations (converged: ${m.converged}), RSS ${mb(m.before!)} -> peak ${mb(m.peak!)} (+${mb(m.peak! - m.before!)})`,
    );
  }
  const t = performance.now();
  const s = await computeLinkScoresOffThread(file);
  const threadMs = performance.now() - t;
  const db = openCrawlFile(file, { readonly: true });
  const f = performance.now();
  fillLinkScores(db, s);
  const fillMs = performance.now() - f;
  db.close();
  console.log(
    `worker thread: ${threadMs.toFixed(0)} ms (computation ${s.ms.toFixed(0)} ms, the rest starting the thread); TEMP table filled in ${fillMs.toFixed(0)} ms`,
  );
}
