// A rendering crawl kept in PostgreSQL spaces a host's page fetches and its renders' sub-resource fetches on one clock
// (hosts.fetch_due, issue 16, point 4), as a crawl file does (test/processes/render-politeness.test.ts): a warm render
// asking for its script right after its page's fetch waits the crawl's delay. The CLI, the test server, Chromium.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHAIN_REQUESTS, CHAIN_TIMEOUT_MS, crawlChainSite, SHARED_DELAY_MS, SHARED_SLACK_MS } from '../helpers/chain-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { testChromium } from '../helpers/render-fixtures.ts';

const withPg = await pgSuite();
const chromium = testChromium();
if (!chromium.path) console.warn(`render politeness tests skipped: ${chromium.why}`);

withPg.describe('a rendering crawl in PostgreSQL with a crawl delay', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = await freshDatabase('render_polite');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it.skipIf(!chromium.path)(
    'waits the delay between a page fetch and a sub-resource fetch of its host, in either order',
    async () => {
      const { run, requests, gaps } = await crawlChainSite(chromium.path!, ['--store', db.url]);
      expect(run.code, run.stderr).toBe(0);
      expect(requests).toEqual(CHAIN_REQUESTS);
      for (const gap of gaps) expect(gap.ms, JSON.stringify(gaps)).toBeGreaterThanOrEqual(SHARED_DELAY_MS - SHARED_SLACK_MS);
    },
    CHAIN_TIMEOUT_MS,
  );
});
