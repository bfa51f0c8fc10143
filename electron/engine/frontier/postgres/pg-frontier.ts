// The frontier of a crawl in PostgreSQL, shared by every node working on it. The same decisions as the SQLite
// frontier (frontier.ts: candidates, politeness, robots.txt, retries, redirects; page-outcome.ts: what a page
// records), with what sharing needs:
//   - claims are leases: a claimed URL belongs to one node until its lease ends; claiming locks hosts with
//     FOR UPDATE SKIP LOCKED, so two nodes never take the same URL and never wait for each other;
//   - dedup is the database's: one urls row per URL (a unique index), whichever node finds it first;
//   - politeness is per host in the hosts table, on the database's clock, so the cluster as a whole keeps each
//     host's delay (not each node);
//   - a result is recorded only while the node's lease on its URL holds (or the URL went back to the queue unclaimed);
//     otherwise another node has it and this result is dropped ('lost'), so no URL is recorded twice.
// Each method is one transaction on the node's frontier connection; writes go in batches (unnest), not a round trip
// per link.
import crypto from 'node:crypto';
import type pg from 'pg';
import type { CrawlSettings } from '../../../../shared/settings.ts';
import { effectiveMaxDepth, isSerialPerHost, politenessDelayMs } from '../../../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult } from '../../../../shared/protocol.ts';
import type { CrawlState, FinishReason, StoreInfo } from '../../../../shared/snapshot.ts';
import { makeNormaliser, type Normaliser } from '../../../../shared/url/normalise.ts';
import { originOfCanonical } from '../../../../shared/url/url-key.ts';
import { HELD, RobotsState, UrlState } from '../sqlite/crawl-file.ts';
import type { UrlKindName } from '../sqlite/crawl-file.ts';
import { MAX_REDIRECT_HOPS, MAX_WORKER_CRASHES, SEED, STATE_OF, type Claim, type FrontierCounts, type HostRow as FrontierHostRow } from '../sqlite/frontier.ts';
import type { Candidate, CandidateSettings } from '../candidates.ts';
import { RESULT_COLUMNS, errorRowOf, pageTargetsOf, resultRowOf, type PageTarget, type ResultRow } from '../page-outcome.ts';
import { RobotsCache, robotsRulesFrom, type RobotsRules, type StoredRobots } from '../robots-rules.ts';
import { retryDelayMs } from '../retry-policy.ts';
import type { FrontierStore, PageRecord, RecordOutcome } from '../frontier-store.ts';
import type { PgConnection, PgQuerier } from './pg-connection.ts';
import type { PgCluster } from './pg-cluster.ts';
import { crawlChannel } from './pg-schema.ts';

type PageClaim = Extract<Claim, { kind: 'page' }>;

/** A hosts row as claiming reads it. */
type HostRow = Required<FrontierHostRow>;

/** A URL to record, with what the candidate chain decided. */
interface Enqueue {
  url: string;
  candidate: Candidate;
  depth: number;
  via: number | null;
  hops: number;
}

const RESULT_FIELDS = Object.keys(RESULT_COLUMNS) as (keyof typeof RESULT_COLUMNS)[];
/** PostgreSQL array types of the results columns, for inserting a batch of rows with unnest. */
const RESULT_TYPES: Record<keyof typeof RESULT_COLUMNS, string> = {
  urlId: 'bigint', statusCode: 'int', contentType: 'text', sizeBytes: 'bigint', responseTimeMs: 'int', depth: 'int', title: 'text',
  metaDescription: 'text', h1: 'text', canonical: 'text', wordCount: 'int', outlinks: 'int', redirectUrl: 'text', error: 'text', attempts: 'int',
  metaRobots: 'text', xRobotsTag: 'text', robotsDisallowed: 'int', at: 'bigint', h1Count: 'int', h2: 'text', h2Count: 'int', lang: 'text',
  hreflang: 'text', metaRefresh: 'text', indexability: 'text', indexabilityReason: 'text', responseHeaders: 'text',
};
const INSERT_RESULTS = `INSERT INTO results (${RESULT_FIELDS.map((f) => RESULT_COLUMNS[f]).join(', ')}, node)
  SELECT *, $${RESULT_FIELDS.length + 1}::text FROM unnest(${RESULT_FIELDS.map((f, i) => `$${i + 1}::${RESULT_TYPES[f]}[]`).join(', ')})
  ON CONFLICT (url_id) DO NOTHING`;

/** Where a fetched page leads (planPage). */
interface PagePlan {
  redirect: string | null;
  targets: PageTarget[];
  found: Enqueue[];
}

/** What a batch of records does to one host. */
interface HostDelta {
  inFlight: number;
  queued: number;
  crawled: number;
  failed: number;
  httpErrors: number;
  bytes: number;
  /** When the host may be fetched next (politeness), if it was held for its one fetch. */
  next: number;
  lastFetchMs: number | null;
  /** A retry's backoff: no fetch from the host before this. */
  backoff: number;
}

function uniqueBy<T>(list: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** md5 of a URL as the uuid PostgreSQL's urls.url_md5 holds, for lookups by the unique index. */
function md5Uuid(url: string): string {
  const h = crypto.createHash('md5').update(url, 'utf8').digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Ranks two verdicts on the same URL found twice in one batch: crawling beats checking beats the rest. */
function stronger(a: Candidate, b: Candidate): Candidate {
  const rank = (c: Candidate) => (c.fate === 'crawl' ? 2 : c.fate === 'check' ? 1 : 0);
  return rank(b) > rank(a) ? b : a;
}

export class PgFrontierStore implements FrontierStore {
  readonly label: string;
  readonly info: StoreInfo;
  private readonly candidateSettings: CandidateSettings;
  private readonly normalise: Normaliser;
  private readonly robots = new RobotsCache();
  private readonly hostIds = new Map<string, number>();
  /** Attempts a claimed URL had when claimed: whether its result will be retried is known before recording it. */
  private readonly attemptsAtClaim = new Map<number, number>();
  private counters: FrontierCounts = { queued: 0, crawled: 0, failed: 0 };
  private liveExcludes: RegExp[] = [];
  private deprioritised: RegExp[] = [];

  constructor(
    private readonly db: PgConnection,
    readonly cluster: PgCluster,
    private readonly settings: CrawlSettings,
    private readonly crawlId: string,
    server: string,
  ) {
    this.label = `crawl ${crawlId} at ${server}`;
    this.info = { kind: 'postgres', server, crawlId, node: cluster.nodeName };
    this.candidateSettings = { ...settings, maxDepth: effectiveMaxDepth(settings) };
    this.normalise = makeNormaliser(settings);
    cluster.on('counts', (c) => (this.counters = c));
    cluster.on('patterns', ({ exclude, deprioritised }) => {
      this.liveExcludes = exclude.filter((p) => !settings.exclude.includes(p)).map((p) => new RegExp(p));
      this.deprioritised = deprioritised.map((p) => new RegExp(p));
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
    for (const re of this.liveExcludes) if (re.test(url)) return true;
    return false;
  }

  private isDeprioritised(url: string): boolean {
    for (const re of this.deprioritised) if (re.test(url)) return true;
    return false;
  }

  async addSeeds(seeds: string[], now = Date.now()): Promise<number> {
    const at = this.dbTime(now);
    const list: Enqueue[] = [];
    for (const seed of seeds) {
      const url = this.normalise(seed);
      if (url) list.push({ url, candidate: SEED, depth: 0, via: null, hops: 0 });
    }
    const { added } = await this.db.run(async (c) => {
      const found = await this.discover(c, list, at);
      if (found.added > 0) await this.notifyWork(c);
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

  /** Host ids by origin, adding the hosts not known yet. Outside a transaction, so a cached id always exists. */
  private async hostIdsFor(c: PgQuerier, origins: string[]): Promise<(origin: string) => number> {
    const missing = [...new Set(origins.filter((o) => !this.hostIds.has(o)))].sort();
    if (missing.length) {
      await c.query('INSERT INTO hosts (origin) SELECT unnest($1::text[]) ON CONFLICT (origin) DO NOTHING', [missing]);
      const { rows } = await c.query<{ id: number; origin: string }>('SELECT id, origin FROM hosts WHERE origin = ANY($1::text[])', [missing]);
      if (this.hostIds.size > 10_000) this.hostIds.clear();
      for (const r of rows) this.hostIds.set(r.origin, r.id);
    }
    const local = new Map(origins.map((o) => [o, this.hostIds.get(o)!]));
    return (origin) => local.get(origin)!;
  }

  /**
   * Records URLs found (dedup across the cluster on the normal form) with what the candidate chain decided, as the
   * SQLite frontier's enqueue does for one: new ones inserted, waiting ones queued once something allows them,
   * queued check-only ones upgraded to pages. Returns each URL's id and how many were queued.
   *
   * Run outside the recording transaction, each statement committed at once and complete in itself (a URL queued
   * and its host's count in one statement), so two nodes finding the same URLs wait for each other for one statement,
   * not for a whole transaction. A node that dies after this and before recording its page leaves only URLs
   * rightly queued; the page, still claimed, is fetched again and finds them known.
   */
  private async discover(c: PgQuerier, list: Enqueue[], at: number): Promise<{ ids: Map<string, number>; added: number }> {
    const ids = new Map<string, number>();
    if (list.length === 0) return { ids, added: 0 };
    let added = 0;
    const byUrl = new Map<string, Enqueue>();
    for (const e of list) {
      const seen = byUrl.get(e.url);
      byUrl.set(e.url, seen ? { ...seen, candidate: stronger(seen.candidate, e.candidate) } : e);
    }
    // One order for every node, so two nodes inserting the same URLs lock them in the same order.
    const entries = [...byUrl.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    const hosts = await this.hostIdsFor(c, entries.map((e) => originOfCanonical(e.url)));
    const hostOf = (url: string) => hosts(originOfCanonical(url));
    const queue = (e: Enqueue) => e.candidate.fate === 'crawl' || e.candidate.fate === 'check';
    const inserted = await c.query<{ id: number; url: string }>(
      `WITH inserted AS (
         INSERT INTO urls (url, host_id, depth, state, via_id, discovered_at, redirect_hops, kind, check_only, priority)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::smallint[], $5::bigint[], $6::bigint[], $7::int[], $8::text[], $9::smallint[], $10::smallint[])
         ON CONFLICT (url_md5) DO NOTHING RETURNING id, url, host_id, state
       ), counted AS (
         UPDATE hosts h SET queued = h.queued + n.n
         FROM (SELECT host_id, count(*)::int AS n FROM inserted WHERE state = ${UrlState.queued} GROUP BY host_id) AS n WHERE h.id = n.host_id
       )
       SELECT id, url FROM inserted`,
      [
        entries.map((e) => e.url),
        entries.map((e) => hostOf(e.url)),
        entries.map((e) => e.depth),
        entries.map((e) => STATE_OF[e.candidate.fate]),
        entries.map((e) => e.via),
        entries.map(() => at),
        entries.map((e) => e.hops),
        entries.map((e) => e.candidate.kind),
        entries.map((e) => (e.candidate.fate === 'check' ? 1 : 0)),
        entries.map((e) => (this.deprioritised.length > 0 && this.isDeprioritised(e.url) ? 1 : 0)),
      ],
    );
    for (const r of inserted.rows) {
      ids.set(r.url, r.id);
      if (queue(byUrl.get(r.url)!)) added++;
    }
    const known = entries.filter((e) => !ids.has(e.url));
    if (known.length) {
      const { rows } = await c.query<{ id: number; url: string; state: number; check_only: number }>(
        'SELECT id, url, state, check_only FROM urls WHERE url_md5 = ANY($1::uuid[])',
        [known.map((e) => md5Uuid(e.url))],
      );
      const requeue: { id: number; e: Enqueue }[] = [];
      const upgrade: { id: number; depth: number }[] = [];
      for (const row of rows) {
        const e = byUrl.get(row.url);
        if (!e) continue;
        ids.set(row.url, row.id);
        const waiting = row.state === UrlState.tooDeep || row.state === UrlState.nofollow;
        if (waiting && queue(e)) requeue.push({ id: row.id, e });
        else if (row.state === UrlState.queued && row.check_only === 1 && e.candidate.fate === 'crawl') upgrade.push({ id: row.id, depth: e.depth });
      }
      if (requeue.length) {
        const { rows: moved } = await c.query<{ n: number }>(
          `WITH moved AS (
             UPDATE urls u SET state = ${UrlState.queued}, depth = v.depth, kind = v.kind, check_only = v.check_only
             FROM unnest($1::bigint[], $2::int[], $3::text[], $4::smallint[]) AS v(id, depth, kind, check_only)
             WHERE u.id = v.id AND u.state IN (${UrlState.tooDeep}, ${UrlState.nofollow}) RETURNING u.host_id
           ), counted AS (
             UPDATE hosts h SET queued = h.queued + n.n
             FROM (SELECT host_id, count(*)::int AS n FROM moved GROUP BY host_id) AS n WHERE h.id = n.host_id
           )
           SELECT count(*)::int AS n FROM moved`,
          [requeue.map((r) => r.id), requeue.map((r) => r.e.depth), requeue.map((r) => r.e.candidate.kind), requeue.map((r) => (r.e.candidate.fate === 'check' ? 1 : 0))],
        );
        added += moved[0]!.n;
      }
      if (upgrade.length) {
        await c.query(
          `UPDATE urls u SET depth = least(u.depth, v.depth), kind = 'page', check_only = 0 FROM unnest($1::bigint[], $2::int[]) AS v(id, depth)
           WHERE u.id = v.id AND u.state = ${UrlState.queued}`,
          [upgrade.map((r) => r.id), upgrade.map((r) => r.depth)],
        );
      }
    }
    this.counters = { ...this.counters, queued: this.counters.queued + added };
    return { ids, added };
  }

  private notifyWork(c: PgQuerier): Promise<unknown> {
    return c.query('SELECT pg_notify($1, $2)', [crawlChannel(this.crawlId), `work:${this.cluster.nodeName}`]);
  }

  private rulesFor(host: StoredRobots): RobotsRules | null {
    return this.robots.rulesFor(host, this.settings);
  }


  async claim(max: number, now = Date.now()): Promise<Claim[]> {
    if (max <= 0) return [];
    const at = this.dbTime(now);
    const me = this.cluster.nodeName;
    const lease = at + this.leaseMs;
    let blockedTotal = 0;
    const attempts = new Map<number, number>();
    let done: { crawled: number; failed: number } | null = null;
    const claims = await this.tx(async (c) => {
      const out: Claim[] = [];
      attempts.clear();
      blockedTotal = 0;
      let want = max;
      if (this.settings.maxPages !== null) {
        // The page limit is the cluster's: claims take the crawl's registry row in turn, so two nodes never both
        // take the last pages. URLs claimed anywhere count as done for this.
        await c.query('SELECT 1 FROM trawl.crawls WHERE id = $1 FOR UPDATE', [this.crawlId]);
        const { rows } = await c.query<{ crawled: number; failed: number; claimed: number }>(
          `SELECT coalesce(sum(crawled), 0)::int AS crawled, coalesce(sum(failed), 0)::int AS failed,
             (SELECT count(*)::int FROM urls WHERE state = ${UrlState.claimed}) AS claimed FROM hosts`,
        );
        const r = rows[0]!;
        done = { crawled: r.crawled, failed: r.failed };
        want = Math.max(0, Math.min(max, this.settings.maxPages - r.crawled - r.failed - r.claimed));
      }
      // As the SQLite frontier: round after round over the ready hosts while any round takes or blocks something.
      for (let progressed = true; out.length < want && progressed; ) {
        progressed = false;
        // Hosts another node is claiming from or recording for right now are skipped, not waited for.
        const { rows: hosts } = await c.query<HostRow>(
          `SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms, in_flight FROM hosts
           WHERE queued > 0 AND next_fetch_at <= $1 ORDER BY next_fetch_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [at, want - out.length],
        );
        for (let h = 0; h < hosts.length && out.length < want; h++) {
          const host = hosts[h]!;
          if (this.settings.robots !== 'ignore' && host.robots_state !== RobotsState.known) {
            if (host.robots_state === RobotsState.unknown) {
              await c.query('UPDATE hosts SET robots_state = $1, next_fetch_at = $2, robots_node = $3, robots_lease_until = $4 WHERE id = $5', [
                RobotsState.fetching, HELD, me, lease, host.id,
              ]);
              out.push({ kind: 'robots', hostId: host.id, url: `${host.origin}/robots.txt` });
              progressed = true;
            }
            continue;
          }
          const rules = this.rulesFor(host);
          const cap = isSerialPerHost(this.settings, rules?.crawlDelayMs ?? 0) ? 1 : (this.settings.maxPerHost ?? Infinity);
          const room = cap - host.in_flight;
          const share = Math.min(room, Math.max(1, Math.ceil((want - out.length) / (hosts.length - h))));
          if (share <= 0) continue;
          const { rows } = await c.query<{ id: number; url: string; depth: number; hops: number; kind: UrlKindName; check_only: number; attempts: number }>(
            `SELECT id, url, depth, redirect_hops AS hops, kind, check_only, attempts FROM urls WHERE host_id = $1 AND state = ${UrlState.queued}
             ORDER BY priority, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
            [host.id, share],
          );
          const taken: number[] = [];
          let blocked = 0;
          for (const row of rows) {
            const disallowed = rules !== null && !rules.isAllowed(row.url);
            if (disallowed && this.settings.robots === 'respect') {
              await c.query(`UPDATE urls SET state = ${UrlState.failed} WHERE id = $1`, [row.id]);
              await this.insertResults(c, [errorRowOf({ urlId: row.id, depth: row.depth, urlKind: row.kind, checkOnly: row.check_only === 1 }, rules.blockedReason, at)]);
              await c.query('UPDATE hosts SET failed = failed + 1 WHERE id = $1', [host.id]);
              blocked++;
              continue;
            }
            const claim: Claim = {
              kind: 'page', urlId: row.id, hostId: host.id, url: row.url, depth: row.depth, hops: row.hops, urlKind: row.kind, checkOnly: row.check_only === 1,
            };
            if (disallowed) claim.robotsDisallowed = true;
            out.push(claim);
            taken.push(row.id);
            attempts.set(row.id, row.attempts);
          }
          if (taken.length) {
            await c.query(`UPDATE urls SET state = ${UrlState.claimed}, lease_node = $1, lease_until = $2 WHERE id = ANY($3::bigint[])`, [me, lease, taken]);
          }
          if (taken.length + blocked > 0) {
            // A host at its cap is held until one of its fetches returns (on whichever node).
            await c.query('UPDATE hosts SET queued = queued - $1, in_flight = in_flight + $2, next_fetch_at = $3 WHERE id = $4', [
              taken.length + blocked, taken.length, taken.length > 0 && taken.length >= room ? HELD : at, host.id,
            ]);
            blockedTotal += blocked;
            progressed = true;
          }
        }
      }
      return out;
    });
    for (const claim of claims) this.cluster.hold(claim);
    for (const [id, n] of attempts) this.attemptsAtClaim.set(id, n);
    // The cluster's done count, read for the page limit: the controller sees the limit reached however stale its
    // heartbeat's counts are.
    if (done) this.counters = { ...this.counters, ...(done as { crawled: number; failed: number }) };
    const took = claims.filter((c) => c.kind === 'page').length;
    this.counters = { ...this.counters, queued: Math.max(0, this.counters.queued - took - blockedTotal), failed: this.counters.failed + blockedTotal };
    return claims;
  }

  async nextReadyAt(): Promise<number | null> {
    const at = await this.db.run(async (c) => (await c.query<{ at: number | null }>('SELECT min(next_fetch_at) AS at FROM hosts WHERE queued > 0')).rows[0]!.at);
    return at === null || at >= HELD ? null : at - this.cluster.clockOffsetMs;
  }


  /** When the host may be fetched again after a fetch that took `fetchMs` (database clock). */
  private nextFetchAt(host: { crawl_delay_ms: number } | undefined, fetchMs: number, at: number): number {
    return at + Math.max(politenessDelayMs(this.settings, fetchMs), host?.crawl_delay_ms ?? 0);
  }

  async recordPage(claim: PageClaim, result: PageFetchResult, now = Date.now()): Promise<RecordOutcome> {
    return (await this.recordPages([{ claim, result, now }]))[0]!;
  }

  /**
   * Records fetched pages in one transaction, with one statement per table for the whole batch rather than per
   * page (a node's round trips to the server were what bounded it). Each page is decided as recordPage decides it.
   */
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
    const done = await this.tx(async (c) => {
      const ids = new Map(discovered.ids);
      const outcomes: RecordOutcome[] = items.map(() => 'lost');
      // Every URL of the batch locked at once, in id order (the same order on every node).
      const urlIds = [...new Set(items.map((i) => i.claim.urlId))].sort((a, b) => a - b);
      const { rows: urlRows } = await c.query<{ id: number; state: number; lease_node: string | null; attempts: number }>(
        'SELECT id, state, lease_node, attempts FROM urls WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
        [urlIds],
      );
      const byId = new Map(urlRows.map((r) => [r.id, r]));
      const hostIds = [...new Set(items.map((i) => i.claim.hostId))];
      const { rows: hostRows } = await c.query<{ id: number; crawl_delay_ms: number }>('SELECT id, crawl_delay_ms FROM hosts WHERE id = ANY($1::bigint[])', [hostIds]);
      const delayOf = new Map(hostRows.map((h) => [h.id, h]));
      const hosts = new Map<number, HostDelta>();
      const delta = (id: number): HostDelta => {
        let d = hosts.get(id);
        if (!d) hosts.set(id, (d = { inFlight: 0, queued: 0, crawled: 0, failed: 0, httpErrors: 0, bytes: 0, next: 0, lastFetchMs: null, backoff: 0 }));
        return d;
      };
      const requeued: { id: number; attempts: number }[] = [];
      const finished: { id: number; state: number; attempts: number }[] = [];
      const rows: ResultRow[] = [];
      const links: { from: number; url: string; anchor: string | null; kind: string; nofollow: boolean }[] = [];
      const unfetchable: { from: number; href: string; scheme: string; anchor: string | null }[] = [];
      const extracted: { urlId: number; rule: string; n: number; value: string }[] = [];
      let reclaimed = 0;
      const seen = new Set<number>();
      for (let k = 0; k < items.length; k++) {
        const { claim, result } = items[k]!;
        const row = byId.get(claim.urlId);
        if (!row || seen.has(claim.urlId)) continue;
        seen.add(claim.urlId);
        const h = delta(claim.hostId);
        if (!(row.state === UrlState.claimed && row.lease_node === me)) {
          if (row.state !== UrlState.queued) continue; // another node has it, or has recorded it
          // The lease ran out (the store was away) and nobody took the URL since: it is this node's again.
          h.queued -= 1;
          h.inFlight += 1;
          reclaimed++;
        }
        const now = this.dbTime(items[k]!.now ?? Date.now());
        const attempts = row.attempts + 1;
        h.inFlight -= 1;
        h.next = Math.max(h.next, this.nextFetchAt(delayOf.get(claim.hostId), result.responseTimeMs, now));
        h.lastFetchMs = Math.round(result.responseTimeMs);
        const retryIn = retryDelayMs(result, attempts, this.settings);
        if (retryIn !== null) {
          // Not a verdict yet: back in the queue, and its host waits before anyone fetches from it again.
          requeued.push({ id: claim.urlId, attempts });
          h.queued += 1;
          h.backoff = Math.max(h.backoff, now + retryIn);
          outcomes[k] = 'retry';
          continue;
        }
        const ok = result.statusCode !== null;
        let plan = planned.get(k);
        if (!plan) {
          // Foreseen as a retry, but its attempts had changed (another node's retry): its targets are found now.
          plan = await this.planPage(c, claim, result);
          const late = await this.discover(c, plan.found, now);
          for (const [url, id] of late.ids) ids.set(url, id);
        }
        const redirect = plan.redirect;
        finished.push({ id: claim.urlId, state: ok ? UrlState.done : UrlState.failed, attempts });
        rows.push(resultRowOf(claim, result, redirect, attempts, now));
        if (ok) h.crawled++;
        else h.failed++;
        if ((result.statusCode ?? 0) >= 400) h.httpErrors++;
        h.bytes += result.sizeBytes ?? 0;
        for (const t of plan.targets) {
          links.push({ from: claim.urlId, url: t.url, anchor: t.anchor, kind: t.linkKind, nofollow: t.nofollow });
        }
        for (const l of result.unfetchableLinks) unfetchable.push({ from: claim.urlId, href: l.href, scheme: l.scheme, anchor: l.anchor || null });
        for (const [rule, values] of Object.entries(result.extracted ?? {})) values.forEach((value, n) => extracted.push({ urlId: claim.urlId, rule, n, value }));
        outcomes[k] = 'recorded';
      }
      if (requeued.length) {
        await c.query(
          `UPDATE urls u SET state = ${UrlState.queued}, attempts = v.attempts, lease_node = NULL, lease_until = NULL
           FROM unnest($1::bigint[], $2::int[]) AS v(id, attempts) WHERE u.id = v.id`,
          [requeued.map((r) => r.id), requeued.map((r) => r.attempts)],
        );
      }
      if (finished.length) {
        await c.query(
          `UPDATE urls u SET state = v.state, attempts = v.attempts, lease_node = NULL, lease_until = NULL
           FROM unnest($1::bigint[], $2::smallint[], $3::int[]) AS v(id, state, attempts) WHERE u.id = v.id`,
          [finished.map((r) => r.id), finished.map((r) => r.state), finished.map((r) => r.attempts)],
        );
        await this.insertResults(c, rows);
      }
      await this.insertLinks(c, links, ids);
      if (unfetchable.length) {
        const u = uniqueBy(unfetchable, (l) => `${l.from} ${l.href}`);
        await c.query(
          'INSERT INTO unfetchable_links (from_id, href, scheme, anchor) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING',
          [u.map((l) => l.from), u.map((l) => l.href), u.map((l) => l.scheme), u.map((l) => l.anchor)],
        );
      }
      if (extracted.length) {
        await c.query('INSERT INTO extracted (url_id, rule, n, value) SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[]) ON CONFLICT DO NOTHING', [
          extracted.map((e) => e.urlId), extracted.map((e) => e.rule), extracted.map((e) => e.n), extracted.map((e) => e.value),
        ]);
      }
      // The host rows last: they are what other nodes' claims skip while locked, so hold them for the least time.
      await this.updateHosts(c, hosts);
      if (hosts.size) await this.notifyWork(c);
      const recorded = rows.length;
      const ok = rows.filter((r) => r.statusCode !== null).length;
      return { outcomes, queued: requeued.length - reclaimed, crawled: ok, failed: recorded - ok };
    });
    for (const i of items) {
      this.cluster.unhold(i.claim);
      this.attemptsAtClaim.delete(i.claim.urlId);
    }
    const c = this.counters;
    this.counters = { queued: Math.max(0, c.queued + done.queued), crawled: c.crawled + done.crawled, failed: c.failed + done.failed };
    return done.outcomes;
  }

  /** Where a fetched page leads: the verdict on its redirect, its targets, and those as URLs to discover. */
  private async planPage(c: PgQuerier, claim: PageClaim, result: PageFetchResult): Promise<PagePlan> {
    const redirect = result.redirectUrl === null ? null : await this.redirectVerdict(c, claim, result.redirectUrl);
    const targets = pageTargetsOf(claim, result, redirect, (url) => this.isLiveExcluded(url), this.candidateSettings);
    return { redirect, targets, found: targets.map((t) => ({ url: t.url, candidate: t.candidate, depth: t.depth, via: claim.urlId, hops: t.hops })) };
  }

  private insertResults(c: PgQuerier, rows: ResultRow[]): Promise<unknown> {
    return c.query(INSERT_RESULTS, [...RESULT_FIELDS.map((f) => rows.map((r) => r[f])), this.cluster.nodeName]);
  }

  /** The link graph's rows: one per linking page and target, the first anchor seen winning (as the crawl file's). */
  private async insertLinks(c: PgQuerier, links: { from: number; url: string; anchor: string | null; kind: string; nofollow: boolean }[], ids: Map<string, number>): Promise<void> {
    if (links.length === 0) return;
    const rows = uniqueBy(
      links.map((l) => ({ ...l, to: ids.get(l.url)! })),
      (l) => `${l.from} ${l.to}`,
    );
    await c.query(
      'INSERT INTO links (from_id, to_id, anchor, kind, nofollow) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[]) ON CONFLICT DO NOTHING',
      [rows.map((l) => l.from), rows.map((l) => l.to), rows.map((l) => l.anchor), rows.map((l) => l.kind), rows.map((l) => (l.nofollow ? 1 : 0))],
    );
  }

  /**
   * Applies what a batch did to its hosts in one statement: counters, queue and in-flight counts; a host held for
   * its one fetch reopens at its politeness time; a retry pushes its next fetch back.
   */
  private async updateHosts(c: PgQuerier, hosts: Map<number, HostDelta>): Promise<void> {
    if (hosts.size === 0) return;
    const ids = [...hosts.keys()].sort((a, b) => a - b);
    const d = ids.map((id) => hosts.get(id)!);
    await c.query(
      `UPDATE hosts h SET in_flight = greatest(h.in_flight + v.in_flight, 0), queued = h.queued + v.queued, crawled = h.crawled + v.crawled,
         failed = h.failed + v.failed, http_errors = h.http_errors + v.http_errors, bytes = h.bytes + v.bytes,
         next_fetch_at = greatest(CASE WHEN h.next_fetch_at >= ${HELD} AND v.in_flight < 0 THEN v.next ELSE h.next_fetch_at END, v.backoff),
         last_fetch_ms = coalesce(v.last_fetch_ms, h.last_fetch_ms)
       FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::bigint[], $8::bigint[], $9::int[], $10::bigint[])
         AS v(id, in_flight, queued, crawled, failed, http_errors, bytes, next, last_fetch_ms, backoff)
       WHERE h.id = v.id`,
      [
        ids, d.map((x) => x.inFlight), d.map((x) => x.queued), d.map((x) => x.crawled), d.map((x) => x.failed), d.map((x) => x.httpErrors),
        d.map((x) => x.bytes), d.map((x) => x.next), d.map((x) => x.lastFetchMs), d.map((x) => x.backoff),
      ],
    );
  }

  /** As the SQLite frontier's: not past MAX_REDIRECT_HOPS, and not back to a URL of its own chain. */
  private async redirectVerdict(c: PgQuerier, claim: PageClaim, target: string): Promise<string> {
    if (claim.hops >= MAX_REDIRECT_HOPS) return `too many redirects (over ${MAX_REDIRECT_HOPS})`;
    let id: number | null = claim.urlId;
    for (let i = 0; id !== null && i <= MAX_REDIRECT_HOPS; i++) {
      const found: pg.QueryResult<{ url: string; via: number | null; hops: number }> = await c.query(
        'SELECT url, via_id AS via, redirect_hops AS hops FROM urls WHERE id = $1',
        [id],
      );
      const row = found.rows[0];
      if (!row) break;
      if (row.url === target) return 'redirect loop';
      if (row.hops === 0) break;
      id = row.via;
    }
    return 'follow';
  }

  async recordRobots(claim: Extract<Claim, { kind: 'robots' }>, result: RobotsFetchResult, now = Date.now()): Promise<void> {
    const at = this.dbTime(now);
    const me = this.cluster.nodeName;
    const unresolvable = result.statusCode === null && result.error?.startsWith('DNS lookup failed') === true;
    await this.tx(async (c) => {
      // Only the node whose robots.txt lease holds records it (another node fetches it again after a lost lease).
      const { rows } = await c.query<{ ok: boolean }>(`SELECT robots_state = ${RobotsState.fetching} AND robots_node = $1 AS ok FROM hosts WHERE id = $2 FOR UPDATE`, [
        me, claim.hostId,
      ]);
      if (!rows[0]?.ok) return;
      if (!unresolvable && (result.statusCode === null || result.statusCode >= 500)) {
        const { rows: f } = await c.query<{ failures: number }>(
          `UPDATE hosts SET robots_failures = robots_failures + 1, robots_state = ${RobotsState.unknown}, next_fetch_at = $1, robots_node = NULL
           WHERE id = $2 RETURNING robots_failures AS failures`,
          [at, claim.hostId],
        );
        const failures = f[0]!.failures;
        if (failures < this.settings.maxAttempts) {
          const wait = retryDelayMs({ statusCode: 503, error: null, retryAfterMs: null }, failures, this.settings) ?? this.settings.retryDelayMs;
          await c.query('UPDATE hosts SET next_fetch_at = $1 WHERE id = $2', [at + wait, claim.hostId]);
          await this.notifyWork(c);
          return;
        }
      }
      const rules = robotsRulesFrom(claim.url, result.statusCode, result.body, this.settings.userAgent, result.error);
      this.robots.set(claim.hostId, rules);
      await c.query(
        `UPDATE hosts SET robots_state = ${RobotsState.known}, robots_status = $1, robots_txt = $2, robots_error = $3, crawl_delay_ms = $4,
           next_fetch_at = $5, robots_node = NULL, robots_lease_until = NULL WHERE id = $6`,
        [result.statusCode, result.body, result.error, rules.crawlDelayMs, at, claim.hostId],
      );
      await this.notifyWork(c);
    });
    this.cluster.unhold(claim);
  }

  async release(claim: Claim, crashed: boolean, now = Date.now()): Promise<'requeued' | 'failed'> {
    const at = this.dbTime(now);
    const me = this.cluster.nodeName;
    const outcome = await this.tx(async (c): Promise<'requeued' | 'failed'> => {
      if (claim.kind === 'robots') {
        await c.query(
          `UPDATE hosts SET robots_state = ${RobotsState.unknown}, next_fetch_at = $1, robots_node = NULL, robots_lease_until = NULL
           WHERE id = $2 AND robots_state = ${RobotsState.fetching} AND robots_node = $3`,
          [at, claim.hostId, me],
        );
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
      await c.query('UPDATE urls SET state = $1, lease_node = NULL, lease_until = NULL WHERE id = $2', [failed ? UrlState.failed : UrlState.queued, claim.urlId]);
      if (failed) await this.insertResults(c, [errorRowOf(claim, 'worker crashed', at)]);
      await c.query(
        `UPDATE hosts SET in_flight = greatest(in_flight - 1, 0), failed = failed + $1, queued = queued + $2,
           next_fetch_at = CASE WHEN next_fetch_at >= ${HELD} THEN $3 ELSE next_fetch_at END WHERE id = $4`,
        [failed ? 1 : 0, failed ? 0 : 1, at, claim.hostId],
      );
      await this.notifyWork(c);
      return failed ? 'failed' : 'requeued';
    });
    this.cluster.unhold(claim);
    if (claim.kind === 'page') {
      this.attemptsAtClaim.delete(claim.urlId);
      this.counters =
        outcome === 'requeued' ? { ...this.counters, queued: this.counters.queued + 1 } : { ...this.counters, failed: this.counters.failed + 1 };
    }
    return outcome;
  }

  /**
   * Adds an exclude pattern for the whole cluster: kept in the crawl's settings (every node applies it to links it
   * finds from then on) and queued URLs matching it are dropped now. The queue is read in pages and matched here,
   * with JavaScript's regular expressions, as everywhere else in Trawl.
   */
  async addExclude(pattern: string): Promise<number> {
    const re = new RegExp(pattern);
    this.liveExcludes.push(re);
    const dropped = await this.tx(async (c) => {
      await this.cluster.addPattern(c, 'exclude', pattern);
      const ids = await this.matchingQueued(c, re);
      if (ids.length === 0) return 0;
      const { rows } = await c.query<{ host_id: number; n: number }>(
        `WITH dropped AS (UPDATE urls SET state = ${UrlState.outOfScope} WHERE id = ANY($1::bigint[]) AND state = ${UrlState.queued} RETURNING host_id)
         SELECT host_id, count(*)::int AS n FROM dropped GROUP BY host_id ORDER BY host_id`,
        [ids],
      );
      for (const r of rows) await c.query('UPDATE hosts SET queued = queued - $1 WHERE id = $2', [r.n, r.host_id]);
      return rows.reduce((sum, r) => sum + r.n, 0);
    });
    await this.cluster.refresh();
    return dropped;
  }

  async deprioritise(pattern: string): Promise<number> {
    const re = new RegExp(pattern);
    this.deprioritised.push(re);
    return this.tx(async (c) => {
      await this.cluster.addPattern(c, 'deprioritised', pattern);
      const ids = await this.matchingQueued(c, re);
      if (ids.length === 0) return 0;
      const r = await c.query(`UPDATE urls SET priority = 1 WHERE id = ANY($1::bigint[]) AND state = ${UrlState.queued} AND priority = 0`, [ids]);
      return r.rowCount ?? 0;
    });
  }

  /** Queued URLs matching a pattern, read a page at a time (once per pattern added, never per URL). */
  private async matchingQueued(c: PgQuerier, re: RegExp): Promise<number[]> {
    const ids: number[] = [];
    let after = 0;
    for (;;) {
      const { rows } = await c.query<{ id: number; url: string }>(`SELECT id, url FROM urls WHERE state = ${UrlState.queued} AND id > $1 ORDER BY id LIMIT 5000`, [after]);
      for (const r of rows) if (re.test(r.url)) ids.push(r.id);
      if (rows.length < 5000) return ids;
      after = rows[rows.length - 1]!.id;
    }
  }

  async saveSettings(settings: CrawlSettings): Promise<void> {
    await this.db.run((c) => c.query('UPDATE trawl.crawls SET settings = $1 WHERE id = $2', [JSON.stringify(settings), this.crawlId]));
  }

  async noteState(state: CrawlState): Promise<void> {
    this.cluster.noteLocalState(state);
  }

  async finish(reason: FinishReason): Promise<void> {
    try {
      await this.cluster.markFinished(reason);
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    await this.cluster.close();
    await this.db.close();
  }
}
