// A node's part in a cluster crawl: it registers itself, says it is alive and what its threads do (heartbeat), keeps
// the leases on the URLs it holds, gives the URLs of nodes that died back to the queue when their leases run out,
// listens for the cluster's commands and news (LISTEN/NOTIFY), and decides with the other nodes, exactly once, when
// the crawl is complete. It has a connection of its own, so a heartbeat never waits behind the frontier's work.
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { CrawlState, FinishReason, ThreadStatus } from '../../../../shared/snapshot.ts';
import { HELD, RobotsState, SitemapState, UrlState, type Claim } from '../model.ts';
import type { ClusterCoordination, ClusterEvents } from '../frontier-store.ts';
import type { PgConnection, StoreAvailability } from './pg-reconnecting-connection.ts';
import {
  type ClusterCommand,
  clusterCounts,
  commandCluster,
  dbNow,
  rateShare,
  readCrawl,
  threadShare,
  type CrawlRecord,
} from './pg-control.ts';
import type { PgQuerier } from './pg-client.ts';
import { StoreError } from './pg-store-url.ts';
import { crawlChannel, crawlSchema } from './pg-schema.ts';

export interface NodeOptions {
  /** Unique within the crawl; default hostname-pid. A node restarted under its old name continues its work. */
  name?: string;
}

/** How often a node says it is alive, renews its leases and looks for expired ones: a third of the lease, at most 1 s. */
function heartbeatMs(leaseMs: number): number {
  return Math.max(100, Math.min(1000, Math.floor(leaseMs / 3)));
}

export class PgCluster extends EventEmitter<ClusterEvents> implements ClusterCoordination {
  readonly nodeName: string;
  /** Database clock minus this machine's, measured at join: leases and politeness use the database's clock. */
  clockOffsetMs = 0;
  private clockMeasured = false;
  leaseMs: number;
  private crawl: CrawlRecord;
  private liveNodes: string[] = [];
  private readonly heldUrls = new Set<number>();
  private readonly heldRobots = new Set<number>();
  private readonly heldSitemaps = new Set<number>();
  private status: { state: string; threads: ThreadStatus[]; pagesDone: number } = { state: 'preparing', threads: [], pagesDone: 0 };
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private closed = false;
  /** Set once the node has left: its published state stays left or finished. */
  private left = false;
  private lastCommand = '';
  private workTimer: NodeJS.Timeout | null = null;
  private readonly schema: string;

  constructor(
    private readonly conn: PgConnection,
    private readonly availability: StoreAvailability,
    crawl: CrawlRecord,
    name: string,
  ) {
    super();
    this.crawl = crawl;
    this.nodeName = name;
    this.leaseMs = crawl.leaseMs;
    this.schema = crawlSchema(crawl.id);
    availability.on('unavailable', (e) => this.emit('unavailable', e));
    availability.on('available', () => {
      this.emit('available');
      // Commands sent while this node could not hear them are read now.
      void this.beat();
    });
    conn.onConnect = async (client) => {
      await client.query(`SET search_path TO ${this.schema}, public`);
      client.on('notification', (n) => this.onNotification(n.payload ?? ''));
      await client.query(`LISTEN ${crawlChannel(crawl.id)}`);
    };
  }

  /** Registers the node (refusing a name a live node uses) and starts its heartbeat. */
  async join(): Promise<void> {
    await this.conn.open();
    await this.conn.run(async (c) => {
      await this.measureClock(c);
      const now = this.now();
      const { rows } = await c.query<{ last_seen: number; state: string; pid: number; hostname: string }>(
        'SELECT last_seen, state, pid, hostname FROM nodes WHERE name = $1',
        [this.nodeName],
      );
      const other = rows[0];
      if (
        other &&
        now - other.last_seen <= this.leaseMs &&
        other.state !== 'left' &&
        other.state !== 'finished' &&
        !(other.pid === process.pid && other.hostname === os.hostname())
      ) {
        throw new Error(
          `a node named "${this.nodeName}" (pid ${other.pid} on ${other.hostname}) is working on crawl ${this.crawl.id}; choose another --node-name`,
        );
      }
      await c.query(
        `INSERT INTO nodes (name, hostname, pid, joined_at, last_seen, state, threads) VALUES ($1, $2, $3, $4, $4, 'preparing', 0)
         ON CONFLICT (name) DO UPDATE SET hostname = $2, pid = $3, joined_at = $4, last_seen = $4, state = 'preparing', status = '[]'`,
        [this.nodeName, os.hostname(), process.pid, now],
      );
      await c.query('SELECT pg_notify($1, $2)', [crawlChannel(this.crawl.id), `nodes:${this.nodeName}`]);
    });
    await this.beat();
    this.schedule();
  }

  /**
   * The database's clock minus this machine's, taken at the middle of the round trip that read it. Changed only
   * when it has drifted by more than a round trip's noise, so times given to the store stay consistent.
   */
  private async measureClock(c: PgQuerier): Promise<void> {
    const before = Date.now();
    const db = await dbNow(c);
    const offset = Math.round(db - (before + Date.now()) / 2);
    if (!this.clockMeasured || Math.abs(offset - this.clockOffsetMs) > 25) this.clockOffsetMs = offset;
    this.clockMeasured = true;
  }

  private now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.beat().finally(() => this.schedule());
    }, heartbeatMs(this.leaseMs));
  }

  private onNotification(payload: string): void {
    const [what, from] = payload.split(':');
    if (what === 'work' && from !== this.nodeName) {
      // Coalesced: a burst of other nodes' results wakes this node's claiming once.
      if (this.workTimer) return;
      this.workTimer = setTimeout(() => {
        this.workTimer = null;
        if (!this.closed) this.emit('work');
      }, 5);
    } else if (what === 'command' || what === 'finished' || what === 'nodes') {
      void this.beat();
    }
  }

  /** The heartbeat: one at a time; a beat asked for while one runs shares it. */
  beat(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.beating) this.beating = this.beatOnce().finally(() => (this.beating = null));
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    if (this.closed) return;
    let reclaimed = 0;
    try {
      await this.conn.run(async (c) => {
        // Clocks drift: the offset to the database's is measured again with every beat.
        await this.measureClock(c);
        const now = this.now();
        const lease = now + this.leaseMs;
        await c.query('UPDATE nodes SET last_seen = $1, state = $2, threads = $3, status = $4, pages_done = $5 WHERE name = $6', [
          now,
          this.status.state,
          this.threadShare(),
          JSON.stringify(this.status.threads),
          this.status.pagesDone,
          this.nodeName,
        ]);
        if (this.heldUrls.size) {
          // In id order, as recording locks them (pg-record-pages.ts): an UPDATE locks rows in its plan's order,
          // and a renewal crossing a record of the same URLs deadlocked.
          await c.query(
            `WITH locked AS (SELECT id FROM urls WHERE id = ANY($2::bigint[]) AND state = ${UrlState.claimed} AND lease_node = $3 ORDER BY id FOR UPDATE)
             UPDATE urls SET lease_until = $1 WHERE id IN (SELECT id FROM locked)`,
            [lease, [...this.heldUrls], this.nodeName],
          );
        }
        if (this.heldSitemaps.size) {
          await c.query(
            `UPDATE sitemaps SET lease_until = $1 WHERE id = ANY($2::bigint[]) AND state = ${SitemapState.claimed} AND lease_node = $3`,
            [lease, [...this.heldSitemaps], this.nodeName],
          );
        }
        if (this.heldRobots.size) {
          await c.query(
            `UPDATE hosts SET robots_lease_until = $1 WHERE id = ANY($2::bigint[]) AND robots_state = ${RobotsState.fetching} AND robots_node = $3`,
            [lease, [...this.heldRobots], this.nodeName],
          );
        }
        // Leases of nodes that stopped renewing them (killed, cut off) have run out: their URLs go back to the queue.
        await c.query('BEGIN');
        try {
          reclaimed = await this.requeueLeases(c, 'expired', now);
          if (reclaimed > 0) await c.query('SELECT pg_notify($1, $2)', [crawlChannel(this.crawl.id), 'work:']);
          await c.query('COMMIT');
        } catch (err) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
        const { rows } = await c.query<{ name: string }>(
          `SELECT name FROM nodes WHERE last_seen > $1 AND state NOT IN ('left', 'finished') ORDER BY name`,
          [now - this.leaseMs],
        );
        this.liveNodes = rows.map((r) => r.name);
        this.crawl = await readCrawl(c, this.crawl.id);
        const counts = await clusterCounts(c, this.crawl.id, now);
        this.emit('counts', { queued: counts.queued, crawled: counts.crawled, failed: counts.failed });
      });
    } catch (err) {
      if (this.closed) return;
      throw err;
    }
    const settings = this.crawl.settings as { exclude?: string[] };
    this.emit('patterns', { exclude: settings.exclude ?? [], deprioritised: this.crawl.deprioritised });
    if (this.crawl.state === 'finished') {
      this.emit('finished', { reason: (this.crawl.finishReason ?? 'completed') as FinishReason, by: this.crawl.finishedBy });
      return;
    }
    const command = {
      state: this.crawl.state as 'running' | 'paused' | 'stopped',
      threads: this.threadShare(),
      maxUrlsPerSecond: this.rateShare(),
    };
    const key = `${command.state}/${command.threads}/${command.maxUrlsPerSecond}`;
    if (key !== this.lastCommand) {
      this.lastCommand = key;
      this.emit('command', command);
    }
    if (reclaimed > 0) this.emit('work');
  }

  /**
   * Gives claimed URLs (and robots.txt fetches, and sitemaps being read) back to the queue: this node's (`node`: it is leaving or starting
   * afresh) or anyone's whose lease has run out (`expired`). Run inside a transaction. Returns how many URLs.
   */
  async requeueLeases(c: PgQuerier, which: 'node' | 'expired', now: number): Promise<number> {
    const where = which === 'node' ? 'lease_node = $2' : 'lease_until < $1';
    const params = which === 'node' ? [now, this.nodeName] : [now];
    const { rows } = await c.query<{ n: number }>(
      `WITH freed AS (
         UPDATE urls SET state = ${UrlState.queued}, lease_node = NULL, lease_until = NULL
         WHERE state = ${UrlState.claimed} AND ${where} RETURNING host_id
       ), per_host AS (SELECT host_id, count(*)::int AS n FROM freed GROUP BY host_id),
       updated AS (
         UPDATE hosts h SET queued = h.queued + p.n, in_flight = greatest(h.in_flight - p.n, 0),
           next_fetch_at = CASE WHEN h.next_fetch_at >= ${HELD} THEN greatest($1, h.fetch_due) ELSE h.next_fetch_at END
         FROM per_host p WHERE h.id = p.host_id RETURNING p.n
       )
       SELECT coalesce(sum(n), 0)::int AS n FROM updated`,
      params,
    );
    // Sitemaps being read, as URLs (counted in their hosts' queues with the URLs, and apart).
    await c.query(
      `WITH freed AS (
         UPDATE sitemaps SET state = ${SitemapState.queued}, lease_node = NULL, lease_until = NULL
         WHERE state = ${SitemapState.claimed} AND ${where} RETURNING host_id
       ), per_host AS (SELECT host_id, count(*)::int AS n FROM freed GROUP BY host_id),
       locked AS (SELECT h.id FROM hosts h WHERE h.id IN (SELECT host_id FROM per_host) ORDER BY h.id FOR UPDATE)
       UPDATE hosts h SET queued = h.queued + p.n, sitemaps_queued = h.sitemaps_queued + p.n, in_flight = greatest(h.in_flight - p.n, 0),
         next_fetch_at = CASE WHEN h.next_fetch_at >= ${HELD} THEN greatest($1, h.fetch_due) ELSE h.next_fetch_at END
       FROM per_host p WHERE h.id = p.host_id AND h.id IN (SELECT id FROM locked)`,
      params,
    );
    const robotsWhere = which === 'node' ? 'robots_node = $2' : 'robots_lease_until < $1';
    await c.query(
      `UPDATE hosts SET robots_state = ${RobotsState.unknown}, next_fetch_at = $1, robots_node = NULL, robots_lease_until = NULL
       WHERE robots_state = ${RobotsState.fetching} AND ${robotsWhere}`,
      params,
    );
    if (which === 'node') {
      this.heldUrls.clear();
      this.heldRobots.clear();
      this.heldSitemaps.clear();
    }
    return rows[0]!.n;
  }

  hold(claim: Claim): void {
    if (claim.kind === 'page') this.heldUrls.add(claim.urlId);
    else if (claim.kind === 'sitemap') this.heldSitemaps.add(claim.sitemapId);
    else this.heldRobots.add(claim.hostId);
  }

  unhold(claim: Claim): void {
    if (claim.kind === 'page') this.heldUrls.delete(claim.urlId);
    else if (claim.kind === 'sitemap') this.heldSitemaps.delete(claim.sitemapId);
    else this.heldRobots.delete(claim.hostId);
  }

  /**
   * Reads the cluster's counters and commands now (after a change this node made): a fresh heartbeat, after any
   * one under way (which may have read before the change committed).
   */
  async refresh(): Promise<void> {
    await this.beating?.catch(() => undefined);
    return this.beat();
  }

  /** This node's share of the cluster's URLs/s cap, as of the last refresh (null: no cap). */
  rateShare(): number | null {
    const cap = (this.crawl.settings as { maxUrlsPerSecond?: number | null }).maxUrlsPerSecond ?? null;
    return rateShare(cap, this.crawl.threads, this.liveNodes, this.nodeName);
  }

  threadShare(): number {
    return threadShare(this.crawl.threads, this.liveNodes, this.nodeName);
  }

  clusterState(): 'running' | 'paused' | 'stopped' | 'finished' {
    return this.crawl.state;
  }

  async command(command: ClusterCommand): Promise<void> {
    await this.conn.run(async (c) => {
      try {
        await commandCluster(c, this.crawl.id, command);
      } catch (err) {
        // Finished meanwhile: this node hears it with its next beat, and stops for that reason.
        if (!(err instanceof StoreError)) throw err;
      }
    });
    await this.beat();
  }

  publishStatus(state: CrawlState, threads: ThreadStatus[], pagesDone: number): void {
    if (this.left) return;
    this.status = { state, threads, pagesDone };
  }

  noteLocalState(state: CrawlState): void {
    if (this.left) return;
    this.status = { ...this.status, state };
  }

  async completeIfDone(): Promise<boolean> {
    return this.conn.run(async (c) => {
      await c.query('BEGIN');
      try {
        // The registry row's lock makes the check and the verdict one step for the whole cluster: a claim or a
        // record commits wholly before or after it, so "nothing queued or claimed" cannot be half true.
        const { rows } = await c.query<{ state: string }>('SELECT state FROM trawl.crawls WHERE id = $1 FOR UPDATE', [this.crawl.id]);
        if (rows[0]?.state === 'finished') {
          await c.query('COMMIT');
          return true;
        }
        if (rows[0]?.state !== 'running') {
          await c.query('COMMIT');
          return false;
        }
        const { rows: busy } = await c.query<{ busy: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM urls WHERE state IN (${UrlState.queued}, ${UrlState.claimed}))
             OR EXISTS (SELECT 1 FROM sitemaps WHERE state IN (${SitemapState.queued}, ${SitemapState.claimed})) AS busy`,
        );
        if (busy[0]!.busy) {
          await c.query('COMMIT');
          return false;
        }
        await c.query(
          `UPDATE trawl.crawls SET state = 'finished', finish_reason = 'completed', finished_at = now(), finished_by = $2 WHERE id = $1`,
          [this.crawl.id, this.nodeName],
        );
        await c.query('SELECT pg_notify($1, $2)', [crawlChannel(this.crawl.id), 'finished']);
        await c.query('COMMIT');
        this.crawl = { ...this.crawl, state: 'finished', finishReason: 'completed', finishedBy: this.nodeName };
        return true;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /** Marks the crawl finished for a reason found on this node (a page limit); a no-op when it is finished already. */
  /**
   * Reads the cluster's counts now (the heartbeat reads them every few seconds): a node's closing figures are the
   * crawl's as it ends, not its last beat's (a node that ended a crawl said "110 still queued" of a crawl complete).
   */
  async readCounts(): Promise<void> {
    if (this.closed) return;
    await this.conn.run(async (c) => {
      const counts = await clusterCounts(c, this.crawl.id, this.now());
      this.emit('counts', { queued: counts.queued, crawled: counts.crawled, failed: counts.failed });
    });
  }

  async markFinished(reason: FinishReason): Promise<void> {
    if (reason !== 'completed' && reason !== 'page limit') return;
    await this.conn.run(async (c) => {
      const r = await c.query(
        `UPDATE trawl.crawls SET state = 'finished', finish_reason = $2, finished_at = now(), finished_by = $3 WHERE id = $1 AND state <> 'finished'`,
        [this.crawl.id, reason, this.nodeName],
      );
      if (r.rowCount) await c.query('SELECT pg_notify($1, $2)', [crawlChannel(this.crawl.id), 'finished']);
    });
  }

  async leave(state: 'left' | 'finished'): Promise<void> {
    if (this.closed) return;
    // Heartbeats until the close write the same.
    this.status = { ...this.status, state, threads: [] };
    this.left = true;
    await this.conn.transaction(async (c) => {
      const now = this.now();
      const n = await this.requeueLeases(c, 'node', now);
      await c.query(`UPDATE nodes SET state = $1, last_seen = $2, status = '[]', pages_done = $3 WHERE name = $4`, [
        state,
        now,
        this.status.pagesDone,
        this.nodeName,
      ]);
      await c.query('SELECT pg_notify($1, $2)', [crawlChannel(this.crawl.id), n > 0 ? 'work:' : `nodes:${this.nodeName}`]);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.workTimer) clearTimeout(this.workTimer);
    // Closed first, so a heartbeat waiting for an unreachable server gives up instead of holding the close.
    await this.conn.close();
    await this.beating?.catch(() => undefined);
    this.availability.removeAllListeners();
  }
}
