// The security and hreflang filters (issue 18.5) on a generated crawl: every page a security row (flags spread over
// the bits) and hreflang sets of five languages (one page in ten without its return link, one set in five without
// x-default), then each filter's count (the tab badges' pass) and its first page of rows, timed.
// Run: node --import tsx electron/bench/security-hreflang-bench.ts [results] [crawl file]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSyntheticCrawl } from '../engine/analysis/synthetic-crawl.ts';
import { filterCounts, queryFiltered, type FilterId } from '../engine/analysis/result-filters.ts';
import { openCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';
import { FILTER_IDS } from '../../shared/analysis.ts';

const n = Number(process.argv[2] ?? 100_000);
const given = process.argv[3];
const dir = given ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-sec-bench-'));
const file = given ?? path.join(dir!, 'crawl.trawl');
const ms = (t: bigint) => `${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(0)} ms`;

if (!given || !fs.existsSync(file)) {
  const t = process.hrtime.bigint();
  const { db } = buildSyntheticCrawl(file, { results: n, queued: 0 });
  const ids = (db.prepare('SELECT url_id FROM results WHERE h1_count IS NOT NULL ORDER BY url_id').all() as { url_id: number }[]).map(
    (r) => r.url_id,
  );
  // The synthetic crawl may already give pages a security row: this bench's flags replace it.
  const sec = db.prepare('INSERT OR REPLACE INTO security (url_id, flags, hsts, csp) VALUES (?, ?, ?, ?)');
  const hl = db.prepare('INSERT OR IGNORE INTO hreflang (url_id, target_id, lang, valid) VALUES (?, ?, ?, ?)');
  const LANGS = ['en', 'de', 'fr', 'it', 'es'];
  db.transaction(() => {
    ids.forEach((id, i) => {
      sec.run(id, (i * 2654435761) % 128, i % 3 ? 'max-age=31536000' : null, i % 2 ? "default-src 'self'" : null);
    });
    for (let g = 0; g + LANGS.length <= ids.length; g += LANGS.length) {
      const set = ids.slice(g, g + LANGS.length);
      set.forEach((page, k) =>
        set.forEach((target, j) => {
          // One page in ten misses its return link from the set's first page.
          if (k === 0 && j !== 0 && (g / LANGS.length + j) % 10 === 0) return;
          hl.run(page, target, j === 4 && g % 7 === 0 ? 'en-UK' : LANGS[j]!, j === 4 && g % 7 === 0 ? 0 : 1);
        }),
      );
      if (g % 5 !== 0) for (const page of set) hl.run(page, set[0]!, 'x-default', 1);
    }
  })();
  db.close();
  console.log(`built ${n} results, ${ids.length} parsed pages with security and hreflang rows: ${ms(t)}`);
}

const db = openCrawlFile(file, { readonly: true });
const ours = FILTER_IDS.filter((id) => id === 'mixed-content' || id.startsWith('security-') || id.startsWith('hreflang-')) as FilterId[];
for (let round = 0; round < 2; round++) {
  const t = process.hrtime.bigint();
  const counts = filterCounts(db, ours);
  console.log(`round ${round}: counts of ${ours.length} filters ${ms(t)}: ${ours.map((id) => `${id}=${counts[id]}`).join(' ')}`);
}
for (const id of ours) {
  const t = process.hrtime.bigint();
  const page = queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 100 });
  console.log(`${id.padEnd(28)} first 100 rows of ${page.total}: ${ms(t)}`);
}
db.close();
if (dir) fs.rmSync(dir, { recursive: true, force: true });
