// Link Score at 100,000 results rows (a synthetic crawl: pages linking four ways, one link of four nofollow,
// redirects, external links, images): it converges within a loose time bound, every page in scope gets a score
// (the top one 100), and the computation's memory is bounded by its typed arrays, not by the links it reads.
// Timings go to BENCHMARKS.md (electron/bench/link-score-bench.ts); the bound here only catches a hang.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { computeLinkScores } from '../../electron/engine/analysis/link-score.ts';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';

const ROWS = 100_000;
let dir: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-linkscore-scale-'));
  const file = path.join(dir, 'crawl.trawl');
  buildSyntheticCrawl(file, { results: ROWS }).db.close();
  db = openCrawlFile(file, { readonly: true });
}, 300_000);
afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`Link Score at ${ROWS.toLocaleString('en')} results`, () => {
  it('converges in bounded time and memory, every page in scope scored', () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const s = computeLinkScores(db);
    const ms = Date.now() - started;
    const growth = process.memoryUsage().rss - before;
    expect(s.converged).toBe(true);
    // A hang bound, not a benchmark: about 1 s here on a quiet machine.
    expect(ms).toBeLessThan(120_000);
    // The typed arrays for 100,000 pages and ~350,000 links are a few MB; a copy per link would be hundreds.
    expect(growth).toBeLessThan(200 * 1024 * 1024);
    const inScope = (
      db.prepare('SELECT count(*) AS n FROM results r JOIN urls u ON u.id = r.url_id WHERE u.state <> 4 AND u.check_only = 0').get() as {
        n: number;
      }
    ).n;
    expect(s.urlIds.length).toBe(inScope);
    expect(Math.max(...s.scores)).toBe(100);
    expect(Math.min(...s.scores)).toBe(0);
    let sum = 0;
    for (const r of s.ranks) sum += r;
    expect(sum).toBeCloseTo(1, 9);
  }, 180_000);
});
