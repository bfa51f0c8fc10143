import type { CrawlSettings } from '../../../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult, SitemapFetchResult } from '../../../../shared/protocol.ts';
import type { CrawlState, FinishReason, StoreInfo } from '../../../../shared/snapshot.ts';
import { makeNormaliser, type Normaliser } from '../../../../shared/url/normalise.ts';
import { originOfCanonical } from '../../../../shared/url/url-key.ts';
import { compileSaved, mustCompile, type UserPattern } from '../../../../shared/pattern.ts';
import {
  HELD,
  MAX_WORKER_CRASHES,
  RobotsState,
  SitemapState,
  UrlState,
  type Claim,
  type FrontierCounts,
  type HostRow,
  type PageClaim,
  type RobotsClaim,
  type SitemapClaim,
} from '../model.ts';
import { SEED, candidateSettingsOf, matchesAny, sitemapEntryOutcome, type CandidateSettings } from '../candidates.ts';
import { errorRowOf, pageTargetsOf } from '../page-outcome.ts';
import { RobotsCache, robotsRulesFrom, robotsUrlOf, type RobotsRules, type StoredRobots } from '../robots-rules.ts';
import { ROBOTS_WORKER_CRASHED, robotsCrashSettles, robotsFetchFailed, robotsRetryWaitMs } from '../robots-policy.ts';
import { retryDelayMs } from '../retry-policy.ts';
import { nextFetchAfter, nextReadyFrom } from '../politeness.ts';
import { redirectVerdictAsync, type ChainLink } from '../redirect-chain.ts';
import type { FrontierStore, PageRecord, RecordOutcome } from '../frontier-store.ts';
import type { PgConnection } from './pg-reconnecting-connection.ts';
import type { PgQuerier } from './pg-client.ts';
import type { PgCluster } from './pg-cluster.ts';
import { claimWork } from './pg-claim.ts';
import { PgUrlDiscovery, type Enqueue } from './pg-discover.ts';
import { recordBatch, type PagePlan } from './pg-record-pages.ts';
import { emptyHostDelta, insertResults, updateHosts } from './pg-writes.ts';
import { finishSitemap, insertSitemapUrls, queueSitemaps, type SitemapToQueue } from './pg-sitemaps.ts';
import { parseRobotsTxt } from '../robots-txt.ts';
import { crawlChannel } from './pg-schema.ts';
import { deprioritiseInCluster, excludeInCluster } from './pg-patterns.ts';

export class PgFrontierStore implements FrontierStore {
  readonly label: string;
  readonly info: StoreInfo;
  private readonly candidateSettings: CandidateSettings;
  private readonly normalise: Normaliser;
  private readonly robots = new RobotsCache();
  private readonly discovery = new PgUrlDiscovery((url) => this.isDeprioritised(url));
  /** Attempts a claimed URL had when claimed: whether its result will be retried is known before recording it. */
  private readonly attemptsAtClaim = new Map<number, number>();
  private counters: FrontierCounts = { queued: 0, crawled: 0, failed: 0 };
  private liveExcludes: UserPattern[] = [];
  private deprioritised: UserPattern[] = [];

  constructor(
    private readonly db: PgConnection,
    readonly cluster: PgCluster,
    private readonly settings: CrawlSettings,
    private readonly crawlId: string,
    server: string,
  ) {
    this.label = `crawl ${crawlId} at ${server}`;
    this.info = { kind: 'postgres', server, crawlId, node: cluster.nodeName };
    this.candidateSettings = candidateSettingsOf(settings);
    this.normalise = makeNormaliser(settings);
    cluster.on('counts', (c) => (this.counters = c));
    cluster.on('patterns', ({ exclude, deprioritised }) => {
      this.liveExcludes = compileSaved(exclude.filter((p) => !settings.exclude.includes(p)));
      this.deprioritised = compileSaved(deprioritised);
    });
  }

  counts(): Readonly<FrontierCounts> {
    return this.counters;
  }

  /** The database's clock for an epoch ms of this machine's. */
  private dbTime(now: number): number {
    return now + this.cluster.clockOffsetMs;
  }

  private get leaseMs(): number {
    return this.cluster.leaseMs;
  }

  private isLiveExcluded(url: string): boolean {
    return matchesAny(this.liveExcludes, url);
  }

  private isDeprioritised(url: string): boolean {
    return matchesAny(this.deprioritised, url);
  }

  async addSeeds(seeds: string[], now = Date.now()): Promise<number> {
    const at = this.dbTime(now);
    const list: Enqueue[] = [];
    for (const seed of seeds) {
      const url = this.normalise(seed);
      if (url) list.push({ url, candidate: SEED, depth: 0, via: null, hops: 0 });
    }
    // Sitemaps: those given, and /sitemap.xml of each seed's host (robots.txt's Sitemap: lines come with it).
    const sitemaps: SitemapToQueue[] = this.settings.sitemaps.map((url) => ({ url, source: 'given', parentId: null, depth: 0 }));
    if (this.discoversSitemaps())
      for (const e of list) sitemaps.push({ url: `${originOfCanonical(e.url)}/sitemap.xml`, source: 'guess', parentId: null, depth: 0 });
    const { added } = await this.db.run(async (c) => {
      const found = await this.discover(c, list, at);
      const queued = await this.queueSitemaps(c, sitemaps, at);
      if (found.added + queued > 0) await this.notifyWork(c);
      return found;
    });
    await this.cluster.refresh();
    return added;
  }

  async recoverLeases(): Promise<number> {
    // This node starts afresh: whatever an earlier run under its name held goes back now, not after the lease.
    const n = await this.tx((c) => this.cluster.requeueLeases(c, 'node', this.dbTime(Date.now())));
    await this.cluster.refresh();
    return n;
  }

  /** A transaction on the frontier connection (run again from the start after a deadlock or a lost connection). */
  private tx<T>(work: (c: PgQuerier) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Linked sitemaps (robots.txt's, /sitemap.xml) are read: the setting, and never in list mode (a list is the crawl). */
  private discoversSitemaps(): boolean {
    return this.settings.crawlLinkedSitemaps && this.settings.mode !== 'list';
  }

  /**
   * Queues sitemaps (pg-sitemaps.ts), their URLs as found (put in the crawl's normal form here; one that has none is
   * left out), and counts those queued to read, as the crawl file counts them with its URLs.
   */
  private async queueSitemaps(c: PgQuerier, found: readonly SitemapToQueue[], at: number): Promise<number> {
    const list = found.flatMap((s) => {
      const url = this.normalise(s.url);
      return url === null ? [] : [{ ...s, url }];
    });
    const queued = await queueSitemaps(c, list, at);
    this.counters = { ...this.counters, queued: this.counters.queued + queued };
    return queued;
  }

  /** Records URLs found (see PgUrlDiscovery.discover) and counts those queued. */
  private async discover(c: PgQuerier, list: Enqueue[], at: number): Promise<{ ids: Map<string, number>; added: number }> {
    const found = await this.discovery.discover(c, list, at);
    this.counters = { ...this.counters, queued: this.counters.queued + found.added };
    return found;
  }

  private notifyWork(c: PgQuerier): Promise<unknown> {
    return c.query('SELECT pg_notify($1, $2)', this.workNotice());
  }

  /** What tells the cluster's nodes there is work: on the crawl's channel, from this node. */
  private workNotice(): [string, string] {
    return [crawlChannel(this.crawlId), `work:${this.cluster.nodeName}`];
  }

  private rulesFor(host: StoredRobots): RobotsRules | null {
    return this.robots.rulesFor(host, this.settings);
  }

  async claim(max: number, now = Date.now()): Promise<Claim[]> {
    if (max <= 0) return [];
    const at = this.dbTime(now);
    const round = await this.tx((c) =>
      claimWork(c, {
        max,
        at,
        lease: at + this.leaseMs,
        node: this.cluster.nodeName,
        crawlId: this.crawlId,
        settings: this.settings,
        rulesFor: (host) => this.rulesFor(host),
      }),
    );
    const claims = round.claims;
    for (const claim of claims) this.cluster.hold(claim);
    for (const [id, n] of round.attempts) this.attemptsAtClaim.set(id, n);
    // The cluster's done count, read for the page limit: the controller sees the limit reached however stale its
    // heartbeat's counts are.
    if (round.done) this.counters = { ...this.counters, ...round.done };
    // Sitemaps count as queued with the URLs, as in a crawl file.
    const took = claims.filter((c) => c.kind !== 'robots').length;
    const blocked = round.blocked;
    this.counters = {
      ...this.counters,
      queued: Math.max(0, this.counters.queued - took - blocked - round.sitemapsRefused),
      failed: this.counters.failed + blocked,
    };
    return claims;
  }

  async nextReadyAt(): Promise<number | null> {
    const at = await this.db.run(
      async (c) => (await c.query<{ at: number | null }>('SELECT min(next_fetch_at) AS at FROM hosts WHERE queued > 0')).rows[0]!.at,
    );
    const ready = nextReadyFrom(at);
    return ready === null ? null : ready - this.cluster.clockOffsetMs;
  }

  async recordPage(claim: PageClaim, result: PageFetchResult, now = Date.now()): Promise<RecordOutcome> {
    return (await this.recordPages([{ claim, result, now }]))[0]!;
  }

  /** Records fetched pages in one transaction (pg-record-pages.ts), after finding where they lead. */
  async recordPages(items: readonly PageRecord[]): Promise<RecordOutcome[]> {
    if (items.length === 0) return [];
    const me = this.cluster.nodeName;
    // First what the pages lead to (not for a result that will be retried): decided and discovered before the
    // recording transaction, so that transaction is short (see discover).
    const planned = new Map<number, PagePlan>();
    const discovered = await this.db.run(async (c) => {
      // Pages no longer this node's (their lease ran out and another node took them) lead nowhere from here.
      const { rows: mine } = await c.query<{ id: number }>(
        `SELECT id FROM urls WHERE id = ANY($1::bigint[]) AND ((state = ${UrlState.claimed} AND lease_node = $2) OR state = ${UrlState.queued})`,
        [items.map((i) => i.claim.urlId), me],
      );
      const owned = new Set(mine.map((r) => r.id));
      const found: Enqueue[] = [];
      let at = 0;
      for (let k = 0; k < items.length; k++) {
        const { claim, result } = items[k]!;
        if (!owned.has(claim.urlId)) continue;
        if (retryDelayMs(result, (this.attemptsAtClaim.get(claim.urlId) ?? 0) + 1, this.settings) !== null) continue;
        const plan = await this.planPage(c, claim, result);
        planned.set(k, plan);
        found.push(...plan.found);
        at = Math.max(at, this.dbTime(items[k]!.now ?? Date.now()));
      }
      return this.discover(c, found, at);
    });
    const done = await this.tx((c) =>
      recordBatch(c, {
        items,
        planned,
        discovered: discovered.ids,
        node: me,
        settings: this.settings,
        dbTime: (now) => this.dbTime(now),
        plan: (c2, claim, result) => this.planPage(c2, claim, result),
        discover: (c2, list, at) => this.discover(c2, list, at),
        workNotice: this.workNotice(),
      }),
    );
    for (const i of items) {
      this.cluster.unhold(i.claim);
      this.attemptsAtClaim.delete(i.claim.urlId);
    }
    const c = this.counters;
    this.counters = { queued: Math.max(0, c.queued + done.queued), crawled: c.crawled + done.crawled, failed: c.failed + done.failed };
    return done.outcomes;
  }

  /** Where a fetched page leads (see PagePlan). */
  private async planPage(c: PgQuerier, claim: PageClaim, result: PageFetchResult): Promise<PagePlan> {
    const redirect =
      result.redirectUrl === null
        ? null
        : await redirectVerdictAsync(claim, result.redirectUrl, async (id) => {
            const { rows } = await c.query<ChainLink>('SELECT url, via_id AS via, redirect_hops AS hops FROM urls WHERE id = $1', [id]);
            return rows[0];
          });
    const targets = pageTargetsOf(claim, result, redirect, (url) => this.isLiveExcluded(url), this.candidateSettings);
    return {
      redirect,
      targets,
      found: targets.map((t) => ({ url: t.url, candidate: t.candidate, depth: t.depth, via: claim.urlId, hops: t.hops })),
    };
  }

  /**
   * Takes the host's next fetch slot for a fetch the frontier does not hand out (a render's sub-resource), on the
   * database's clock so every node of the cluster keeps it: the host's next page and next slot wait the delay after it.
   */
  async reserveFetch(origin: string, now = Date.now()): Promise<number> {
    const at = this.dbTime(now);
    const slot = await this.tx(async (c) => {
      const host = await this.hostClock(c, origin);
      const open = host.next_fetch_at < HELD ? host.next_fetch_at : 0;
      const slot = Math.max(at, open, host.fetch_due);
      const due = nextFetchAfter(this.settings, host.last_fetch_ms ?? 0, this.rulesFor(host)?.crawlDelayMs ?? 0, slot);
      if (due > slot) {
        await c.query(
          'UPDATE hosts SET fetch_due = $1, next_fetch_at = CASE WHEN next_fetch_at < $1 THEN $1 ELSE next_fetch_at END WHERE id = $2',
          [due, host.id],
        );
      }
      return slot;
    });
    return slot - this.cluster.clockOffsetMs;
  }

  /**
   * The host's robots.txt for a fetch the frontier does not hand out: its rules once known, `wait` while a node
   * fetches it, otherwise a claim on fetching it under this node's lease, as claiming takes one.
   */
  async robotsFor(origin: string, now = Date.now()): Promise<{ rules: RobotsRules } | { wait: true } | { fetch: RobotsClaim }> {
    const at = this.dbTime(now);
    const answer = await this.tx(async (c): Promise<{ rules: RobotsRules } | { wait: true } | { fetch: RobotsClaim }> => {
      const host = await this.hostClock(c, origin);
      if (host.robots_state === RobotsState.known) {
        const rules = this.rulesFor(host);
        if (rules) return { rules };
      }
      if (host.robots_state === RobotsState.fetching) return { wait: true };
      await c.query('UPDATE hosts SET robots_state = $1, next_fetch_at = $2, robots_node = $3, robots_lease_until = $4 WHERE id = $5', [
        RobotsState.fetching,
        HELD,
        this.cluster.nodeName,
        at + this.leaseMs,
        host.id,
      ]);
      return { fetch: { kind: 'robots', hostId: host.id, url: robotsUrlOf(origin) } };
    });
    if ('fetch' in answer) this.cluster.hold(answer.fetch);
    return answer;
  }

  /** A host's row for its clock and robots.txt, locked for the transaction (added when the crawl did not know it). */
  private async hostClock(c: PgQuerier, origin: string) {
    await c.query('INSERT INTO hosts (origin) VALUES ($1) ON CONFLICT (origin) DO NOTHING', [origin]);
    const { rows } = await c.query<HostRow & { next_fetch_at: number; fetch_due: number }>(
      `SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms, last_fetch_ms,
              next_fetch_at, fetch_due FROM hosts WHERE origin = $1 FOR UPDATE`,
      [origin],
    );
    return rows[0]!;
  }

  async recordRobots(claim: RobotsClaim, result: RobotsFetchResult, now = Date.now()): Promise<void> {
    const at = this.dbTime(now);
    const me = this.cluster.nodeName;
    await this.tx(async (c) => {
      // Only the node whose robots.txt lease holds records it (another node fetches it again after a lost lease).
      const { rows } = await c.query<{ ok: boolean }>(
        `SELECT robots_state = ${RobotsState.fetching} AND robots_node = $1 AS ok FROM hosts WHERE id = $2 FOR UPDATE`,
        [me, claim.hostId],
      );
      if (!rows[0]?.ok) return;
      if (robotsFetchFailed(result)) {
        const { rows: f } = await c.query<{ failures: number }>(
          `UPDATE hosts SET robots_failures = robots_failures + 1, robots_state = ${RobotsState.unknown}, next_fetch_at = $1, robots_node = NULL
           WHERE id = $2 RETURNING robots_failures AS failures`,
          [at, claim.hostId],
        );
        const wait = robotsRetryWaitMs(f[0]!.failures, this.settings);
        if (wait !== null) {
          await c.query('UPDATE hosts SET next_fetch_at = $1 WHERE id = $2', [at + wait, claim.hostId]);
          await this.notifyWork(c);
          return;
        }
      }
      await this.storeRobots(c, claim, result.statusCode, result.body, result.error, at);
    });
    this.cluster.unhold(claim);
  }

  /** A host's robots.txt as it stands for the rest of the crawl: its rules are known, its URLs claimable. */
  private async storeRobots(
    c: PgQuerier,
    claim: RobotsClaim,
    status: number | null,
    body: string | null,
    error: string | null,
    at: number,
  ) {
    const rules = robotsRulesFrom(claim.url, status, body, this.settings.userAgent, error);
    this.robots.set(claim.hostId, rules);
    await c.query(
      `UPDATE hosts SET robots_state = ${RobotsState.known}, robots_status = $1, robots_txt = $2, robots_error = $3, crawl_delay_ms = $4,
         next_fetch_at = greatest($5, fetch_due), robots_node = NULL, robots_lease_until = NULL WHERE id = $6`,
      [status, body, error, rules.crawlDelayMs, at, claim.hostId],
    );
    // robots.txt's Sitemap: lines (any host's robots.txt the crawl reads).
    if (body !== null && status !== null && status >= 200 && status < 300 && this.discoversSitemaps()) {
      const lines = parseRobotsTxt(body).sitemaps.map((url): SitemapToQueue => ({ url, source: 'robots', parentId: null, depth: 0 }));
      await this.queueSitemaps(c, lines, at);
    }
    await this.notifyWork(c);
  }

  /**
   * Records a sitemap a worker read and everything it lists, as the crawl file does (only while this node's lease on it
   * holds): the URLs a urlset lists are found first, outside the transaction as a page's links are (recordPages), then
   * in one transaction the sitemap's row, which URL it listed (sitemap_urls), the sitemaps an index names queued, and
   * its host returned to politeness as after a page.
   */
  async recordSitemap(claim: SitemapClaim, result: SitemapFetchResult, now = Date.now()): Promise<void> {
    const at = this.dbTime(now);
    const me = this.cluster.nodeName;
    const ours = `(state = ${SitemapState.claimed} AND lease_node = $2) OR state = ${SitemapState.queued}`;
    const listed =
      result.format === 'urlset' || result.format === 'text'
        ? result.urls.map((entry) => ({
            entry,
            ...sitemapEntryOutcome(entry, this.candidateSettings, this.settings.crawlSitemapUrls, (url) => this.isLiveExcluded(url)),
          }))
        : [];
    const ids = await this.db.run(async (c) => {
      if (listed.length === 0) return new Map<string, number>();
      const { rows } = await c.query(`SELECT 1 FROM sitemaps WHERE id = $1 AND (${ours})`, [claim.sitemapId, me]);
      if (rows.length === 0) return new Map<string, number>();
      const found = listed.map((l) => ({ url: l.entry.url, candidate: l.candidate, depth: 1, via: null, hops: 0 }));
      return (await this.discover(c, found, at)).ids;
    });
    await this.tx(async (c) => {
      const { rows } = await c.query<{ state: number; depth: number }>(
        `SELECT state, depth FROM sitemaps WHERE id = $1 AND (${ours}) FOR UPDATE`,
        [claim.sitemapId, me],
      );
      const row = rows[0];
      if (!row) return; // another node has it, or has read it
      const host = emptyHostDelta();
      // The lease ran out (the store was away) and nobody took the sitemap since: it is this node's again.
      if (row.state === SitemapState.queued) {
        host.queued = -1;
        await c.query('UPDATE hosts SET sitemaps_queued = sitemaps_queued - 1 WHERE id = $1', [claim.hostId]);
        this.counters = { ...this.counters, queued: Math.max(0, this.counters.queued - 1) };
      }
      await finishSitemap(c, claim.sitemapId, result, at);
      if (result.format === 'index') {
        const children = result.urls.map(
          (child): SitemapToQueue => ({ url: child.url, source: 'index', parentId: claim.sitemapId, depth: row.depth + 1 }),
        );
        await this.queueSitemaps(c, children, at);
      }
      await insertSitemapUrls(
        c,
        claim.sitemapId,
        listed.flatMap((l) => {
          const urlId = ids.get(l.entry.url);
          return urlId === undefined ? [] : [{ urlId, lastmod: l.entry.lastmod, hreflang: l.hreflang }];
        }),
      );
      const { rows: delay } = await c.query<{ crawl_delay_ms: number }>('SELECT crawl_delay_ms FROM hosts WHERE id = $1', [claim.hostId]);
      host.inFlight = -1;
      host.next = nextFetchAfter(this.settings, result.responseTimeMs, delay[0]?.crawl_delay_ms ?? 0, at);
      host.lastFetchMs = Math.round(result.responseTimeMs);
      await updateHosts(c, new Map([[claim.hostId, host]]), this.workNotice());
    });
    this.cluster.unhold(claim);
  }

  async release(claim: Claim, crashed: boolean, now = Date.now()): Promise<'requeued' | 'failed'> {
    const at = this.dbTime(now);
    const me = this.cluster.nodeName;
    const outcome = await this.tx(async (c): Promise<'requeued' | 'failed'> => {
      if (claim.kind === 'sitemap') {
        // As a URL: back in the queue, or read no more once it took its worker down MAX_WORKER_CRASHES times.
        const { rows } = await c.query<{ crashes: number }>(
          `UPDATE sitemaps SET crashes = crashes + $1 WHERE id = $2 AND state = ${SitemapState.claimed} AND lease_node = $3 RETURNING crashes`,
          [crashed ? 1 : 0, claim.sitemapId, me],
        );
        if (rows.length === 0) return 'requeued'; // no longer this node's: nothing to give back
        const failed = rows[0]!.crashes >= MAX_WORKER_CRASHES;
        await c.query(
          `UPDATE sitemaps SET state = $1, error = $2, fetched_at = $3, lease_node = NULL, lease_until = NULL WHERE id = $4`,
          failed ? [SitemapState.failed, 'worker crashed', at, claim.sitemapId] : [SitemapState.queued, null, null, claim.sitemapId],
        );
        await c.query(
          `UPDATE hosts SET in_flight = greatest(in_flight - 1, 0), queued = queued + $1, sitemaps_queued = sitemaps_queued + $1,
             next_fetch_at = CASE WHEN next_fetch_at >= ${HELD} THEN greatest($2, fetch_due) ELSE next_fetch_at END WHERE id = $3`,
          [failed ? 0 : 1, at, claim.hostId],
        );
        await this.notifyWork(c);
        return failed ? 'failed' : 'requeued';
      }
      if (claim.kind === 'robots') {
        // A crash counts as a failed fetch of it; after MAX_WORKER_CRASHES the robots.txt stands as unreachable.
        const { rows } = await c.query<{ failures: number }>(
          `UPDATE hosts SET robots_state = ${RobotsState.unknown}, next_fetch_at = $1, robots_node = NULL, robots_lease_until = NULL,
             robots_failures = robots_failures + $4
           WHERE id = $2 AND robots_state = ${RobotsState.fetching} AND robots_node = $3 RETURNING robots_failures AS failures`,
          [at, claim.hostId, me, crashed ? 1 : 0],
        );
        if (crashed && rows.length > 0 && robotsCrashSettles(rows[0]!.failures)) {
          await this.storeRobots(c, claim, null, null, ROBOTS_WORKER_CRASHED, at);
          return 'failed';
        }
        await this.notifyWork(c);
        return 'requeued';
      }
      const { rows } = await c.query<{ crashes: number }>(
        `UPDATE urls SET crashes = crashes + $1 WHERE id = $2 AND state = ${UrlState.claimed} AND lease_node = $3 RETURNING crashes`,
        [crashed ? 1 : 0, claim.urlId, me],
      );
      if (rows.length === 0) return 'requeued'; // no longer this node's: nothing to give back
      // A URL that took its worker down too often is recorded as failed; anything else goes back to the queue.
      const failed = rows[0]!.crashes >= MAX_WORKER_CRASHES;
      await c.query('UPDATE urls SET state = $1, lease_node = NULL, lease_until = NULL WHERE id = $2', [
        failed ? UrlState.failed : UrlState.queued,
        claim.urlId,
      ]);
      if (failed) await insertResults(c, [errorRowOf(claim, 'worker crashed', at)], me);
      await c.query(
        `UPDATE hosts SET in_flight = greatest(in_flight - 1, 0), failed = failed + $1, queued = queued + $2,
           next_fetch_at = CASE WHEN next_fetch_at >= ${HELD} THEN greatest($3, fetch_due) ELSE next_fetch_at END WHERE id = $4`,
        [failed ? 1 : 0, failed ? 0 : 1, at, claim.hostId],
      );
      await this.notifyWork(c);
      return failed ? 'failed' : 'requeued';
    });
    this.cluster.unhold(claim);
    if (claim.kind === 'sitemap' && outcome === 'requeued') this.counters = { ...this.counters, queued: this.counters.queued + 1 };
    if (claim.kind === 'page') {
      this.attemptsAtClaim.delete(claim.urlId);
      this.counters =
        outcome === 'requeued'
          ? { ...this.counters, queued: this.counters.queued + 1 }
          : { ...this.counters, failed: this.counters.failed + 1 };
    }
    return outcome;
  }

  /**
   * Adds an exclude pattern for the whole cluster: kept in the crawl's settings (every node applies it to links it
   * finds from then on) and queued URLs matching it are dropped now. The queue is read in pages and matched here,
   * with the linear-time engine of shared/pattern.ts, as everywhere else in Trawl.
   */
  async addExclude(pattern: string): Promise<number> {
    const re = mustCompile(pattern, 'exclude pattern');
    this.liveExcludes.push(re);
    const dropped = await this.tx((c) => excludeInCluster(c, this.crawlId, pattern));
    await this.cluster.refresh();
    return dropped;
  }

  async deprioritise(pattern: string): Promise<number> {
    const re = mustCompile(pattern);
    this.deprioritised.push(re);
    return this.tx((c) => deprioritiseInCluster(c, this.crawlId, pattern));
  }

  /**
   * Nothing: the registry row is the cluster's. Its settings change through cluster commands and patterns
   * (pg-control.ts commandCluster, pg-patterns.ts), which every node and observer reads; one node's copy written
   * back whole would undo what another node or an observer changed meanwhile (an exclude, the URLs/s cap).
   */
  async saveSettings(_settings: CrawlSettings): Promise<void> {}

  async noteState(state: CrawlState): Promise<void> {
    this.cluster.noteLocalState(state);
  }

  async finish(reason: FinishReason): Promise<void> {
    try {
      await this.cluster.markFinished(reason);
      // The closing summary's figures: the cluster's as the crawl ends.
      await this.cluster.readCounts().catch(() => undefined);
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    await this.cluster.close();
    await this.db.close();
  }
}
