// The PostgreSQL store's views and a node's crawl paths at a million URLs (issue 19.3). Not a test: timings belong
// here, not in assertions (test/postgres/query-plans.test.ts checks the plans).
//   node --import tsx electron/bench/pg-views-bench.ts --store postgres://... [--urls 1000000] [--crawl bench1m] [--keep]
//     [--plans] [--record-rounds 20] [--views-only]
// Builds crawl `--crawl` in the store (pg-synthetic-crawl.ts; --keep reuses one of the same size), then prints:
//   1. each view's first page (the hosts report, the queue inspector's reads, the controller's counts, the explorer,
//      the charts and the site structure): first call, then the median of five;
//   2. the plan of every statement the views and a node's crawl paths (claim, discover, record, leases, live
//      patterns) send, run with EXPLAIN (ANALYZE, BUFFERS) and rolled back: time, scans, any sequential scan of
//      urls, results or links (--plans prints each plan whole);
//   3. the record path: claim 25 pages and record them with 8 links each (4 new URLs, 4 known), --record-rounds
//      times, ms per page (what every index on those tables costs).
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildPgSyntheticCrawl } from '../engine/analysis/pg-synthetic-crawl.ts';
import { postgresCrawlMap } from '../engine/analysis/pg-crawl-map.ts';
import { CrawlMapMemo } from '../engine/analysis/crawl-map.ts';
import { ClusterResults } from '../engine/session/cluster-results.ts';
import { DEFAULT_CRAWL_MAP_NODES } from '../../shared/crawl-map.ts';
import type { PgNode } from '../engine/frontier/postgres/pg-crawl.ts';
import { crawlSchema } from '../engine/frontier/postgres/pg-schema.ts';
import type { Claim } from '../engine/frontier/model.ts';
import { capture, chartCalls, checkPlans, crawlPaths, explorerCalls, oneLine, recordOf, viewCalls } from './pg-plans.ts';

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    urls: { type: 'string', default: '1000000' },
    crawl: { type: 'string', default: 'bench1m' },
    keep: { type: 'boolean', default: false },
    plans: { type: 'boolean', default: false },
    'views-only': { type: 'boolean', default: false },
    'record-rounds': { type: 'string', default: '20' },
  },
});
if (!values.store) throw new Error('--store postgres://user:password@host/db is required');
const storeUrl = values.store;
const urls = Number(values.urls);
const crawlId = values.crawl!;
const schema = crawlSchema(crawlId);

const client = new pg.Client({ connectionString: storeUrl });
await client.connect();

async function existing(): Promise<number | null> {
  const { rows } = await client.query<{ n: string | null }>(
    `SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE (SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass($1)) END AS n`,
    [`${schema}.urls`],
  );
  return rows[0]!.n === null ? null : Number(rows[0]!.n);
}

const have = values.keep ? await existing() : null;
if (have !== null && Math.abs(have - urls) < urls * 0.05) {
  console.log(`reusing crawl ${crawlId} (~${have} URLs)`);
} else {
  const t0 = performance.now();
  const built = await buildPgSyntheticCrawl(client, crawlId, { urls });
  console.log(`built crawl ${crawlId}: ${JSON.stringify(built.counts)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const { rows: sizes } = await client.query<{ name: string; size: string }>(
  `SELECT c.relname AS name, pg_size_pretty(pg_total_relation_size(c.oid)) AS size FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname IN ('hosts', 'urls', 'results', 'links') ORDER BY c.relname`,
  [schema],
);
console.log(`sizes (with indexes): ${sizes.map((s) => `${s.name} ${s.size}`).join(', ')}`);

const { rows: hostRows } = await client.query<{ id: string; origin: string }>(
  `SELECT id, origin FROM ${schema}.hosts WHERE queued > 0 ORDER BY queued DESC LIMIT 1 OFFSET 5`,
);
const smallHost = Number(hostRows[0]!.id);

/** A call's first time and the median of five more (`repeat` fewer for a call that takes seconds). */
async function time(label: string, fn: () => Promise<unknown>, repeat = 5): Promise<void> {
  const t0 = performance.now();
  await fn();
  const first = performance.now() - t0;
  if (repeat === 0) {
    console.log(`${label.padEnd(64)} first ${first.toFixed(1).padStart(7)} ms`);
    return;
  }
  const runs: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    await fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label.padEnd(64)} first ${first.toFixed(1).padStart(7)} ms   median ${runs[runs.length >> 1]!.toFixed(1).padStart(7)} ms`);
}

const views = viewCalls(client, crawlId, smallHost);
console.log('\nviews, first page:');
for (const [label, fn] of views) await time(label, fn);
console.log('\nthe explorer and the URL detail (issue 19.1), first page:');
// The badges' count passes read every parsed page: timed once (they take seconds at a million URLs).
for (const [label, fn] of explorerCalls(client, crawlId)) await time(label, fn, label.includes('count') ? 0 : 5);

console.log('\nthe charts and the site structure (h-charts), first answer:');
// The structure's first call folds the whole crawl into the connection's trie; the next ones answer from it.
const charts = chartCalls(client, crawlId);
for (const [label, fn] of charts) await time(label, fn);
// The crawl map reads every URL, results row and link count (as a crawl file's) the first time it is asked; asked
// again with the crawl unchanged, it is the map its views keep (CrawlMapMemo): timed twice.
const mapMemo = new CrawlMapMemo();
await time(
  'crawl map (default 4,000 nodes, without Link Scores)',
  () => postgresCrawlMap(client, crawlId, { maxNodes: DEFAULT_CRAWL_MAP_NODES }, null, mapMemo),
  1,
);
// As the app asks, through the crawl's views (a fresh one: nothing computed yet). The explorer's page and the URL
// detail once waited for the crawl's first Link Scores (9.5 s here), which the direct calls above do not compute;
// now they answer at once, their scores pending, and so does the crawl map, drawn before them.
console.log('\nthrough the views, as the app asks (nothing computed before):');
const crawlViews = new ClusterResults(storeUrl, crawlId);
const explorerPage = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 } as const;
{
  // The explorer asks its badges and its first page at once: the page is read on a connection of its own, not
  // queued behind the counts of the whole crawl.
  const t0 = performance.now();
  const done = (label: string) => () => console.log(`${label.padEnd(64)} ${(performance.now() - t0).toFixed(0).padStart(7)} ms`);
  await Promise.all([
    crawlViews.filterCounts().then(done('asked together: the badges')),
    crawlViews.queryFiltered(explorerPage).then(done('asked together: explorer, all, first 100 (Link Scores pending)')),
    crawlViews.urlDetail({ id: 2 }).then(done('asked together: URL detail (Link Scores pending)')),
  ]);
}
await time('badges again (kept while the crawl is unchanged)', () => crawlViews.filterCounts(), 1);
await time('site structure, the first fold', () => crawlViews.siteStructure({ paths: [], limit: 100 }), 0);
await time('crawl map, 4,000 nodes (drawn before the Link Scores)', () => crawlViews.crawlMap({ maxNodes: DEFAULT_CRAWL_MAP_NODES }), 0);
{
  // Until the scores come: how long after the first page, and the first page sized by them.
  const t0 = performance.now();
  let page = await crawlViews.queryFiltered(explorerPage);
  while (page.scoresPending) {
    await new Promise((r) => setTimeout(r, 250));
    page = await crawlViews.queryFiltered(explorerPage);
  }
  console.log(
    `${'Link Scores in the explorer, waited for after the above'.padEnd(64)} ${(performance.now() - t0).toFixed(0).padStart(7)} ms`,
  );
  await time('crawl map sized by them (the rows kept)', () => crawlViews.crawlMap({ maxNodes: DEFAULT_CRAWL_MAP_NODES }), 1);
  await time('explorer sorted by Link Score, first 100', () =>
    crawlViews.queryFiltered({ ...explorerPage, sort: 'link_score', descending: true }),
  );
  // The other score sorts a person asks for (each the first time on these views, then again).
  await time('explorer sorted by Link Score ascending, first 100', () =>
    crawlViews.queryFiltered({ ...explorerPage, sort: 'link_score', descending: false }),
  );
  await time('explorer sorted by unique inlinks, first 100', () =>
    crawlViews.queryFiltered({ ...explorerPage, sort: 'unique_inlinks', descending: true }),
  );
  await time('explorer, 4xx, sorted by Link Score, first 100', () =>
    crawlViews.queryFiltered({ ...explorerPage, filter: 'status-4xx', sort: 'link_score', descending: true }),
  );
  await time('explorer, all, text "page-99996", sorted by Link Score', () =>
    crawlViews.queryFiltered({ ...explorerPage, text: 'page-99996', sort: 'link_score', descending: true }),
  );
  await time('explorer sorted by Link Score, the 101st page', () =>
    crawlViews.queryFiltered({ ...explorerPage, sort: 'link_score', descending: true, offset: 10_000 }),
  );
  await time('Results table sorted by Link Score, first 100', () =>
    crawlViews.query({ sort: 'link_score', descending: true, offset: 0, limit: 100, text: '', statusClass: null }),
  );
}
await crawlViews.close();

if (values['views-only']) {
  await client.end();
  process.exit(0);
}
const rounds = Number(values['record-rounds']);
const joined: { node: PgNode | null } = { node: null };
const sent = await capture(async () => {
  for (const [, fn] of views) await fn();
  // A fresh client: the structure's trie is kept per connection, and its first fold is the statement to explain.
  const fresh = new pg.Client({ connectionString: storeUrl });
  await fresh.connect();
  for (const [, fn] of chartCalls(fresh, crawlId)) await fn();
  await fresh.end();
  joined.node = await crawlPaths(storeUrl, crawlId, urls);
});

const plans = await checkPlans(client, sent, { searchPath: schema, analyze: true });
console.log(`\nplans of the ${plans.length} statements sent (EXPLAIN ANALYZE, rolled back):`);
for (const p of plans) {
  const flag = p.seqScans.length ? `  ** ${p.seqScans.join(', ')}` : '';
  console.log(
    `${(p.ms ?? 0).toFixed(1).padStart(8)} ms  ${oneLine(p.sent.text, 110)}\n            ${p.scans.join(' · ') || '(no table)'}${p.genericScans && p.genericScans.join() !== p.scans.join() ? `\n            generic: ${p.genericScans.join(' · ')}` : ''}${flag}`,
  );
  if (values.plans) console.log(p.text.replace(/^/gm, '              '));
}

console.log(`\nrecord path: ${rounds} rounds of claim 25 + record (8 links each, 4 new URLs):`);
const store = joined.node!.store;
let pages = 0;
const perRound: number[] = [];
for (let r = 0; r < rounds; r++) {
  const t = performance.now();
  const claims = (await store.claim(25)).filter((c): c is Extract<Claim, { kind: 'page' }> => c.kind === 'page');
  await store.recordPages(claims.map((c) => recordOf(c, urls)));
  pages += claims.length;
  perRound.push((performance.now() - t) / Math.max(1, claims.length));
}
perRound.sort((a, b) => a - b);
console.log(
  `${pages} pages; ms per page (claim + discover + record): median ${perRound[Math.floor(perRound.length / 2)]!.toFixed(2)}, best ${perRound[0]!.toFixed(2)}`,
);
await store.close();
await client.end();
