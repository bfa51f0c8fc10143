// A cluster crawl's views do not wait for what is computed over the whole crawl before they answer (issue 19): the
// explorer's page, a URL's detail and the crawl map of a crawl in the store come at once, marked pending while its
// Link Scores and its duplicate content analysis are computed off the thread, then with them. (A crawl file's views
// are checked alike in test/processes/link-score-crawl.test.ts.)
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ExplorerQuery } from '../../shared/analysis.ts';
import type { UrlDetail } from '../../shared/url-detail.ts';
import type { CrawlMap } from '../../shared/crawl-map.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { runCli } from '../helpers/cli.ts';
import { askUntil } from '../helpers/ask-until.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

withPg.describe('the views of a crawl in the PostgreSQL store, before its whole-crawl analyses are computed', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let session: CrawlSession;
  let crawlId: string;

  beforeAll(async () => {
    db = await freshDatabase('views_pending');
    site = await startFixtureSite({ pages: 12 });
    const crawled = await runCli(['--store', db.url, site.url('/p/0'), '--threads', '2', '--quiet', '--no-sitemaps']);
    expect(crawled.code, crawled.stderr).toBe(0);
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(crawled.stderr)![1]!;
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
    await session.attachStore(db.url, crawlId);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await site?.close();
    await db?.drop();
  });

  it('answers the page, the detail and the map at once, their scores and duplicates pending, then with them', async () => {
    const bySeq: ExplorerQuery = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 };
    // Nothing asked the crawl's Link Scores before: this page starts them and does not wait.
    const pages = await askUntil(
      () => session.queryFiltered(bySeq),
      (p) => !p.scoresPending,
    );
    expect(pages[0]!.scoresPending).toBe(true);
    expect(pages[0]!.rows.every((r) => r.link_score === null)).toBe(true);
    const scored = pages[pages.length - 1]!;
    expect(scored.scoresPending).toBeUndefined();
    const home = scored.rows.find((r) => r.url === site.url('/p/1'))!;
    expect(home.link_score).toEqual(expect.any(Number));

    // Nothing asked its duplicate content before: the detail starts the analysis and does not wait.
    const details = await askUntil(
      () => session.urlDetail({ id: home.url_id }),
      (d: UrlDetail | null) => !d?.contentPending,
    );
    expect(details[0]).toMatchObject({ contentPending: true, url: site.url('/p/1') });
    expect(details[0]!.content).toBeUndefined();
    const detail = details[details.length - 1]!;
    expect(detail.contentPending).toBeUndefined();
    expect(detail.content).toMatchObject({ compared: true });
    expect(detail.row.link_score).toBe(home.link_score);

    // The map with the scores there is sized by them at once.
    const map: CrawlMap = await session.crawlMap({ maxNodes: 100 });
    expect(map.scoresPending).toBeUndefined();
    expect(map.scored).toBe(true);
  });

  it('answers a page while the counts of the whole crawl are still being read, on a connection of their own', async () => {
    // Another session holds a table only the counts read (hreflang): they wait for it, as they would take seconds
    // at a million URLs. A page asked after them must not wait behind them.
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${crawlSchema(crawlId)}.hreflang IN ACCESS EXCLUSIVE MODE`);
      let counted = false;
      const counts = session.filterCounts().then((c) => {
        counted = true;
        return c;
      });
      // Once they are waiting for it:
      const waiting = await askUntil(
        async () =>
          (
            await locker.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name LIKE 'trawl-observer%'`,
            )
          ).rows[0].n as number,
        (n) => n > 0,
      );
      expect(waiting[waiting.length - 1], 'the counts never waited for the table').toBeGreaterThan(0);
      const page = await Promise.race([
        session.queryFiltered({ filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 }),
        new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
      ]);
      expect(page, 'the page waited behind the counts').not.toBeNull();
      expect(page!.total).toBeGreaterThan(0);
      expect(counted).toBe(false);
      await locker.query('COMMIT');
      expect((await counts).all).toBe(page!.total);
    } finally {
      await locker.end();
    }
  });
});
