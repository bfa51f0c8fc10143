// Claiming in the PostgreSQL store: one transaction that hands this node URLs (or a host's robots.txt, or its sitemaps)
// whose host may be fetched now, under a lease. Hosts are locked FOR UPDATE SKIP LOCKED, so two nodes never take the same URL and
// never wait for each other; the decisions (robots.txt, politeness) are the SQLite frontier's (robots-policy.ts,
// politeness.ts).
import type { CrawlSettings } from '../../../../shared/settings.ts';
import { HELD, RobotsState, SitemapState, UrlState, type Claim, type HostRow, type UrlKindName } from '../model.ts';
import { errorRowOf } from '../page-outcome.ts';
import { robotsUrlOf, type RobotsRules, type StoredRobots } from '../robots-rules.ts';
import { awaitsRobots, robotsVerdict } from '../robots-policy.ts';
import { hostCap, hostShare, nextFetchAfter, nextFetchAfterClaim } from '../politeness.ts';
import type { PgQuerier } from './pg-client.ts';
import { insertResults, WriteGroup } from './pg-writes.ts';

/** What one claim asks for. */
export interface ClaimWork {
  max: number;
  /** Now, on the database's clock. */
  at: number;
  /** When the leases taken end. */
  lease: number;
  node: string;
  crawlId: string;
  settings: CrawlSettings;
  /** A host's robots.txt rules (parsed once per host), null when the crawl ignores robots.txt. */
  rulesFor: (host: StoredRobots) => RobotsRules | null;
}

/** What a claim took. */
export interface ClaimRound {
  claims: Claim[];
  /** Attempts each claimed URL had when claimed. */
  attempts: Map<number, number>;
  /** URLs robots.txt forbids, recorded as failed on the way. */
  blocked: number;
  /** Sitemaps robots.txt forbids, recorded as not read on the way (out of the queue, but no page failed). */
  sitemapsRefused: number;
  /** The cluster's done counts, read for the page limit (null without one). */
  done: { crawled: number; failed: number } | null;
}

/** A queued URL as a claim reads it. */
interface QueuedUrl {
  id: number;
  url: string;
  depth: number;
  hops: number;
  kind: UrlKindName;
  check_only: number;
  attempts: number;
}

/** Claims up to `work.max` units of work in the transaction `c` (run again from the start if the transaction is). */
export async function claimWork(c: PgQuerier, work: ClaimWork): Promise<ClaimRound> {
  const { max, at, lease, node: me, settings } = work;
  const out: Claim[] = [];
  const attempts = new Map<number, number>();
  let blockedTotal = 0;
  let refusedTotal = 0;
  let done: ClaimRound['done'] = null;
  let want = max;
  if (settings.maxPages !== null) {
    // The page limit is the cluster's: claims take the crawl's registry row in turn, so two nodes never both
    // take the last pages. URLs claimed anywhere count as done for this.
    await c.query('SELECT 1 FROM trawl.crawls WHERE id = $1 FOR UPDATE', [work.crawlId]);
    const { rows } = await c.query<{ crawled: number; failed: number; claimed: number }>(
      `SELECT coalesce(sum(crawled), 0)::int AS crawled, coalesce(sum(failed), 0)::int AS failed,
         (SELECT count(*)::int FROM urls WHERE state = ${UrlState.claimed}) AS claimed FROM hosts`,
    );
    const r = rows[0]!;
    done = { crawled: r.crawled, failed: r.failed };
    want = Math.max(0, Math.min(max, settings.maxPages - r.crawled - r.failed - r.claimed));
  }
  // As the SQLite frontier: round after round over the ready hosts while any round takes or blocks something.
  for (let progressed = true; out.length < want && progressed; ) {
    progressed = false;
    // Hosts another node is claiming from or recording for right now are skipped, not waited for.
    const { rows: hosts } = await c.query<Required<HostRow> & { sitemaps_queued: number }>(
      `SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms, last_fetch_ms, in_flight, sitemaps_queued FROM hosts
       WHERE queued > 0 AND next_fetch_at <= $1 ORDER BY next_fetch_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [at, want - out.length],
    );
    for (let h = 0; h < hosts.length && out.length < want; h++) {
      const host = hosts[h]!;
      if (awaitsRobots(settings, host.robots_state)) {
        if (host.robots_state === RobotsState.unknown) {
          await c.query('UPDATE hosts SET robots_state = $1, next_fetch_at = $2, robots_node = $3, robots_lease_until = $4 WHERE id = $5', [
            RobotsState.fetching,
            HELD,
            me,
            lease,
            host.id,
          ]);
          out.push({ kind: 'robots', hostId: host.id, url: robotsUrlOf(host.origin) });
          progressed = true;
        }
        continue;
      }
      const rules = work.rulesFor(host);
      const room = hostCap(settings, rules?.crawlDelayMs ?? 0) - host.in_flight;
      const share = hostShare(room, want - out.length, hosts.length - h);
      if (share <= 0) continue;
      // The host's sitemaps first (few, and they find URLs), through the same robots.txt as its pages, as the crawl
      // file's claim takes them.
      const sitemapsTaken: number[] = [];
      let refused = 0;
      if (host.sitemaps_queued > 0) {
        const { rows: sitemaps } = await c.query<{ id: number; url: string }>(
          `SELECT id, url FROM sitemaps WHERE host_id = $1 AND state = ${SitemapState.queued} ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [host.id, share],
        );
        for (const sitemap of sitemaps) {
          const robots = robotsVerdict(rules, sitemap.url, settings);
          if (robots.verdict === 'blocked') {
            await c.query(`UPDATE sitemaps SET state = ${SitemapState.failed}, error = $1, fetched_at = $2 WHERE id = $3`, [
              robots.reason!,
              at,
              sitemap.id,
            ]);
            refused++;
            continue;
          }
          out.push({ kind: 'sitemap', sitemapId: sitemap.id, hostId: host.id, url: sitemap.url });
          sitemapsTaken.push(sitemap.id);
        }
      }
      const pageShare = share - sitemapsTaken.length - refused;
      const rows =
        pageShare <= 0
          ? []
          : (
              await c.query<QueuedUrl>(
                `SELECT id, url, depth, redirect_hops AS hops, kind, check_only, attempts FROM urls WHERE host_id = $1 AND state = ${UrlState.queued}
                 ORDER BY priority, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
                [host.id, pageShare],
              )
            ).rows;
      const taken: number[] = [];
      let blocked = 0;
      for (const row of rows) {
        const robots = robotsVerdict(rules, row.url, settings);
        if (robots.verdict === 'blocked') {
          await c.query(`UPDATE urls SET state = ${UrlState.failed} WHERE id = $1`, [row.id]);
          await insertResults(
            c,
            [errorRowOf({ urlId: row.id, depth: row.depth, urlKind: row.kind, checkOnly: row.check_only === 1 }, robots.reason!, at)],
            me,
          );
          await c.query('UPDATE hosts SET failed = failed + 1 WHERE id = $1', [host.id]);
          blocked++;
          continue;
        }
        const claim: Claim = {
          kind: 'page',
          urlId: row.id,
          hostId: host.id,
          url: row.url,
          depth: row.depth,
          hops: row.hops,
          urlKind: row.kind,
          checkOnly: row.check_only === 1,
        };
        if (robots.verdict === 'reported') claim.robotsDisallowed = true;
        out.push(claim);
        taken.push(row.id);
        attempts.set(row.id, row.attempts);
      }
      // The URLs' leases and their host's counts in one statement (a round trip fewer a host).
      const writes = new WriteGroup();
      if (taken.length) {
        await writes.querier.query(
          `UPDATE urls SET state = ${UrlState.claimed}, lease_node = $1, lease_until = $2 WHERE id = ANY($3::bigint[])`,
          [me, lease, taken],
        );
      }
      if (sitemapsTaken.length) {
        await writes.querier.query(
          `UPDATE sitemaps SET state = ${SitemapState.claimed}, lease_node = $1, lease_until = $2 WHERE id = ANY($3::bigint[])`,
          [me, lease, sitemapsTaken],
        );
      }
      const fetches = taken.length + sitemapsTaken.length;
      if (fetches + blocked + refused > 0) {
        // A host at its cap is held until one of its fetches returns (on whichever node).
        // A fetch starts now: a render's fetch from the host waits the delay after it (fetch_due).
        await writes.querier.query(
          `UPDATE hosts SET queued = queued - $1, in_flight = in_flight + $2, next_fetch_at = $3, fetch_due = greatest(fetch_due, $4),
             sitemaps_queued = sitemaps_queued - $5 WHERE id = $6`,
          [
            fetches + blocked + refused,
            fetches,
            nextFetchAfterClaim(fetches, room, at),
            fetches > 0 ? nextFetchAfter(settings, host.last_fetch_ms ?? 0, rules?.crawlDelayMs ?? 0, at) : 0,
            sitemapsTaken.length + refused,
            host.id,
          ],
        );
        await writes.send(c);
        blockedTotal += blocked;
        refusedTotal += refused;
        progressed = true;
      }
    }
  }
  return { claims: out, attempts, blocked: blockedTotal, sitemapsRefused: refusedTotal, done };
}
