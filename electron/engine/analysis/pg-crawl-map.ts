// The crawl map of a crawl in the PostgreSQL store (issue 19), as a crawl file's (crawl-map.ts): the same statements
// read in one snapshot through cursors into the same rows, folded and laid out by the same code.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import type { CrawlMap, CrawlMapQuery } from '../../../shared/crawl-map.ts';
import {
  CRAWL_MAP_SQL,
  checkCrawlMapQuery,
  CrawlMapMemo,
  CrawlMapRows,
  type InlinksRow,
  labelIds,
  labelMap,
  type ResultRow,
  type UrlRow,
} from './crawl-map.ts';
import type { LinkScores } from './link-score.ts';
import { eachRow } from './pg-cursor.ts';
import { inCrawl } from './pg-explorer.ts';
import { storeSettledState } from './pg-content.ts';

/**
 * The map of crawl `crawlId`, read through `c` (no transaction of its own open); `scores` size its nodes (null: none),
 * `memo` keeps its last map (given again while the crawl has not changed).
 */
export async function postgresCrawlMap(
  c: PgQuerier,
  crawlId: string,
  query: CrawlMapQuery,
  scores: LinkScores | null,
  memo = new CrawlMapMemo(),
): Promise<CrawlMap> {
  checkCrawlMapQuery(query);
  const started = performance.now();
  // While nodes still hold rows uncommitted the state cannot be named, and the map is built afresh.
  const state = await storeSettledState(c, crawlId);
  return inCrawl(c, crawlId, async () => {
    const known = memo.get(state, scores, query);
    if (known !== null) return known;
    let read = memo.rows(state);
    if (!read) {
      const lastSeq = (await c.query<{ lastSeq: number }>(CRAWL_MAP_SQL.lastSeq)).rows[0]!.lastSeq;
      const maxId = (await c.query<{ maxId: number }>(CRAWL_MAP_SQL.maxId)).rows[0]!.maxId;
      const rows = new CrawlMapRows(maxId);
      await eachRow<ResultRow>(c, CRAWL_MAP_SQL.results, (r) => rows.result(r));
      await eachRow<UrlRow>(c, CRAWL_MAP_SQL.urls, (r) => rows.url(r));
      await eachRow<InlinksRow>(c, CRAWL_MAP_SQL.inlinks, (r) => rows.inlinks(r));
      memo.keepRows(state, rows, lastSeq);
      read = { rows, lastSeq };
    }
    const unlabelled = read.rows.map(query, scores, read.lastSeq);
    const { rows: labels } = await c.query<[string, string]>({
      text: CRAWL_MAP_SQL.labels('u.id = ANY($1::bigint[])'),
      values: [labelIds(unlabelled)],
      rowMode: 'array',
    });
    const urlOf = new Map(labels.map(([id, url]) => [Number(id), url]));
    return memo.set(state, scores, query, labelMap(unlabelled, urlOf, started));
  });
}
