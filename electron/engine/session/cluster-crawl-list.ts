// The crawls of a PostgreSQL store, as the app lists them to attach to one: newest first, with their counters where
// they can be read cheaply (per-host totals) and what keeps one from being shown (another schema version).
import type { StoreCrawlInfo } from '../../../shared/crawler-api.ts';
import { connect, isConnectionLost } from '../frontier/postgres/pg-client.ts';
import { StoreError, parseStoreUrl, serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { dbNow, listCrawls } from '../frontier/postgres/pg-control.ts';
import { PG_SCHEMA_VERSION, crawlSchema } from '../frontier/postgres/pg-schema.ts';

/** listClusterCrawls lists at most this many crawls, the newest. */
export const MAX_LISTED_STORE_CRAWLS = 100;
/** How long connecting may take. */
const CONNECT_TIMEOUT_MS = 5_000;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The crawls of a store, newest first, with their counters where they can be read cheaply (per-host totals). */
export async function listClusterCrawls(storeUrl: string): Promise<{ server: string; crawls: StoreCrawlInfo[] }> {
  parseStoreUrl(storeUrl);
  const server = serverLabel(storeUrl);
  const client = await connect(storeUrl, { connectTimeoutMs: CONNECT_TIMEOUT_MS, applicationName: 'trawl-observer' });
  try {
    const records = (await listCrawls(client)).slice(0, MAX_LISTED_STORE_CRAWLS);
    const now = records.length ? await dbNow(client) : 0;
    const crawls: StoreCrawlInfo[] = [];
    for (const r of records) {
      const settings = (r.settings ?? {}) as { seeds?: unknown };
      const seeds = Array.isArray(settings.seeds) ? settings.seeds.filter((s): s is string => typeof s === 'string') : [];
      const info: StoreCrawlInfo = {
        id: r.id,
        state: r.state,
        finishReason: r.finishReason,
        createdAt: new Date(r.createdAt).toISOString(),
        seeds,
        threads: r.threads,
        crawled: null,
        queued: null,
        liveNodes: null,
        problem: null,
      };
      if (r.schemaVersion !== PG_SCHEMA_VERSION) {
        info.problem = `made with store schema version ${r.schemaVersion}; this Trawl uses version ${PG_SCHEMA_VERSION}`;
      } else {
        try {
          const s = crawlSchema(r.id);
          const { rows } = await client.query<{ crawled: number; queued: number; live: number }>(
            `SELECT (SELECT coalesce(sum(crawled), 0)::bigint FROM ${s}.hosts) AS crawled,
                    (SELECT coalesce(sum(queued), 0)::bigint FROM ${s}.hosts) AS queued,
                    (SELECT count(*) FROM ${s}.nodes WHERE last_seen >= $1 AND state NOT IN ('left', 'finished')) AS live`,
            [now - r.leaseMs],
          );
          info.crawled = rows[0]!.crawled;
          info.queued = rows[0]!.queued;
          info.liveNodes = rows[0]!.live;
        } catch (err) {
          if (isConnectionLost(err)) throw new StoreError(`lost the connection to PostgreSQL at ${server}: ${messageOf(err)}`);
          info.problem = `its tables cannot be read: ${messageOf(err)}`;
        }
      }
      crawls.push(info);
    }
    return { server, crawls };
  } finally {
    await client.end().catch(() => undefined);
  }
}
