// A large synthetic crawl in the PostgreSQL store, written straight into its tables by the server (INSERT ... SELECT
// over generate_series: nothing crosses the connection but the statements), for the plan checks and the timing of
// the store's views at a million URLs (electron/bench/pg-views-bench.ts, test/postgres/query-plans.test.ts). The
// shape of synthetic-crawl.ts's crawl file: 80% of the URLs fetched (mostly 200 HTML pages with titles,
// descriptions and headings, some missing or duplicated; redirects, 404s, 500s, rows without a response, images),
// 10% still queued (every 20th deprioritised, a few claimed under a lease), 10% never fetched (out of scope, too deep,
// nofollow), four links per page plus the home page's inlinks, response headers of a realistic size. Unlike the
// crawl file's one site, a cluster crawl spans hosts: half the URLs are the main site's, the rest spread over
// `hosts` others, a few large and many small. The hosts' counters are then set from the rows, as the nodes keep
// them. Deterministic for a given size.
import { splitSecrets } from '../../../shared/credentials.ts';
import { parseSettings } from '../../../shared/settings.ts';
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { PG_SCHEMA_VERSION, REGISTRY_DDL, crawlDdl, crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { SYNTHETIC_HEADERS } from './synthetic-crawl.ts';
import { SERP_PX_FUNCTION } from './pg-explorer.ts';
import { SERP_FONT_PX } from '../../../shared/serp-width.ts';

export interface PgSyntheticOptions {
  /** URLs in all (fetched, queued and never fetched). */
  urls: number;
  /** Hosts besides the main site. Default urls / 500, at least 10. */
  hosts?: number;
  /** fetched_at of the first result; results follow 2 ms apart (in the past: the controller counts recent ones). */
  startAt?: number;
}

export const PG_SYNTHETIC_ORIGIN = 'https://site.test';
/** Queued URLs among the first 20 x this many are claimed under a lease (state 1): 2 in 20, whatever the size. */
export const PG_SYNTHETIC_CLAIMED = 100;
/** Their lease, held by a node that never comes back: far in the future, so no sweep takes them back. */
const LEASED_UNTIL = 4_000_000_000_000;

/**
 * The statements that fill a crawl's tables (with its schema on the search_path). URL i (1..n) is, by i % 20:
 * 0-15 fetched, 16-17 queued (those below 20 x PG_SYNTHETIC_CLAIMED claimed), 18 out of scope, 19 too deep or
 * nofollow. Its host: the main site (1) for even i, else one of the others, skewed towards the first.
 */
function fillSql(n: number, hosts: number, startAt: number): string[] {
  const klass = 'i % 20';
  const fetched = `${klass} < 16`;
  // Hosts 2..hosts+1, the first ones much larger: floor(hosts * r^3) with r a hash of i in [0, 1).
  const hostOf = `CASE WHEN i % 2 = 0 THEN 1 ELSE 2 + floor(${hosts} * power(((i::bigint * 2654435761) % 1000003) / 1000003.0, 3))::int END`;
  const status = `CASE WHEN i % 300 = 1 THEN NULL WHEN i % 50 = 3 THEN 301 WHEN i % 30 = 7 THEN 404 WHEN i % 200 = 11 THEN 500 ELSE 200 END`;
  return [
    `INSERT INTO hosts (id, origin, robots_state, robots_status, crawl_delay_ms)
     SELECT h, CASE WHEN h = 1 THEN '${PG_SYNTHETIC_ORIGIN}' ELSE 'https://host-' || h || '.test' END, 2, 200, CASE WHEN h % 10 = 0 THEN 1000 ELSE 0 END
     FROM generate_series(1, ${hosts + 1}) h`,
    `SELECT setval(pg_get_serial_sequence('hosts', 'id'), ${hosts + 1})`,
    `INSERT INTO urls (id, url, host_id, depth, state, via_id, discovered_at, kind, check_only, priority, attempts, lease_node, lease_until)
     SELECT i, o.origin || '/' || (ARRAY['docs','blog','shop','news','help','about','forum','api'])[1 + i % 8] || '/g' || (i % 97) || '/page-' || i
              || CASE WHEN i % 25 = 13 THEN '.png' ELSE '' END,
            o.id, 1 + i % 7,
            CASE WHEN ${fetched} THEN (CASE WHEN i % 300 = 1 THEN 3 ELSE 2 END)
                 WHEN ${klass} < 18 THEN (CASE WHEN i < 20 * ${PG_SYNTHETIC_CLAIMED} THEN 1 ELSE 0 END)
                 WHEN ${klass} = 18 THEN 4 WHEN i % 40 = 19 THEN 5 ELSE 6 END,
            CASE WHEN i = 1 THEN NULL ELSE 1 + (i * 7) % (i - 1) END,
            ${startAt} + i, CASE WHEN i % 25 = 13 THEN 'image' ELSE 'page' END, CASE WHEN i % 25 = 13 THEN 1 ELSE 0 END,
            CASE WHEN ${klass} IN (16, 17) AND (i / 20) % 20 = 0 THEN 1 ELSE 0 END,
            CASE WHEN ${fetched} THEN 1 ELSE 0 END,
            CASE WHEN ${klass} IN (16, 17) AND i < 20 * ${PG_SYNTHETIC_CLAIMED} THEN 'synthetic' END,
            CASE WHEN ${klass} IN (16, 17) AND i < 20 * ${PG_SYNTHETIC_CLAIMED} THEN ${LEASED_UNTIL} END
     FROM generate_series(1, ${n}) i JOIN hosts o ON o.id = ${hostOf}`,
    `SELECT setval(pg_get_serial_sequence('urls', 'id'), ${n})`,
    `INSERT INTO results (url_id, status_code, content_type, size_bytes, response_time_ms, crawl_depth, title, meta_description, h1, h1_count,
       canonical, word_count, outlinks, redirect_url, error, attempts, meta_robots, fetched_at, indexability, indexability_reason, lang,
       response_headers, node, title_px, description_px, canonical_self)
     SELECT u.id, s.code,
            CASE WHEN s.code IS NULL THEN NULL WHEN u.kind = 'image' THEN 'image/png' ELSE 'text/html' END,
            CASE WHEN s.code IS NULL THEN NULL ELSE 2000 + (u.id * 37) % 90000 END,
            CASE WHEN s.code IS NULL THEN NULL ELSE 20 + (u.id * 13) % 1500 END,
            u.depth,
            t.title, t.description,
            CASE WHEN s.html AND u.id % 33 <> 0 THEN 'Heading ' || u.id END,
            CASE WHEN s.html THEN (CASE WHEN u.id % 33 = 0 THEN 0 WHEN u.id % 51 = 0 THEN 2 ELSE 1 END) END,
            CASE WHEN s.html AND u.id % 3 = 0 THEN u.url WHEN s.html AND u.id % 17 = 0 THEN u.url || '?canonical' END,
            CASE WHEN s.html THEN 100 + (u.id * 7) % 2000 END,
            CASE WHEN s.html THEN 4 ELSE 0 END,
            CASE WHEN s.code = 301 THEN u.url || '/' END,
            CASE WHEN s.code IS NULL THEN 'connect ECONNREFUSED' END,
            1,
            CASE WHEN s.html AND u.id % 90 = 0 THEN 'noindex' END,
            ${startAt} + 2 * u.id,
            CASE WHEN s.code IS NULL THEN NULL WHEN s.code = 200 AND NOT (s.html AND u.id % 90 = 0) THEN 'indexable' ELSE 'non-indexable' END,
            CASE WHEN s.code IS NULL OR (s.code = 200 AND NOT (s.html AND u.id % 90 = 0)) THEN NULL WHEN s.code = 200 THEN 'noindex'
                 WHEN s.code = 301 THEN 'redirected' ELSE 'client or server error' END,
            CASE WHEN s.html THEN 'en' END,
            CASE WHEN s.code IS NULL THEN NULL ELSE '${SYNTHETIC_HEADERS.replaceAll("'", "''")}' END,
            'synthetic',
            -- The widths a node records with each page (pg-writes.ts), by the function the explorer measures rows
            -- without them with (pg-explorer.ts).
            pg_temp.serp_px(t.title, ${SERP_FONT_PX.title}), pg_temp.serp_px(t.description, ${SERP_FONT_PX.description}),
            -- Whether the canonical above is the page's URL, as a node records it.
            CASE WHEN s.html AND u.id % 3 = 0 THEN 1 WHEN s.html AND u.id % 17 = 0 THEN 0 END
     FROM urls u CROSS JOIN LATERAL (SELECT ${status.replaceAll('i %', 'u.id %')} AS code) c
          CROSS JOIN LATERAL (SELECT c.code AS code, c.code = 200 AND u.kind = 'page' AS html) s
          CROSS JOIN LATERAL (SELECT
            CASE WHEN s.html AND u.id % 60 <> 0 THEN (CASE WHEN u.id % 40 = 0 THEN 'Duplicate title' WHEN u.id % 70 = 0 THEN repeat('A very long title ', 6) ELSE 'Page ' || u.id END) END AS title,
            CASE WHEN s.html AND u.id % 45 <> 0 THEN 'About page ' || u.id || ' of the synthetic site' END AS description) t
     WHERE u.state IN (2, 3) ORDER BY u.id`,
    // Four links per HTML page to URLs a fifth of the crawl apart (distinct by construction), and every 10th page
    // links the home page.
    `INSERT INTO links (from_id, to_id, anchor, kind, nofollow)
     SELECT r.url_id, 1 + (r.url_id + k * ${Math.max(1, Math.floor(n / 5))}) % ${n}, 'link ' || k, 'a', CASE WHEN k = 4 AND r.url_id % 19 = 0 THEN 1 ELSE 0 END
     FROM results r CROSS JOIN generate_series(1, 4) k WHERE r.outlinks > 0
     UNION ALL
     SELECT r.url_id, 1, 'Home', 'a', 0 FROM results r WHERE r.outlinks > 0 AND r.url_id % 10 = 0 AND r.url_id > 1
     ON CONFLICT DO NOTHING`,
    // The hosts' counters, as the nodes keep them while they record.
    `UPDATE hosts h SET queued = c.queued, in_flight = c.in_flight, crawled = c.crawled, failed = c.failed, http_errors = c.http_errors,
            bytes = c.bytes, next_fetch_at = (h.id % 50) * 1000, last_fetch_ms = 20 + h.id % 400
     FROM (SELECT u.host_id, count(*) FILTER (WHERE u.state = 0) AS queued, count(*) FILTER (WHERE u.state = 1) AS in_flight,
                  count(r.status_code) AS crawled, count(*) FILTER (WHERE u.state = 3) AS failed,
                  count(*) FILTER (WHERE r.status_code >= 400) AS http_errors, coalesce(sum(r.size_bytes), 0) AS bytes
           FROM urls u LEFT JOIN results r ON r.url_id = u.id GROUP BY u.host_id) c
     WHERE c.host_id = h.id`,
  ];
}

export interface PgSyntheticCrawl {
  crawlId: string;
  counts: { urls: number; results: number; links: number; queued: number; hosts: number };
}

/**
 * Creates crawl `crawlId` in the store (its registry row and schema, as createPgCrawl does, without a node) and fills
 * it; then VACUUM ANALYZE, as autovacuum does to a crawl's tables while it runs. `c` must not be in a transaction.
 */
export async function buildPgSyntheticCrawl(c: PgQuerier, crawlId: string, options: PgSyntheticOptions): Promise<PgSyntheticCrawl> {
  const n = options.urls;
  const hosts = options.hosts ?? Math.max(10, Math.floor(n / 500));
  const startAt = options.startAt ?? 1_700_000_000_000;
  const schema = crawlSchema(crawlId);
  const settings = parseSettings({ seeds: [`${PG_SYNTHETIC_ORIGIN}/`], threads: 10 });
  await c.query('BEGIN');
  try {
    await c.query(REGISTRY_DDL);
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.query('DELETE FROM trawl.crawls WHERE id = $1', [crawlId]);
    await c.query('INSERT INTO trawl.crawls (id, schema_version, settings, threads, lease_ms) VALUES ($1, $2, $3, $4, $5)', [
      crawlId,
      PG_SCHEMA_VERSION,
      JSON.stringify(splitSecrets(settings).settings),
      settings.threads,
      30_000,
    ]);
    await c.query(crawlDdl(schema));
    await c.query('SET LOCAL synchronous_commit = off');
    await c.query("SET LOCAL maintenance_work_mem = '256MB'");
    await c.query(SERP_PX_FUNCTION);
    for (const sql of fillSql(n, hosts, startAt)) await c.query(sql);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  for (const table of ['hosts', 'urls', 'results', 'links']) await c.query(`VACUUM ANALYZE ${schema}.${table}`);
  const { rows } = await c.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM ${schema}.urls) AS urls, (SELECT count(*) FROM ${schema}.results) AS results,
            (SELECT count(*) FROM ${schema}.links) AS links, (SELECT count(*) FROM ${schema}.urls WHERE state = 0) AS queued,
            (SELECT count(*) FROM ${schema}.hosts) AS hosts`,
  );
  const r = rows[0]!;
  return {
    crawlId,
    counts: { urls: +r.urls!, results: +r.results!, links: +r.links!, queued: +r.queued!, hosts: +r.hosts! },
  };
}
