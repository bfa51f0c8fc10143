// Discovering URLs in the PostgreSQL store: the URLs a page leads to (and seeds) recorded once for the whole cluster,
// with what the candidate chain decided for each, in a few batched statements (unnest) rather than one per URL.
import crypto from 'node:crypto';
import { originOfCanonical } from '../../../../shared/url/url-key.ts';
import { HOST_ID_CACHE, UrlState } from '../model.ts';
import { STATE_OF, isQueued, knownUrlMove, type Candidate } from '../candidates.ts';
import type { PgQuerier } from './pg-client.ts';

/** A URL to record, with what the candidate chain decided. */
export interface Enqueue {
  url: string;
  candidate: Candidate;
  depth: number;
  via: number | null;
  hops: number;
}

/** md5 of a URL as the uuid PostgreSQL's urls.url_md5 holds, for lookups by the unique index. */
function md5Uuid(url: string): string {
  const h = crypto.createHash('md5').update(url, 'utf8').digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The CTEs that add `counts` (host_id, n) to their hosts' queued counts, the hosts' rows locked in id order first.
 * An UPDATE ... FROM locks rows in whatever order its join produces them (a hash join: the table's physical order,
 * which every update of a row changes), so two nodes' statements could lock the same hosts in opposite orders and
 * deadlock: three nodes crawling 16 hosts hit 24 deadlocks in one crawl (each rolled back and run again). The
 * locking CTE is read whole or in its order before any row is updated, whichever plan PostgreSQL picks.
 */
function countQueued(counts: string): string {
  return `n AS (${counts}),
       locked AS (SELECT h.id FROM hosts h WHERE h.id IN (SELECT host_id FROM n) ORDER BY h.id FOR UPDATE),
       counted AS (UPDATE hosts h SET queued = h.queued + n.n FROM n WHERE h.id = n.host_id AND h.id IN (SELECT id FROM locked))`;
}

/** Ranks two verdicts on the same URL found twice in one batch: crawling beats checking beats the rest. */
function stronger(a: Candidate, b: Candidate): Candidate {
  const rank = (c: Candidate) => (c.fate === 'crawl' ? 2 : c.fate === 'check' ? 1 : 0);
  return rank(b) > rank(a) ? b : a;
}

/** Records the URLs a node finds; keeps the host ids it has seen, so most batches need no host lookup. */
export class PgUrlDiscovery {
  private readonly hostIds = new Map<string, number>();

  /** `isDeprioritised`: whether a new URL is queued behind its host's others (a pattern the analyst pushed back). */
  constructor(private readonly isDeprioritised: (url: string) => boolean) {}

  /** Host ids by origin, adding the hosts not known yet. Outside a transaction, so a cached id always exists. */
  private async hostIdsFor(c: PgQuerier, origins: string[]): Promise<(origin: string) => number> {
    const missing = [...new Set(origins.filter((o) => !this.hostIds.has(o)))].sort();
    if (missing.length) {
      await c.query('INSERT INTO hosts (origin) SELECT unnest($1::text[]) ON CONFLICT (origin) DO NOTHING', [missing]);
      const { rows } = await c.query<{ id: number; origin: string }>('SELECT id, origin FROM hosts WHERE origin = ANY($1::text[])', [
        missing,
      ]);
      if (this.hostIds.size > HOST_ID_CACHE) this.hostIds.clear();
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
  async discover(c: PgQuerier, list: Enqueue[], at: number): Promise<{ ids: Map<string, number>; added: number }> {
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
    const hosts = await this.hostIdsFor(
      c,
      entries.map((e) => originOfCanonical(e.url)),
    );
    const hostOf = (url: string) => hosts(originOfCanonical(url));
    const queue = (e: Enqueue) => isQueued(e.candidate);
    const inserted = await c.query<{ id: number; url: string }>(
      `WITH inserted AS (
         INSERT INTO urls (url, host_id, depth, state, via_id, discovered_at, redirect_hops, kind, check_only, priority)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::smallint[], $5::bigint[], $6::bigint[], $7::int[], $8::text[], $9::smallint[], $10::smallint[])
         ON CONFLICT (url_md5) DO NOTHING RETURNING id, url, host_id, state
       ), ${countQueued(`SELECT host_id, count(*)::int AS n FROM inserted WHERE state = ${UrlState.queued} GROUP BY host_id`)}
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
        entries.map((e) => (this.isDeprioritised(e.url) ? 1 : 0)),
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
        const move = knownUrlMove({ state: row.state, checkOnly: row.check_only === 1 }, e.candidate);
        if (move === 'requeue') requeue.push({ id: row.id, e });
        else if (move === 'upgrade') upgrade.push({ id: row.id, depth: e.depth });
      }
      if (requeue.length) {
        const { rows: moved } = await c.query<{ n: number }>(
          `WITH moved AS (
             UPDATE urls u SET state = ${UrlState.queued}, depth = v.depth, kind = v.kind, check_only = v.check_only
             FROM unnest($1::bigint[], $2::int[], $3::text[], $4::smallint[]) AS v(id, depth, kind, check_only)
             WHERE u.id = v.id AND u.state IN (${UrlState.tooDeep}, ${UrlState.nofollow}) RETURNING u.host_id
           ), ${countQueued('SELECT host_id, count(*)::int AS n FROM moved GROUP BY host_id')}
           SELECT count(*)::int AS n FROM moved`,
          [
            requeue.map((r) => r.id),
            requeue.map((r) => r.e.depth),
            requeue.map((r) => r.e.candidate.kind),
            requeue.map((r) => (r.e.candidate.fate === 'check' ? 1 : 0)),
          ],
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
    return { ids, added };
  }
}
