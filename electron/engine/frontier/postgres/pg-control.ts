// A crawl in the PostgreSQL store as the cluster shares it: its registry row (settings, the cluster's commands:
// run, pause, stop, thread count), its nodes, and the counters every observer shows. Used by the nodes themselves,
// by the CLI's one-shot commands (--pause, --resume, --stop, --set-threads, --status) and by the app or web console
// attached to the store.
import type { CrawlSnapshot, NodeStatus, ThreadStatus } from '../../../../shared/snapshot.ts';
import type { PgQuerier as PgClient } from './pg-client.ts';
import { LIMITS } from '../../../../shared/settings.ts';
import { StoreError } from './pg-store-url.ts';
import { PG_SCHEMA_VERSION, crawlChannel, crawlSchema } from './pg-schema.ts';

/** What the cluster is told to do. */
export type ClusterState = 'running' | 'paused' | 'stopped' | 'finished';

export interface CrawlRecord {
  id: string;
  schemaVersion: number;
  createdAt: number;
  settings: unknown;
  state: ClusterState;
  /** Crawl threads of the whole cluster. */
  threads: number;
  leaseMs: number;
  finishReason: string | null;
  finishedAt: number | null;
  finishedBy: string | null;
  deprioritised: string[];
  /** Exclude patterns added while the crawl ran. */
  liveExcludes: string[];
  /** The credentials sealed with the cluster key (secrets/cluster-key.ts), or null when the crawl has none. */
  sealedSecrets: string | null;
}

interface CrawlRow {
  id: string;
  schema_version: number;
  created_at: Date;
  settings: string;
  state: ClusterState;
  threads: number;
  lease_ms: number;
  finish_reason: string | null;
  finished_at: Date | null;
  finished_by: string | null;
  deprioritised: string;
  /** Missing from a registry made before the column was added. */
  secrets?: string | null;
  /** Missing from a registry made before the column was added. */
  live_excludes?: string;
}

function recordOf(row: CrawlRow): CrawlRecord {
  return {
    id: row.id,
    schemaVersion: row.schema_version,
    createdAt: row.created_at.getTime(),
    settings: JSON.parse(row.settings),
    state: row.state,
    threads: row.threads,
    leaseMs: row.lease_ms,
    finishReason: row.finish_reason,
    finishedAt: row.finished_at?.getTime() ?? null,
    finishedBy: row.finished_by,
    deprioritised: JSON.parse(row.deprioritised) as string[],
    liveExcludes: JSON.parse(row.live_excludes ?? '[]') as string[],
    sealedSecrets: row.secrets ?? null,
  };
}

async function registryExists(client: PgClient): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(`SELECT to_regclass('trawl.crawls') IS NOT NULL AS ok`);
  return rows[0]!.ok;
}

/** The crawl's registry row; a StoreError when there is none or it was made by a Trawl with other tables. */
export async function readCrawl(client: PgClient, crawlId: string): Promise<CrawlRecord> {
  crawlSchema(crawlId); // checks the ID's form
  if (!(await registryExists(client))) throw new StoreError(`there is no crawl "${crawlId}" in this store (it holds no Trawl crawls yet)`);
  const { rows } = await client.query<CrawlRow>('SELECT * FROM trawl.crawls WHERE id = $1', [crawlId]);
  if (rows.length === 0) {
    const known = await listCrawls(client);
    const hint = known.length
      ? `; the store has ${known
          .slice(0, 5)
          .map((c) => c.id)
          .join(', ')}${known.length > 5 ? ', ...' : ''}`
      : '';
    throw new StoreError(`there is no crawl "${crawlId}" in this store${hint}`);
  }
  const record = recordOf(rows[0]!);
  if (record.schemaVersion !== PG_SCHEMA_VERSION) {
    throw new StoreError(
      `crawl "${crawlId}" was made with store schema version ${record.schemaVersion}; this Trawl uses version ${PG_SCHEMA_VERSION} (use a Trawl of the same version for every node)`,
    );
  }
  return record;
}

export async function listCrawls(client: PgClient): Promise<CrawlRecord[]> {
  if (!(await registryExists(client))) return [];
  const { rows } = await client.query<CrawlRow>('SELECT * FROM trawl.crawls ORDER BY created_at DESC');
  return rows.map(recordOf);
}

/** The database's clock in epoch ms: leases and politeness use it, so nodes on machines with skewed clocks agree. */
export async function dbNow(client: PgClient): Promise<number> {
  const { rows } = await client.query<{ now: number }>(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now`);
  return rows[0]!.now;
}

/**
 * Tells every node of the crawl to run, pause or stop, or changes the cluster's thread count. Takes effect at once
 * on every node (NOTIFY) and sticks for nodes that join later. A finished crawl takes no commands.
 */
export async function commandCluster(client: PgClient, crawlId: string, command: ClusterCommand): Promise<CrawlRecord> {
  const before = await readCrawl(client, crawlId);
  if (before.state === 'finished')
    throw new StoreError(`crawl "${crawlId}" has finished (${before.finishReason ?? 'done'}); it takes no more commands`);
  if (command.threads !== undefined && !(Number.isInteger(command.threads) && command.threads >= 1 && command.threads <= 1000)) {
    throw new StoreError(`the cluster's thread count must be a whole number from 1 to 1000 (got ${command.threads})`);
  }
  const rate = command.maxUrlsPerSecond;
  if (rate !== undefined && rate !== null && !(typeof rate === 'number' && rate > 0 && rate <= LIMITS.maxUrlsPerSecond)) {
    throw new StoreError(`the URLs/s cap must be more than 0 and at most ${LIMITS.maxUrlsPerSecond}, or none (got ${rate})`);
  }
  // The cap is the whole cluster's, kept in the settings (where a joining node reads it); each node takes its share.
  const { rows } = await client.query<CrawlRow>(
    `UPDATE trawl.crawls SET state = coalesce($2, state), threads = coalesce($3, threads),
       settings = CASE WHEN $4::boolean THEN jsonb_set(settings::jsonb, '{maxUrlsPerSecond}', $5::jsonb)::text ELSE settings END
     WHERE id = $1 AND state <> 'finished' RETURNING *`,
    [crawlId, command.state ?? null, command.threads ?? null, rate !== undefined, JSON.stringify(rate ?? null)],
  );
  if (rows.length === 0) throw new StoreError(`crawl "${crawlId}" finished meanwhile; it takes no more commands`);
  await client.query('SELECT pg_notify($1, $2)', [crawlChannel(crawlId), 'command']);
  return recordOf(rows[0]!);
}

/** What an observer or a node may tell the whole cluster: run, pause or stop, its thread count, its URLs/s cap. */
export interface ClusterCommand {
  state?: 'running' | 'paused' | 'stopped';
  threads?: number;
  /** The cluster's URLs/s cap (null: none), shared out over the live nodes as the threads are. */
  maxUrlsPerSecond?: number | null;
}

/**
 * A node's share of the cluster's URLs/s cap: the cap split over the live nodes in proportion to their threads, so
 * the nodes together never go past it (null: no cap).
 */
export function rateShare(cap: number | null, total: number, liveNodes: readonly string[], me: string): number | null {
  if (cap === null) return null;
  const names = [...new Set([...liveNodes, me])];
  const all = names.reduce((sum, n) => sum + threadShare(total, names, n), 0);
  return (cap * threadShare(total, names, me)) / all;
}

/**
 * A node's share of the cluster's threads: the total split evenly over the live nodes (in name order, the first
 * ones taking the remainder), at least one each.
 */
export function threadShare(total: number, liveNodes: readonly string[], me: string): number {
  const names = [...new Set([...liveNodes, me])].sort();
  const i = names.indexOf(me);
  return Math.max(1, Math.floor(total / names.length) + (i < total % names.length ? 1 : 0));
}

export interface ClusterCounts {
  queued: number;
  inFlight: number;
  crawled: number;
  failed: number;
  /** Results recorded in the last 5 seconds, per second. */
  pagesPerSecond: number;
}

/** The crawl's counters across every node, from the per-host counters the nodes keep (no scan of results). */
export async function clusterCounts(client: PgClient, crawlId: string, now: number): Promise<ClusterCounts> {
  const s = crawlSchema(crawlId);
  const { rows } = await client.query<{ queued: number; crawled: number; failed: number; in_flight: number; recent: number }>(
    `SELECT (SELECT coalesce(sum(queued), 0)::bigint FROM ${s}.hosts) AS queued,
            (SELECT coalesce(sum(crawled), 0)::bigint FROM ${s}.hosts) AS crawled,
            (SELECT coalesce(sum(failed), 0)::bigint FROM ${s}.hosts) AS failed,
            (SELECT count(*) FROM ${s}.urls WHERE state = 1) AS in_flight,
            (SELECT count(*) FROM ${s}.results WHERE fetched_at > $1) AS recent`,
    [now - 5000],
  );
  const r = rows[0]!;
  return { queued: r.queued, inFlight: r.in_flight, crawled: r.crawled, failed: r.failed, pagesPerSecond: r.recent / 5 };
}

interface NodeRow {
  name: string;
  hostname: string;
  pid: number;
  joined_at: number;
  last_seen: number;
  state: string;
  threads: number;
  status: string;
  pages_done: number;
}

/** Every node that has worked on the crawl, live ones first, with their threads' last reported status. */
async function readNodes(
  client: PgClient,
  crawlId: string,
  now: number,
  leaseMs: number,
): Promise<{ nodes: NodeStatus[]; threads: ThreadStatus[] }> {
  const s = crawlSchema(crawlId);
  const { rows } = await client.query<NodeRow>(`SELECT * FROM ${s}.nodes ORDER BY name`);
  const nodes: NodeStatus[] = [];
  const threads: ThreadStatus[] = [];
  for (const row of rows) {
    const live = now - row.last_seen <= leaseMs && row.state !== 'left' && row.state !== 'finished';
    nodes.push({
      name: row.name,
      hostname: row.hostname,
      pid: row.pid,
      state: live ? row.state : row.state === 'finished' ? 'finished' : 'left',
      threads: row.threads,
      lastSeen: row.last_seen,
      live,
      pagesDone: row.pages_done,
    });
    if (!live) continue;
    for (const t of JSON.parse(row.status) as ThreadStatus[]) threads.push({ ...t, node: row.name });
  }
  nodes.sort((a, b) => Number(b.live) - Number(a.live) || a.name.localeCompare(b.name));
  return { nodes, threads };
}

/** What an observer (the app, the web console, `--status`) shows of a crawl in the store: one snapshot of the cluster. */
export async function readClusterSnapshot(client: PgClient, crawlId: string, server: string): Promise<CrawlSnapshot> {
  const now = await dbNow(client);
  const crawl = await readCrawl(client, crawlId);
  const counts = await clusterCounts(client, crawlId, now);
  const { nodes, threads } = await readNodes(client, crawlId, now, crawl.leaseMs);
  const settings = crawl.settings as { maxUrlsPerSecond?: number | null; exclude?: string[] };
  const anyNodeIs = (state: string) => nodes.some((n) => n.live && n.state === state);
  const state =
    crawl.state === 'finished' || (crawl.state === 'stopped' && !nodes.some((n) => n.live))
      ? 'finished'
      : crawl.state === 'stopped'
        ? 'stopping'
        : crawl.state === 'paused'
          ? anyNodeIs('pausing') || anyNodeIs('running')
            ? 'pausing'
            : 'paused'
          : 'running';
  return {
    state,
    reason:
      crawl.state === 'finished'
        ? ((crawl.finishReason ?? 'completed') as CrawlSnapshot['reason'])
        : crawl.state === 'stopped'
          ? 'stopped'
          : null,
    error: null,
    threadTarget: crawl.threads,
    maxUrlsPerSecond: settings.maxUrlsPerSecond ?? null,
    liveExcludes: crawl.liveExcludes,
    threads,
    counters: {
      queued: counts.queued,
      inFlight: counts.inFlight,
      crawled: counts.crawled,
      failed: counts.failed,
      pagesPerSecond: counts.pagesPerSecond,
      elapsedMs: (crawl.finishedAt ?? now) - crawl.createdAt,
    },
    at: now,
    nodes,
    store: { kind: 'postgres', server, crawlId, node: null },
  };
}
