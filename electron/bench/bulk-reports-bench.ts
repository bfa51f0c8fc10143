// Times each bulk report over a synthetic crawl file, written whole as CSV (not a test: timings belong here).
//   node --import tsx electron/bench/bulk-reports-bench.ts [--rows 100000] [--dir /tmp/trawl-measure] [--keep] [--xlsx]
// Builds <dir>/bulk-<rows>.trawl unless --keep finds it, then prints each report's rows, its time (first run, then
// the median of three, wall and CPU), each statement's query plan, and the process's peak RSS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BULK_REPORT_IDS } from '../../shared/bulk-reports.ts';
import { bulkReportSql, writeBulkReport } from '../engine/analysis/bulk-reports.ts';
import { openCrawlForAnalysis } from '../engine/analysis/index.ts';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'trawl-measure') },
    keep: { type: 'boolean', default: false },
    xlsx: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const dir = values.dir!;
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, `bulk-${rows}.trawl`);
if (!(values.keep && fs.existsSync(file))) {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  const built = buildSyntheticCrawl(file, { results: rows });
  built.db.pragma('wal_checkpoint(TRUNCATE)');
  built.db.close();
  console.log(`built ${path.basename(file)}: ${JSON.stringify(built.counts)}`);
}

const db = openCrawlForAnalysis(file);
const format = values.xlsx ? 'xlsx' : 'csv';
const out = path.join(dir, `bulk-report.${format}`);
for (const id of BULK_REPORT_IDS) {
  const runs: number[] = [];
  const cpu: number[] = [];
  let written = 0;
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    written = (await writeBulkReport(db, id, out, format)).rows;
    runs.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (xs: number[]) => [...xs.slice(1)].sort((a, b) => a - b)[1]!;
  // CPU time too: on a shared machine the wall time says as much about the others' load as about the report.
  console.log(
    `${id.padEnd(24)} ${String(written).padStart(8)} rows   first ${runs[0]!.toFixed(0).padStart(6)} ms   median ${median(runs).toFixed(0).padStart(6)} ms   CPU ${median(cpu).toFixed(0).padStart(6)} ms`,
  );
  for (const sql of bulkReportSql(db, id)) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array((sql.match(/\?/g) ?? []).length).fill(1)) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
    console.log(`    ${plan}`);
  }
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
db.close();
fs.rmSync(out, { force: true });
