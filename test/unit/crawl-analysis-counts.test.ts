// The explorer's filter counts as the session serves them (CrawlAnalysis.filterCounts): a file that has not changed
// is not counted again; a file a crawl is writing is counted again only once ten times the last count's cost has
// passed, so counting a large crawl cannot take most of the process that hosts the crawl.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { CrawlAnalysis } from '../../electron/engine/session/crawl-analysis.ts';
import { tempDir } from '../helpers/engine.ts';

const dir = tempDir('trawl-counts-');
const file = path.join(dir, 'c.trawl');
const { db: writer } = buildSyntheticCrawl(file, { results: 2000, queued: 0 });
const analysis = CrawlAnalysis.open(file);
afterAll(() => {
  analysis.db.close();
  writer.close();
});

describe('filter counts served by the session', () => {
  it('serves the same counts while the file is unchanged, stale ones for a while after a write, then fresh ones', async () => {
    const first = await analysis.filterCounts(true);
    expect(first.all).toBe(2000);
    expect(await analysis.filterCounts(true)).toBe(first);
    // A crawl records a page: within ten times the last count's cost the answer is the last one, then a new count.
    const cost = (analysis as unknown as { counted: { ms: number } }).counted.ms;
    writer.prepare('DELETE FROM results WHERE url_id = (SELECT max(url_id) FROM results)').run();
    const soon = await analysis.filterCounts(true);
    if (cost > 5) expect(soon).toBe(first); // a count that took under 5 ms may be over before this line
    await new Promise((r) => setTimeout(r, 10 * cost + 20));
    const later = await analysis.filterCounts(true);
    expect(later).not.toBe(first);
    expect(later.all).toBe(1999);
  });

  it('counts again at once when nothing is writing the file any more (the last counts after a crawl are true)', async () => {
    const before = await analysis.filterCounts(true);
    writer.prepare('DELETE FROM results WHERE url_id = (SELECT max(url_id) FROM results)').run();
    const after = await analysis.filterCounts(false);
    expect(after).not.toBe(before);
    expect(after.all).toBe(before.all - 1);
  });
});
