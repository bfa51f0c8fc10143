// Link Score of a crawl in the PostgreSQL store, computed in the worker thread link-score-thread.ts starts (as a crawl
// file's, link-score.ts): through a connection of its own, in one snapshot, the crawl's pages and then its links in
// page order read through cursors, a page of rows at a time, into the same graph builder. Three million links are
// never rows in memory at once, and none of the work is on the thread that answers the UI.
import { connect } from '../frontier/postgres/pg-client.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { LINK_SCORE_SQL, LinkGraphBuilder, type LinkScores, linksPack, noFollowSql } from './link-score.ts';
import { eachRow } from './pg-cursor.ts';

/** The pages that say nofollow, through the store's results_directives (its condition in PostgreSQL's words). */
const STORE_NO_FOLLOW_SQL = noFollowSql((text, needle) => `strpos(${text}, ${needle})`);

/** The Link Scores of crawl `crawlId` of the store at `storeUrl`, tagged `stamp`. */
export async function computeStoreLinkScores(storeUrl: string, crawlId: string, stamp: string): Promise<LinkScores> {
  const started = performance.now();
  const c = await connect(storeUrl, { applicationName: 'trawl link score' });
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await c.query(`SET LOCAL search_path TO ${crawlSchema(crawlId)}`);
    const maxId = (await c.query<{ m: number }>('SELECT coalesce(max(id), 0) AS m FROM urls')).rows[0]!.m;
    const graph = new LinkGraphBuilder(maxId);
    await eachRow<number[]>(c, STORE_NO_FOLLOW_SQL, (r) => graph.saysNoFollow(r[0]!));
    await eachRow<number[]>(c, LINK_SCORE_SQL.nodes, (r) => graph.node(r[0]!));
    if (linksPack(maxId)) await eachRow<number[]>(c, LINK_SCORE_SQL.packedLinks, (r) => graph.packedLink(r[0]!));
    else await eachRow<number[]>(c, LINK_SCORE_SQL.links, (r) => graph.link(r[0]!, r[1]!, r[2]!));
    await c.query('COMMIT');
    return graph.scores(stamp, started);
  } finally {
    await c.end().catch(() => undefined);
  }
}
