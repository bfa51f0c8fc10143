// Link Score kept in a crawl in the PostgreSQL store (electron/engine/analysis/pg-link-score.ts): scores computed while
// no node adds results are written into the crawl, and any later reader, in this process or another, reads them as
// they are instead of computing them again (seconds at a million URLs). New results make them stale; a crawl made
// before the kept tables gets them from its first reader.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type PgClient } from '../../electron/engine/frontier/postgres/pg-client.ts';
import { crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import {
  orderedLinkScores,
  keepLinkScoreOrder,
  readyKeptLinkScores,
  refreshStoreLinkScores,
  storeLinkScores,
  storeLinkScoresBehind,
} from '../../electron/engine/analysis/pg-link-score.ts';
import { storeResultsStamp } from '../../electron/engine/analysis/pg-content.ts';
import { ClusterResults, queryClusterResults } from '../../electron/engine/session/cluster-results.ts';
import { postgresQueryFiltered } from '../../electron/engine/analysis/pg-explorer.ts';
import type { ResultsPage, ResultsQuery } from '../../shared/crawler-api.ts';
import { askUntil } from '../helpers/ask-until.ts';
import { runCli } from '../helpers/cli.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

const BASE: ResultsQuery = { offset: 0, limit: 100, sort: 'seq', descending: false, text: '', statusClass: null };
const pageOf = (p: ResultsPage) => ({ rows: p.rows, total: p.total });

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

  /** What the connection's link_scores is: 'v' a view (of the kept scores), 'r' a table of its own. */
  const kindOf = async (r: PgClient) =>
    (await r.query<{ relkind: string }>("SELECT relkind FROM pg_class WHERE oid = to_regclass('pg_temp.link_scores')")).rows[0]?.relkind;

  /** Makes the crawl's kept scores as a build before they were ordered kept them. */
  const keptUnordered = async (c: PgClient) => {
    await c.query(`DROP TABLE IF EXISTS ${schema}.link_scores_order`);
    await c.query(`ALTER TABLE ${schema}.link_scores_stamp DROP COLUMN ordered_through`);
  };

  it('reads kept scores through a view, copies them for a sort until they are ordered, then walks them', async () => {
    const c = await reader();
    const first = key();
    await refreshStoreLinkScores(c, db.url, crawlId, first, { wait: true });
    const scores = await scoresOf(c);
    // A new connection's page or detail: the kept scores at once, without a copy (0.7 s at a million URLs).
    const page = await reader();
    const other = key();
    expect(await refreshStoreLinkScores(page, db.url, crawlId, other, { background: true })).toBe(true);
    expect(await kindOf(page)).toBe('v');
    expect(await scoresOf(page)).toEqual(scores);
    // Sorted by them as they were kept: a table of the connection's own, which PostgreSQL has statistics of.
    expect(await refreshStoreLinkScores(page, db.url, crawlId, other, {}, true)).toBe(true);
    expect(await kindOf(page)).toBe('r');
    expect(orderedLinkScores(page)).toBeNull();
    expect(await scoresOf(page)).toEqual(scores);

    // The results kept in their order (as the views do in the background): every one, scored or not.
    expect(await readyKeptLinkScores(c, crawlId, first)).toBe('copy');
    expect(await keepLinkScoreOrder(c, crawlId)).toBe(true);
    expect(await readyKeptLinkScores(c, crawlId, first)).toBe('walk');
    const kept = await c.query<{ scored: string; all: string; results: string; last: string }>(
      `SELECT count(link_score) AS scored, count(*) AS all, (SELECT count(*) FROM ${schema}.results) AS results,
         (SELECT max(seq) FROM ${schema}.results) AS last
       FROM ${schema}.link_scores_order`,
    );
    expect(Number(kept.rows[0]!.scored)).toBe(scores.length);
    expect(kept.rows[0]!.all).toBe(kept.rows[0]!.results);
    const ordered = { schema, through: Number(kept.rows[0]!.last) };
    expect(orderedLinkScores(c)).toEqual(ordered);
    expect(await scoresOf(c)).toEqual(scores);
    // A later reader's sort keeps the view, and walks the kept scores' indexes.
    const later = await reader();
    expect(await refreshStoreLinkScores(later, db.url, crawlId, key(), {}, true)).toBe(true);
    expect(await kindOf(later)).toBe('v');
    expect(orderedLinkScores(later)).toEqual(ordered);
    expect(await scoresOf(later)).toEqual(scores);
  });

  it('copies scores a build before kept unordered for a sort, and orders them in the crawl once a page is read', async () => {
    const c = await reader();
    await refreshStoreLinkScores(c, db.url, crawlId, key(), { wait: true });
    const expected = [...(await scoresOf(c))].sort((a, b) => b.link_score - a.link_score || Number(a.url_id) - Number(b.url_id));
    await keptUnordered(c);
    // A sort on a new connection: a table of its own, which PostgreSQL has statistics of.
    const copier = await reader();
    expect(await refreshStoreLinkScores(copier, db.url, crawlId, key(), {}, true)).toBe(true);
    expect(await kindOf(copier)).toBe('r');
    expect(orderedLinkScores(copier)).toBeNull();
    expect((await scoresOf(copier)).length).toBe(expected.length);

    const orderedThrough = async () =>
      (await c.query<{ j: { ordered_through?: string | null } }>(`SELECT to_jsonb(s) AS j FROM ${schema}.link_scores_stamp s`)).rows[0]?.j
        .ordered_through ?? null;
    expect(await orderedThrough()).toBeNull();
    const views = new ClusterResults(db.url, crawlId);
    try {
      const page = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 } as const;
      await views.queryFiltered(page);
      // Kept in order in the background after that page, for every reader after; the views' sorts then walk it, their
      // link_scores a view of the kept scores.
      const through = await askUntil(orderedThrough, (t) => t !== null);
      expect(through[through.length - 1], 'the results were not kept in order').not.toBeNull();
      const sortsKind = async () =>
        (
          await c.query<{ relkind: string }>(
            `SELECT cl.relkind FROM pg_class cl JOIN pg_namespace n ON n.oid = cl.relnamespace
             JOIN pg_stat_get_backend_idset() AS b(id) ON n.nspname = 'pg_temp_' || b.id
             JOIN pg_stat_activity a ON a.pid = pg_stat_get_backend_pid(b.id)
             WHERE cl.relname = 'link_scores' AND a.application_name = 'trawl-observer-sorts' AND a.datname = current_database()`,
          )
        ).rows[0]?.relkind;
      const kinds = await askUntil(sortsKind, (kind) => kind === 'v');
      expect(kinds[kinds.length - 1], "the views' sorts do not walk the order").toBe('v');
      const sorted = await views.queryFiltered({ ...page, sort: 'link_score', descending: true });
      const scored = sorted.rows.filter((r) => r.link_score !== null);
      expect(scored.map((r) => r.url_id)).toEqual(expected.map((s) => Number(s.url_id)));
      expect(sorted.scoresPending).toBeUndefined();
    } finally {
      await views.close();
    }
    const later = await reader();
    expect(await refreshStoreLinkScores(later, db.url, crawlId, key(), {}, true)).toBe(true);
    expect(await kindOf(later)).toBe('v');
    expect(orderedLinkScores(later)).not.toBeNull();
  });

  it('walks the results kept in score order to the pages a sort of a copy of the scores gives, past the scored rows and a row after', async () => {
    const walker = await reader();
    // A result without a score (an image the crawl checked), in the state the scores are kept for: in their order,
    // last.
    const lateUrl = (suffix: string, checkOnly = 0) =>
      `INSERT INTO ${schema}.urls (url, host_id, state, depth, discovered_at, check_only)
       SELECT url || '${suffix}', host_id, state, depth, discovered_at, ${checkOnly} FROM ${schema}.urls ORDER BY id LIMIT 1 RETURNING id`;
    const image = await walker.query<{ id: string }>(
      `WITH u AS (${lateUrl('?image', 1)}) INSERT INTO ${schema}.results (url_id, status_code, content_type, crawl_depth, fetched_at)
       SELECT id, 200, 'image/png', 1, 0 FROM u RETURNING url_id AS id`,
    );
    const walking = key();
    await refreshStoreLinkScores(walker, db.url, crawlId, walking, { wait: true }, true);
    expect(await keepLinkScoreOrder(walker, crawlId)).toBe(true);
    expect(await readyKeptLinkScores(walker, crawlId, walking)).toBe('walk');
    expect(orderedLinkScores(walker)).not.toBeNull();
    const unscored = await walker.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.link_scores_order WHERE link_score IS NULL`);
    expect(Number(unscored.rows[0]!.n)).toBe(1);
    // The reference: the same scores in a table of the connection's own, sorted by PostgreSQL (as before they were kept
    // in order).
    const copier = await reader();
    await copier.query(`CREATE TEMP TABLE link_scores AS SELECT url_id, link_score, unique_inlinks FROM ${schema}.link_scores`);
    // A result with no score and not in their order (a node's, committed as the order was kept): after every row in it.
    const { rows } = await walker.query<{ id: string; seq: string }>(
      `WITH u AS (${lateUrl('?late')}) INSERT INTO ${schema}.results (seq, url_id, status_code, crawl_depth, fetched_at)
       SELECT (SELECT max(seq) + 1 FROM ${schema}.results), id, 404, 1, 0 FROM u RETURNING url_id AS id, seq`,
    );
    try {
      const sent: string[] = [];
      const query = walker.query.bind(walker);
      walker.query = ((...args: Parameters<typeof query>) => {
        sent.push(typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string }).text ?? ''));
        return query(...args);
      }) as typeof walker.query;
      const total = (await queryClusterResults(copier, crawlId, { ...BASE, limit: 1 }, true)).total;
      expect(total).toBeGreaterThan(10);
      for (const sort of ['link_score', 'unique_inlinks'] as const) {
        for (const descending of [false, true]) {
          for (const statusClass of [null, '2xx', '4xx'] as const) {
            for (const text of ['', 'p/1']) {
              for (let offset = 0; offset <= total + 1; offset += 4) {
                const q: ResultsQuery = { ...BASE, sort, descending, statusClass, text, offset, limit: 5 };
                const walked = await queryClusterResults(walker, crawlId, q, true);
                expect({ q, rows: walked.rows, total: walked.total }).toEqual({
                  q,
                  ...pageOf(await queryClusterResults(copier, crawlId, q, true)),
                });
              }
            }
          }
          for (const filter of ['all', 'html'] as const) {
            for (const text of ['', 'p/1']) {
              for (let offset = 0; offset <= total + 1; offset += 7) {
                const q = { filter, text, sort, descending, offset, limit: 8 } as const;
                const walked = await postgresQueryFiltered(walker, crawlId, q);
                const copied = await postgresQueryFiltered(copier, crawlId, q);
                expect({ q, keys: walked.rows.map((r) => r.seq), total: walked.total }).toEqual({
                  q,
                  keys: copied.rows.map((r) => r.seq),
                  total: copied.total,
                });
              }
            }
          }
        }
      }
      // The late row is the last of a sort in either direction, and the pages were walked.
      const last = await queryClusterResults(
        walker,
        crawlId,
        { ...BASE, sort: 'link_score', descending: true, offset: total - 1, limit: 5 },
        true,
      );
      expect(last.rows.map((r) => Number(r.seq))).toEqual([Number(rows[0]!.seq)]);
      expect(sent.filter((text) => text.includes('WITH s AS MATERIALIZED')).length).toBeGreaterThan(100);
    } finally {
      // The crawl as the tests after this one know it.
      const ids = [rows[0]!.id, image.rows[0]!.id];
      await walker.query(`DELETE FROM ${schema}.link_scores WHERE url_id = ANY($1::bigint[])`, [ids]);
      await walker.query(
        `DELETE FROM ${schema}.link_scores_order WHERE seq IN (SELECT seq FROM ${schema}.results WHERE url_id = ANY($1::bigint[]))`,
        [ids],
      );
      await walker.query(`DELETE FROM ${schema}.results WHERE url_id = ANY($1::bigint[])`, [ids]);
      await walker.query(`DELETE FROM ${schema}.urls WHERE id = ANY($1::bigint[])`, [ids]);
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
