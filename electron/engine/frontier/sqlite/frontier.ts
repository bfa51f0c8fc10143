// The persistent frontier: every URL the crawl knows, its state, and per-host politeness, in the crawl file.
// The controller is its only user and runs in one thread, so each method is one SQLite transaction and the
// in-memory counters below always match the file.
import type { CrawlSettings } from '../../../../shared/settings.ts';
import { effectiveMaxDepth, isSerialPerHost, politenessDelayMs } from '../../../../shared/settings.ts';
import type { PageFetchResult, RobotsFetchResult } from '../../../../shared/protocol.ts';
import { makeNormaliser, type Normaliser } from '../../../../shared/url/normalise.ts';
import { originOfCanonical, urlKey } from '../../../../shared/url/url-key.ts';
import type { Db } from './crawl-file.ts';
import { HELD, RobotsState, UrlState, readMeta, writeMeta } from './crawl-file.ts';
import { RobotsCache, robotsRulesFrom, type StoredRobots } from '../robots-rules.ts';
import { retryDelayMs } from '../retry-policy.ts';
import type { RobotsRules } from '../robots-rules.ts';
import type { Candidate, CandidateFate, CandidateSettings } from '../candidates.ts';
import type { UrlKindName } from './crawl-file.ts';
import { errorRowOf, pageTargetsOf, resultRowOf } from '../page-outcome.ts';

/** A seed: a page, crawled. */
export const SEED: Candidate = { fate: 'crawl', kind: 'page' };

/** The urls.state a candidate's fate is recorded with. */
export const STATE_OF: Record<CandidateFate, number> = {
  crawl: UrlState.queued,
  check: UrlState.queued,
  'out-of-scope': UrlState.outOfScope,
  nofollow: UrlState.nofollow,
  'too-deep': UrlState.tooDeep,
  'redirect-cut': UrlState.redirectCut,
};

/** Redirects followed in one chain at most; the hop past it is recorded with an error, not followed. */
export const MAX_REDIRECT_HOPS = 10;
/** A URL that took its worker down this many times is recorded as failed instead of being retried. */
export const MAX_WORKER_CRASHES = 2;
const HOST_ID_CACHE = 10_000;

/** The queries claiming runs, exported so a test can check that SQLite answers them from indexes alone. */
export const CLAIM_SQL = {
  readyHosts: `SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms, in_flight FROM hosts
    WHERE queued > 0 AND next_fetch_at <= ? ORDER BY next_fetch_at, id LIMIT ?`,
  nextReady: 'SELECT min(next_fetch_at) AS at FROM hosts WHERE queued > 0',
  queuedOfHost:
    'SELECT id, url, depth, redirect_hops AS hops, kind, check_only AS checkOnly FROM urls WHERE host_id = ? AND state = 0 ORDER BY priority, id LIMIT ?',
} as const;

export type Claim =
  | {
      kind: 'page';
      urlId: number;
      hostId: number;
      url: string;
      depth: number;
      hops: number;
      /** What the URL was found as (a page, or a resource checked). */
      urlKind: UrlKindName;
      /** Fetched for its status only, not parsed. */
      checkOnly: boolean;
      robotsDisallowed?: boolean;
    }
  | { kind: 'robots'; hostId: number; url: string };

export interface HostRow {
  id: number;
  origin: string;
  robots_state: number;
  robots_status: number | null;
  robots_txt: string | null;
  robots_error: string | null;
  crawl_delay_ms: number;
  /** Only read where claiming needs it (readyHosts). */
  in_flight?: number;
}

export interface FrontierCounts {
  queued: number;
  /** URLs fetched with a response. */
  crawled: number;
  /** URLs ended without a response. */
  failed: number;
}

export class Frontier {
  /** The settings the candidate rules read, with list mode's depth limit of 0 applied. */
  private readonly candidateSettings: CandidateSettings;
  private readonly normalise: Normaliser;
  /** Exclude patterns added while the crawl runs: the workers' scope predates them, so they are applied here. */
  private readonly liveExcludes: RegExp[] = [];
  /** Patterns pushed to the back of their host's queue (meta 'deprioritised', so a resumed crawl keeps them). */
  private readonly deprioritised: RegExp[] = [];
  private readonly robots = new RobotsCache();
  private readonly hostIds = new Map<string, number>();
  /** hosts.queued increments not yet written, within the current transaction. */
  private readonly pendingQueued = new Map<number, number>();
  private counts: FrontierCounts;
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly settings: CrawlSettings,
  ) {
    this.candidateSettings = { ...settings, maxDepth: effectiveMaxDepth(settings) };
    this.normalise = makeNormaliser(settings);
    // SQL's view of the live excludes, for dropping queued URLs that match one (a scan of the queue, once per
    // pattern added, never per URL).
    db.function('trawl_live_excluded', { deterministic: false }, (url: unknown) => (typeof url === 'string' && this.isLiveExcluded(url) ? 1 : 0));
    db.function('trawl_deprioritised', { deterministic: false }, (url: unknown) => (typeof url === 'string' && this.isDeprioritised(url) ? 1 : 0));
    for (const pattern of JSON.parse(readMeta(db, 'deprioritised') ?? '[]') as string[]) this.deprioritised.push(new RegExp(pattern));
    this.q = {
      urlsByKey: db.prepare<[number], { id: number; state: number; url: string; checkOnly: number }>(
        'SELECT id, state, url, check_only AS checkOnly FROM urls WHERE url_key = ?',
      ),
      insertUrl: db.prepare(
        'INSERT INTO urls (url, url_key, host_id, depth, state, via_id, discovered_at, redirect_hops, kind, check_only, priority) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      requeue: db.prepare(`UPDATE urls SET state = ${UrlState.queued}, depth = ?, kind = ?, check_only = ? WHERE id = ?`),
      upgradeQueued: db.prepare(`UPDATE urls SET depth = min(depth, ?), kind = 'page', check_only = 0 WHERE id = ? AND state = ${UrlState.queued}`),
      hostByOrigin: db.prepare<[string], { id: number }>('SELECT id FROM hosts WHERE origin = ?'),
      insertHost: db.prepare('INSERT INTO hosts (origin) VALUES (?)'),
      host: db.prepare<[number], HostRow>(
        'SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms FROM hosts WHERE id = ?',
      ),
      hostQueued: db.prepare('UPDATE hosts SET queued = queued + ? WHERE id = ?'),
      readyHosts: db.prepare<[number, number], HostRow>(CLAIM_SQL.readyHosts),
      nextReady: db.prepare<[], { at: number | null }>(CLAIM_SQL.nextReady),
      queuedOfHost: db.prepare<[number, number], { id: number; url: string; depth: number; hops: number; kind: UrlKindName; checkOnly: number }>(
        CLAIM_SQL.queuedOfHost,
      ),
      chainLink: db.prepare<[number], { url: string; via: number | null; hops: number }>('SELECT url, via_id AS via, redirect_hops AS hops FROM urls WHERE id = ?'),
      setUrlState: db.prepare('UPDATE urls SET state = ? WHERE id = ?'),
      claimFromHost: db.prepare(
        'UPDATE hosts SET queued = queued - ?, in_flight = in_flight + ?, next_fetch_at = ? WHERE id = ?',
      ),
      returnToHost: db.prepare(
        `UPDATE hosts SET in_flight = in_flight - 1, queued = queued + ?,
         next_fetch_at = CASE WHEN next_fetch_at >= ${HELD} THEN ? ELSE next_fetch_at END,
         last_fetch_ms = coalesce(?, last_fetch_ms) WHERE id = ?`,
      ),
      holdHost: db.prepare('UPDATE hosts SET robots_state = ?, next_fetch_at = ? WHERE id = ?'),
      robotsFailed: db.prepare<[number, number], { failures: number }>(
        `UPDATE hosts SET robots_failures = robots_failures + 1, robots_state = ${RobotsState.unknown}, next_fetch_at = ?
         WHERE id = ? RETURNING robots_failures AS failures`,
      ),
      storeRobots: db.prepare(
        `UPDATE hosts SET robots_state = ${RobotsState.known}, robots_status = ?, robots_txt = ?, robots_error = ?, crawl_delay_ms = ?,
         next_fetch_at = ? WHERE id = ?`,
      ),
      insertResult: db.prepare(
        `INSERT INTO results (url_id, status_code, content_type, size_bytes, response_time_ms, crawl_depth, title,
          meta_description, h1, canonical, word_count, outlinks, redirect_url, error, attempts, meta_robots, x_robots_tag,
          robots_disallowed, fetched_at, h1_count, h2, h2_count, lang, hreflang, meta_refresh, indexability, indexability_reason,
          response_headers)
         VALUES (@urlId, @statusCode, @contentType, @sizeBytes, @responseTimeMs, @depth, @title, @metaDescription,
          @h1, @canonical, @wordCount, @outlinks, @redirectUrl, @error, @attempts, @metaRobots, @xRobotsTag,
          @robotsDisallowed, @at, @h1Count, @h2, @h2Count, @lang, @hreflang, @metaRefresh, @indexability, @indexabilityReason,
          @responseHeaders)`,
      ),
      insertLink: db.prepare('INSERT OR IGNORE INTO links (from_id, to_id, anchor, kind, nofollow) VALUES (?, ?, ?, ?, ?)'),
      insertExtracted: db.prepare('INSERT OR IGNORE INTO extracted (url_id, rule, n, value) VALUES (?, ?, ?, ?)'),
      insertUnfetchable: db.prepare('INSERT OR IGNORE INTO unfetchable_links (from_id, href, scheme, anchor) VALUES (?, ?, ?, ?)'),
      crashUrl: db.prepare('UPDATE urls SET crashes = crashes + 1 WHERE id = ? RETURNING crashes'),
      countAttempt: db.prepare<[number], { attempts: number }>('UPDATE urls SET attempts = attempts + 1 WHERE id = ? RETURNING attempts'),
      // A host that failed waits: its next fetch no sooner than the retry delay (never sooner than already due).
      backoffHost: db.prepare('UPDATE hosts SET next_fetch_at = max(next_fetch_at, ?) WHERE id = ?'),
      // The hosts report's counters, kept with each results row so the report never aggregates over results.
      countFetch: db.prepare(
        'UPDATE hosts SET crawled = crawled + ?, failed = failed + ?, http_errors = http_errors + ?, bytes = bytes + ? WHERE id = ?',
      ),
    };
    this.counts = this.readCounts();
  }

  private readCounts(): FrontierCounts {
    const queued = (this.db.prepare('SELECT coalesce(sum(queued), 0) AS n FROM hosts').get() as { n: number }).n;
    const byState = this.db
      .prepare('SELECT state, count(*) AS n FROM urls WHERE state IN (2, 3) GROUP BY state')
      .all() as { state: number; n: number }[];
    const n = (s: number) => byState.find((r) => r.state === s)?.n ?? 0;
    return { queued, crawled: n(UrlState.done), failed: n(UrlState.failed) };
  }

  getCounts(): Readonly<FrontierCounts> {
    return this.counts;
  }

  /**
   * After a crash of the whole process, URLs that were claimed are queued again and robots.txt fetches that
   * were under way are forgotten; returns how many URLs went back. Run once when a crawl file is reopened.
   */
  recoverLeases(): number {
    return this.db.transaction(() => {
      const perHost = this.db
        .prepare('SELECT host_id AS hostId, count(*) AS n FROM urls WHERE state = 1 GROUP BY host_id')
        .all() as { hostId: number; n: number }[];
      for (const { hostId, n } of perHost) this.q.hostQueued.run(n, hostId);
      const moved = this.db.prepare('UPDATE urls SET state = 0 WHERE state = 1').run().changes;
      this.db.prepare('UPDATE hosts SET in_flight = 0, next_fetch_at = 0 WHERE in_flight > 0 OR next_fetch_at > 0').run();
      this.db.prepare(`UPDATE hosts SET robots_state = ${RobotsState.unknown} WHERE robots_state = ${RobotsState.fetching}`).run();
      this.counts = this.readCounts();
      return moved;
    })();
  }

  /**
   * Adds seed URLs at depth 0 (ignoring ones already known), in the crawl's normal form. Returns how many were
   * new. Seeds are queued as given: settings validation already refuses seeds that the include/exclude patterns
   * or maxUrlLength rule out, and the host rule is built from the seeds.
   */
  addSeeds(seeds: string[], now = Date.now()): number {
    return this.db.transaction(() => {
      let added = 0;
      for (const seed of seeds) {
        const url = this.normalise(seed);
        if (url && this.enqueue(url, SEED, 0, null, now).added) added++;
      }
      this.flushQueued();
      return added;
    })();
  }

  private hostIdFor(origin: string): number {
    let id = this.hostIds.get(origin);
    if (id !== undefined) return id;
    id = this.q.hostByOrigin.get(origin)?.id ?? Number(this.q.insertHost.run(origin).lastInsertRowid);
    if (this.hostIds.size >= HOST_ID_CACHE) this.hostIds.clear();
    this.hostIds.set(origin, id);
    return id;
  }

  /**
   * Records a URL (dedup on its canonical form) with what the candidate chain decided; queues it when it is to
   * be crawled or checked. A URL seen before may move up: one that waited (too deep, only nofollow links) is
   * queued once a link allows it, and one queued to be checked only is crawled once a page links to it.
   */
  private enqueue(url: string, c: Candidate, depth: number, viaId: number | null, now: number, hops = 0): { id: number; added: boolean } {
    const key = urlKey(url);
    const known = this.q.urlsByKey.all(key).find((row) => row.url === url);
    const queue = c.fate === 'crawl' || c.fate === 'check';
    if (known) {
      const waiting = known.state === UrlState.tooDeep || known.state === UrlState.nofollow;
      if (waiting && queue) {
        this.q.requeue.run(depth, c.kind, c.fate === 'check' ? 1 : 0, known.id);
        this.addQueued(this.hostIdFor(originOfCanonical(url)), 1);
        return { id: known.id, added: true };
      }
      if (known.state === UrlState.queued && known.checkOnly && c.fate === 'crawl') this.q.upgradeQueued.run(depth, known.id);
      return { id: known.id, added: false };
    }
    const state = STATE_OF[c.fate];
    const hostId = this.hostIdFor(originOfCanonical(url));
    const priority = this.deprioritised.length > 0 && this.isDeprioritised(url) ? 1 : 0;
    const id = Number(this.q.insertUrl.run(url, key, hostId, depth, state, viaId, now, hops, c.kind, c.fate === 'check' ? 1 : 0, priority).lastInsertRowid);
    if (queue) this.addQueued(hostId, 1);
    return { id, added: queue };
  }

  private isLiveExcluded(url: string): boolean {
    for (const re of this.liveExcludes) if (re.test(url)) return true;
    return false;
  }

  /**
   * Adds an exclude pattern while the crawl runs: URLs queued that match it are dropped (recorded as out of
   * scope, kept in the link graph) and links found from now on that match it are not crawled. Returns how many
   * queued URLs were dropped. The pattern must be a valid regular expression (settings validation checks it).
   */
  addExclude(pattern: string): number {
    this.liveExcludes.push(new RegExp(pattern));
    return this.db.transaction(() => {
      const perHost = this.db
        .prepare(`SELECT host_id AS hostId, count(*) AS n FROM urls WHERE state = ${UrlState.queued} AND trawl_live_excluded(url) GROUP BY host_id`)
        .all() as { hostId: number; n: number }[];
      let dropped = 0;
      for (const { hostId, n } of perHost) {
        this.q.hostQueued.run(-n, hostId);
        dropped += n;
      }
      this.db.prepare(`UPDATE urls SET state = ${UrlState.outOfScope} WHERE state = ${UrlState.queued} AND trawl_live_excluded(url)`).run();
      this.counts.queued -= dropped;
      return dropped;
    })();
  }

  private isDeprioritised(url: string): boolean {
    for (const re of this.deprioritised) if (re.test(url)) return true;
    return false;
  }

  /**
   * Pushes URLs matching `pattern` to the back of their host's queue: those queued now and those found later
   * are claimed after the host's other URLs (nothing is dropped). Returns how many queued URLs moved. The
   * pattern is kept in the crawl file. It must be a valid regular expression.
   */
  deprioritise(pattern: string): number {
    const re = new RegExp(pattern);
    return this.db.transaction(() => {
      const known = JSON.parse(readMeta(this.db, 'deprioritised') ?? '[]') as string[];
      if (!known.includes(pattern)) writeMeta(this.db, 'deprioritised', JSON.stringify([...known, pattern]));
      this.deprioritised.push(re);
      return this.db.prepare(`UPDATE urls SET priority = 1 WHERE state = ${UrlState.queued} AND priority = 0 AND trawl_deprioritised(url)`).run().changes;
    })();
  }

  /** Counts newly queued URLs per host; written to hosts.queued once per transaction by flushQueued(). */
  private addQueued(hostId: number, n: number): void {
    this.pendingQueued.set(hostId, (this.pendingQueued.get(hostId) ?? 0) + n);
    this.counts.queued += n;
  }

  private flushQueued(): void {
    for (const [hostId, n] of this.pendingQueued) this.q.hostQueued.run(n, hostId);
    this.pendingQueued.clear();
  }

  private rulesFor(host: StoredRobots): RobotsRules | null {
    return this.robots.rulesFor(host, this.settings);
  }


  /**
   * Claims up to `max` units of work whose host may be fetched now: page URLs, or a host's robots.txt when its
   * rules are not known yet. URLs that robots.txt forbids are recorded as failed on the way, never handed out.
   * Uses the hosts_ready and urls_queue indexes only: its cost does not grow with the size of the crawl.
   */
  claim(max: number, now = Date.now()): Claim[] {
    if (max <= 0 || this.counts.queued === 0) return [];
    return this.db.transaction(() => {
      const out: Claim[] = [];
      let progressed = true;
      while (out.length < max && progressed) {
        progressed = false;
        const hosts = this.q.readyHosts.all(now, max - out.length);
        for (let h = 0; h < hosts.length && out.length < max; h++) {
          const host = hosts[h]!;
          if (this.settings.robots !== 'ignore' && host.robots_state !== RobotsState.known) {
            if (host.robots_state === RobotsState.unknown) {
              this.q.holdHost.run(RobotsState.fetching, HELD, host.id);
              out.push({ kind: 'robots', hostId: host.id, url: `${host.origin}/robots.txt` });
              progressed = true;
            }
            continue;
          }
          const rules = this.rulesFor(host);
          // A host with any delay takes one fetch at a time; otherwise at most maxPerHost at once.
          const cap = isSerialPerHost(this.settings, rules?.crawlDelayMs ?? 0) ? 1 : (this.settings.maxPerHost ?? Infinity);
          const room = cap - (host.in_flight ?? 0);
          // Share what is left fairly among the hosts ready now, within the host's room.
          const share = Math.min(room, Math.max(1, Math.ceil((max - out.length) / (hosts.length - h))));
          if (share <= 0) continue;
          const rows = this.q.queuedOfHost.all(host.id, share);
          let taken = 0;
          let blocked = 0;
          for (const row of rows) {
            const disallowed = rules !== null && !rules.isAllowed(row.url);
            if (disallowed && this.settings.robots === 'respect') {
              this.recordBlocked(row.id, host.id, row.depth, row.kind, row.checkOnly === 1, rules.blockedReason, now);
              blocked++;
              continue;
            }
            this.q.setUrlState.run(UrlState.claimed, row.id);
            const claim: Claim = {
              kind: 'page', urlId: row.id, hostId: host.id, url: row.url, depth: row.depth, hops: row.hops, urlKind: row.kind, checkOnly: row.checkOnly === 1,
            };
            if (disallowed) claim.robotsDisallowed = true; // mode "report": fetched, and marked
            out.push(claim);
            taken++;
          }
          if (taken + blocked > 0) {
            // A host at its cap is held until one of its fetches returns (returnToHost reopens it).
            this.q.claimFromHost.run(taken + blocked, taken, taken > 0 && taken >= room ? HELD : now, host.id);
            this.counts.queued -= taken + blocked;
            progressed = true;
          }
        }
      }
      return out;
    })();
  }

  /** Epoch ms at which some queued host may next be fetched, or null when nothing is queued or all are held. */
  nextReadyAt(): number | null {
    if (this.counts.queued === 0) return null;
    const at = this.q.nextReady.get()?.at ?? null;
    return at === null || at >= HELD ? null : at;
  }

  private recordBlocked(urlId: number, hostId: number, depth: number, kind: UrlKindName, checkOnly: boolean, reason: string, now: number): void {
    this.q.setUrlState.run(UrlState.failed, urlId);
    this.insertErrorRow({ urlId, hostId, depth, urlKind: kind, checkOnly }, reason, now);
  }

  /** The row of a URL that ended without a response: blocked by robots.txt, or crashed its worker. */
  private insertErrorRow(url: { urlId: number; hostId: number; depth: number; urlKind: UrlKindName; checkOnly: boolean }, error: string, now: number): void {
    this.q.insertResult.run(errorRowOf(url, error, now));
    this.q.countFetch.run(0, 1, 0, 0, url.hostId);
    this.counts.failed++;
  }

  /** Politeness: when this host may be fetched again after a fetch that took `fetchMs`. */
  private nextFetchAt(hostId: number, fetchMs: number, now: number): number {
    const host = this.q.host.get(hostId);
    const crawlDelay = host ? (this.rulesFor(host)?.crawlDelayMs ?? 0) : 0;
    return now + Math.max(politenessDelayMs(this.settings, fetchMs), crawlDelay);
  }

  /** Records a fetched page (or its failure) and schedules its links and redirect target. */
  recordPage(claim: Extract<Claim, { kind: 'page' }>, result: PageFetchResult, now = Date.now()): 'recorded' | 'retry' {
    return this.db.transaction(() => {
      const attempts = this.q.countAttempt.get(claim.urlId)!.attempts;
      const retryIn = retryDelayMs(result, attempts, this.settings);
      if (retryIn !== null) {
        // Not a verdict yet: back in the queue, and its host waits before anyone fetches from it again.
        this.q.setUrlState.run(UrlState.queued, claim.urlId);
        this.q.returnToHost.run(1, this.nextFetchAt(claim.hostId, result.responseTimeMs, now), result.responseTimeMs, claim.hostId);
        this.q.backoffHost.run(now + retryIn, claim.hostId);
        this.counts.queued++;
        return 'retry' as const;
      }
      const ok = result.statusCode !== null;
      const redirect = result.redirectUrl === null ? null : this.redirectVerdict(claim, result.redirectUrl);
      this.q.setUrlState.run(ok ? UrlState.done : UrlState.failed, claim.urlId);
      this.q.insertResult.run(resultRowOf(claim, result, redirect, attempts, now));
      if (ok) this.counts.crawled++;
      else this.counts.failed++;
      this.q.countFetch.run(ok ? 1 : 0, ok ? 0 : 1, (result.statusCode ?? 0) >= 400 ? 1 : 0, result.sizeBytes ?? 0, claim.hostId);
      this.q.returnToHost.run(0, this.nextFetchAt(claim.hostId, result.responseTimeMs, now), result.responseTimeMs, claim.hostId);

      // A redirect's target is the same thing under another name: same depth, not a link hop. The link graph
      // keeps the hop either way; a chain that is too long or loops is not followed further.
      for (const t of pageTargetsOf(claim, result, redirect, (url) => this.isLiveExcluded(url), this.candidateSettings)) {
        const target = this.enqueue(t.url, t.candidate, t.depth, claim.urlId, now, t.hops);
        this.q.insertLink.run(claim.urlId, target.id, t.anchor, t.linkKind, t.nofollow ? 1 : 0);
      }
      for (const link of result.unfetchableLinks) this.q.insertUnfetchable.run(claim.urlId, link.href, link.scheme, link.anchor || null);
      if (result.extracted) {
        for (const [rule, values] of Object.entries(result.extracted)) values.forEach((v, n) => this.q.insertExtracted.run(claim.urlId, rule, n, v));
      }
      this.flushQueued();
      return 'recorded' as const;
    })();
  }

  /**
   * Whether a redirect is followed: not past MAX_REDIRECT_HOPS in one chain, and not back to a URL of its own chain
   * (walked back through the URLs that redirected here, at most MAX_REDIRECT_HOPS rows).
   */
  private redirectVerdict(claim: Extract<Claim, { kind: 'page' }>, target: string): 'follow' | string {
    if (claim.hops >= MAX_REDIRECT_HOPS) return `too many redirects (over ${MAX_REDIRECT_HOPS})`;
    let id: number | null = claim.urlId;
    for (let i = 0; id !== null && i <= MAX_REDIRECT_HOPS; i++) {
      const row = this.q.chainLink.get(id);
      if (!row) break;
      if (row.url === target) return 'redirect loop';
      if (row.hops === 0) break;
      id = row.via;
    }
    return 'follow';
  }

  /** Stores a host's robots.txt and opens the host for fetching. */
  recordRobots(claim: Extract<Claim, { kind: 'robots' }>, result: RobotsFetchResult, now = Date.now()): void {
    // RFC 9309: a 5xx or unreachable robots.txt means "crawl nothing for now". Try it again after a backoff (the
    // host's URLs wait in the queue), and only after maxAttempts failures block the host's URLs for this crawl.
    // A name that does not resolve is a verdict (as for pages, see retry-policy.ts), not a moment's trouble.
    const unresolvable = result.statusCode === null && result.error?.startsWith('DNS lookup failed') === true;
    if (!unresolvable && (result.statusCode === null || result.statusCode >= 500)) {
      const failed = this.db.transaction(() => {
        const { failures } = this.q.robotsFailed.get(now, claim.hostId)!;
        if (failures >= this.settings.maxAttempts) return true;
        const wait = retryDelayMs({ statusCode: 503, error: null, retryAfterMs: null }, failures, this.settings) ?? this.settings.retryDelayMs;
        this.q.holdHost.run(RobotsState.unknown, now + wait, claim.hostId);
        return false;
      })();
      if (!failed) return;
    }
    const rules = robotsRulesFrom(claim.url, result.statusCode, result.body, this.settings.userAgent, result.error);
    this.robots.set(claim.hostId, rules);
    this.q.storeRobots.run(result.statusCode, result.body, result.error, rules.crawlDelayMs, now, claim.hostId);
  }

  /**
   * Gives back claimed work that was not completed: the crawl is stopping, or the worker process holding it died
   * (`crashed`). A URL whose worker died MAX_WORKER_CRASHES times is recorded as failed instead of looping.
   * Returns what became of it.
   */
  release(claim: Claim, crashed: boolean, now = Date.now()): 'requeued' | 'failed' {
    return this.db.transaction(() => {
      if (claim.kind === 'robots') {
        this.q.holdHost.run(RobotsState.unknown, now, claim.hostId);
        return 'requeued' as const;
      }
      const crashes = crashed ? (this.q.crashUrl.get(claim.urlId) as { crashes: number }).crashes : 0;
      if (crashes >= MAX_WORKER_CRASHES) {
        this.q.setUrlState.run(UrlState.failed, claim.urlId);
        this.insertErrorRow(claim, 'worker crashed', now);
        this.q.returnToHost.run(0, now, null, claim.hostId);
        return 'failed' as const;
      }
      this.q.setUrlState.run(UrlState.queued, claim.urlId);
      this.q.returnToHost.run(1, now, null, claim.hostId);
      this.counts.queued++;
      return 'requeued' as const;
    })();
  }
}
