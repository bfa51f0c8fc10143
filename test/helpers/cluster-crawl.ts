// A crawl in a PostgreSQL store, written straight with SQL as the nodes write it: the registry row, the crawl's own
// schema (crawlDdl), hosts with their counters, queued and in-flight URLs, results, and nodes with their threads'
// status (ThreadStatus[] as JSON) and a fresh heartbeat. What an observer (the app, the web console) reads.
import pg from 'pg';
import { PG_SCHEMA_VERSION, REGISTRY_DDL, crawlDdl, crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import type { ThreadStatus } from '../../shared/snapshot.ts';

export interface FakeNode {
  name: string;
  hostname?: string;
  pid?: number;
  state?: string;
  threads?: ThreadStatus[];
  /** Milliseconds since its last heartbeat (0: now). */
  silentForMs?: number;
  pagesDone?: number;
}

export interface FakeCrawl {
  id: string;
  seeds?: string[];
  state?: 'running' | 'paused' | 'stopped' | 'finished';
  threads?: number;
  leaseMs?: number;
  schemaVersion?: number;
  nodes?: FakeNode[];
  /** Per host origin: crawled and queued counts (queued URL rows are written too). */
  hosts?: { origin: string; crawled: number; queued: number; failed?: number }[];
}

export function threadStatus(id: number, patch: Partial<ThreadStatus> = {}): ThreadStatus {
  return {
    id,
    worker: `crawl-worker-${(id % 2) + 1}`,
    pid: 4000 + id,
    step: 'fetching',
    processor: 'fetch-http',
    url: `https://example.test/page-${id}`,
    stepSince: Date.now() - 500,
    bytes: 1024,
    pagesDone: id * 3,
    errors: 0,
    ...patch,
  };
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Writes the crawl (registry row, schema, hosts, URLs, nodes) in one transaction. */
export async function createClusterCrawl(url: string, crawl: FakeCrawl): Promise<void> {
  const schema = crawlSchema(crawl.id);
  await withClient(url, async (c) => {
    await c.query('BEGIN');
    await c.query(REGISTRY_DDL);
    const settings = { seeds: crawl.seeds ?? ['https://example.test/'], threads: crawl.threads ?? 4, maxUrlsPerSecond: null, exclude: [] };
    await c.query(`INSERT INTO trawl.crawls (id, schema_version, settings, state, threads, lease_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
      crawl.id,
      crawl.schemaVersion ?? PG_SCHEMA_VERSION,
      JSON.stringify(settings),
      crawl.state ?? 'running',
      crawl.threads ?? 4,
      crawl.leaseMs ?? 30_000,
    ]);
    await c.query(crawlDdl(schema));
    const now = Date.now();
    for (const h of crawl.hosts ?? []) {
      const { rows } = await c.query<{ id: string }>(
        `INSERT INTO ${schema}.hosts (origin, queued, crawled, failed) VALUES ($1, $2, $3, $4) RETURNING id`,
        [h.origin, h.queued, h.crawled, h.failed ?? 0],
      );
      const hostId = rows[0]!.id;
      for (let i = 0; i < h.crawled; i++) {
        const u = await c.query<{ id: string }>(
          `INSERT INTO ${schema}.urls (url, host_id, depth, state, discovered_at) VALUES ($1, $2, 1, 2, $3) RETURNING id`,
          [`${h.origin}/done-${i}`, hostId, now],
        );
        await c.query(`INSERT INTO ${schema}.results (url_id, status_code, crawl_depth, fetched_at, title) VALUES ($1, 200, 1, $2, $3)`, [
          u.rows[0]!.id,
          now - 60_000,
          `Page ${i}`,
        ]);
      }
      for (let i = 0; i < h.queued; i++) {
        await c.query(`INSERT INTO ${schema}.urls (url, host_id, depth, state, discovered_at) VALUES ($1, $2, 2, 0, $3)`, [
          `${h.origin}/queued-${i}`,
          hostId,
          now,
        ]);
      }
    }
    for (const n of crawl.nodes ?? []) {
      const threads = n.threads ?? [];
      await c.query(
        `INSERT INTO ${schema}.nodes (name, hostname, pid, joined_at, last_seen, state, threads, status, pages_done) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          n.name,
          n.hostname ?? `${n.name}.local`,
          n.pid ?? 1234,
          now - 120_000,
          now - (n.silentForMs ?? 0),
          n.state ?? 'running',
          threads.length,
          JSON.stringify(threads),
          n.pagesDone ?? 0,
        ],
      );
    }
    await c.query('COMMIT');
  });
}

/** A node's heartbeat as a node writes it: last_seen now, optionally with new thread status. */
export async function heartbeat(url: string, crawlId: string, node: string, threads?: ThreadStatus[]): Promise<void> {
  const schema = crawlSchema(crawlId);
  await withClient(url, (c) =>
    threads
      ? c.query(`UPDATE ${schema}.nodes SET last_seen = $2, status = $3, threads = $4 WHERE name = $1`, [
          node,
          Date.now(),
          JSON.stringify(threads),
          threads.length,
        ])
      : c.query(`UPDATE ${schema}.nodes SET last_seen = $2 WHERE name = $1`, [node, Date.now()]),
  );
}
