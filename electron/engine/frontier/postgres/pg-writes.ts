// What recording writes to the PostgreSQL store, in batches (one statement per table for a whole batch, with unnest):
// results rows, the link graph, rendered pages' renders rows, pages' unfetchable links and extracted values, and what a
// batch did to its hosts.
import type { SocialTagRow, StructuredDataRow } from '../structured-rows.ts';
import { HELD } from '../model.ts';
import { type contentRowOf, RENDER_COLUMNS, RESULT_COLUMNS, SECURITY_COLUMNS, type ResultRow } from '../page-outcome.ts';
import type { PgQuerier } from './pg-client.ts';
import { descriptionPixelWidth, titlePixelWidth } from '../../../../shared/serp-width.ts';

const RESULT_FIELDS = Object.keys(RESULT_COLUMNS) as (keyof typeof RESULT_COLUMNS)[];
/** PostgreSQL array types of the results columns, for inserting a batch of rows with unnest. */
const RESULT_TYPES: Record<keyof typeof RESULT_COLUMNS, string> = {
  urlId: 'bigint',
  statusCode: 'int',
  contentType: 'text',
  sizeBytes: 'bigint',
  responseTimeMs: 'int',
  depth: 'int',
  title: 'text',
  metaDescription: 'text',
  h1: 'text',
  canonical: 'text',
  wordCount: 'int',
  outlinks: 'int',
  redirectUrl: 'text',
  error: 'text',
  attempts: 'int',
  metaRobots: 'text',
  xRobotsTag: 'text',
  robotsDisallowed: 'int',
  at: 'bigint',
  h1Count: 'int',
  h2: 'text',
  h2Count: 'int',
  lang: 'text',
  hreflang: 'text',
  metaRefresh: 'text',
  indexability: 'text',
  indexabilityReason: 'text',
  responseHeaders: 'text',
};
// The title's and description's widths in a search result go with each row (measured here, once per page): the
// explorer's pixel filters read them rather than measure every title in SQL at each count.
const n = RESULT_FIELDS.length;
// So does whether its canonical names the page itself (canonical_self), compared with the page's URL here.
const INSERT_RESULTS = `INSERT INTO results (${RESULT_FIELDS.map((f) => RESULT_COLUMNS[f]).join(', ')}, title_px, description_px,
    canonical_self, node)
  SELECT *, $${n + 4}::text FROM unnest(${RESULT_FIELDS.map((f, i) => `$${i + 1}::${RESULT_TYPES[f]}[]`).join(', ')},
    $${n + 1}::float8[], $${n + 2}::float8[], $${n + 3}::smallint[])
  ON CONFLICT (url_id) DO NOTHING`;

/**
 * Writes gathered to go to the server as one statement, each a data-modifying part of its WITH, instead of a round
 * trip each: a batch's results, content, links and the like are independent of one another, and a node waited on
 * the round trips (one connection carries its claims and its records in turn; each statement also wakes a server
 * process). The writers take `querier` as their connection and are sent by `send`; their answers are not read.
 * Only writes whose answers nobody reads, and none that must see another's rows (the parts share one snapshot).
 */
export class WriteGroup {
  private readonly parts: { text: string; values: unknown[] }[] = [];
  readonly querier = {
    query: (text: string, values: unknown[] = []) => {
      this.parts.push({ text, values });
      return Promise.resolve({ rows: [], rowCount: 0 });
    },
  } as unknown as PgQuerier;

  /** Sends what was gathered (nothing when nothing was), as one statement on `c`. */
  async send(c: PgQuerier): Promise<void> {
    const parts = this.parts.splice(0);
    if (parts.length === 0) return;
    if (parts.length === 1) {
      await c.query(parts[0]!.text, parts[0]!.values);
      return;
    }
    const values: unknown[] = [];
    const withs = parts.map((part, k) => {
      const offset = values.length;
      values.push(...part.values);
      return `w${k} AS (${part.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
    });
    await c.query(`WITH ${withs.join(',\n')}\nSELECT 1`, values);
  }
}

/** What a batch of records does to one host. */
export interface HostDelta {
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

/** A host's delta before anything is added to it. */
export function emptyHostDelta(): HostDelta {
  return { inFlight: 0, queued: 0, crawled: 0, failed: 0, httpErrors: 0, bytes: 0, next: 0, lastFetchMs: null, backoff: 0 };
}

/** The first of each item with the same key, in order. */
function uniqueBy<T>(list: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Inserts results rows, each marked with the node that recorded it. `pageUrls[i]`: the URL of rows[i]'s page, which
 * a row with a canonical needs (a row without one, an error's, needs none).
 */
export function insertResults(c: PgQuerier, rows: ResultRow[], node: string, pageUrls: readonly string[] = []): Promise<unknown> {
  return c.query(INSERT_RESULTS, [
    ...RESULT_FIELDS.map((f) => rows.map((r) => r[f])),
    rows.map((r) => (typeof r.title === 'string' ? titlePixelWidth(r.title) : null)),
    rows.map((r) => (typeof r.metaDescription === 'string' ? descriptionPixelWidth(r.metaDescription) : null)),
    rows.map((r, i) => canonicalSelf(r.canonical, pageUrls[i])),
    node,
  ]);
}

/** results.canonical_self of a row: 1 when its canonical is its page's URL, 0 when another, null without one. */
function canonicalSelf(canonical: unknown, pageUrl: string | undefined): 0 | 1 | null {
  if (canonical === null || canonical === undefined) return null;
  if (pageUrl === undefined) throw new Error('a results row with a canonical needs its page URL');
  return canonical === pageUrl ? 1 : 0;
}

/** A row of the link graph to write: its target by URL (ids maps it), and whether only the rendered DOM has it. */
export interface LinkRow {
  from: number;
  url: string;
  anchor: string | null;
  kind: string;
  nofollow: boolean;
  rendered: boolean;
}

/** The link graph's rows: one per linking page and target, the first anchor seen winning (as the crawl file's). */
export async function insertLinks(c: PgQuerier, links: LinkRow[], ids: Map<string, number>): Promise<void> {
  if (links.length === 0) return;
  const rows = uniqueBy(
    links.map((l) => ({ ...l, to: ids.get(l.url)! })),
    (l) => `${l.from} ${l.to}`,
  );
  await c.query(
    `INSERT INTO links (from_id, to_id, anchor, kind, nofollow, rendered)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::int[]) ON CONFLICT DO NOTHING`,
    [
      rows.map((l) => l.from),
      rows.map((l) => l.to),
      rows.map((l) => l.anchor),
      rows.map((l) => l.kind),
      rows.map((l) => (l.nofollow ? 1 : 0)),
      rows.map((l) => (l.rendered ? 1 : 0)),
    ],
  );
}

const INSERT_RENDERS = `INSERT INTO renders (${RENDER_COLUMNS.map(([name]) => name).join(', ')})
  SELECT * FROM unnest(${RENDER_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
  ON CONFLICT (url_id) DO NOTHING`;

/** Rendered pages' renders rows (renderRowOf's, in RENDER_COLUMNS' order), beside their results rows. */
export async function insertRenders(c: PgQuerier, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  await c.query(
    INSERT_RENDERS,
    RENDER_COLUMNS.map((_, i) => rows.map((r) => r[i])),
  );
}

/** Parsed pages' content rows (contentRowOf's: url_id, main_words, text_hash, minhash, text), issue 18.1. */
export async function insertContent(c: PgQuerier, rows: NonNullable<ReturnType<typeof contentRowOf>>[]): Promise<void> {
  if (rows.length === 0) return;
  await c.query(
    `INSERT INTO content (url_id, main_words, text_hash, minhash, text)
     SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::bytea[], $5::text[]) ON CONFLICT (url_id) DO NOTHING`,
    [
      ...[0, 1, 2, 3].map((i) => rows.map((r) => r[i])),
      // The text comes as its UTF-8 bytes (ContentOnWire); the statement takes text.
      rows.map((r) => r[4]?.toString('utf8') ?? null),
    ],
  );
}

/** Links a page has that can never be fetched (mailto:, tel:...), as written. */
export async function insertUnfetchable(
  c: PgQuerier,
  links: { from: number; href: string; scheme: string; anchor: string | null }[],
): Promise<void> {
  if (links.length === 0) return;
  const u = uniqueBy(links, (l) => `${l.from} ${l.href}`);
  await c.query(
    'INSERT INTO unfetchable_links (from_id, href, scheme, anchor) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING',
    [u.map((l) => l.from), u.map((l) => l.href), u.map((l) => l.scheme), u.map((l) => l.anchor)],
  );
}

/** One use of an image on a page (issue 18.3), for insertImageUses. */
export interface ImageUseRow {
  page: number;
  url: string;
  alt: string | null;
  altLen: number | null;
  width: string | null;
  height: string | null;
}

/** Pages' image uses: the image URLs' rows made where missing (by md5, as urls), then the uses. */
export async function insertImageUses(c: PgQuerier, uses: ImageUseRow[]): Promise<void> {
  if (uses.length === 0) return;
  await c.query('INSERT INTO images (url) SELECT DISTINCT unnest($1::text[]) ON CONFLICT (url_md5) DO NOTHING', [
    [...new Set(uses.map((u) => u.url))],
  ]);
  await c.query(
    `INSERT INTO image_uses (page_id, image_id, alt, alt_len, width, height)
     SELECT v.page_id, i.id, v.alt, v.alt_len, v.width, v.height
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[]) WITH ORDINALITY AS v(page_id, url, alt, alt_len, width, height, n)
     JOIN images i ON i.url_md5 = md5(v.url)::uuid ORDER BY v.n`,
    [
      uses.map((u) => u.page),
      uses.map((u) => u.url),
      uses.map((u) => u.alt),
      uses.map((u) => u.altLen),
      uses.map((u) => u.width),
      uses.map((u) => u.height),
    ],
  );
}

/** The values custom extraction rules found on pages. */
export async function insertExtracted(c: PgQuerier, extracted: { urlId: number; rule: string; n: number; value: string }[]): Promise<void> {
  if (extracted.length === 0) return;
  await c.query(
    'INSERT INTO extracted (url_id, rule, n, value) SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::text[]) ON CONFLICT DO NOTHING',
    [extracted.map((e) => e.urlId), extracted.map((e) => e.rule), extracted.map((e) => e.n), extracted.map((e) => e.value)],
  );
}

/**
 * Applies what a batch did to its hosts in one statement: counters, queue and in-flight counts; a host held for
 * its one fetch reopens at its politeness time; a retry pushes its next fetch back. `notice`: a notification (channel,
 * payload) the same statement sends, delivered at commit as pg_notify's always are (one round trip fewer a batch).
 */
export async function updateHosts(c: PgQuerier, hosts: Map<number, HostDelta>, notice?: readonly [string, string]): Promise<void> {
  if (hosts.size === 0) return;
  const ids = [...hosts.keys()].sort((a, b) => a - b);
  const d = ids.map((id) => hosts.get(id)!);
  // The rows locked in id order first, as discovery's counts are (pg-discover.ts countQueued): an UPDATE ... FROM
  // locks them in its join's order, and two nodes' batches over the same hosts deadlocked.
  await c.query(
    `WITH locked AS (SELECT id FROM hosts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE),
     updated AS (UPDATE hosts h SET in_flight = greatest(h.in_flight + v.in_flight, 0), queued = h.queued + v.queued, crawled = h.crawled + v.crawled,
       failed = h.failed + v.failed, http_errors = h.http_errors + v.http_errors, bytes = h.bytes + v.bytes,
       next_fetch_at = greatest(CASE WHEN h.next_fetch_at >= ${HELD} AND v.in_flight < 0 THEN greatest(v.next, h.fetch_due) ELSE h.next_fetch_at END, v.backoff),
       last_fetch_ms = coalesce(v.last_fetch_ms, h.last_fetch_ms)
     FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::bigint[], $8::bigint[], $9::int[], $10::bigint[])
       AS v(id, in_flight, queued, crawled, failed, http_errors, bytes, next, last_fetch_ms, backoff)
     WHERE h.id = v.id AND h.id IN (SELECT id FROM locked))
     SELECT CASE WHEN $11::text IS NULL THEN NULL ELSE pg_notify($11::text, $12::text) END`,
    [
      ids,
      d.map((x) => x.inFlight),
      d.map((x) => x.queued),
      d.map((x) => x.crawled),
      d.map((x) => x.failed),
      d.map((x) => x.httpErrors),
      d.map((x) => x.bytes),
      d.map((x) => x.next),
      d.map((x) => x.lastFetchMs),
      d.map((x) => x.backoff),
      notice?.[0] ?? null,
      notice?.[1] ?? null,
    ],
  );
}

// Issue 18.4: a batch's structured data items and social tags (a page fetched again replaces its rows by place).
export async function insertStructuredData(c: PgQuerier, rows: StructuredDataRow[]): Promise<void> {
  if (rows.length === 0) return;
  await c.query(
    `INSERT INTO structured_data (url_id, n, format, types, error)
     SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[])
     ON CONFLICT (url_id, n) DO UPDATE SET format = excluded.format, types = excluded.types, error = excluded.error`,
    [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3]), rows.map((r) => r[4])],
  );
}

export async function insertSocialTags(c: PgQuerier, rows: SocialTagRow[]): Promise<void> {
  if (rows.length === 0) return;
  await c.query(
    `INSERT INTO social_tags (url_id, n, property, content) SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[])
     ON CONFLICT (url_id, n) DO UPDATE SET property = excluded.property, content = excluded.content`,
    [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
  );
}

// Security and hreflang (issue 18.5): the rows page-outcome.ts's securityRowOf and hreflangRowsOf give, as the crawl file's.
const INSERT_SECURITY = `INSERT INTO security (${SECURITY_COLUMNS.map(([name]) => name).join(', ')})
  SELECT * FROM unnest(${SECURITY_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
  ON CONFLICT (url_id) DO NOTHING`;

export async function insertSecurity(c: PgQuerier, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  await c.query(
    INSERT_SECURITY,
    SECURITY_COLUMNS.map((_, i) => rows.map((r) => r[i])),
  );
}

export async function insertHreflang(c: PgQuerier, rows: [number, number, string, number][]): Promise<void> {
  if (rows.length === 0) return;
  const u = uniqueBy(rows, (r) => `${r[0]} ${r[1]} ${r[2]}`);
  await c.query(
    'INSERT INTO hreflang (url_id, target_id, lang, valid) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::int[]) ON CONFLICT DO NOTHING',
    [u.map((r) => r[0]), u.map((r) => r[1]), u.map((r) => r[2]), u.map((r) => r[3])],
  );
}
