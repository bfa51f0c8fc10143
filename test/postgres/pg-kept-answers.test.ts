// Answers about a whole crawl kept in a crawl in the PostgreSQL store (electron/engine/analysis/pg-kept-answers.ts):
// the explorer's badges counted while no node adds results are written into the crawl, and a later reader, in this
// process or another, takes them instead of counting again (seconds at a million URLs, after duplicate content's
// analysis). New results, other content options or a node's rows uncommitted make them not the crawl's. Duplicate
// content's outcome is kept too, and a later reader's content filters read it without the analysis.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FilterCounts } from '../../shared/analysis.ts';
import { connect, type PgClient } from '../../electron/engine/frontier/postgres/pg-client.ts';
import { crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { ClusterResults } from '../../electron/engine/session/cluster-results.ts';
import { storeCrawlKey, storeResultsStamp } from '../../electron/engine/analysis/pg-content.ts';
import { forgetContentAnalysis } from '../../electron/engine/analysis/near-duplicates.ts';
import { serverLabel } from '../../electron/engine/frontier/postgres/pg-store-url.ts';
import { askUntil } from '../helpers/ask-until.ts';
import { runCli } from '../helpers/cli.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

withPg.describe('answers kept in a crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let crawlId: string;
  let schema: string;
  let admin: PgClient;
  const readers: ClusterResults[] = [];
  /** A reader of the crawl as a process that opens it has: no counts or duplicate content analysis of its own yet. */
  const reader = () => {
    forgetContentAnalysis(storeCrawlKey(serverLabel(db.url), crawlId));
    const r = new ClusterResults(db.url, crawlId);
    readers.push(r);
    return r;
  };
  const kept = async () =>
    (
      await admin.query<{ stamp: string; answer: FilterCounts }>(
        `SELECT stamp, answer FROM ${schema}.kept_answers WHERE name = 'filter_counts'`,
      )
    ).rows;
  /** Marks the kept counts, so that a reader that returns the mark took them rather than counting. */
  const markKept = () => admin.query(`UPDATE ${schema}.kept_answers SET answer = jsonb_set(answer, '{all}', '4242')`);

  beforeAll(async () => {
    db = await freshDatabase('kept_answers');
    site = await startFixtureSite({ pages: 12 });
    const crawled = await runCli(['--store', db.url, site.url('/p/0'), '--threads', '2', '--quiet', '--no-sitemaps']);
    expect(crawled.code, crawled.stderr).toBe(0);
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(crawled.stderr)![1]!;
    schema = crawlSchema(crawlId);
    admin = await connect(db.url, { applicationName: 'trawl kept answers test' });
  }, 120_000);

  afterAll(async () => {
    for (const r of readers) await r.close();
    await admin?.end().catch(() => undefined);
    await site?.close();
    await db?.drop();
  });

  it('keeps the badges of a crawl no node is adding to, and another reader takes them without counting', async () => {
    const counts = await reader().filterCounts();
    expect(counts.all).toBeGreaterThan(10);
    const [row] = await kept();
    expect(row!.answer).toEqual(counts);
    expect(row!.stamp.startsWith(`${await storeResultsStamp(admin, crawlId)}|`)).toBe(true);

    await markKept();
    expect((await reader().filterCounts()).all).toBe(4242);
    expect((await reader().issuesOverview()).issues.length).toBeGreaterThan(0);

    // A full page's total is its badge, not counted again; a page a text narrows is counted.
    const views = reader();
    await views.filterCounts();
    const page = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 5 } as const;
    expect((await views.queryFiltered(page)).total).toBe(4242);
    expect((await views.queryFiltered({ ...page, text: '/p/' })).total).toBe(counts.all);
  });

  it('counts again once the crawl has new results, and keeps the new counts', async () => {
    await reader().filterCounts();
    await markKept();
    // A new result's seq (as a node recording a page draws one): the crawl's state has moved on.
    await admin.query(`SELECT nextval('${schema}.results_seq_seq')`);
    const now = await storeResultsStamp(admin, crawlId);
    const counts = await reader().filterCounts();
    expect(counts.all).toBeGreaterThan(10);
    expect(counts.all).not.toBe(4242);
    const [row] = await kept();
    expect(row!.stamp.startsWith(`${now}|`)).toBe(true);
    expect(row!.answer).toEqual(counts);
  });

  it('does not take counts kept for other content options, nor keep any while a node holds results uncommitted', async () => {
    const first = reader();
    await first.filterCounts();
    await markKept();
    // Other options for duplicate content (this process's, as the explorer sets them): its counts are other counts.
    const other = reader();
    const options = await other.contentOptions({});
    await other.contentOptions({ threshold: options.threshold === 0.9 ? 0.95 : 0.9 });
    try {
      expect((await other.filterCounts()).all).not.toBe(4242);
    } finally {
      await other.contentOptions(options);
    }
    const before = await kept();

    const node = await connect(db.url, { applicationName: 'trawl kept answers node' });
    await node.query(`SELECT nextval('${schema}.results_seq_seq')`);
    // A node's open insert into results: the stamp says its rows are still to come.
    await node.query('BEGIN');
    await node.query(`LOCK TABLE ${schema}.results IN ROW EXCLUSIVE MODE`);
    try {
      expect(await storeResultsStamp(admin, crawlId)).toMatch(/\+$/);
      await markKept();
      expect((await reader().filterCounts()).all).not.toBe(4242);
      expect((await kept()).map((r) => r.stamp)).toEqual(before.map((r) => r.stamp));
    } finally {
      await node.query('ROLLBACK');
      await node.end();
    }
  });

  it("keeps duplicate content's outcome, which another reader's content filters read without the analysis", async () => {
    const page = { filter: 'content-low', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 } as const;
    const first = reader();
    const options = (await first.contentOptions({})) as { threshold: number; allPages: boolean; lowContentWords: number };
    const computed = await first.queryFiltered(page);
    const optionsKey = `${options.threshold}|${options.allPages ? 1 : 0}|${options.lowContentWords}`;
    const keptRows = async () =>
      (
        await admin.query<{ url_id: string; low: number }>(
          `SELECT url_id, low FROM ${schema}.content_dups_kept WHERE options = $1 ORDER BY url_id`,
          [optionsKey],
        )
      ).rows;
    /** The state of the outcome kept for each set of options. */
    const stamps = async () =>
      new Map(
        (await admin.query<{ options: string; stamp: string }>(`SELECT options, stamp FROM ${schema}.content_dups_stamp`)).rows.map((r) => [
          r.options,
          r.stamp,
        ]),
      );
    const now = await storeResultsStamp(admin, crawlId);
    expect((await stamps()).get(optionsKey)).toBe(now);
    const rows = await keptRows();
    expect(rows.filter((r) => r.low === 1).length).toBe(computed.total);
    // All but one kept page taken out: a reader whose filter then lists that one read the kept outcome.
    expect(computed.total).toBeGreaterThan(1);
    await admin.query(`DELETE FROM ${schema}.content_dups_kept WHERE options = $1 AND url_id <> $2`, [optionsKey, rows[0]!.url_id]);
    try {
      const second = reader();
      expect((await second.queryFiltered(page)).rows.map((r) => r.url_id)).toEqual([Number(rows[0]!.url_id)]);
      // Its detail pane's duplicates are computed, in the background: the page's row does not wait for them.
      const id = Number(rows[0]!.url_id);
      const details = await askUntil(
        () => second.urlDetail({ id }),
        (d) => d?.contentPending !== true,
      );
      expect(details[details.length - 1]?.content).toBeTruthy();

      // Other options: computed for them, and kept beside the first.
      const other = reader();
      const threshold = options.threshold === 0.9 ? 0.95 : 0.9;
      await other.contentOptions({ threshold });
      try {
        expect((await other.queryFiltered(page)).total).toBe(computed.total);
        const kept = await stamps();
        expect(kept.get(`${threshold}|${options.allPages ? 1 : 0}|${options.lowContentWords}`)).toBe(now);
        expect(kept.get(optionsKey)).toBe(now);
      } finally {
        await other.contentOptions(options);
      }

      // A node's rows uncommitted: computed, and nothing kept for that state.
      const node = await connect(db.url, { applicationName: 'trawl kept content node' });
      await node.query('BEGIN');
      await node.query(`LOCK TABLE ${schema}.results IN ROW EXCLUSIVE MODE`);
      try {
        expect((await reader().queryFiltered(page)).total).toBe(computed.total);
        expect((await stamps()).get(optionsKey)).toBe(now);
      } finally {
        await node.query('ROLLBACK');
        await node.end();
      }
    } finally {
      // The marked outcome is no crawl's: the tests after this one compute theirs.
      await admin.query(`DELETE FROM ${schema}.content_dups_stamp`);
    }
  });

  it('makes the table for a crawl made before it, and counts when it may not keep them', async () => {
    await admin.query(`DROP TABLE ${schema}.kept_answers`);
    const counts = await reader().filterCounts();
    expect((await kept()).map((r) => r.answer)).toEqual([counts]);

    await admin.query(`SELECT nextval('${schema}.results_seq_seq')`); // a state no counts were kept for
    const before = await kept();
    // The owner gives up writing the kept answers, as a role that may only read the crawl has never had it.
    await admin.query(`REVOKE INSERT, UPDATE ON ${schema}.kept_answers FROM CURRENT_USER`);
    try {
      expect(await reader().filterCounts()).toEqual(counts);
      expect(await kept()).toEqual(before);
    } finally {
      await admin.query(`GRANT INSERT, UPDATE ON ${schema}.kept_answers TO CURRENT_USER`);
    }
  });
});
