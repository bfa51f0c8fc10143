// Creating a crawl in the PostgreSQL store, and joining one as a node: what `--store URL` and `--store URL --join
// CRAWL_ID` do before the controller starts. Each node has two connections: one for the frontier's transactions and
// one for the cluster (heartbeat, leases, LISTEN).
import crypto from 'node:crypto';
import os from 'node:os';
import { hasSecrets, splitSecrets } from '../../../../shared/credentials.ts';
import { parseSettings, type ParsedSettings } from '../../../../shared/settings.ts';
import { CLUSTER_KEY_ENV, ClusterKeyError, clusterKeyProblem, openWithClusterKey, sealWithClusterKey } from '../../secrets/cluster-key.ts';
import { PgConnection, StoreAvailability } from './pg-reconnecting-connection.ts';
import { connect, type PgClient, type PgQuerier } from './pg-client.ts';
import { StoreError, parseStoreUrl, serverLabel } from './pg-store-url.ts';
import { readCrawl } from './pg-control.ts';
import { PgCluster, type NodeOptions } from './pg-cluster.ts';
import { PgFrontierStore } from './pg-frontier.ts';
import {
  CANONICAL_SELF_TRIGGER,
  CRAWL_ID_PATTERN,
  CRAWL_UPGRADE_DDL,
  PG_ANALYSIS_INDEX_NAMES,
  NEWEST_CRAWL_INDEX,
  NEWEST_CRAWL_TABLE,
  PG_SCHEMA_VERSION,
  REGISTRY_DDL,
  REGISTRY_LOCK,
  RENDERS_NEWEST_COLUMN,
  crawlDdl,
  TEXT_COUNTS_TABLE,
  TEXT_HASH_COLUMN,
  crawlSchema,
} from './pg-schema.ts';

/** How long a claimed URL stays a node's without a heartbeat, by default. */
const DEFAULT_LEASE_MS = 30_000;

export interface PgNode {
  store: PgFrontierStore;
  crawlId: string;
  settings: ParsedSettings;
}

function nodeNameOf(options: NodeOptions): string {
  const name = options.name ?? `${os.hostname()}-${process.pid}`;
  if (!/^[\w.-]{1,64}$/.test(name)) throw new StoreError(`invalid node name "${name}": use letters, digits, ".", "_" or "-" (at most 64)`);
  return name;
}

/** A new crawl ID: short, unique, and usable as part of a schema name. */
function newCrawlId(): string {
  return `c${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
}

async function openNode(storeUrl: string, crawlId: string, settings: ParsedSettings, options: NodeOptions): Promise<PgNode> {
  const name = nodeNameOf(options);
  const availability = new StoreAvailability();
  const schema = crawlSchema(crawlId);
  const frontierConn = new PgConnection(storeUrl, `trawl ${name} frontier`, availability);
  frontierConn.onConnect = async (client) => {
    await client.query(`SET search_path TO ${schema}, public`);
    // A commit returns before its WAL record is flushed to disk, as the crawl file's synchronous=NORMAL does: a
    // crash of the database server (not of a node) can undo the last moments of work, consistently. Those URLs are
    // then queued or leased again and fetched once more; none is lost. Waiting for a flush at every recorded page
    // was most of a node's time.
    await client.query('SET synchronous_commit = off');
  };
  const clusterConn = new PgConnection(storeUrl, `trawl ${name} cluster`, availability);
  const probe = await connect(storeUrl);
  let record;
  try {
    record = await readCrawl(probe, crawlId);
  } finally {
    await probe.end().catch(() => undefined);
  }
  const cluster = new PgCluster(clusterConn, availability, record, name);
  try {
    await frontierConn.open();
    await cluster.join();
  } catch (err) {
    await cluster.close().catch(() => undefined);
    await frontierConn.close();
    throw err instanceof StoreError ? err : new StoreError((err as Error).message);
  }
  return { store: new PgFrontierStore(frontierConn, cluster, settings, crawlId, serverLabel(storeUrl)), crawlId, settings };
}

/** The cluster key (TRAWL_CLUSTER_KEY): what seals and opens a crawl's credentials in the store (secrets/cluster-key.ts). */
export interface ClusterKeyOption {
  clusterKey?: string | null;
}

/**
 * Creates a crawl in the store (and the store's registry, the first time) and joins it as its first node. Its
 * credentials are stored only sealed with the cluster key; a crawl with credentials and no usable key is refused
 * before anything is written.
 */
export async function createPgCrawl(
  storeUrl: string,
  settings: ParsedSettings,
  options: NodeOptions & ClusterKeyOption & { leaseMs?: number; crawlId?: string } = {},
): Promise<PgNode> {
  parseStoreUrl(storeUrl);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(Number.isInteger(leaseMs) && leaseMs >= 300 && leaseMs <= 3_600_000))
    throw new StoreError(`the lease must be from 0.3 s to 1 hour (got ${leaseMs} ms)`);
  const crawlId = options.crawlId ?? newCrawlId();
  if (!CRAWL_ID_PATTERN.test(crawlId)) crawlSchema(crawlId);
  nodeNameOf(options);
  const key = options.clusterKey ?? '';
  if (hasSecrets(settings)) {
    if (!key)
      throw new StoreError(
        `this crawl has credentials (basic authentication or custom headers) that every node needs: set ${CLUSTER_KEY_ENV} to a secret (e.g. \`openssl rand -base64 32\`) on this node and on each node that joins; the store keeps them only sealed with it`,
      );
    const problem = clusterKeyProblem(key);
    if (problem) throw new StoreError(problem);
  }
  const stored = splitSecrets(settings);
  const sealed = hasSecrets(settings) ? sealWithClusterKey(stored.secrets, key, crawlId) : null;
  const client = await connect(storeUrl);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [REGISTRY_LOCK]);
    await client.query(REGISTRY_DDL);
    const { rowCount } = await client.query('SELECT 1 FROM trawl.crawls WHERE id = $1', [crawlId]);
    if (rowCount) throw new StoreError(`the store already has a crawl "${crawlId}"; join it with --join ${crawlId}, or choose another ID`);
    await client.query(
      'INSERT INTO trawl.crawls (id, schema_version, settings, secrets, threads, lease_ms) VALUES ($1, $2, $3, $4, $5, $6)',
      [crawlId, PG_SCHEMA_VERSION, JSON.stringify(stored.settings), sealed, settings.threads, leaseMs],
    );
    await client.query(crawlDdl(crawlSchema(crawlId)));
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (err instanceof StoreError) throw err;
    throw new StoreError(`cannot create the crawl in ${serverLabel(storeUrl)}: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  return openNode(storeUrl, crawlId, settings, options);
}

/**
 * Joins a crawl of the store as another node. A crawl that was stopped runs again; a finished one is refused.
 * The node takes its share of the cluster's threads. A crawl with credentials needs the cluster key it was created
 * with: without it, or with another, a StoreError says so and nothing changes.
 */
export async function joinPgCrawl(storeUrl: string, crawlId: string, options: NodeOptions & ClusterKeyOption = {}): Promise<PgNode> {
  parseStoreUrl(storeUrl);
  crawlSchema(crawlId);
  nodeNameOf(options);
  const client = await connect(storeUrl);
  let settings: ParsedSettings;
  try {
    const record = await readCrawl(client, crawlId);
    if (record.state === 'finished') {
      throw new StoreError(
        `crawl "${crawlId}" has finished (${record.finishReason ?? 'done'}${record.finishedBy ? ` on node ${record.finishedBy}` : ''}); there is nothing to join`,
      );
    }
    settings = parseSettings(record.settings);
    if (record.sealedSecrets !== null) settings = { ...settings, ...openSealedSecrets(record.sealedSecrets, crawlId, options.clusterKey) };
    else if (hasSecrets(settings)) await sealOlderCrawl(client, crawlId, settings, options.clusterKey);
    await upgradeCrawlTables(client, crawlId, storeUrl);
    if (record.state === 'stopped') {
      await client.query(`UPDATE trawl.crawls SET state = 'running' WHERE id = $1 AND state = 'stopped'`, [crawlId]);
    }
    // A crawl created before renders shared the hosts' clock lacks the column.
    await client.query(`ALTER TABLE ${crawlSchema(crawlId)}.hosts ADD COLUMN IF NOT EXISTS fetch_due bigint NOT NULL DEFAULT 0`);
  } finally {
    await client.end().catch(() => undefined);
  }
  return openNode(storeUrl, crawlId, settings, options);
}

/**
 * Adds what the tables of a crawl made by an older Trawl lack (CRAWL_UPGRADE_DDL: what a render records), so this
 * node records all it finds. Checked first, so joining a crawl that has them takes no lock.
 */
async function upgradeCrawlTables(client: PgClient, crawlId: string, storeUrl: string): Promise<void> {
  const schema = crawlSchema(crawlId);
  const { rows } = await client.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $3 AND NOT attisdropped)
       AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = 'rendered' AND NOT attisdropped)
       AND to_regclass($4) IS NOT NULL AND to_regclass($5) IS NOT NULL AND to_regclass($6) IS NOT NULL
       AND to_regclass($7) IS NOT NULL AND to_regclass($8) IS NOT NULL
       AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($9) AND attname = 'title_px' AND NOT attisdropped)
       AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($9) AND attname = 'canonical_self' AND NOT attisdropped)
       AND NOT EXISTS (SELECT 1 FROM unnest($10::text[]) AS i(name) WHERE to_regclass($11 || '.' || i.name) IS NULL)
       AND EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass($9) AND tgname = $13)
       AND (to_regclass($12) IS NOT NULL
         OR NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($9) AND attname = $14 AND NOT attisdropped)) AS ok`,
    [
      `${schema}.renders`,
      `${schema}.links`,
      RENDERS_NEWEST_COLUMN,
      `${schema}.image_uses`,
      `${schema}.${NEWEST_CRAWL_TABLE}`,
      `${schema}.hreflang`,
      `${schema}.${NEWEST_CRAWL_INDEX}`,
      `${schema}.content`,
      // The widths and the canonical's kind a node records with each page (results.title_px, description_px and
      // canonical_self).
      `${schema}.results`,
      // Every one of the analysis views' indexes (PG_ANALYSIS_INDEXES): a crawl may lack any one of them, made by a
      // Trawl that had the others.
      [...PG_ANALYSIS_INDEX_NAMES],
      schema,
      // The duplicate filters' counts of each hash, in a crawl that has the hashes (pg-schema.ts, TEXT_COUNTS_TABLE).
      `${schema}.${TEXT_COUNTS_TABLE.title}`,
      // What fills canonical_self on the rows of a node that does not (pg-schema.ts).
      CANONICAL_SELF_TRIGGER,
      TEXT_HASH_COLUMN.title,
    ],
  );
  if (rows[0]!.ok) return;
  try {
    await client.query('BEGIN');
    // Two nodes joining at once: one adds them, the other finds them there.
    await client.query('SELECT pg_advisory_xact_lock($1)', [REGISTRY_LOCK]);
    await client.query(`SET LOCAL search_path TO ${schema}`);
    await client.query(CRAWL_UPGRADE_DDL);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new StoreError(`cannot add the render tables to crawl "${crawlId}" in ${serverLabel(storeUrl)}: ${(err as Error).message}`);
  }
}

/** The credentials of a crawl of the store, opened with the node's cluster key; a StoreError saying what is missing. */
function openSealedSecrets(sealed: string, crawlId: string, key: string | null | undefined) {
  if (!key)
    throw new StoreError(
      `crawl "${crawlId}" has credentials sealed with its cluster key: set ${CLUSTER_KEY_ENV} to the key the crawl was created with, then join again`,
    );
  try {
    return openWithClusterKey(sealed, key, crawlId);
  } catch (err) {
    if (err instanceof ClusterKeyError) throw new StoreError(err.message);
    throw err;
  }
}

/**
 * A crawl created before credentials were sealed has them in clear in its settings: a node joining it with a cluster
 * key seals them and takes them out of the settings; without a key it is refused, saying why.
 */
async function sealOlderCrawl(client: PgQuerier, crawlId: string, settings: ParsedSettings, key: string | null | undefined): Promise<void> {
  if (!key)
    throw new StoreError(
      `crawl "${crawlId}" keeps its credentials in clear (it was created by an older Trawl): set ${CLUSTER_KEY_ENV} to a secret (e.g. \`openssl rand -base64 32\`) to seal them, then give the same to each node that joins`,
    );
  const problem = clusterKeyProblem(key);
  if (problem) throw new StoreError(problem);
  const { settings: stored, secrets } = splitSecrets(settings);
  // A registry that old lacks the column.
  await client.query('ALTER TABLE trawl.crawls ADD COLUMN IF NOT EXISTS secrets text');
  await client.query('UPDATE trawl.crawls SET settings = $1, secrets = $2 WHERE id = $3', [
    JSON.stringify(stored),
    sealWithClusterKey(secrets, key, crawlId),
    crawlId,
  ]);
}
