// The explorer's counts of a large crawl file go to a worker thread (crawl-reads-thread.ts), so the process that
// hosts the crawl and answers the UI is not held for the seconds they take at a million URLs: the answer must be the
// one the thread would have given, the content filters' counts included (they read the caller's duplicate-content
// TEMP table, which the worker's connection does not have).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { crawlMap } from '../../electron/engine/analysis/crawl-map.ts';
import {
  countsOffThread,
  crawlMapRowsOffThread,
  filterCountsOffThread,
  OFF_THREAD_COUNTS_MS,
  OFF_THREAD_ROWS,
} from '../../electron/engine/analysis/crawl-reads-thread.ts';
import { filterCounts } from '../../electron/engine/analysis/result-filters.ts';
import { siteStructure, structureCsvRows, structureFolded } from '../../electron/engine/analysis/site-structure.ts';
import { SYNTHETIC_ORIGIN } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';
import { CrawlAnalysis } from '../../electron/engine/session/crawl-analysis.ts';
import { tempDir } from '../helpers/engine.ts';

const dir = tempDir('trawl-counts-thread-');
const file = path.join(dir, 'large.trawl');
// Just past the size whose first counts go off the thread, with every kind of row a filter counts.
const { db: writer } = buildSyntheticCrawl(file, {
  results: OFF_THREAD_ROWS + 500,
  rendered: true,
  sitemaps: true,
  images: true,
  structuredData: true,
  content: 400,
});
writer.close();
const small = path.join(dir, 'small.trawl');
buildSyntheticCrawl(small, { results: 300 }).db.close();
const analysis = CrawlAnalysis.open(file);
afterAll(() => analysis.close());

describe('the explorer counts of a large crawl file, off the thread', () => {
  it('go off the thread by the crawl size, then by what they cost', () => {
    const smallAnalysis = CrawlAnalysis.open(small);
    try {
      expect(countsOffThread(smallAnalysis.db, null)).toBe(false);
      expect(countsOffThread(analysis.db, null)).toBe(true);
      expect(countsOffThread(analysis.db, OFF_THREAD_COUNTS_MS - 1)).toBe(false);
      expect(countsOffThread(smallAnalysis.db, OFF_THREAD_COUNTS_MS)).toBe(true);
    } finally {
      smallAnalysis.close();
    }
  });

  it('equal the counts made in the thread, the content filters counted from this connection', async () => {
    // The crawl's duplicate content computed, and its TEMP table filled on this connection only.
    await analysis.prepareContent();
    analysis.refreshContent();
    const inThread = filterCounts(analysis.db);
    expect(inThread['content-exact-duplicates']).toBeGreaterThan(0);
    expect(inThread['content-low']).toBeGreaterThan(0);
    expect(inThread['js-rendered']).toBeGreaterThan(0);
    expect(await filterCountsOffThread(analysis.db)).toEqual(inThread);
  });

  it('leave the event loop turning while they run, and are shared by the callers meanwhile', async () => {
    const fresh = CrawlAnalysis.open(file);
    try {
      await fresh.prepareContent();
      const counting = fresh.filterCounts();
      let settled = false;
      void counting.then(() => (settled = true));
      // In the thread, the counts would be done before the event loop's next turn.
      let turns = 0;
      while (!settled && turns < 3) {
        await new Promise((r) => setImmediate(r));
        turns++;
      }
      expect(settled).toBe(false);
      const again = fresh.filterCounts();
      const [a, b] = await Promise.all([counting, again]);
      expect(b).toBe(a);
      expect(a).toEqual(filterCounts(fresh.db));
      // Counted again only once the file changes: the same answer at once.
      expect(await fresh.filterCounts()).toBe(a);
    } finally {
      fresh.close();
    }
  });

  it('draw the crawl map from the rows read off the thread as from the rows read in it', async () => {
    const read = await crawlMapRowsOffThread(analysis.db);
    const query = { maxNodes: 300 };
    const { ms: _a, ...inThread } = crawlMap(analysis.db, query);
    const { ms: _b, ...fromRows } = crawlMap(analysis.db, query, null, undefined, read);
    expect(inThread.total).toBeGreaterThan(OFF_THREAD_ROWS / 2);
    expect(fromRows).toEqual(inThread);
    // As the session asks: the rows read off the thread, kept, and the map folded again from them for another limit.
    const fresh = CrawlAnalysis.open(file);
    try {
      // (sized by its Link Scores, which the maps above are not: the same nodes, in the same tree)
      const first = await fresh.crawlMap(query);
      expect(first.scored).toBe(true);
      expect([first.total, first.nodes.urlId, first.nodes.parent]).toEqual([inThread.total, inThread.nodes.urlId, inThread.nodes.parent]);
      const { ms: _c, ...wider } = crawlMap(analysis.db, { maxNodes: 600 });
      const again = await fresh.crawlMap({ maxNodes: 600 });
      expect(again.nodes.urlId).toEqual(wider.nodes.urlId);
    } finally {
      fresh.close();
    }
  });

  it('fold the site structure off the thread into the trie the thread would have folded', async () => {
    const query = { paths: [`${SYNTHETIC_ORIGIN}/`, `${SYNTHETIC_ORIGIN}/docs/`, `${SYNTHETIC_ORIGIN}/docs/g0/`], limit: 50 };
    const inThread = openCrawlForAnalysis(file);
    const fresh = CrawlAnalysis.open(file);
    try {
      const expected = siteStructure(inThread, query);
      expect(expected.levels.map((l) => l.children.length)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
      expect(expected.total.urls).toBeGreaterThan(OFF_THREAD_ROWS / 2);
      expect(structureFolded(fresh.db)).toBe(false);
      const answer = await fresh.siteStructure(query);
      // Folded by the worker and adopted by the session's connection, which then answers any level from it.
      expect(structureFolded(fresh.db)).toBe(true);
      expect(answer).toEqual(expected);
      expect(await fresh.siteStructure({ paths: [`${SYNTHETIC_ORIGIN}/shop/`], limit: 5 })).toEqual(
        siteStructure(inThread, { paths: [`${SYNTHETIC_ORIGIN}/shop/`], limit: 5 }),
      );
      expect([...structureCsvRows(fresh.db)]).toEqual([...structureCsvRows(inThread)]);
    } finally {
      fresh.close();
      inThread.close();
    }
  });
});
