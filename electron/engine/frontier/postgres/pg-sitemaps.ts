// XML sitemaps in the PostgreSQL store (issue 19): a cluster crawl's queue of sitemaps and what each one read lists,
// as the crawl file's (sqlite/frontier.ts queueSitemap and storeSitemap), in batched statements. Claiming them is
// pg-claim.ts's, their leases pg-cluster.ts's, as for URLs.
import type { SitemapFetchResult } from '../../../../shared/protocol.ts';
import { originOfCanonical } from '../../../../shared/url/url-key.ts';
import { MAX_SITEMAP_DEPTH, MAX_SITEMAPS, SitemapState } from '../model.ts';
import type { PgQuerier } from './pg-client.ts';

/** Where a sitemap was found: robots.txt, /sitemap.xml of a seed's host, the settings, or a sitemap index. */
export type SitemapSource = 'robots' | 'guess' | 'given' | 'index';

/** A sitemap to queue, its URL in the crawl's normal form. */
export interface SitemapToQueue {
  url: string;
  source: SitemapSource;
  parentId: number | null;
  depth: number;
}

/**
 * Queues sitemaps, once per URL. Past MAX_SITEMAPS in the crawl, or nested deeper than MAX_SITEMAP_DEPTH indexes, one
 * is recorded as not read with the reason, and past that nothing more is recorded, as in a crawl file: an index naming
 * thousands of sitemaps stays bounded. Two nodes queueing at the same moment may together pass the bound by what they
 * queue at that moment (each counts what is committed). Returns how many were queued to read.
 */
export async function queueSitemaps(c: PgQuerier, list: readonly SitemapToQueue[], at: number): Promise<number> {
  if (list.length === 0) return 0;
  const unique = [...new Map(list.map((s) => [s.url, s])).values()];
  const { rows: counted } = await c.query<{ n: number; known: string[] }>(
    `SELECT (SELECT count(*)::int FROM sitemaps) AS n,
       (SELECT coalesce(array_agg(url), '{}') FROM sitemaps WHERE url_md5 IN (SELECT md5(u)::uuid FROM unnest($1::text[]) AS u)) AS known`,
    [unique.map((s) => s.url)],
  );
  const known = new Set(counted[0]!.known);
  let n = counted[0]!.n;
  const rows: (SitemapToQueue & { refused: string | null })[] = [];
  for (const s of unique) {
    if (known.has(s.url)) continue;
    if (n > MAX_SITEMAPS) break;
    const refused =
      n === MAX_SITEMAPS
        ? `not read: over ${MAX_SITEMAPS} sitemaps in the crawl`
        : s.depth > MAX_SITEMAP_DEPTH
          ? 'not read: sitemap indexes nested too deep'
          : null;
    rows.push({ ...s, refused });
    n++;
  }
  if (rows.length === 0) return 0;
  const origins = rows.map((r) => originOfCanonical(r.url));
  await c.query('INSERT INTO hosts (origin) SELECT unnest($1::text[]) ON CONFLICT (origin) DO NOTHING', [[...new Set(origins)].sort()]);
  // The queued ones counted on their hosts in the same statement, the hosts' rows locked in id order first (as
  // pg-discover.ts's countQueued, for the same deadlock).
  const { rows: queued } = await c.query<{ n: number }>(
    `WITH v AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::smallint[], $7::text[])
         WITH ORDINALITY AS v(url, origin, source, parent_id, depth, state, error, n)
     ), inserted AS (
       INSERT INTO sitemaps (url, host_id, source, parent_id, depth, state, error, discovered_at)
       SELECT v.url, h.id, v.source, v.parent_id, v.depth, v.state, v.error, $8
       FROM v JOIN hosts h ON h.origin = v.origin ORDER BY v.n
       ON CONFLICT (url_md5) DO NOTHING RETURNING host_id, state
     ), n AS (SELECT host_id, count(*)::int AS n FROM inserted WHERE state = ${SitemapState.queued} GROUP BY host_id),
     locked AS (SELECT h.id FROM hosts h WHERE h.id IN (SELECT host_id FROM n) ORDER BY h.id FOR UPDATE),
     counted AS (
       UPDATE hosts h SET queued = h.queued + n.n, sitemaps_queued = h.sitemaps_queued + n.n
       FROM n WHERE h.id = n.host_id AND h.id IN (SELECT id FROM locked)
     )
     SELECT coalesce(sum(n), 0)::int AS n FROM n`,
    [
      rows.map((r) => r.url),
      origins,
      rows.map((r) => r.source),
      rows.map((r) => r.parentId),
      rows.map((r) => r.depth),
      rows.map((r) => (r.refused === null ? SitemapState.queued : SitemapState.failed)),
      rows.map((r) => r.refused),
      at,
    ],
  );
  return queued[0]!.n;
}

/** A read sitemap's row: what it is, what it held, and whether it was over the protocol's limits. */
export async function finishSitemap(c: PgQuerier, sitemapId: number, result: SitemapFetchResult, at: number): Promise<void> {
  await c.query(
    `UPDATE sitemaps SET state = $1, kind = $2, status_code = $3, url_count = $4, invalid_count = $5, over_url_limit = $6,
       over_size_limit = $7, size_bytes = $8, response_time_ms = $9, error = $10, fetched_at = $11, lease_node = NULL, lease_until = NULL
     WHERE id = $12`,
    [
      result.format !== null ? SitemapState.done : SitemapState.failed,
      result.format,
      result.statusCode,
      result.urls.length,
      result.invalid,
      result.overUrlLimit ? 1 : 0,
      result.overSizeLimit ? 1 : 0,
      result.sizeBytes,
      Math.round(result.responseTimeMs),
      result.error,
      at,
      sitemapId,
    ],
  );
}

/** Which sitemap listed which URL (url ids from discovery), with the entry's lastmod and hreflang alternates. */
export async function insertSitemapUrls(
  c: PgQuerier,
  sitemapId: number,
  entries: readonly { urlId: number; lastmod: string | null; hreflang: string | null }[],
): Promise<void> {
  if (entries.length === 0) return;
  await c.query(
    `INSERT INTO sitemap_urls (url_id, sitemap_id, lastmod, hreflang)
     SELECT v.url_id, $1, v.lastmod, v.hreflang FROM unnest($2::bigint[], $3::text[], $4::text[]) AS v(url_id, lastmod, hreflang)
     ON CONFLICT DO NOTHING`,
    [sitemapId, entries.map((e) => e.urlId), entries.map((e) => e.lastmod), entries.map((e) => e.hreflang)],
  );
}
