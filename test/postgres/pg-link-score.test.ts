// Link Score kept in a crawl in the PostgreSQL store (electron/engine/analysis/pg-link-score.ts): scores computed while
// no node adds results are written into the crawl, and any later reader, in this process or another, reads them as
// they are instead of computing them again (seconds at a million URLs). New results make them stale; a crawl made
// before the kept tables gets them from its first reader.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type PgClient } from '../../electron/engine/frontier/postgres/pg-client.ts';
import { crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { refreshStoreLinkScores, storeLinkScores, storeLinkScoresBehind } from '../../electron/engine/analysis/pg-link-score.ts';
import { storeResultsStamp } from '../../electron/engine/analysis/pg-content.ts';
import { ClusterResults } from '../../electron/engine/session/cluster-results.ts';
import { askUntil } from '../helpers/ask-until.ts';
import { runCli } from '../helpers/cli.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

withPg.describe('Link Score kept in a crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let crawlId: string;
  let schema: string;
  const clients: PgClient[] = [];
  /** A reading connection of its own: its link_scores starts empty, as a new process's would. */
  const reader = async () => {
    const c = await connect(db.url, { applicationName: 'trawl link score test' });
    clients.push(c);
    return c;
  };
  /** Each URL's score in the connection's link_scores, by URL id. */
  const scoresOf = async (c: PgClient) =>
    (await c.query<{ url_id: string; link_score: number }>('SELECT url_id, link_score FROM pg_temp.link_scores ORDER BY url_id')).rows;
  const keptStamp = async (c: PgClient) =>
    (await c.query<{ stamp: string }>(`SELECT stamp FROM ${schema}.link_scores_stamp`)).rows.map((r) => r.stamp);
  // Each test reads the crawl under keys of its own, so none finds scores another computed in this process.
  let keys = 0;
  const key = () => `kept-test-${++keys}`;

  beforeAll(async () => {
    db = await freshDatabase('link_score_kept');
    site = await startFixtureSite({ pages: 12 });
    const crawled = await runCli(['--store', db.url, site.url('/p/0'), '--threads', '2', '--quiet', '--no-sitemaps']);
    expect(crawled.code, crawled.stderr).toBe(0);
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(crawled.stderr)![1]!;
    schema = crawlSchema(crawlId);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await site?.close();
    await db?.drop();
  });

  it('keeps the scores of a crawl no node is adding to, and another reader reads them without computing', async () => {
    const first = await reader();
    expect(await refreshStoreLinkScores(first, db.url, crawlId, key(), { wait: true })).toBe(true);
    const scores = await scoresOf(first);
    expect(scores.length).toBeGreaterThan(10);
    expect(scores.some((s) => s.link_score > 0)).toBe(true);
    expect(await keptStamp(first)).toEqual([await storeResultsStamp(first, crawlId)]);
    const kept = await first.query(`SELECT url_id, link_score FROM ${schema}.link_scores ORDER BY url_id`);
    expect(kept.rows).toEqual(scores);

    // A reader that never computed them, asking in the background (it would otherwise be told they are pending).
    const second = await reader();
    const other = key();
    expect(await refreshStoreLinkScores(second, db.url, crawlId, other, { background: true })).toBe(true);
    expect(storeLinkScoresBehind(other, { background: true })).toBe(false);
    expect(await scoresOf(second)).toEqual(scores);

    // As arrays (the crawl map's), read from the crawl at once rather than computed again.
    const third = key();
    const arrays = await storeLinkScores(second, db.url, crawlId, third, { background: true });
    expect(storeLinkScoresBehind(third, { background: true })).toBe(false);
    expect(arrays?.stamp).toBe(await storeResultsStamp(first, crawlId));
    const byId = [...arrays!.urlIds].map((id, i) => ({ url_id: id, link_score: arrays!.scores[i] }));
    expect(byId.sort((a, b) => a.url_id - b.url_id)).toEqual(scores.map((s) => ({ ...s, url_id: Number(s.url_id) })));
  });

  it('reads kept scores through a view of them until a read sorts by them, which copies them into a table', async () => {
    const c = await reader();
    await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true });
    const kind = async (r: PgClient) =>
      (await r.query<{ relkind: string }>("SELECT relkind FROM pg_class WHERE oid = to_regclass('pg_temp.link_scores')")).rows[0]?.relkind;
    const scores = await scoresOf(c);
    // A new connection's page or detail: the kept scores at once, without the copy (0.7 s at a million URLs).
    const page = await reader();
    const other = key();
    expect(await refreshStoreLinkScores(page, db.url, crawlId, other, { background: true })).toBe(true);
    expect(await kind(page)).toBe('v');
    expect(await scoresOf(page)).toEqual(scores);
    // Sorted by them: a table of the connection's own, which PostgreSQL has statistics of.
    expect(await refreshStoreLinkScores(page, db.url, crawlId, other, {}, true)).toBe(true);
    expect(await kind(page)).toBe('r');
    expect(await scoresOf(page)).toEqual(scores);
    expect(await refreshStoreLinkScores(page, db.url, crawlId, other, { background: true })).toBe(true);
    expect(await kind(page)).toBe('r');
  });

  it("readies the views' copy for sorting by the scores once a page is read, and sorts from it", async () => {
    const c = await reader();
    await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true });
    const expected = [...(await scoresOf(c))].sort((a, b) => b.link_score - a.link_score || Number(a.url_id) - Number(b.url_id));
    /** What link_scores is in the temporary schema of the views' connection for sorts ('r': a table), if it has one. */
    const sortsTable = async () =>
      (
        await c.query<{ relkind: string }>(
          `SELECT cl.relkind FROM pg_class cl JOIN pg_namespace n ON n.oid = cl.relnamespace
           JOIN pg_stat_get_backend_idset() AS b(id) ON n.nspname = 'pg_temp_' || b.id
           JOIN pg_stat_activity a ON a.pid = pg_stat_get_backend_pid(b.id)
           WHERE cl.relname = 'link_scores' AND a.application_name = 'trawl-observer-sorts' AND a.datname = current_database()`,
        )
      ).rows[0]?.relkind;
    const views = new ClusterResults(db.url, crawlId);
    try {
      const page = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 } as const;
      await views.queryFiltered(page);
      // Readied in the background after that page: the sort then finds the copy made.
      const kinds = await askUntil(sortsTable, (kind) => kind === 'r');
      expect(kinds[kinds.length - 1], 'no copy was readied for the sorts').toBe('r');
      const sorted = await views.queryFiltered({ ...page, sort: 'link_score', descending: true });
      expect(sorted.rows.map((r) => r.url_id)).toEqual(expected.slice(0, sorted.rows.length).map((s) => Number(s.url_id)));
      expect(sorted.scoresPending).toBeUndefined();
    } finally {
      await views.close();
    }
  });

  it('computes again once the crawl has new results, keeping the new scores, the old ones serving meanwhile', async () => {
    const c = await reader();
    await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true });
    const before = await keptStamp(c);
    // A new result's seq (as a node recording a page draws one): the crawl's state has moved on.
    await c.query(`SELECT nextval('${schema}.results_seq_seq')`);
    const now = await storeResultsStamp(c, crawlId);
    expect(before).not.toEqual([now]);

    const background = await reader();
    const next = key();
    // Not kept for this state: computed, and the kept scores of the state before serve until they are.
    expect(await refreshStoreLinkScores(background, db.url, crawlId, next, { background: true })).toBe(true);
    expect(await scoresOf(background)).toEqual(await scoresOf(c));
    expect(await refreshStoreLinkScores(background, db.url, crawlId, next, { wait: true })).toBe(true);
    expect(await keptStamp(c)).toEqual([now]);
  });

  it('makes the tables for a crawl made before them', async () => {
    const c = await reader();
    // CASCADE: the earlier readers' connections read the kept scores through views of their own.
    await c.query(`DROP TABLE ${schema}.link_scores, ${schema}.link_scores_stamp CASCADE`);
    expect(await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true })).toBe(true);
    expect(await keptStamp(c)).toEqual([await storeResultsStamp(c, crawlId)]);
    expect((await scoresOf(c)).length).toBeGreaterThan(10);
  });

  it('reads the scores it computed when it may not keep them, keeping nothing', async () => {
    const c = await reader();
    await c.query(`SELECT nextval('${schema}.results_seq_seq')`); // a state no scores were kept for
    const kept = await keptStamp(c);
    // The owner gives up writing the kept scores, as a role that may only read the crawl has never had it.
    await c.query(`REVOKE INSERT, DELETE ON ${schema}.link_scores FROM CURRENT_USER`);
    try {
      expect(await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true })).toBe(true);
      expect(await keptStamp(c)).toEqual(kept);
      expect((await scoresOf(c)).length).toBeGreaterThan(10);
    } finally {
      await c.query(`GRANT INSERT, DELETE ON ${schema}.link_scores TO CURRENT_USER`);
    }
  });

  it('copies the scores into the connection while a node holds results uncommitted, keeping nothing', async () => {
    const c = await reader();
    const node = await reader();
    // A node's open insert into results: the stamp says its rows are still to come.
    await node.query('BEGIN');
    await node.query(`LOCK TABLE ${schema}.results IN ROW EXCLUSIVE MODE`);
    try {
      const stamp = await storeResultsStamp(c, crawlId);
      expect(stamp).toMatch(/\+$/);
      const kept = await keptStamp(c);
      expect(await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true })).toBe(true);
      expect(await keptStamp(c)).toEqual(kept);
      expect((await scoresOf(c)).length).toBeGreaterThan(10);
    } finally {
      await node.query('ROLLBACK');
    }
  });
});
