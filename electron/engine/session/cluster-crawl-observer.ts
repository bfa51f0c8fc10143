// The app or web console attached to a crawl in a PostgreSQL store: one connection that LISTENs on the crawl's
// channel and reads the cluster's snapshot (every node and its threads) when a node says something changed (at most
// a few times a second) and at least every second (heartbeats do not notify) until it reads finished: then on
// notifications only (a node joining a stopped crawl runs it again and says so on the channel; a finished crawl takes
// no more work, commands or joins). The cluster's commands (pause, resume,
// stop, thread count) go through the same connection. A lost connection is shown in the snapshot's error and retried
// every few seconds; nothing here ever holds the password in a message (serverLabel / redact only).
//
// Why not PgConnection (frontier/postgres/pg-connection.ts), a node's connection that reconnects by itself: a node's
// queries wait for the store to come back, where the observer must answer at once (a command is refused while the
// store is away, the snapshot says so), retry at its own pace (reconnectMs), notice a silent network (a refresh that
// times out) and a connection that ended while idle, and LISTEN on the connection it holds. The results table has a
// connection of its own (cluster-results.ts).
import { EventEmitter } from 'node:events';
import type { CrawlSnapshot, StateChange } from '../../../shared/snapshot.ts';
import { connect, isConnectionLost } from '../frontier/postgres/pg-client.ts';
import type { PgClient } from '../frontier/postgres/pg-client.ts';
import { StoreError, parseStoreUrl, serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { commandCluster, readClusterSnapshot, readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlChannel, crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { deprioritiseInCluster, excludeInCluster } from '../frontier/postgres/pg-patterns.ts';
import { TimeoutError, withTimeout } from './with-timeout.ts';

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

export interface ClusterObserverOptions {
  minRefreshMs?: number;
  refreshPeriodMs?: number;
  reconnectMs?: number;
  refreshTimeoutMs?: number;
}

export interface ClusterObserverEvents {
  snapshot: [CrawlSnapshot];
  state: [StateChange];
}

export type ClusterCommand = { state: 'running' | 'paused' | 'stopped' } | { threads: number } | { maxUrlsPerSecond: number | null };

/** A message for the UI from anything a query threw: StoreErrors as they are, others with the server named. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One crawl of a store, watched live. Open with ClusterCrawlObserver.open; close when done. */
export class ClusterCrawlObserver extends EventEmitter<ClusterObserverEvents> {
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
  private readonly minRefreshMs: number;
  private readonly refreshPeriodMs: number;
  private readonly reconnectMs: number;
  private readonly refreshTimeoutMs: number;

  private constructor(
    private readonly storeUrl: string,
    readonly crawlId: string,
    client: PgClient,
    first: CrawlSnapshot,
    options: ClusterObserverOptions,
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
  static async open(storeUrl: string, crawlId: string, options: ClusterObserverOptions = {}): Promise<ClusterCrawlObserver> {
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
    const observer = new ClusterCrawlObserver(storeUrl, crawlId, client, first, options);
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
    await this.withClient((client) => commandCluster(client, this.crawlId, command));
  }

  /**
   * Adds an exclude or deprioritise pattern for the whole cluster (pg-patterns.ts), in one transaction: every node
   * applies it to the links it finds from then on, and the queued URLs matching it are dropped or moved back now.
   * Returns how many queued URLs it dropped or moved.
   */
  async addPattern(kind: 'exclude' | 'deprioritised', pattern: string): Promise<number> {
    const finished = this.last.state === 'finished';
    if (finished) throw new StoreError(`crawl "${this.crawlId}" has finished; it takes no more patterns`);
    return this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const n =
          kind === 'exclude'
            ? await excludeInCluster(client, this.crawlId, pattern)
            : await deprioritiseInCluster(client, this.crawlId, pattern);
        await client.query('COMMIT');
        return n;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /** Runs `work` on the connection, naming the server when there is none or it breaks meanwhile; then refreshes. */
  private async withClient<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    const client = this.client;
    if (!client) {
      throw new StoreError(
        `cannot reach the PostgreSQL store at ${this.server} right now${this.problem ? ` (${this.problem})` : ''}; try again once it is back`,
      );
    }
    let out: T;
    try {
      out = await work(client);
    } catch (err) {
      if (isConnectionLost(err)) {
        this.lost(client, err);
        throw new StoreError(
          `lost the connection to the PostgreSQL store at ${this.server} before the command went through; try again once it is back`,
        );
      }
      throw err;
    }
    // Our own NOTIFY comes back too; refreshing now shows the change without waiting for it.
    this.requestRefresh();
    return out;
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
    this.setProblem(
      `lost the connection to the PostgreSQL store at ${this.server} (${why}); retrying every ${Math.round(this.reconnectMs / 1000)} s`,
    );
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
      this.setProblem(
        `cannot listen on the PostgreSQL store at ${this.server} (${messageOf(err)}); retrying every ${Math.round(this.reconnectMs / 1000)} s`,
      );
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
