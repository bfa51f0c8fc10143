// The crawl map of a crawl in the PostgreSQL store (issue 19), as a crawl file's (crawl-map.ts): the same statements
// read in one snapshot through cursors into the same rows, folded and laid out by the same code.
import { connect, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import type { CrawlMap, CrawlMapQuery } from '../../../shared/crawl-map.ts';
import {
  CRAWL_MAP_SQL,
  checkCrawlMapQuery,
  CrawlMapMemo,
  CrawlMapRows,
  type CrawlMapRowsData,
  type InlinksRow,
  labelIds,
  type PackedMapWalk,
  packedMapWalks,
  labelMap,
  type ResultRow,
  type UrlRow,
} from './crawl-map.ts';
import type { LinkScores } from './link-score.ts';
import { eachRow } from './pg-cursor.ts';
import { inCrawl } from './pg-explorer.ts';
import { storeSettledState } from './pg-content.ts';

/** The map's rows of a crawl in the store, read in the snapshot `c` has open, and the crawl's settled state before it. */
async function readStoreMapRows(c: PgQuerier, state: string | null): Promise<StoreMapRead> {
  // Numbers whatever the client's parser of bigint (a plain pg.Client gives text, which compared with the ids as text
  // dropped every URL whose id sorted after the largest).
  const lastSeq = Number((await c.query<{ lastSeq: number | string }>(CRAWL_MAP_SQL.lastSeq)).rows[0]!.lastSeq);
  const maxId = Number((await c.query<{ maxId: number | string }>(CRAWL_MAP_SQL.maxId)).rows[0]!.maxId);
  const rows = new CrawlMapRows(maxId);
  const walks = packedMapWalks(maxId);
  /** Whether `walk` read every row packed (a cursor is read to its end: the rows after one that did not fit are skipped). */
  const packed = async (walk: PackedMapWalk | null) => {
    if (walk === null) return false;
    let whole = true;
    await eachRow<[number | string]>(c, walk.sql, (r) => {
      if (whole) whole = walk.take(rows, Number(r[0]));
    });
    return whole;
  };
  if (!(await packed(walks.results))) await eachRow<ResultRow>(c, CRAWL_MAP_SQL.results, (r) => rows.result(r));
  if (!(await packed(walks.urls))) await eachRow<UrlRow>(c, CRAWL_MAP_SQL.urls, (r) => rows.url(r));
  if (!(await packed(walks.inlinks))) await eachRow<InlinksRow>(c, CRAWL_MAP_SQL.inlinks, (r) => rows.inlinks(r));
  return { state, lastSeq, rows };
}

/** The map's rows of a crawl in the store as read at its settled `state` (null: nodes still held rows uncommitted). */
export interface StoreMapRead {
  state: string | null;
  lastSeq: number;
  rows: CrawlMapRows;
}

/**
 * The map's rows of crawl `crawlId`, read through a connection of its own, as typed arrays (CrawlMapRows.toData): a
 * worker thread's job for a large crawl, whose rows the thread that answers the UI would otherwise take in a cursor
 * page at a time.
 */
export async function storeMapRowsPacked(
  storeUrl: string,
  crawlId: string,
): Promise<{ state: string | null; lastSeq: number; rows: CrawlMapRowsData }> {
  const c = await connect(storeUrl, { applicationName: 'trawl-crawl-map' });
  try {
    const state = await storeSettledState(c, crawlId);
    const read = await inCrawl(c, crawlId, () => readStoreMapRows(c, state));
    return { state: read.state, lastSeq: read.lastSeq, rows: read.rows.toData() };
  } finally {
    await c.end();
  }
}

/**
 * The map of crawl `crawlId`, read through `c` (no transaction of its own open); `scores` size its nodes (null: none),
 * `memo` keeps its last map (given again while the crawl has not changed). `read`: rows read already (off the thread),
 * drawn at the state they were read at, though the crawl may have moved on since.
 */
export async function postgresCrawlMap(
  c: PgQuerier,
  crawlId: string,
  query: CrawlMapQuery,
  scores: LinkScores | null,
  memo = new CrawlMapMemo(),
  given?: StoreMapRead,
): Promise<CrawlMap> {
  checkCrawlMapQuery(query);
  const started = performance.now();
  if (given) memo.keepRows(given.state, given.rows, given.lastSeq);
  // While nodes still hold rows uncommitted the state cannot be named, and the map is built afresh.
  const state = given ? given.state : await storeSettledState(c, crawlId);
  return inCrawl(c, crawlId, async () => {
    const known = memo.get(state, scores, query);
    if (known !== null) return known;
    let read = given ?? memo.rows(state);
    if (!read) {
      read = await readStoreMapRows(c, state);
      memo.keepRows(state, read.rows, read.lastSeq);
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
