// The frontier on its own (target: enqueue 1,000,000 distinct URLs at 100,000 URLs/s or more, and claim from a
// frontier of 1,000,000 URLs as fast as from one of 1,000).
import path from 'node:path';
import { createCrawlFile } from '../engine/frontier/sqlite/crawl-file.ts';
import { Frontier } from '../engine/frontier/sqlite/frontier.ts';
import { parseSettings } from '../../shared/settings.ts';

const HOSTS = 100;

function makeFrontier(file: string) {
  const settings = parseSettings({ seeds: ['http://h0.bench.invalid/'], robots: 'ignore' });
  const db = createCrawlFile(file, settings);
  return { db, frontier: new Frontier(db, settings) };
}

/** Enqueues `count` distinct URLs over 100 hosts, 50,000 per transaction. */
function enqueue(frontier: Frontier, count: number): number {
  const started = performance.now();
  const batch: string[] = [];
  for (let i = 0; i < count; i++) {
    batch.push(`http://h${i % HOSTS}.bench.invalid/section/${i % 977}/page-${i}.html`);
    if (batch.length === 50_000) frontier.addSeeds(batch.splice(0));
  }
  if (batch.length) frontier.addSeeds(batch);
  return performance.now() - started;
}

/** Microseconds per claim of 10 URLs, averaged over `rounds` claims. */
function claimCost(frontier: Frontier, rounds: number): number {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) frontier.claim(10);
  return ((performance.now() - started) * 1000) / rounds;
}

export function runFrontierBench(workDir: string) {
  const big = makeFrontier(path.join(workDir, 'frontier-big.trawl'));
  const enqueueMs = enqueue(big.frontier, 1_000_000);
  const small = makeFrontier(path.join(workDir, 'frontier-small.trawl'));
  enqueue(small.frontier, 1_000);
  const claimSmallUs = claimCost(small.frontier, 50);
  const claimBigUs = claimCost(big.frontier, 50);
  big.db.close();
  small.db.close();
  return {
    enqueued: 1_000_000,
    enqueuePerSecond: Math.round(1_000_000 / (enqueueMs / 1000)),
    claimMicrosFrom1k: Math.round(claimSmallUs),
    claimMicrosFrom1M: Math.round(claimBigUs),
  };
}
