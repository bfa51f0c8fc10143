// The app or web console attached to a crawl in a PostgreSQL store: one connection that LISTENs on the crawl's
// channel and reads the cluster's snapshot (every node and its threads) when a node says something changed (at most
// a few times a second) and at least every second (heartbeats do not notify) until it reads finished: then on
// notifications only (a node joining a stopped crawl runs it again and says so on the channel; a finished crawl takes
// no more work, commands or joins). The cluster's commands (pause, resume,
// stop, thread count) go through the same connection. A lost connection is shown in the snapshot's error and retried
// every few seconds; nothing here ever holds the password in a message (serverLabel / redact only).
import { EventEmitter } from 'node:events';
import type { ResultsPage, ResultsQuery, StoreCrawlInfo } from '../../../shared/crawler-api.ts';
import type { CsvExportResult } from '../export/csv-writer.ts';
import { exportCsvFromStore } from '../export/pg-csv-export.ts';
import type { CrawlSnapshot, StateChange } from '../../../shared/snapshot.ts';
import { connect, isConnectionLost } from '../frontier/postgres/pg-client.ts';
import { StoreError, parseStoreUrl, serverLabel } from '../frontier/postgres/pg-store-url.ts';
import type { PgClient } from '../frontier/postgres/pg-client.ts';
import { commandCluster, dbNow, listCrawls, readClusterSnapshot, readCrawl } from '../frontier/postgres/pg-control.ts';
import { PG_SCHEMA_VERSION, crawlChannel, crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { queryStoreResults } from './store-results.ts';

/** Refreshes on notifications come at most this often (4 a second). */
export const MIN_REFRESH_MS = 250;
/** And at least this often, notified or not: nodes' heartbeats and threads' steps are not notified. */
export const REFRESH_PERIOD_MS = 1_000;
/** A lost connection is tried again this often. */
export const RECONNECT_MS = 3_000;
/** A refresh that takes longer than this means the connection is dead (a silent network), not a slow query. */
export const REFRESH_TIMEOUT_MS = 10_000;
/** How long connecting may take. */
const CONNECT_TIMEOUT_MS = 5_000;
/** listStoreCrawls lists at most this many crawls, the newest. */
export const MAX_LISTED_STORE_CRAWLS = 100;

export interface StoreObserverOptions {
  minRefreshMs?: number;
  refreshPeriodMs?: number;
  reconnectMs?: number;
  refreshTimeoutMs?: number;
}

export interface StoreObserverEvents {
  snapshot: [CrawlSnapshot];
  state: [StateChange];
}

export type ClusterCommand = { state: 'running' | 'paused' | 'stopped' } | { threads: number };

/** A message for the UI from anything a query threw: StoreErrors as they are, others with the server named. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The crawls of a store, newest first, with their counters where they can be read cheaply (per-host totals). */
export async function listStoreCrawls(storeUrl: string): Promise<{ server: string; crawls: StoreCrawlInfo[] }> {
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

/** One crawl of a store, watched live. Open with StoreObserver.open; close when done. */
export class StoreObserver extends EventEmitter<StoreObserverEvents> {
  readonly server: string;
  private client: PgClient | null;
  private last: CrawlSnapshot;
  /** What the UI is told is wrong (connection lost, crawl unreadable), or null. */
  private problem: string | null = null;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dueAt = 0;
  private refreshing = false;
  private again = false;
  private lastRefreshAt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** A second connection for the results table, opened when first asked: a slow sort never holds up the live view. */
  private queries: PgClient | null = null;
  private queriesOpening: Promise<PgClient> | null = null;
  private readonly minRefreshMs: number;
  private readonly refreshPeriodMs: number;
  private readonly reconnectMs: number;
  private readonly refreshTimeoutMs: number;

  private constructor(
    private readonly storeUrl: string,
    readonly crawlId: string,
    client: PgClient,
    first: CrawlSnapshot,
    options: StoreObserverOptions,
  ) {
    super();
    this.server = serverLabel(storeUrl);
    this.client = client;
    this.last = first;
    this.minRefreshMs = options.minRefreshMs ?? MIN_REFRESH_MS;
    this.refreshPeriodMs = options.refreshPeriodMs ?? REFRESH_PERIOD_MS;
    this.reconnectMs = options.reconnectMs ?? RECONNECT_MS;
    this.refreshTimeoutMs = options.refreshTimeoutMs ?? REFRESH_TIMEOUT_MS;
  }

  /**
   * Connects, checks the crawl (a StoreError names a bad URL, an unreachable server, an unknown crawl or another
   * schema version), reads its first snapshot and starts listening.
   */
  static async open(storeUrl: string, crawlId: string, options: StoreObserverOptions = {}): Promise<StoreObserver> {
    parseStoreUrl(storeUrl);
    try {
      crawlSchema(crawlId);
    } catch (err) {
      throw new StoreError(messageOf(err));
    }
    const client = await connect(storeUrl, { connectTimeoutMs: CONNECT_TIMEOUT_MS, applicationName: 'trawl-observer' });
    let first: CrawlSnapshot;
    try {
      await readCrawl(client, crawlId);
      await client.query(`LISTEN ${client.escapeIdentifier(crawlChannel(crawlId))}`);
      first = await readClusterSnapshot(client, crawlId, serverLabel(storeUrl));
    } catch (err) {
      await client.end().catch(() => undefined);
      if (err instanceof StoreError) throw err;
      throw new StoreError(`cannot read crawl "${crawlId}" at ${serverLabel(storeUrl)}: ${messageOf(err)}`);
    }
    const observer = new StoreObserver(storeUrl, crawlId, client, first, options);
    observer.watch(client);
    observer.lastRefreshAt = Date.now();
    if (!observer.settled()) observer.schedule(Date.now() + observer.refreshPeriodMs);
    return observer;
  }

  /** The latest snapshot, with what is wrong (a lost connection) in its error. */
  snapshot(): CrawlSnapshot {
    return this.problem === null ? this.last : { ...this.last, error: this.problem };
  }

  /** True while the connection to the store is up. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Tells every node of the crawl what to do; refused (with why) while the store cannot be reached. */
  async command(command: ClusterCommand): Promise<void> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    const client = this.client;
    if (!client) {
      throw new StoreError(
        `cannot reach the PostgreSQL store at ${this.server} right now${this.problem ? ` (${this.problem})` : ''}; try again once it is back`,
      );
    }
    try {
      await commandCluster(client, this.crawlId, command);
    } catch (err) {
      if (isConnectionLost(err)) {
        this.lost(client, err);
        throw new StoreError(`lost the connection to the PostgreSQL store at ${this.server} before the command went through; try again once it is back`);
      }
      throw err;
    }
    // Our own NOTIFY comes back too; refreshing now shows the change without waiting for it.
    this.requestRefresh();
  }

  /** The crawl's results as CSV (as a crawl file's export), through a connection of its own: the live view goes on meanwhile. */
  async exportCsv(dest: string | NodeJS.WritableStream): Promise<CsvExportResult> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    return exportCsvFromStore(this.storeUrl, this.crawlId, dest);
  }

  /** A page of the crawl's results, filtered and sorted by PostgreSQL as a crawl file's are by SQLite. */
  async queryResults(query: ResultsQuery): Promise<ResultsPage> {
    const client = await this.queryClient();
    try {
      return await queryStoreResults(client, this.crawlId, query);
    } catch (err) {
      if (!isConnectionLost(err)) throw err;
      if (this.queries === client) this.queries = null;
      void client.end().catch(() => undefined);
      throw new StoreError(`lost the connection to the PostgreSQL store at ${this.server}; the results come back with it`);
    }
  }

  private async queryClient(): Promise<PgClient> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    if (this.queries) return this.queries;
    this.queriesOpening ??= (async () => {
      try {
        const client = await connect(this.storeUrl, { connectTimeoutMs: CONNECT_TIMEOUT_MS, applicationName: 'trawl-observer' });
        if (this.closed) {
          await client.end().catch(() => undefined);
          throw new StoreError('no longer attached to the crawl');
        }
        const drop = () => {
          if (this.queries === client) this.queries = null;
        };
        client.on('end', drop);
        client.on('error', drop);
        this.queries = client;
        return client;
      } finally {
        this.queriesOpening = null;
      }
    })();
    return this.queriesOpening;
  }

  /** UNLISTENs and closes the connection; no event is emitted afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.removeAllListeners();
    if (this.timer) clearTimeout(this.timer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.timer = null;
    this.reconnectTimer = null;
    const queries = this.queries;
    this.queries = null;
    if (queries) await withTimeout(queries.end(), 2_000).catch(() => undefined);
    const client = this.client;
    this.client = null;
    if (!client) return;
    try {
      await withTimeout(client.query('UNLISTEN *'), 2_000);
    } catch {
      // the connection is gone or hangs: ending it is all there is left to do
    }
    await withTimeout(client.end(), 2_000).catch(() => undefined);
  }

  // ---- internals ----

  private watch(client: PgClient): void {
    client.on('notification', (msg) => {
      if (client === this.client && msg.channel === crawlChannel(this.crawlId)) this.requestRefresh();
    });
    client.on('end', () => {
      if (client === this.client) this.lost(client, new Error('the server closed the connection'));
    });
    client.on('error', (err) => {
      if (client === this.client) this.lost(client, err);
    });
  }

  /** A refresh soon: at once unless one ran less than minRefreshMs ago (notifications are coalesced). */
  private requestRefresh(): void {
    if (this.closed || !this.client) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.schedule(Math.max(Date.now(), this.lastRefreshAt + this.minRefreshMs));
  }

  /** Runs a refresh at `at`, unless one is due sooner already. */
  private schedule(at: number): void {
    if (this.closed) return;
    if (this.timer && this.dueAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = at;
    this.timer = setTimeout(() => void this.refresh(), Math.max(0, at - Date.now()));
  }

  private async refresh(): Promise<void> {
    this.timer = null;
    const client = this.client;
    if (this.closed || !client) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    this.again = false;
    this.lastRefreshAt = Date.now();
    try {
      const next = await withTimeout(readClusterSnapshot(client, this.crawlId, this.server), this.refreshTimeoutMs);
      if (this.closed || client !== this.client) return;
      this.problem = null;
      this.publish(next);
    } catch (err) {
      if (this.closed || client !== this.client) return;
      if (err instanceof TimeoutError || isConnectionLost(err)) {
        this.lost(client, err);
        return;
      }
      // The crawl was dropped, its tables changed...: shown, and read again on the next round.
      this.setProblem(`cannot read crawl "${this.crawlId}" at ${this.server}: ${messageOf(err)}`);
    } finally {
      this.refreshing = false;
      if (!this.closed && this.client === client) {
        if (this.again) this.schedule(this.lastRefreshAt + this.minRefreshMs);
        else if (!this.settled()) this.schedule(Date.now() + this.refreshPeriodMs);
        this.again = false;
      }
    }
  }

  /**
   * Read finished (the crawl is, or it was stopped and no node is live): nothing changes it unheard, so the clock
   * stops. A node that joins a stopped crawl NOTIFYs the channel, which refreshes and starts the clock again. A crawl
   * that could not be read last time is not settled: it is read again on the clock.
   */
  private settled(): boolean {
    return this.problem === null && this.last.state === 'finished';
  }

  private publish(next: CrawlSnapshot): void {
    const before = this.last;
    this.last = next;
    if (before.state !== next.state) {
      this.emit('state', { from: before.state, to: next.state, reason: next.reason, error: next.error, at: next.at });
    }
    this.emit('snapshot', this.snapshot());
  }

  private setProblem(problem: string | null): void {
    if (this.problem === problem) return;
    this.problem = problem;
    this.emit('snapshot', this.snapshot());
  }

  /** The connection broke: say so, drop it, and try again every reconnectMs. */
  private lost(client: PgClient, err: unknown): void {
    if (this.closed || client !== this.client) return;
    this.client = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void withTimeout(client.end(), 1_000).catch(() => undefined);
    const why = err instanceof TimeoutError ? 'no answer' : messageOf(err);
    this.setProblem(`lost the connection to the PostgreSQL store at ${this.server} (${why}); retrying every ${Math.round(this.reconnectMs / 1000)} s`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => void this.reconnect(), this.reconnectMs);
  }

  private async reconnect(): Promise<void> {
    this.reconnectTimer = null;
    if (this.closed || this.client) return;
    let client: PgClient;
    try {
      client = await connect(this.storeUrl, { connectTimeoutMs: CONNECT_TIMEOUT_MS, applicationName: 'trawl-observer' });
    } catch (err) {
      if (this.closed) return;
      this.setProblem(`${messageOf(err)}; retrying every ${Math.round(this.reconnectMs / 1000)} s`);
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    try {
      await withTimeout(client.query(`LISTEN ${client.escapeIdentifier(crawlChannel(this.crawlId))}`), this.refreshTimeoutMs);
    } catch (err) {
      await client.end().catch(() => undefined);
      if (this.closed) return;
      this.setProblem(`cannot listen on the PostgreSQL store at ${this.server} (${messageOf(err)}); retrying every ${Math.round(this.reconnectMs / 1000)} s`);
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.watch(client);
    // The refresh clears the problem once the crawl reads again.
    this.lastRefreshAt = 0;
    this.requestRefresh();
  }
}

class TimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
