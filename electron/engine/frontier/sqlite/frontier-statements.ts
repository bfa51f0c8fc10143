// The SQLite frontier's statements, prepared once per crawl file connection: what claiming, recording and giving
// work back read and write in the urls, hosts, results and link tables (frontier.ts runs them in its transactions).
import type { Db } from './crawl-file.ts';
import { HELD, RobotsState, SitemapState, UrlState, type HostRow, type UrlKindName } from '../model.ts';
import { RENDER_COLUMNS, SECURITY_COLUMNS } from '../page-outcome.ts';

/** The queries claiming runs, exported so a test can check that SQLite answers them from indexes alone. */
export const CLAIM_SQL = {
  readyHosts: `SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms, last_fetch_ms, in_flight FROM hosts
    WHERE queued > 0 AND next_fetch_at <= ? ORDER BY next_fetch_at, id LIMIT ?`,
  nextReady: 'SELECT min(next_fetch_at) AS at FROM hosts WHERE queued > 0',
  queuedOfHost:
    'SELECT id, url, depth, redirect_hops AS hops, kind, check_only AS checkOnly FROM urls WHERE host_id = ? AND state = 0 ORDER BY priority, id LIMIT ?',
} as const;

/** The frontier's prepared statements on `db`. */
export function prepareFrontierStatements(db: Db) {
  return {
    urlsByKey: db.prepare<[number], { id: number; state: number; url: string; checkOnly: number }>(
      'SELECT id, state, url, check_only AS checkOnly FROM urls WHERE url_key = ?',
    ),
    insertUrl: db.prepare(
      'INSERT INTO urls (url, url_key, host_id, depth, state, via_id, discovered_at, redirect_hops, kind, check_only, priority) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    requeue: db.prepare(`UPDATE urls SET state = ${UrlState.queued}, depth = ?, kind = ?, check_only = ? WHERE id = ?`),
    upgradeQueued: db.prepare(
      `UPDATE urls SET depth = min(depth, ?), kind = 'page', check_only = 0 WHERE id = ? AND state = ${UrlState.queued}`,
    ),
    hostByOrigin: db.prepare<[string], { id: number }>('SELECT id FROM hosts WHERE origin = ?'),
    insertHost: db.prepare('INSERT INTO hosts (origin) VALUES (?)'),
    host: db.prepare<[number], HostRow>(
      'SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms FROM hosts WHERE id = ?',
    ),
    // A host's clock, for a fetch slot taken outside the frontier (reserveFetch).
    hostClock: db.prepare<[number], HostRow & { next_fetch_at: number }>(
      'SELECT id, origin, robots_state, robots_status, robots_txt, robots_error, crawl_delay_ms, last_fetch_ms, next_fetch_at FROM hosts WHERE id = ?',
    ),
    setNextFetch: db.prepare('UPDATE hosts SET next_fetch_at = ? WHERE id = ?'),
    hostQueued: db.prepare('UPDATE hosts SET queued = queued + ? WHERE id = ?'),
    readyHosts: db.prepare<[number, number], HostRow>(CLAIM_SQL.readyHosts),
    nextReady: db.prepare<[], { at: number | null }>(CLAIM_SQL.nextReady),
    queuedOfHost: db.prepare<
      [number, number],
      { id: number; url: string; depth: number; hops: number; kind: UrlKindName; checkOnly: number }
    >(CLAIM_SQL.queuedOfHost),
    chainLink: db.prepare<[number], { url: string; via: number | null; hops: number }>(
      'SELECT url, via_id AS via, redirect_hops AS hops FROM urls WHERE id = ?',
    ),
    setUrlState: db.prepare('UPDATE urls SET state = ? WHERE id = ?'),
    claimFromHost: db.prepare('UPDATE hosts SET queued = queued - ?, in_flight = in_flight + ?, next_fetch_at = ? WHERE id = ?'),
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
    insertLink: db.prepare('INSERT OR IGNORE INTO links (from_id, to_id, anchor, kind, nofollow, rendered) VALUES (?, ?, ?, ?, ?, ?)'),
    insertRender: db.prepare(
      `INSERT OR REPLACE INTO renders (${RENDER_COLUMNS.map(([c]) => c).join(', ')}) VALUES (${RENDER_COLUMNS.map(() => '?').join(', ')})`,
    ),
    // Security and hreflang (issue 18.5).
    insertSecurity: db.prepare(
      `INSERT OR REPLACE INTO security (${SECURITY_COLUMNS.map(([c]) => c).join(', ')}) VALUES (${SECURITY_COLUMNS.map(() => '?').join(', ')})`,
    ),
    insertHreflang: db.prepare('INSERT OR IGNORE INTO hreflang (url_id, target_id, lang, valid) VALUES (?, ?, ?, ?)'),
    // Duplicate content (issue 18.1): a parsed page's main text fingerprint.
    insertContent: db.prepare(
      'INSERT OR REPLACE INTO content (url_id, main_words, text_hash, minhash, text) VALUES (?, ?, ?, ?, CAST(? AS TEXT))',
    ),
    insertExtracted: db.prepare('INSERT OR IGNORE INTO extracted (url_id, rule, n, value) VALUES (?, ?, ?, ?)'),
    // Images (issue 18.3): an image URL's row by key, and a page's uses of it.
    imagesByKey: db.prepare<[number], { id: number; url: string }>('SELECT id, url FROM images WHERE url_key = ?'),
    insertImage: db.prepare('INSERT INTO images (url, url_key) VALUES (?, ?)'),
    insertImageUse: db.prepare('INSERT INTO image_uses (page_id, image_id, alt, alt_len, width, height) VALUES (?, ?, ?, ?, ?, ?)'),
    // Issue 18.4: structured data and social tags (a page fetched again replaces its rows by place).
    insertStructuredData: db.prepare('INSERT OR REPLACE INTO structured_data (url_id, n, format, types, error) VALUES (?, ?, ?, ?, ?)'),
    insertSocialTag: db.prepare('INSERT OR REPLACE INTO social_tags (url_id, n, property, content) VALUES (?, ?, ?, ?)'),
    insertUnfetchable: db.prepare('INSERT OR IGNORE INTO unfetchable_links (from_id, href, scheme, anchor) VALUES (?, ?, ?, ?)'),
    crashUrl: db.prepare('UPDATE urls SET crashes = crashes + 1 WHERE id = ? RETURNING crashes'),
    countAttempt: db.prepare<[number], { attempts: number }>('UPDATE urls SET attempts = attempts + 1 WHERE id = ? RETURNING attempts'),
    // A host that failed waits: its next fetch no sooner than the retry delay (never sooner than already due).
    backoffHost: db.prepare('UPDATE hosts SET next_fetch_at = max(next_fetch_at, ?) WHERE id = ?'),
    // The hosts report's counters, kept with each results row so the report never aggregates over results.
    countFetch: db.prepare(
      'UPDATE hosts SET crawled = crawled + ?, failed = failed + ?, http_errors = http_errors + ?, bytes = bytes + ? WHERE id = ?',
    ),
    // Sitemaps (issue 17): their own queue per host (sitemaps_queue), counted in hosts.queued like URLs.
    insertSitemap: db.prepare(
      `INSERT INTO sitemaps (url, host_id, source, parent_id, depth, state, discovered_at, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(url) DO NOTHING`,
    ),
    sitemapCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sitemaps'),
    queuedSitemapsOfHost: db.prepare<[number, number], { id: number; url: string }>(
      `SELECT id, url FROM sitemaps WHERE host_id = ? AND state = ${SitemapState.queued} ORDER BY id LIMIT ?`,
    ),
    setSitemapState: db.prepare('UPDATE sitemaps SET state = ? WHERE id = ?'),
    sitemapDepth: db.prepare<[number], { depth: number }>('SELECT depth FROM sitemaps WHERE id = ?'),
    failSitemap: db.prepare(`UPDATE sitemaps SET state = ${SitemapState.failed}, error = ?, fetched_at = ? WHERE id = ?`),
    crashSitemap: db.prepare<[number], { crashes: number }>('UPDATE sitemaps SET crashes = crashes + 1 WHERE id = ? RETURNING crashes'),
    finishSitemap: db.prepare(
      `UPDATE sitemaps SET state = @state, kind = @kind, status_code = @statusCode, url_count = @urlCount, invalid_count = @invalid,
        over_url_limit = @overUrls, over_size_limit = @overSize, size_bytes = @sizeBytes, response_time_ms = @responseTimeMs,
        error = @error, fetched_at = @at WHERE id = @id`,
    ),
    insertSitemapUrl: db.prepare('INSERT OR IGNORE INTO sitemap_urls (url_id, sitemap_id, lastmod, hreflang) VALUES (?, ?, ?, ?)'),
  };
}

export type FrontierStatements = ReturnType<typeof prepareFrontierStatements>;
