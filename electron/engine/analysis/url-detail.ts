// The detail pane of one URL: its row, response headers, the redirect chain through it, inlinks and outlinks
// (paged by key), the links on it no crawler can fetch, and its custom-extraction values. Every query is a lookup
// by key (urls.id, url_key, links' primary key and links_to, extracted's primary key): the cost depends on this
// URL's links, not on the size of the crawl.
import { makeNormaliser } from '../../../shared/url/normalise.ts';
import { urlKey } from '../../../shared/url/url-key.ts';
import { readStoredSettings, type Db } from '../frontier/sqlite/crawl-file.ts';
import { UrlState } from '../frontier/model.ts';
import type {
  ExtractedValues,
  Inlink,
  LinkPage,
  Outlink,
  RedirectChain,
  RedirectHop,
  UnfetchableLink,
  UrlDetail,
  UrlRef,
} from '../../../shared/analysis.ts';
import { URL_ROW_COLUMNS, type FilteredRow } from './result-filters.ts';
import { checkLimit, indexedBy, prepared, readTransaction } from './sql.ts';

/** Redirect hops followed each way from the URL at most. */
export const MAX_CHAIN_HOPS = 20;
/** Links listed per page when no limit is given. */
export const DEFAULT_LINKS_PAGE = 100;
/** Unfetchable links and redirect sources listed at most. */
export const MAX_LISTED = 1000;

export const STATE_NAMES: Record<number, string> = {
  [UrlState.queued]: 'queued',
  [UrlState.claimed]: 'in flight',
  [UrlState.done]: 'fetched',
  [UrlState.failed]: 'failed',
  [UrlState.outOfScope]: 'out of scope',
  [UrlState.tooDeep]: 'too deep',
  [UrlState.nofollow]: 'nofollow only',
  [UrlState.redirectCut]: 'redirect chain cut',
};

interface UrlRow {
  id: number;
  url: string;
  state: number;
  kind: string;
  depth: number;
  check_only: number;
  discovered_at: number;
  via_id: number | null;
}

/** The detail pane's queries on this connection (with the index each is built on), exported for plan checks. */
export function detailSql(db: Db) {
  return {
    byKey: `SELECT id, url FROM urls ${indexedBy(db, 'urls_key')} WHERE url_key = ?`,
    inlinks: `SELECT l.from_id, f.url AS from_url, l.anchor, l.kind, l.nofollow FROM links l ${indexedBy(db, 'links_to')}
       JOIN urls f ON f.id = l.from_id WHERE l.to_id = ? AND l.from_id > ? ORDER BY l.from_id LIMIT ?`,
    inlinkCount: `SELECT count(*) AS total FROM links ${indexedBy(db, 'links_to')} WHERE to_id = ?`,
    outlinks: `SELECT l.to_id, t.url AS to_url, l.anchor, l.kind, l.nofollow, t.state, tr.status_code
       FROM links l JOIN urls t ON t.id = l.to_id LEFT JOIN results tr ON tr.url_id = t.id
       WHERE l.from_id = ? AND l.to_id > ? ORDER BY l.to_id LIMIT ?`,
    outlinkCount: 'SELECT count(*) AS total FROM links WHERE from_id = ?',
    redirectSources: `SELECT l.from_id AS id FROM links l ${indexedBy(db, 'links_redirect_to')} WHERE l.to_id = ? AND l.kind = 'redirect' ORDER BY l.from_id LIMIT ?`,
    redirectTarget: "SELECT to_id FROM links WHERE from_id = ? AND kind = 'redirect' LIMIT 1",
    hop: 'SELECT u.id AS url_id, u.url, u.state, r.status_code, r.redirect_url, r.error FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.id = ?',
    row: `SELECT ${URL_ROW_COLUMNS} FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.id = ?`,
    extracted: 'SELECT rule, value FROM extracted WHERE url_id = ? ORDER BY rule, n',
    unfetchable: 'SELECT href, scheme, anchor FROM unfetchable_links WHERE from_id = ? ORDER BY href LIMIT ?',
  };
}

/** urls.id of a URL, or null when the crawl does not know it. Looks up by url_key (an index), then compares text. */
export function findUrlId(db: Db, ref: UrlRef): number | null {
  if ('id' in ref) {
    if (!Number.isInteger(ref.id)) throw new RangeError(`a URL id is a whole number (got ${String(ref.id)})`);
    const row = prepared(db, 'SELECT id FROM urls WHERE id = ?').get(ref.id) as { id: number } | undefined;
    return row?.id ?? null;
  }
  if (typeof ref.url !== 'string' || ref.url.length === 0) throw new TypeError('a URL is a non-empty text');
  const byText = (url: string) =>
    (prepared(db, detailSql(db).byKey).all(urlKey(url)) as { id: number; url: string }[]).find((r) => r.url === url)?.id ?? null;
  const exact = byText(ref.url);
  if (exact !== null) return exact;
  const normal = normaliserOf(db)(ref.url);
  return normal !== null && normal !== ref.url ? byText(normal) : null;
}

/** The crawl's own normaliser (canonical form without its stripped parameters). */
function normaliserOf(db: Db) {
  let strip: string[] = [];
  try {
    const settings = readStoredSettings(db) as { stripQueryParams?: unknown };
    if (Array.isArray(settings.stripQueryParams)) strip = settings.stripQueryParams.filter((s): s is string => typeof s === 'string');
  } catch {
    // no readable settings: plain canonical form
  }
  return makeNormaliser({ stripQueryParams: strip });
}

/** Everything the detail pane shows about one URL, in one read transaction; null when the crawl does not know it. */
export function urlDetail(db: Db, ref: UrlRef, options: { linksLimit?: number } = {}): UrlDetail | null {
  const limit = options.linksLimit ?? DEFAULT_LINKS_PAGE;
  checkLimit(limit, 'linksLimit');
  return readTransaction(db, () => {
    const id = findUrlId(db, ref);
    if (id === null) return null;
    const u = prepared(db, 'SELECT id, url, state, kind, depth, check_only, discovered_at, via_id FROM urls WHERE id = ?').get(
      id,
    ) as UrlRow;
    const row = prepared(db, detailSql(db).row).get(id) as FilteredRow;
    const headers = prepared(db, 'SELECT response_headers AS h FROM results WHERE url_id = ?').get(id) as { h: string | null } | undefined;
    const via =
      u.via_id === null
        ? null
        : ((prepared(db, 'SELECT id AS url_id, url FROM urls WHERE id = ?').get(u.via_id) as { url_id: number; url: string } | undefined) ??
          null);
    const unfetchable = prepared(db, detailSql(db).unfetchable).all(id, MAX_LISTED + 1) as UnfetchableLink[];
    return {
      url_id: u.id,
      url: u.url,
      state: u.state,
      state_name: STATE_NAMES[u.state] ?? `state ${u.state}`,
      kind: u.kind,
      depth: u.depth,
      check_only: u.check_only === 1,
      discovered_at: u.discovered_at,
      via,
      row,
      fetched: row.seq !== null,
      response_headers: parseHeaders(headers?.h ?? null),
      redirect_chain: redirectChain(db, id),
      inlinks: inlinks(db, id, { limit }),
      outlinks: outlinks(db, id, { limit }),
      unfetchable_links: unfetchable.slice(0, MAX_LISTED),
      unfetchable_truncated: unfetchable.length > MAX_LISTED,
      extracted: extractedValues(db, id),
    };
  });
}

function parseHeaders(json: string | null): Record<string, string | string[]> | null {
  if (json === null) return null;
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string') out[name] = value;
      else if (Array.isArray(value)) out[name] = value.map(String);
      else if (value !== null && value !== undefined) out[name] = String(value);
    }
    return out;
  } catch {
    return null;
  }
}

/** Pages linking to the URL, by linking page id (keyset: pass the last page's `next` as `after`). Uses links_to. */
export function inlinks(db: Db, urlId: number, page: { after?: number | null; limit?: number } = {}): LinkPage<Inlink> {
  const limit = page.limit ?? DEFAULT_LINKS_PAGE;
  checkLimit(limit);
  return readTransaction(db, () => {
    const rows = prepared(db, detailSql(db).inlinks).all(urlId, page.after ?? -1, limit + 1) as (Omit<Inlink, 'nofollow'> & {
      nofollow: number;
    })[];
    const { total } = prepared(db, detailSql(db).inlinkCount).get(urlId) as { total: number };
    const more = rows.length > limit;
    const out = rows.slice(0, limit).map((r) => ({ ...r, nofollow: r.nofollow === 1 }));
    return { total, rows: out, next: more ? out[out.length - 1]!.from_id : null };
  });
}

/** Links on the URL's page, by target id (keyset, as inlinks), with each target's state and status. */
export function outlinks(db: Db, urlId: number, page: { after?: number | null; limit?: number } = {}): LinkPage<Outlink> {
  const limit = page.limit ?? DEFAULT_LINKS_PAGE;
  checkLimit(limit);
  return readTransaction(db, () => {
    const rows = prepared(db, detailSql(db).outlinks).all(urlId, page.after ?? -1, limit + 1) as (Omit<Outlink, 'nofollow'> & {
      nofollow: number;
    })[];
    const { total } = prepared(db, detailSql(db).outlinkCount).get(urlId) as { total: number };
    const more = rows.length > limit;
    const out = rows.slice(0, limit).map((r) => ({ ...r, nofollow: r.nofollow === 1 }));
    return { total, rows: out, next: more ? out[out.length - 1]!.to_id : null };
  });
}

/** The custom-extraction values of the URL's page, by rule (in name order), each rule's values in page order. */
export function extractedValues(db: Db, urlId: number): ExtractedValues[] {
  const rows = prepared(db, detailSql(db).extracted).all(urlId) as { rule: string; value: string }[];
  const out: ExtractedValues[] = [];
  for (const { rule, value } of rows) {
    const last = out[out.length - 1];
    if (last?.rule === rule) last.values.push(value);
    else out.push({ rule, values: [value] });
  }
  return out;
}

/**
 * The redirect chain through a URL: backward along the link graph's redirect links (links_redirect_to; where
 * several URLs redirect to one, the one it was first found through, else the first), forward along its own
 * redirect link; at most MAX_CHAIN_HOPS hops each way, stopping where the chain comes back on itself.
 */
export function redirectChain(db: Db, urlId: number): RedirectChain {
  return readTransaction(db, () => {
    const hop = (id: number) => prepared(db, detailSql(db).hop).get(id) as RedirectHop;
    const sourcesOf = (id: number, max: number) => prepared(db, detailSql(db).redirectSources).all(id, max) as { id: number }[];
    const viaOf = (id: number) =>
      (prepared(db, 'SELECT via_id FROM urls WHERE id = ?').get(id) as { via_id: number | null } | undefined)?.via_id ?? null;
    const targetOf = (id: number) => (prepared(db, detailSql(db).redirectTarget).get(id) as { to_id: number } | undefined)?.to_id ?? null;

    const start = hop(urlId);
    const seen = new Set([urlId]);
    let loop = false;
    let truncated = false;

    const direct = sourcesOf(urlId, MAX_LISTED);
    const before: RedirectHop[] = [];
    let sources = direct.slice(0, MAX_CHAIN_HOPS + 1);
    for (let cur = urlId; sources.length > 0; ) {
      if (before.length >= MAX_CHAIN_HOPS) {
        truncated = true;
        break;
      }
      const via = viaOf(cur);
      const pick = sources.find((s) => s.id === via)?.id ?? sources[0]!.id;
      if (seen.has(pick)) {
        loop = true;
        break;
      }
      seen.add(pick);
      before.unshift(hop(pick));
      cur = pick;
      sources = sourcesOf(cur, MAX_CHAIN_HOPS + 1);
    }

    const after: RedirectHop[] = [];
    for (let cur = start; cur.redirect_url !== null; ) {
      const next = targetOf(cur.url_id);
      if (next === null) break;
      if (seen.has(next)) {
        loop = true;
        break;
      }
      if (after.length >= MAX_CHAIN_HOPS) {
        truncated = true;
        break;
      }
      seen.add(next);
      cur = hop(next);
      after.push(cur);
    }

    const redirectedFrom = direct.map(({ id }) => {
      const h = hop(id);
      return { url_id: h.url_id, url: h.url, state: h.state, status_code: h.status_code };
    });
    return { hops: [...before, start, ...after], position: before.length, loop, truncated, redirected_from: redirectedFrom };
  });
}
