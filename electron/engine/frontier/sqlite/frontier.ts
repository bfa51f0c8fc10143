// The persistent frontier: every URL the crawl knows, its state, and per-host politeness, in the crawl file.
// The controller is its only user and runs in one thread, so each method is one SQLite transaction and the
// in-memory counters below always match the file.
// About 430 lines, kept whole: the methods are the frontier's transactions over one set of prepared statements
// (frontier-statements.ts) and one set of counters, and each must keep them in step with the file.
import { socialTagRowsOf, structuredDataRowsOf } from '../structured-rows.ts';
import type { CrawlSettings } from '../../../../shared/settings.ts';
import type { FoundImage, PageFetchResult, RobotsFetchResult, SitemapFetchResult } from '../../../../shared/protocol.ts';
import { makeNormaliser, type Normaliser } from '../../../../shared/url/normalise.ts';
import { originOfCanonical, urlKey } from '../../../../shared/url/url-key.ts';
import { compileSaved, mustCompile, type UserPattern } from '../../../../shared/pattern.ts';
import type { Db } from './crawl-file.ts';
import { readMeta, writeMeta } from './crawl-file.ts';
import { prepareFrontierStatements, type FrontierStatements } from './frontier-statements.ts';
import {
  HELD,
  HOST_ID_CACHE,
  MAX_SITEMAP_DEPTH,
  MAX_SITEMAPS,
  MAX_WORKER_CRASHES,
  RobotsState,
  SitemapState,
  UrlState,
  type Claim,
  type SitemapClaim,
  type FrontierCounts,
  type HostRow,
  type PageClaim,
  type RobotsClaim,
  type UrlKindName,
} from '../model.ts';
import { RobotsCache, robotsRulesFrom, robotsUrlOf, type RobotsRules, type StoredRobots } from '../robots-rules.ts';
import {
  ROBOTS_WORKER_CRASHED,
  awaitsRobots,
  robotsCrashSettles,
  robotsFetchFailed,
  robotsRetryWaitMs,
  robotsVerdict,
} from '../robots-policy.ts';
import { retryDelayMs } from '../retry-policy.ts';
import {
  SEED,
  STATE_OF,
  candidateSettingsOf,
  isQueued,
  knownUrlMove,
  matchesAny,
  sitemapEntryOutcome,
  type Candidate,
  type CandidateSettings,
} from '../candidates.ts';
import {
  contentRowOf,
  errorRowOf,
  hostCountsOf,
  hreflangRowsOf,
  pageTargetsOf,
  renderRowOf,
  resultRowOf,
  securityRowOf,
} from '../page-outcome.ts';
import { hostCap, hostShare, nextFetchAfter, nextFetchAfterClaim, nextReadyFrom } from '../politeness.ts';
import { redirectVerdict } from '../redirect-chain.ts';
import { parseRobotsTxt } from '../robots-txt.ts';

export class Frontier {
  /** The settings the candidate rules read, with list mode's depth limit of 0 applied. */
  private readonly candidateSettings: CandidateSettings;
  private readonly normalise: Normaliser;
  /** Exclude patterns added while the crawl runs: the workers' scope predates them, so they are applied here. */
  private readonly liveExcludes: UserPattern[] = [];
  /** Patterns pushed to the back of their host's queue (meta 'deprioritised', so a resumed crawl keeps them). */
  private readonly deprioritised: UserPattern[] = [];
  private readonly robots = new RobotsCache();
  private readonly hostIds = new Map<string, number>();
  /** hosts.queued increments not yet written, within the current transaction. */
  private readonly pendingQueued = new Map<number, number>();
  private counts: FrontierCounts;
  private readonly q: FrontierStatements;
  /**
   * Per host: the earliest start of its next fetch as the fetches started so far allow (page claims and slots taken by
   * reserveFetch), kept while hosts.next_fetch_at says HELD, so that a host given back waits for it too. In memory:
   * a reopened crawl starts without it (nothing is in flight then).
   */
  private readonly fetchDue = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly settings: CrawlSettings,
  ) {
    this.candidateSettings = candidateSettingsOf(settings);
    this.normalise = makeNormaliser(settings);
    // SQL's view of the live excludes, for dropping queued URLs that match one (a scan of the queue, once per
    // pattern added, never per URL).
    db.function('trawl_live_excluded', { deterministic: false }, (url: unknown) =>
      typeof url === 'string' && this.isLiveExcluded(url) ? 1 : 0,
    );
    db.function('trawl_deprioritised', { deterministic: false }, (url: unknown) =>
      typeof url === 'string' && this.isDeprioritised(url) ? 1 : 0,
    );
    this.deprioritised.push(...compileSaved(JSON.parse(readMeta(db, 'deprioritised') ?? '[]') as string[]));
    this.q = prepareFrontierStatements(db);
    this.counts = this.readCounts();
  }

  private readCounts(): FrontierCounts {
    const queued = (this.db.prepare('SELECT coalesce(sum(queued), 0) AS n FROM hosts').get() as { n: number }).n;
    const byState = this.db.prepare('SELECT state, count(*) AS n FROM urls WHERE state IN (2, 3) GROUP BY state').all() as {
      state: number;
      n: number;
    }[];
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
      const perHost = this.db.prepare('SELECT host_id AS hostId, count(*) AS n FROM urls WHERE state = 1 GROUP BY host_id').all() as {
        hostId: number;
        n: number;
      }[];
      for (const { hostId, n } of perHost) this.q.hostQueued.run(n, hostId);
      const moved = this.db.prepare('UPDATE urls SET state = 0 WHERE state = 1').run().changes;
      // Sitemaps being read when the process died are read again (their URLs are recorded with them, all or nothing).
      const sitemapsPerHost = this.db
        .prepare(`SELECT host_id AS hostId, count(*) AS n FROM sitemaps WHERE state = ${SitemapState.claimed} GROUP BY host_id`)
        .all() as { hostId: number; n: number }[];
      for (const { hostId, n } of sitemapsPerHost) this.q.hostQueued.run(n, hostId);
      this.db.prepare(`UPDATE sitemaps SET state = ${SitemapState.queued} WHERE state = ${SitemapState.claimed}`).run();
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
      // Sitemaps: those given, and /sitemap.xml of each seed's host (robots.txt's Sitemap: lines come with it).
      for (const given of this.settings.sitemaps) this.queueSitemap(given, 'given', null, 0, now);
      if (this.discoversSitemaps()) {
        for (const seed of seeds) {
          const url = this.normalise(seed);
          if (url) this.queueSitemap(`${originOfCanonical(url)}/sitemap.xml`, 'guess', null, 0, now);
        }
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

  /** Linked sitemaps (robots.txt's, /sitemap.xml) are read: the setting, and never in list mode (a list is the crawl). */
  private discoversSitemaps(): boolean {
    return this.settings.crawlLinkedSitemaps && this.settings.mode !== 'list';
  }

  /**
   * Queues a sitemap (once per URL). Past MAX_SITEMAPS in the crawl, or nested deeper than MAX_SITEMAP_DEPTH indexes,
   * it is recorded as not read, with the reason, so a sitemap index naming thousands of sitemaps stays bounded.
   */
  private queueSitemap(
    href: string,
    source: 'robots' | 'guess' | 'given' | 'index',
    parentId: number | null,
    depth: number,
    now: number,
  ): void {
    const url = this.normalise(href);
    if (url === null) return;
    const count = this.q.sitemapCount.get()!.n;
    if (count > MAX_SITEMAPS) return;
    const hostId = this.hostIdFor(originOfCanonical(url));
    const refused =
      count === MAX_SITEMAPS
        ? `not read: over ${MAX_SITEMAPS} sitemaps in the crawl`
        : depth > MAX_SITEMAP_DEPTH
          ? 'not read: sitemap indexes nested too deep'
          : null;
    const state = refused === null ? SitemapState.queued : SitemapState.failed;
    const inserted = this.q.insertSitemap.run(url, hostId, source, parentId, depth, state, now, refused).changes > 0;
    if (inserted && refused === null) this.addQueued(hostId, 1);
  }

  /**
   * Records a URL (dedup on its canonical form) with what the candidate chain decided; queues it when it is to
   * be crawled or checked. A URL seen before may move up: one that waited (too deep, only nofollow links) is
   * queued once a link allows it, and one queued to be checked only is crawled once a page links to it.
   */
  private enqueue(url: string, c: Candidate, depth: number, viaId: number | null, now: number, hops = 0): { id: number; added: boolean } {
    const key = urlKey(url);
    const known = this.q.urlsByKey.all(key).find((row) => row.url === url);
    const queue = isQueued(c);
    if (known) {
      const move = knownUrlMove({ state: known.state, checkOnly: known.checkOnly === 1 }, c);
      if (move === 'requeue') {
        this.q.requeue.run(depth, c.kind, c.fate === 'check' ? 1 : 0, known.id);
        this.addQueued(this.hostIdFor(originOfCanonical(url)), 1);
        return { id: known.id, added: true };
      }
      if (move === 'upgrade') this.q.upgradeQueued.run(depth, known.id);
      return { id: known.id, added: false };
    }
    const state = STATE_OF[c.fate];
    const hostId = this.hostIdFor(originOfCanonical(url));
    const priority = this.deprioritised.length > 0 && this.isDeprioritised(url) ? 1 : 0;
    const id = Number(
      this.q.insertUrl.run(url, key, hostId, depth, state, viaId, now, hops, c.kind, c.fate === 'check' ? 1 : 0, priority).lastInsertRowid,
    );
    if (queue) this.addQueued(hostId, 1);
    return { id, added: queue };
  }

  private isLiveExcluded(url: string): boolean {
    return matchesAny(this.liveExcludes, url);
  }

  /**
   * Adds an exclude pattern while the crawl runs: URLs queued that match it are dropped (recorded as out of
   * scope, kept in the link graph) and links found from now on that match it are not crawled. Returns how many
   * queued URLs were dropped. The pattern must be one the linear-time engine takes (checkPattern checks it).
   */
  addExclude(pattern: string): number {
    this.liveExcludes.push(mustCompile(pattern, 'exclude pattern'));
    return this.db.transaction(() => {
      const perHost = this.db
        .prepare(
          `SELECT host_id AS hostId, count(*) AS n FROM urls WHERE state = ${UrlState.queued} AND trawl_live_excluded(url) GROUP BY host_id`,
        )
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
    return matchesAny(this.deprioritised, url);
  }

  /**
   * Pushes URLs matching `pattern` to the back of their host's queue: those queued now and those found later
   * are claimed after the host's other URLs (nothing is dropped). Returns how many queued URLs moved. The
   * pattern is kept in the crawl file. It must be one the linear-time engine takes (checkPattern checks it).
   */
  deprioritise(pattern: string): number {
    const re = mustCompile(pattern);
    return this.db.transaction(() => {
      const known = JSON.parse(readMeta(this.db, 'deprioritised') ?? '[]') as string[];
      if (!known.includes(pattern)) writeMeta(this.db, 'deprioritised', JSON.stringify([...known, pattern]));
      this.deprioritised.push(re);
      return this.db
        .prepare(`UPDATE urls SET priority = 1 WHERE state = ${UrlState.queued} AND priority = 0 AND trawl_deprioritised(url)`)
        .run().changes;
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
          if (awaitsRobots(this.settings, host.robots_state)) {
            if (host.robots_state === RobotsState.unknown) {
              this.q.holdHost.run(RobotsState.fetching, HELD, host.id);
              out.push({ kind: 'robots', hostId: host.id, url: robotsUrlOf(host.origin) });
              progressed = true;
            }
            continue;
          }
          const rules = this.rulesFor(host);
          const room = hostCap(this.settings, rules?.crawlDelayMs ?? 0) - (host.in_flight ?? 0);
          const share = hostShare(room, max - out.length, hosts.length - h);
          if (share <= 0) continue;
          let taken = 0;
          let blocked = 0;
          // The host's sitemaps first (few, and they find URLs): through the same robots.txt as its pages.
          for (const sitemap of this.q.queuedSitemapsOfHost.all(host.id, share)) {
            const robots = robotsVerdict(rules, sitemap.url, this.settings);
            if (robots.verdict === 'blocked') {
              this.q.failSitemap.run(robots.reason!, now, sitemap.id);
              blocked++;
              continue;
            }
            this.q.setSitemapState.run(SitemapState.claimed, sitemap.id);
            out.push({ kind: 'sitemap', sitemapId: sitemap.id, hostId: host.id, url: sitemap.url });
            taken++;
          }
          const rows = share - taken - blocked > 0 ? this.q.queuedOfHost.all(host.id, share - taken - blocked) : [];
          for (const row of rows) {
            const robots = robotsVerdict(rules, row.url, this.settings);
            if (robots.verdict === 'blocked') {
              this.recordBlocked(row.id, host.id, row.depth, row.kind, row.checkOnly === 1, robots.reason!, now);
              blocked++;
              continue;
            }
            this.q.setUrlState.run(UrlState.claimed, row.id);
            const claim: Claim = {
              kind: 'page',
              urlId: row.id,
              hostId: host.id,
              url: row.url,
              depth: row.depth,
              hops: row.hops,
              urlKind: row.kind,
              checkOnly: row.checkOnly === 1,
            };
            if (robots.verdict === 'reported') claim.robotsDisallowed = true; // fetched, and marked
            out.push(claim);
            taken++;
          }
          if (taken + blocked > 0) {
            // A host at its cap is held until one of its fetches returns (returnToHost reopens it).
            this.q.claimFromHost.run(taken + blocked, taken, nextFetchAfterClaim(taken, room, now), host.id);
            if (taken > 0) this.fetchStarts(host, now);
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
    return nextReadyFrom(this.q.nextReady.get()?.at ?? null);
  }

  private recordBlocked(
    urlId: number,
    hostId: number,
    depth: number,
    kind: UrlKindName,
    checkOnly: boolean,
    reason: string,
    now: number,
  ): void {
    this.q.setUrlState.run(UrlState.failed, urlId);
    this.insertErrorRow({ urlId, hostId, depth, urlKind: kind, checkOnly }, reason, now);
  }

  /** The row of a URL that ended without a response: blocked by robots.txt, or crashed its worker. */
  private insertErrorRow(
    url: { urlId: number; hostId: number; depth: number; urlKind: UrlKindName; checkOnly: boolean },
    error: string,
    now: number,
  ): void {
    this.q.insertResult.run(errorRowOf(url, error, now));
    this.q.countFetch.run(0, 1, 0, 0, url.hostId);
    this.counts.failed++;
  }

  /** Politeness: when this host may be fetched again after a fetch that took `fetchMs`. */
  private nextFetchAt(hostId: number, fetchMs: number, now: number): number {
    const host = this.q.host.get(hostId);
    const crawlDelay = host ? (this.rulesFor(host)?.crawlDelayMs ?? 0) : 0;
    return Math.max(nextFetchAfter(this.settings, fetchMs, crawlDelay, now), this.notBefore(hostId, now));
  }

  /** The host's next fetch, at `now` at the soonest, waits for the slots already taken. */
  private notBefore(hostId: number, now: number): number {
    return Math.max(now, this.fetchDue.get(hostId) ?? 0);
  }

  /** A fetch of the host starts at `at`: its next one waits the delay after it (as after a fetch as long as its last). */
  private fetchStarts(host: HostRow, at: number): number {
    const due = nextFetchAfter(this.settings, host.last_fetch_ms ?? 0, this.rulesFor(host)?.crawlDelayMs ?? 0, at);
    if (due > at) {
      if (this.fetchDue.size >= HOST_ID_CACHE) for (const [id, at2] of this.fetchDue) if (at2 <= at) this.fetchDue.delete(id);
      this.fetchDue.set(host.id, Math.max(due, this.fetchDue.get(host.id) ?? 0));
    }
    return due;
  }

  /**
   * Takes the host's next fetch slot for a fetch the frontier does not hand out (a render's sub-resource): returns
   * when it may start; the host's next page (held now or claimed later) and the next slot wait the delay after it.
   */
  reserveFetch(origin: string, now = Date.now()): number {
    const hostId = this.hostIdFor(origin);
    const host = this.q.hostClock.get(hostId)!;
    const open = host.next_fetch_at < HELD ? host.next_fetch_at : 0;
    const slot = Math.max(open, this.notBefore(hostId, now));
    const due = this.fetchStarts(host, slot);
    if (host.next_fetch_at < due) this.q.setNextFetch.run(due, hostId);
    return slot;
  }

  /**
   * The host's robots.txt for a fetch the frontier does not hand out: its rules once known, `wait` while a fetch of
   * it is under way, otherwise a claim on fetching it (held as the frontier holds a host for its robots.txt).
   */
  robotsFor(origin: string): { rules: RobotsRules } | { wait: true } | { fetch: RobotsClaim } {
    const hostId = this.hostIdFor(origin);
    const host = this.q.hostClock.get(hostId)!;
    if (host.robots_state === RobotsState.known) {
      const rules = this.rulesFor(host);
      if (rules) return { rules };
    }
    if (host.robots_state === RobotsState.fetching) return { wait: true };
    this.q.holdHost.run(RobotsState.fetching, HELD, hostId);
    return { fetch: { kind: 'robots', hostId, url: robotsUrlOf(origin) } };
  }

  /** Records a fetched page (or its failure) and schedules its links and redirect target. */
  recordPage(claim: PageClaim, result: PageFetchResult, now = Date.now()): 'recorded' | 'retry' {
    try {
      return this.recordPageNow(claim, result, now);
    } catch (err) {
      // A rolled-back transaction may have made image rows the cache names.
      this.imageIds.clear();
      throw err;
    }
  }

  private recordPageNow(claim: PageClaim, result: PageFetchResult, now: number): 'recorded' | 'retry' {
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
      const redirect = result.redirectUrl === null ? null : redirectVerdict(claim, result.redirectUrl, (id) => this.q.chainLink.get(id));
      this.q.setUrlState.run(ok ? UrlState.done : UrlState.failed, claim.urlId);
      this.q.insertResult.run(resultRowOf(claim, result, redirect, attempts, now));
      const render = renderRowOf(claim, result);
      if (render !== null) this.q.insertRender.run(render);
      const content = contentRowOf(claim, result);
      if (content !== null) this.q.insertContent.run(content);
      if (ok) this.counts.crawled++;
      else this.counts.failed++;
      const counts = hostCountsOf(result);
      this.q.countFetch.run(counts.crawled, counts.failed, counts.httpErrors, counts.bytes, claim.hostId);
      this.q.returnToHost.run(0, this.nextFetchAt(claim.hostId, result.responseTimeMs, now), result.responseTimeMs, claim.hostId);

      // A redirect's target is the same thing under another name: same depth, not a link hop. The link graph
      // keeps the hop either way; a chain that is too long or loops is not followed further.
      const targetIds = result.hreflang.length > 0 || result.rendered?.hreflang.length ? new Map<string, number>() : null;
      for (const t of pageTargetsOf(claim, result, redirect, (url) => this.isLiveExcluded(url), this.candidateSettings)) {
        const target = this.enqueue(t.url, t.candidate, t.depth, claim.urlId, now, t.hops);
        this.q.insertLink.run(claim.urlId, target.id, t.anchor, t.linkKind, t.nofollow ? 1 : 0, t.rendered ? 1 : 0);
        targetIds?.set(t.url, target.id);
      }
      if (result.images) for (const image of result.images) this.recordImageUse(claim.urlId, image);
      // Security and hreflang (issue 18.5).
      const security = securityRowOf(claim, result);
      if (security !== null) this.q.insertSecurity.run(security);
      if (targetIds !== null) for (const row of hreflangRowsOf(claim, result, (url) => targetIds.get(url))) this.q.insertHreflang.run(row);
      for (const link of result.unfetchableLinks) this.q.insertUnfetchable.run(claim.urlId, link.href, link.scheme, link.anchor || null);
      if (result.extracted) {
        for (const [rule, values] of Object.entries(result.extracted))
          values.forEach((v, n) => this.q.insertExtracted.run(claim.urlId, rule, n, v));
      }
      for (const row of structuredDataRowsOf(claim.urlId, result)) this.q.insertStructuredData.run(row);
      for (const row of socialTagRowsOf(claim.urlId, result)) this.q.insertSocialTag.run(row);
      this.flushQueued();
      return 'recorded' as const;
    })();
  }

  /** Image ids by URL, for the images most pages share (a logo): bounded, emptied when full. */
  private readonly imageIds = new Map<string, number>();

  /** One use of an image on a page (issue 18.3): the image's row found or made, then the use. */
  private recordImageUse(pageId: number, image: FoundImage): void {
    let id = this.imageIds.get(image.url);
    if (id === undefined) {
      const key = urlKey(image.url);
      id = this.q.imagesByKey.all(key).find((row) => row.url === image.url)?.id;
      if (id === undefined) id = Number(this.q.insertImage.run(image.url, key).lastInsertRowid);
      if (this.imageIds.size >= 20_000) this.imageIds.clear();
      this.imageIds.set(image.url, id);
    }
    this.q.insertImageUse.run(pageId, id, image.alt, image.altLength, image.width, image.height);
  }

  /** Stores a host's robots.txt and opens the host for fetching. */
  recordRobots(claim: RobotsClaim, result: RobotsFetchResult, now = Date.now()): void {
    // A robots.txt that failed for the moment is tried again after a backoff; only after maxAttempts failures do its
    // rules (blocking the host's URLs for this crawl) stand (robots-policy.ts).
    if (robotsFetchFailed(result)) {
      const failed = this.db.transaction(() => {
        const { failures } = this.q.robotsFailed.get(now, claim.hostId)!;
        const wait = robotsRetryWaitMs(failures, this.settings);
        if (wait === null) return true;
        this.q.holdHost.run(RobotsState.unknown, now + wait, claim.hostId);
        return false;
      })();
      if (!failed) return;
    }
    this.storeRobots(claim, result.statusCode, result.body, result.error, now);
  }

  /** A host's robots.txt as it stands for the rest of the crawl: its rules are known, its URLs claimable. */
  private storeRobots(claim: RobotsClaim, status: number | null, body: string | null, error: string | null, now: number): void {
    const rules = robotsRulesFrom(claim.url, status, body, this.settings.userAgent, error);
    this.robots.set(claim.hostId, rules);
    this.q.storeRobots.run(status, body, error, rules.crawlDelayMs, this.notBefore(claim.hostId, now), claim.hostId);
    // robots.txt's Sitemap: lines (any host's robots.txt the crawl reads).
    if (body !== null && status !== null && status >= 200 && status < 300 && this.discoversSitemaps()) {
      this.db.transaction(() => {
        for (const href of parseRobotsTxt(body).sitemaps) this.queueSitemap(href, 'robots', null, 0, now);
        this.flushQueued();
      })();
    }
  }

  /**
   * Records a sitemap read by a worker and everything it lists, in one transaction: the sitemaps an index names are
   * queued; the URLs a urlset lists are recorded (queued to crawl as links from a seed's page are, or only recorded:
   * sitemapCandidate) with the sitemap that listed them. The host is returned to politeness as after a page.
   */
  recordSitemap(claim: SitemapClaim, result: SitemapFetchResult, now = Date.now()): void {
    this.db.transaction(() => {
      this.q.returnToHost.run(0, this.nextFetchAt(claim.hostId, result.responseTimeMs, now), result.responseTimeMs, claim.hostId);
      this.storeSitemap(claim.sitemapId, result, now);
    })();
  }

  /**
   * A sitemap read from a local file (`--sitemap FILE`), by its file: URL: recorded as a fetched one is, under the
   * first seed's host (a file has no host of its own; nothing is fetched for it). An index file's sitemaps are queued.
   */
  recordSitemapFile(result: SitemapFetchResult, now = Date.now()): void {
    const seed = this.normalise(this.settings.seeds[0] ?? '');
    if (seed === null) return;
    this.db.transaction(() => {
      const hostId = this.hostIdFor(originOfCanonical(seed));
      const { changes, lastInsertRowid } = this.q.insertSitemap.run(result.url, hostId, 'given', null, 0, SitemapState.claimed, now, null);
      if (changes > 0) this.storeSitemap(Number(lastInsertRowid), result, now);
    })();
  }

  /** A sitemap read: its row, and what it lists (the sitemaps of an index queued; a urlset's URLs recorded). */
  private storeSitemap(sitemapId: number, result: SitemapFetchResult, now: number): void {
    const read = result.format !== null;
    this.q.finishSitemap.run({
      id: sitemapId,
      state: read ? SitemapState.done : SitemapState.failed,
      kind: result.format,
      statusCode: result.statusCode,
      urlCount: result.urls.length,
      invalid: result.invalid,
      overUrls: result.overUrlLimit ? 1 : 0,
      overSize: result.overSizeLimit ? 1 : 0,
      sizeBytes: result.sizeBytes,
      responseTimeMs: result.responseTimeMs,
      error: result.error,
      at: now,
    });
    if (result.format === 'index') {
      const depth = this.q.sitemapDepth.get(sitemapId)!.depth + 1;
      for (const child of result.urls) this.queueSitemap(child.url, 'index', sitemapId, depth, now);
    } else if (read) {
      for (const entry of result.urls) {
        const { candidate, hreflang } = sitemapEntryOutcome(entry, this.candidateSettings, this.settings.crawlSitemapUrls, (url) =>
          this.isLiveExcluded(url),
        );
        const target = this.enqueue(entry.url, candidate, 1, null, now);
        this.q.insertSitemapUrl.run(target.id, sitemapId, entry.lastmod, hreflang);
      }
    }
    this.flushQueued();
  }

  /**
   * Gives back claimed work that was not completed: the crawl is stopping, or the worker process holding it died
   * (`crashed`). A URL whose worker died MAX_WORKER_CRASHES times is recorded as failed instead of looping; so is
   * a robots.txt (counted with its failed fetches), which then stands as unreachable (robots-policy.ts).
   * Returns what became of it.
   */
  release(claim: Claim, crashed: boolean, now = Date.now()): 'requeued' | 'failed' {
    return this.db.transaction(() => {
      if (claim.kind === 'sitemap') {
        const crashes = crashed ? this.q.crashSitemap.get(claim.sitemapId)!.crashes : 0;
        if (crashes >= MAX_WORKER_CRASHES) {
          this.q.failSitemap.run('worker crashed', now, claim.sitemapId);
          this.q.returnToHost.run(0, now, null, claim.hostId);
          return 'failed' as const;
        }
        this.q.setSitemapState.run(SitemapState.queued, claim.sitemapId);
        this.q.returnToHost.run(1, now, null, claim.hostId);
        this.counts.queued++;
        return 'requeued' as const;
      }
      if (claim.kind === 'robots') {
        if (!crashed) {
          this.q.holdHost.run(RobotsState.unknown, now, claim.hostId);
          return 'requeued' as const;
        }
        // Counted as a failed fetch (the host is open to fetch it again at once, as a crashed URL is).
        const { failures } = this.q.robotsFailed.get(now, claim.hostId)!;
        if (!robotsCrashSettles(failures)) return 'requeued' as const;
        this.storeRobots(claim, null, null, ROBOTS_WORKER_CRASHED, now);
        return 'failed' as const;
      }
      const crashes = crashed ? (this.q.crashUrl.get(claim.urlId) as { crashes: number }).crashes : 0;
      if (crashes >= MAX_WORKER_CRASHES) {
        this.q.setUrlState.run(UrlState.failed, claim.urlId);
        this.insertErrorRow(claim, 'worker crashed', now);
        this.q.returnToHost.run(0, this.notBefore(claim.hostId, now), null, claim.hostId);
        return 'failed' as const;
      }
      this.q.setUrlState.run(UrlState.queued, claim.urlId);
      this.q.returnToHost.run(1, this.notBefore(claim.hostId, now), null, claim.hostId);
      this.counts.queued++;
      return 'requeued' as const;
    })();
  }
}
