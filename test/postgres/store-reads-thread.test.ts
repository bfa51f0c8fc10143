// The site structure of a large crawl in the store is folded in a worker thread through a connection of its own
// (crawl-reads-thread.ts) and adopted by the views' connection, so its seconds of folding at a million URLs do not
// hold the thread that answers the UI: the trie adopted must answer as the one folded on the connection itself, and
// the rows settled after it must be folded in at the next ask.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildPgSyntheticCrawl } from '../../electron/engine/analysis/pg-synthetic-crawl.ts';
import { OFF_THREAD_ROWS, storeMapRowsOffThread, storeStructureTrieOffThread } from '../../electron/engine/analysis/crawl-reads-thread.ts';
import { CrawlMapMemo } from '../../electron/engine/analysis/crawl-map.ts';
import { postgresCrawlMap } from '../../electron/engine/analysis/pg-crawl-map.ts';
import {
  adoptStorePackedTrie,
  postgresSiteStructure,
  postgresStructureCsvRows,
  storeStructureFolded,
} from '../../electron/engine/analysis/site-structure.ts';
import { crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { ClusterResults } from '../../electron/engine/session/cluster-results.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

withPg.describe('the site structure of a large crawl in the store, folded off the thread', () => {
  let db: FreshDatabase;
  const clients: pg.Client[] = [];
  const client = async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    db = await freshDatabase('store_reads');
    // 80% of the URLs fetched: past the size whose first fold goes off the thread.
    await buildPgSyntheticCrawl(await client(), 'reads', { urls: Math.ceil((OFF_THREAD_ROWS * 1.5) / 0.8) });
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    await db?.drop();
  });

  it('adopts a trie that answers as the one folded on the connection, and folds in the rows settled after it', async () => {
    const own = await client();
    const { rows } = await own.query<{ n: string }>(`SELECT max(seq) AS n FROM ${crawlSchema('reads')}.results`);
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(OFF_THREAD_ROWS);
    const hosts = await postgresSiteStructure(own, 'reads', { paths: [], limit: 20 });
    const main = hosts.hosts.children[0]!.path;
    const query = { paths: [main], limit: 20 };
    const expected = await postgresSiteStructure(own, 'reads', query);
    expect(expected.levels[0]!.children.length).toBeGreaterThan(1);

    const adopting = await client();
    const packed = await storeStructureTrieOffThread(db.url, 'reads');
    expect(storeStructureFolded(adopting, 'reads')).toBe(false);
    adoptStorePackedTrie(adopting, 'reads', packed);
    expect(storeStructureFolded(adopting, 'reads')).toBe(true);
    expect(await postgresSiteStructure(adopting, 'reads', query)).toEqual(expected);
    expect(await postgresStructureCsvRows(adopting, 'reads')).toEqual(await postgresStructureCsvRows(own, 'reads'));

    // A page recorded after the fold (as a node would): counted at the next ask, under its folder.
    const schema = crawlSchema('reads');
    await own.query(
      `WITH u AS (INSERT INTO ${schema}.urls (url, host_id, state, depth, kind, discovered_at)
         SELECT $1, host_id, 2, 1, 'page', 0 FROM ${schema}.urls WHERE url LIKE $2 LIMIT 1 RETURNING id)
       INSERT INTO ${schema}.results (url_id, status_code, crawl_depth, fetched_at, indexability)
         SELECT id, 200, 1, 0, 'indexable' FROM u`,
      [`${main}after-the-fold.html`, `${main}%`],
    );
    const after = await postgresSiteStructure(adopting, 'reads', query);
    expect(after.total.urls).toBe(expected.total.urls + 1);
    expect(after).toEqual(await postgresSiteStructure(own, 'reads', query));

    // As the views ask: the same answer through a crawl's views, which fold off the thread at this size.
    const views = new ClusterResults(db.url, 'reads');
    try {
      expect(await views.siteStructure(query)).toEqual(after);
    } finally {
      await views.close();
    }
  }, 120_000);

  it('keeps the fold in the crawl: a later reader adopts it and folds in the rows since, unless too many came', async () => {
    const schema = crawlSchema('reads');
    const own = await client();
    const kept = async () =>
      (
        await own.query<{ last: number; bytes: number }>(
          `SELECT (answer->>'lastSeq')::int AS last, length(data) AS bytes FROM ${schema}.kept_answers WHERE name = 'structure_trie'`,
        )
      ).rows;
    const settled = async () => Number((await own.query<{ n: string }>(`SELECT max(seq) AS n FROM ${schema}.results`)).rows[0]!.n);
    /** A reader as a new process has it: the views of the crawl on connections of their own. */
    const reader = async <T>(read: (views: ClusterResults) => Promise<T>): Promise<T> => {
      const views = new ClusterResults(db.url, 'reads');
      try {
        const out = await read(views);
        // Asked again: its reads are one after another, so the trie it folded has been kept by then.
        await views.siteStructure({ paths: [], limit: 1 });
        return out;
      } finally {
        await views.close();
      }
    };
    const hosts = { paths: [], limit: 50 };
    const folded = await reader((v) => v.siteStructure(hosts));
    expect(await kept()).toEqual([{ last: await settled(), bytes: expect.any(Number) }]);
    expect((await kept())[0]!.bytes).toBeGreaterThan(0);

    // The kept trie made to say it was folded five rows short: a reader that adopts it folds those five in again,
    // which a reader that folded the crawl itself would not.
    const setLast = (last: number) =>
      own.query(
        `UPDATE ${schema}.kept_answers SET answer = jsonb_set(answer, '{lastSeq}', $1::text::jsonb) WHERE name = 'structure_trie'`,
        [String(last)],
      );
    const last = (await kept())[0]!.last;
    await setLast(last - 5);
    const adopted = await reader((v) => v.siteStructure(hosts));
    expect(adopted.total.urls).toBe(folded.total.urls + 5);

    // A page recorded since (as a node would): folded in by the reader that adopts the kept trie.
    await own.query(
      `WITH u AS (INSERT INTO ${schema}.urls (url, host_id, state, depth, kind, discovered_at)
         SELECT $1, host_id, 2, 1, 'page', 0 FROM ${schema}.urls WHERE url LIKE 'http%' LIMIT 1 RETURNING id)
       INSERT INTO ${schema}.results (url_id, status_code, crawl_depth, fetched_at, indexability)
         SELECT id, 200, 1, 0, 'indexable' FROM u`,
      ['http://kept.invalid/since.html'],
    );
    const since = await reader((v) => v.siteStructure(hosts));
    expect(since.total.urls).toBe(folded.total.urls + 5 + 1);

    // A kept trie more rows behind than a fold off the thread: folded again, exactly, and that fold kept.
    await setLast(1);
    const again = await reader((v) => v.siteStructure(hosts));
    expect(again.total.urls).toBe(folded.total.urls + 1);
    expect((await kept())[0]!.last).toBe(await settled());

    // A kept trie that does not read back (its bytes damaged): folded again, and a whole one kept in its place.
    await own.query(`UPDATE ${schema}.kept_answers SET data = '\\x00ff'::bytea WHERE name = 'structure_trie'`);
    expect((await reader((v) => v.siteStructure(hosts))).total.urls).toBe(folded.total.urls + 1);
    expect((await kept())[0]!.bytes).toBeGreaterThan(2);
  }, 120_000);

  it('draws the crawl map from rows read off the thread as from rows read on the connection', async () => {
    const query = { maxNodes: 300 };
    const { ms: _a, ...onConnection } = await postgresCrawlMap(await client(), 'reads', query, null);
    const read = await storeMapRowsOffThread(db.url, 'reads');
    const { ms: _b, ...fromRows } = await postgresCrawlMap(await client(), 'reads', query, null, new CrawlMapMemo(), read);
    expect(onConnection.total).toBeGreaterThan(OFF_THREAD_ROWS / 2);
    expect(fromRows).toEqual(onConnection);
    // As the views ask (rows read off the thread at this size, then kept): the same nodes, and again for another limit.
    const views = new ClusterResults(db.url, 'reads');
    try {
      const map = await views.crawlMap(query);
      expect([map.total, map.nodes.urlId, map.nodes.parent]).toEqual([
        onConnection.total,
        onConnection.nodes.urlId,
        onConnection.nodes.parent,
      ]);
      const wider = await postgresCrawlMap(await client(), 'reads', { maxNodes: 600 }, null);
      expect((await views.crawlMap({ maxNodes: 600 })).nodes.urlId).toEqual(wider.nodes.urlId);
    } finally {
      await views.close();
    }
  }, 120_000);

  it('keeps the map of the settled crawl once sized by its scores: a later reader takes it, until the crawl changes', async () => {
    const schema = crawlSchema('reads');
    const own = await client();
    /** The map as a new process's views draw it (waitForScores: as an export asks, sized by the crawl's scores). */
    const ask = async (maxNodes: number, waitForScores = false) => {
      const views = new ClusterResults(db.url, 'reads');
      try {
        return await views.crawlMap({ maxNodes }, false, waitForScores);
      } finally {
        await views.close();
      }
    };
    const drawn = await ask(300, true);
    expect(drawn.scored).toBe(true);
    const kept = await own.query<{ total: string }>(
      `SELECT answer->>'total' AS total FROM ${schema}.kept_answers WHERE name = 'crawl_map'`,
    );
    expect(kept.rows).toEqual([{ total: String(drawn.total) }]);

    // A mark in the kept map: a reader that returns it took the map rather than drawing it.
    await own.query(`UPDATE ${schema}.kept_answers SET answer = jsonb_set(answer, '{total}', '4242') WHERE name = 'crawl_map'`);
    expect((await ask(300)).total).toBe(4242);
    expect((await ask(200)).total).toBe(drawn.total);
    await own.query(`UPDATE ${schema}.kept_answers SET answer = jsonb_set(answer, '{total}', '4242') WHERE name = 'crawl_map'`);
    // A new result's seq (as a node recording a page draws one): the crawl's state has moved on.
    await own.query(`SELECT nextval('${schema}.results_seq_seq')`);
    expect((await ask(200)).total).toBe(drawn.total);
  }, 120_000);

  it("reads the map's results whole where a row does not fit its packed walk (a status past three digits)", async () => {
    // The map's walks read each row as one number; a status past 999 makes the results walk read its rows whole.
    const c = await client();
    const query = { maxNodes: 300 };
    const before = await postgresCrawlMap(c, 'reads', query, null);
    const urlId = before.nodes.urlId.find((id, i) => id !== null && before.nodes.kind[i] === 'url' && before.nodes.status[i] === 200)!;
    const table = `${crawlSchema('reads')}.results`;
    await c.query(`UPDATE ${table} SET status_code = 1234 WHERE url_id = $1`, [urlId]);
    try {
      const after = await postgresCrawlMap(c, 'reads', query, null);
      const node = after.nodes.urlId.indexOf(urlId);
      expect(after.nodes.status[node]).toBe(1234);
      expect([after.total, after.nodes.urlId, after.nodes.parent, after.nodes.depth]).toEqual([
        before.total,
        before.nodes.urlId,
        before.nodes.parent,
        before.nodes.depth,
      ]);
      expect(after.nodes.status.filter((_, i) => i !== node)).toEqual(before.nodes.status.filter((_, i) => i !== node));
    } finally {
      await c.query(`UPDATE ${table} SET status_code = 200 WHERE url_id = $1`, [urlId]);
    }
  }, 120_000);
});
