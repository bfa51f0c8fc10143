// Live exclude and deprioritise patterns of a crawl in the PostgreSQL store, for the whole cluster: kept in the
// crawl's registry row (every node applies them to the links it finds from then on, told by NOTIFY) and applied at
// once to the URLs already queued. A node and an observer (the app or web console attached to the store) call the
// same functions, in a transaction of theirs; the SQL names the crawl's schema, so any connection will do.
import { type UserPattern, mustCompile } from '../../../../shared/pattern.ts';
import { UrlState } from '../model.ts';
import type { PgQuerier } from './pg-client.ts';
import { REGISTRY_UPGRADE_DDL, crawlChannel, crawlSchema } from './pg-schema.ts';

export type PatternKind = 'exclude' | 'deprioritised';

/**
 * Adds a pattern to the crawl's registry row and tells every node. An exclude goes into the settings' exclude list
 * (what nodes filter links with, joining nodes included) and into live_excludes (what observers show as added live).
 */
export async function addClusterPattern(c: PgQuerier, crawlId: string, kind: PatternKind, pattern: string): Promise<void> {
  const { rows } = await c.query<{ settings: string; deprioritised: string; live_excludes?: string }>(
    'SELECT * FROM trawl.crawls WHERE id = $1 FOR UPDATE',
    [crawlId],
  );
  const row = rows[0];
  if (!row) throw new Error(`there is no crawl "${crawlId}" in this store`);
  // A registry made before live excludes were kept apart gets the column (additive, as nodes add it when they join).
  if (row.live_excludes === undefined) await c.query(REGISTRY_UPGRADE_DDL);
  if (kind === 'exclude') {
    const settings = JSON.parse(row.settings) as { exclude: string[] };
    if (!settings.exclude.includes(pattern)) settings.exclude.push(pattern);
    const live = JSON.parse(row.live_excludes ?? '[]') as string[];
    if (!live.includes(pattern)) live.push(pattern);
    await c.query('UPDATE trawl.crawls SET settings = $1, live_excludes = $2 WHERE id = $3', [
      JSON.stringify(settings),
      JSON.stringify(live),
      crawlId,
    ]);
  } else {
    const list = JSON.parse(row.deprioritised) as string[];
    if (!list.includes(pattern)) list.push(pattern);
    await c.query('UPDATE trawl.crawls SET deprioritised = $1 WHERE id = $2', [JSON.stringify(list), crawlId]);
  }
  await c.query('SELECT pg_notify($1, $2)', [crawlChannel(crawlId), 'command']);
}

/**
 * Queued URLs matching a pattern, read a page at a time (once per pattern added, never per URL), in the queue index's
 * order (host, then id): that index holds the URLs, so the table is not read (issue 19.3; by id, the pages walked the
 * primary key over every URL, queued or not: 0.5-1.5 s at a million URLs).
 */
async function matchingQueued(c: PgQuerier, crawlId: string, re: UserPattern): Promise<number[]> {
  const s = crawlSchema(crawlId);
  const ids: number[] = [];
  let afterHost = 0;
  let afterId = 0;
  for (;;) {
    const { rows } = await c.query<{ id: number; host_id: number; url: string }>(
      `SELECT id, host_id, url FROM ${s}.urls WHERE state = ${UrlState.queued} AND (host_id, id) > ($1, $2) ORDER BY host_id, id LIMIT 5000`,
      [afterHost, afterId],
    );
    for (const r of rows) if (re.test(r.url)) ids.push(r.id);
    if (rows.length < 5000) return ids;
    afterHost = rows[rows.length - 1]!.host_id;
    afterId = rows[rows.length - 1]!.id;
  }
}

/**
 * An exclude pattern for the whole cluster: recorded (addClusterPattern) and the queued URLs matching it dropped
 * (out of scope), their hosts' counts lowered in id order. Returns how many were dropped. The queue is matched here,
 * with the linear-time engine of shared/pattern.ts, as everywhere else in Trawl.
 */
export async function excludeInCluster(c: PgQuerier, crawlId: string, pattern: string): Promise<number> {
  const re = mustCompile(pattern, 'exclude pattern');
  await addClusterPattern(c, crawlId, 'exclude', pattern);
  const ids = await matchingQueued(c, crawlId, re);
  if (ids.length === 0) return 0;
  const s = crawlSchema(crawlId);
  const { rows } = await c.query<{ host_id: number; n: number }>(
    `WITH dropped AS (UPDATE ${s}.urls SET state = ${UrlState.outOfScope} WHERE id = ANY($1::bigint[]) AND state = ${UrlState.queued} RETURNING host_id)
     SELECT host_id, count(*)::int AS n FROM dropped GROUP BY host_id ORDER BY host_id`,
    [ids],
  );
  for (const r of rows) await c.query(`UPDATE ${s}.hosts SET queued = queued - $1 WHERE id = $2`, [r.n, r.host_id]);
  return rows.reduce((sum, r) => sum + r.n, 0);
}

/** A deprioritise pattern for the whole cluster: recorded, and the queued URLs matching it moved to the back. */
export async function deprioritiseInCluster(c: PgQuerier, crawlId: string, pattern: string): Promise<number> {
  const re = mustCompile(pattern);
  await addClusterPattern(c, crawlId, 'deprioritised', pattern);
  const ids = await matchingQueued(c, crawlId, re);
  if (ids.length === 0) return 0;
  const r = await c.query(
    `UPDATE ${crawlSchema(crawlId)}.urls SET priority = 1 WHERE id = ANY($1::bigint[]) AND state = ${UrlState.queued} AND priority = 0`,
    [ids],
  );
  return r.rowCount ?? 0;
}
