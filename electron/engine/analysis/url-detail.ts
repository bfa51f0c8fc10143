// The detail pane of one URL: its row, response headers, the redirect chain through it, inlinks and outlinks
// (paged by key), the links on it no crawler can fetch, and its custom-extraction values. Every query is a lookup
// by key (urls.id, url_key, links' primary key and links_to, extracted's primary key): the cost depends on this
// URL's links, not on the size of the crawl.
import { hreflangDetailQ, securityDetailQ } from './security-detail.ts';
import { makeNormaliser } from '../../../shared/url/normalise.ts';
import { readStoredSettings, type Db } from '../frontier/sqlite/crawl-file.ts';
import { UrlState } from '../frontier/model.ts';
import type {
  BoundedList,
  ExtractedValues,
  ImagePage,
  Inlink,
  LinkPage,
  Outlink,
  PageImage,
  RenderComparison,
  RenderDetail,
  RenderResource,
  RedirectChain,
  RedirectHop,
  StructuredDetail,
  UnfetchableLink,
  UrlDetail,
  UrlRef,
} from '../../../shared/analysis.ts';
import { fileTarget, type FilteredRow, type FilterTarget } from './result-filters.ts';
import { all, get, type Q, runOnFile } from './queries.ts';
import { checkLimit, readTransaction } from './sql.ts';

/** Redirect hops followed each way from the URL at most. */
export const MAX_CHAIN_HOPS = 20;
/** Links listed per page when no limit is given. */
export const DEFAULT_LINKS_PAGE = 100;
/** Unfetchable links and redirect sources listed at most. */
export const MAX_LISTED = 1000;
/** Items of each of a render's lists (console errors, page errors, failed and blocked resources) listed at most. */
export const MAX_RENDER_ITEMS = 100;
/** Characters of one console message or resource URL shown at most (the rest is cut, marked with …). */
export const MAX_RENDER_TEXT = 2000;

export const STATE_NAMES: Record<number, string> = {
  [UrlState.queued]: 'queued',
  [UrlState.claimed]: 'in flight',
  [UrlState.done]: 'fetched',
  [UrlState.failed]: 'failed',
  [UrlState.outOfScope]: 'out of scope',
  [UrlState.tooDeep]: 'too deep',
  [UrlState.nofollow]: 'nofollow only',
  [UrlState.redirectCut]: 'redirect chain cut',
  [UrlState.sitemapOnly]: 'in a sitemap only',
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
export function detailSql(target: Db | FilterTarget) {
  const t = 'hint' in target ? target : fileTarget(target);
  return {
    byKey: `SELECT id, url FROM urls ${t.hint('urls_key')} WHERE ${t.sql.d.urlKey.column} = ${t.sql.d.urlKey.param('?')}`,
    inlinks: `SELECT l.from_id, f.url AS from_url, l.anchor, l.kind, l.nofollow FROM links l ${t.hint('links_to')}
       JOIN urls f ON f.id = l.from_id WHERE l.to_id = ? AND l.from_id > ? ORDER BY l.from_id LIMIT ?`,
    inlinkCount: `SELECT count(*) AS total FROM links ${t.hint('links_to')} WHERE to_id = ?`,
    outlinks: `SELECT l.to_id, t.url AS to_url, l.anchor, l.kind, l.nofollow, t.state, tr.status_code
       FROM links l JOIN urls t ON t.id = l.to_id LEFT JOIN results tr ON tr.url_id = t.id
       WHERE l.from_id = ? AND l.to_id > ? ORDER BY l.to_id LIMIT ?`,
    outlinkCount: 'SELECT count(*) AS total FROM links WHERE from_id = ?',
    redirectSources: `SELECT l.from_id AS id FROM links l ${t.hint('links_redirect_to')} WHERE l.to_id = ? AND l.kind = 'redirect' ORDER BY l.from_id LIMIT ?`,
    redirectTarget: "SELECT to_id FROM links WHERE from_id = ? AND kind = 'redirect' LIMIT 1",
    hop: 'SELECT u.id AS url_id, u.url, u.state, r.status_code, r.redirect_url, r.error FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.id = ?',
    row: `SELECT ${t.sql.URL_ROW_COLUMNS} FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.id = ?`,
    extracted: 'SELECT rule, value FROM extracted WHERE url_id = ? ORDER BY rule, n',
    unfetchable: 'SELECT href, scheme, anchor FROM unfetchable_links WHERE from_id = ? ORDER BY href LIMIT ?',
    // Only on a file with the renders table (version 4): renderDetail checks.
    render: `SELECT j.title, j.meta_description, j.h1, j.h1_count, j.h2, j.h2_count, j.canonical, j.meta_robots, j.lang, j.hreflang, j.word_count, j.rendered_links,
       j.js_redirect, j.console_errors, j.page_errors, j.failed_resources, j.blocked_resources, j.render_ms, j.error, j.raw_indexability,
       j.raw_title, j.raw_meta_description, j.raw_h1, j.raw_h1_count, j.raw_h2, j.raw_h2_count, j.raw_lang, j.raw_hreflang,
       j.raw_canonical, j.raw_meta_robots, j.raw_word_count, r.indexability,
       r.indexability_reason
       FROM renders j LEFT JOIN results r ON r.url_id = j.url_id WHERE j.url_id = ?`,
  };
}

/** urls.id of a URL, or null when the crawl does not know it. Looks up by url_key (an index), then compares text. */
export function findUrlId(db: Db, ref: UrlRef): number | null {
  return runOnFile(db, findUrlIdQ(fileTarget(db), ref, stripOf(db)));
}

function* findUrlIdQ(t: FilterTarget, ref: UrlRef, strip: readonly string[]): Q<number | null> {
  if ('id' in ref) {
    if (!Number.isInteger(ref.id)) throw new RangeError(`a URL id is a whole number (got ${String(ref.id)})`);
    const row = yield* get<{ id: number }>('SELECT id FROM urls WHERE id = ?', ref.id);
    return row?.id ?? null;
  }
  if (typeof ref.url !== 'string' || ref.url.length === 0) throw new TypeError('a URL is a non-empty text');
  const key = t.sql.d.urlKey;
  function* byText(url: string): Q<number | null> {
    return (yield* all<{ id: number; url: string }>(detailSql(t).byKey, key.value(url))).find((r) => r.url === url)?.id ?? null;
  }
  const exact = yield* byText(ref.url);
  if (exact !== null) return exact;
  const normal = makeNormaliser({ stripQueryParams: [...strip] })(ref.url);
  return normal !== null && normal !== ref.url ? yield* byText(normal) : null;
}

/** The query parameters the crawl strips (its normaliser's), from its stored settings: none when unreadable. */
export function stripQueryParamsOf(settings: unknown): string[] {
  const strip = (settings as { stripQueryParams?: unknown } | null)?.stripQueryParams;
  return Array.isArray(strip) ? strip.filter((s): s is string => typeof s === 'string') : [];
}

function stripOf(db: Db): string[] {
  try {
    return stripQueryParamsOf(readStoredSettings(db));
  } catch {
    // no readable settings: plain canonical form
    return [];
  }
}

/** Everything the detail pane shows about one URL, in one read transaction; null when the crawl does not know it. */
export function urlDetail(db: Db, ref: UrlRef, options: { linksLimit?: number } = {}): UrlDetail | null {
  const t = fileTarget(db);
  return readTransaction(db, () => runOnFile(db, urlDetailQ(t, ref, stripOf(db), options)));
}

/**
 * The URL detail as queries, for either store (queries.ts): `strip` is the crawl's stripped query parameters. The
 * store's run in one snapshot of it, as the crawl file's in one read transaction.
 */
export function* urlDetailQ(
  t: FilterTarget,
  ref: UrlRef,
  strip: readonly string[],
  options: { linksLimit?: number } = {},
): Q<UrlDetail | null> {
  const limit = options.linksLimit ?? DEFAULT_LINKS_PAGE;
  checkLimit(limit, 'linksLimit');
  const id = yield* findUrlIdQ(t, ref, strip);
  if (id === null) return null;
  const u = (yield* get<UrlRow>('SELECT id, url, state, kind, depth, check_only, discovered_at, via_id FROM urls WHERE id = ?', id))!;
  const row = (yield* get<FilteredRow>(detailSql(t).row, id))!;
  const headers = yield* get<{ h: string | null }>('SELECT response_headers AS h FROM results WHERE url_id = ?', id);
  const via =
    u.via_id === null
      ? null
      : ((yield* get<{ url_id: number; url: string }>('SELECT id AS url_id, url FROM urls WHERE id = ?', u.via_id)) ?? null);
  const unfetchable = yield* all<UnfetchableLink>(detailSql(t).unfetchable, id, MAX_LISTED + 1);
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
    redirect_chain: yield* redirectChainQ(t, id),
    inlinks: yield* linksQ(t, 'in', id, { limit }),
    outlinks: yield* linksQ(t, 'out', id, { limit }),
    unfetchable_links: unfetchable.slice(0, MAX_LISTED),
    unfetchable_truncated: unfetchable.length > MAX_LISTED,
    extracted: yield* extractedValuesQ(t, id),
    render: yield* renderDetailQ(t, id),
    images: yield* pageImagesQ(t, id),
    image_pages: yield* imagePagesQ(t, u.url),
    structured: yield* structuredDetailQ(t, id),
    // Issue 18.5.
    security: yield* securityDetailQ(t, id),
    hreflang: yield* hreflangDetailQ(t, id),
  };
}

/** Image rows listed in a URL's detail at most (issue 18.3). */
export const MAX_IMAGES_LISTED = 500;
const NO_IMAGES: BoundedList<never> = { items: [], total: 0 };

/** The images a page uses, in document order, each with its own status and size when the crawl checked it (issue 18.3). */
export function pageImages(db: Db, pageId: number): BoundedList<PageImage> {
  return runOnFile(db, pageImagesQ(fileTarget(db), pageId));
}

function* pageImagesQ(t: FilterTarget, pageId: number): Q<BoundedList<PageImage>> {
  if (!t.has('image_uses')) return NO_IMAGES;
  const items = (yield* all<Omit<PageImage, 'checked'> & { checked: number }>(
    `SELECT im.url AS image_url, iu.alt, iu.alt_len, iu.width, iu.height, CASE WHEN ir.url_id IS NOT NULL THEN 1 ELSE 0 END AS checked,
       ir.status_code, ir.size_bytes
       FROM image_uses iu ${t.hint('image_uses_page')} JOIN images im ON im.id = iu.image_id
       LEFT JOIN urls iuu ON ${t.sql.d.sameUrl('iuu', 'im')} LEFT JOIN results ir ON ir.url_id = iuu.id
       WHERE iu.page_id = ? ORDER BY iu.id LIMIT ?`,
    pageId,
    MAX_IMAGES_LISTED,
  )).map((i) => ({ ...i, checked: i.checked === 1 }));
  const total =
    items.length < MAX_IMAGES_LISTED
      ? items.length
      : (yield* get<{ n: number }>(`SELECT count(*) AS n FROM image_uses ${t.hint('image_uses_page')} WHERE page_id = ?`, pageId))!.n;
  return { items, total };
}

/** The pages using an image URL (by its text, in normal form), in record order (issue 18.3). */
export function imagePages(db: Db, url: string): BoundedList<ImagePage> {
  return runOnFile(db, imagePagesQ(fileTarget(db), url));
}

function* imagePagesQ(t: FilterTarget, url: string): Q<BoundedList<ImagePage>> {
  if (!t.has('image_uses')) return NO_IMAGES;
  const key = t.sql.d.urlKey;
  const image = (yield* all<{ id: number; url: string }>(
    `SELECT id, url FROM images WHERE ${key.column} = ${key.param('?')}`,
    key.value(url),
  )).find((i) => i.url === url);
  if (!image) return NO_IMAGES;
  const items = yield* all<ImagePage>(
    `SELECT iu.page_id, pu.url AS page_url, iu.alt, iu.alt_len, iu.width, iu.height
     FROM image_uses iu ${t.hint('image_uses_image')} JOIN urls pu ON pu.id = iu.page_id WHERE iu.image_id = ? ORDER BY iu.id LIMIT ?`,
    image.id,
    MAX_IMAGES_LISTED,
  );
  const total =
    items.length < MAX_IMAGES_LISTED
      ? items.length
      : (yield* get<{ n: number }>(`SELECT count(*) AS n FROM image_uses ${t.hint('image_uses_image')} WHERE image_id = ?`, image.id))!.n;
  return { items, total };
}

/** A page's structured data and social tags by key (issue 18.4); null on a file older than version 6. */
export function structuredDetail(db: Db, urlId: number): StructuredDetail | null {
  return runOnFile(db, structuredDetailQ(fileTarget(db), urlId));
}

function* structuredDetailQ(t: FilterTarget, urlId: number): Q<StructuredDetail | null> {
  if (!t.has('structured_data')) return null;
  const items = (yield* all<{ format: string; types: string; error: string | null }>(
    'SELECT format, types, error FROM structured_data WHERE url_id = ? ORDER BY n',
    urlId,
  )).map((r) => ({ format: r.format, types: typesOf(r.types), error: r.error }));
  const socialTags = yield* all<{ property: string; content: string }>(
    'SELECT property, content FROM social_tags WHERE url_id = ? ORDER BY n',
    urlId,
  );
  return { items, social_tags: socialTags };
}

/** A structured_data.types JSON array; anything else as no types. */
function typesOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

type RenderRow = Record<string, string | number | null>;

/** What rendering the page found, raw beside rendered; null when the crawl did not render it (or the file predates renders). */
export function renderDetail(db: Db, urlId: number): RenderDetail | null {
  return runOnFile(db, renderDetailQ(fileTarget(db), urlId));
}

function* renderDetailQ(t: FilterTarget, urlId: number): Q<RenderDetail | null> {
  if (!t.renders()) return null;
  const j = yield* get<RenderRow>(detailSql(t).render, urlId);
  if (!j) return null;
  const indexability = (status: unknown, reason: unknown) =>
    typeof status === 'string' ? [status, reason].filter((x) => typeof x === 'string' && x !== '').join(': ') : null;
  const renderedIndexability = indexability(j.indexability, j.indexability_reason);
  const failed = j.error !== null;
  // A failed render changed nothing: its fields are empty and the raw ones stand.
  const pair = (field: RenderComparison['field'], raw: string | number | null, rendered: string | number | null): RenderComparison => ({
    field,
    raw,
    rendered,
    changed: !failed && (raw ?? '') !== (rendered ?? ''),
  });
  return {
    // A failed render's fields are empty: the raw ones stand, shown as rendered "—".
    fields: [
      pair('title', j.raw_title ?? null, j.title ?? null),
      pair('meta_description', j.raw_meta_description ?? null, j.meta_description ?? null),
      pair('h1', j.raw_h1 ?? null, j.h1 ?? null),
      pair('h1_count', j.raw_h1_count ?? null, failed ? null : (j.h1_count ?? null)),
      pair('h2', j.raw_h2 ?? null, j.h2 ?? null),
      pair('h2_count', j.raw_h2_count ?? null, failed ? null : (j.h2_count ?? null)),
      pair('canonical', j.raw_canonical ?? null, j.canonical ?? null),
      pair('meta_robots', j.raw_meta_robots ?? null, j.meta_robots ?? null),
      pair('lang', j.raw_lang ?? null, j.lang ?? null),
      pair('hreflang', j.raw_hreflang ?? null, j.hreflang ?? null),
      pair('word_count', j.raw_word_count ?? null, failed ? null : (j.word_count ?? null)),
      // results.indexability is the rendered one; renders.raw_indexability the raw one, kept only when it differs.
      pair('indexability', (j.raw_indexability as string | null) ?? renderedIndexability, renderedIndexability),
    ],
    rendered_links: (j.rendered_links as number | null) ?? 0,
    js_redirect: (j.js_redirect as string | null) ?? null,
    render_ms: (j.render_ms as number | null) ?? null,
    error: (j.error as string | null) ?? null,
    console_errors: boundedList(j.console_errors, messageOf),
    page_errors: boundedList(j.page_errors, messageOf),
    failed_resources: boundedList(j.failed_resources, resourceOf),
    blocked_resources: boundedList(j.blocked_resources, resourceOf),
  };
}
const cut = (text: string) => (text.length > MAX_RENDER_TEXT ? `${text.slice(0, MAX_RENDER_TEXT)}…` : text);
const messageOf = (item: unknown): string => cut(typeof item === 'string' ? item : (JSON.stringify(item) ?? String(item)));
const resourceOf = (item: unknown): RenderResource => {
  const o = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
  return { url: cut(String(o.url ?? item)), reason: cut(String(o.reason ?? '')) };
};

/** A JSON list of renders (null for none) as its first MAX_RENDER_ITEMS items and its length; unreadable JSON as none. */
function boundedList<T>(json: unknown, item: (x: unknown) => T): { items: T[]; total: number } {
  if (typeof json !== 'string') return { items: [], total: 0 };
  try {
    const list = JSON.parse(json) as unknown;
    if (!Array.isArray(list)) return { items: [], total: 0 };
    return { items: list.slice(0, MAX_RENDER_ITEMS).map(item), total: list.length };
  } catch {
    return { items: [], total: 0 };
  }
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
  return readTransaction(db, () => runOnFile(db, linksQ(fileTarget(db), 'in', urlId, page)));
}

/** Links on the URL's page, by target id (keyset, as inlinks), with each target's state and status. */
export function outlinks(db: Db, urlId: number, page: { after?: number | null; limit?: number } = {}): LinkPage<Outlink> {
  return readTransaction(db, () => runOnFile(db, linksQ(fileTarget(db), 'out', urlId, page)));
}

export function linksQ(t: FilterTarget, way: 'in', urlId: number, page: { after?: number | null; limit?: number }): Q<LinkPage<Inlink>>;
export function linksQ(t: FilterTarget, way: 'out', urlId: number, page: { after?: number | null; limit?: number }): Q<LinkPage<Outlink>>;
export function* linksQ(
  t: FilterTarget,
  way: 'in' | 'out',
  urlId: number,
  page: { after?: number | null; limit?: number } = {},
): Q<LinkPage<Inlink> | LinkPage<Outlink>> {
  const limit = page.limit ?? DEFAULT_LINKS_PAGE;
  checkLimit(limit);
  const sql = detailSql(t);
  const rows = yield* all<(Inlink | Outlink) & { nofollow: number | boolean }>(
    way === 'in' ? sql.inlinks : sql.outlinks,
    urlId,
    page.after ?? -1,
    limit + 1,
  );
  const { total } = (yield* get<{ total: number }>(way === 'in' ? sql.inlinkCount : sql.outlinkCount, urlId))!;
  const more = rows.length > limit;
  const out = rows.slice(0, limit).map((r) => ({ ...r, nofollow: Number(r.nofollow) === 1 }));
  const last = out[out.length - 1] as (Inlink & Outlink) | undefined;
  return { total, rows: out, next: more ? (way === 'in' ? last!.from_id : last!.to_id) : null } as LinkPage<Inlink> | LinkPage<Outlink>;
}

/** The custom-extraction values of the URL's page, by rule (in name order), each rule's values in page order. */
export function extractedValues(db: Db, urlId: number): ExtractedValues[] {
  return runOnFile(db, extractedValuesQ(fileTarget(db), urlId));
}

function* extractedValuesQ(t: FilterTarget, urlId: number): Q<ExtractedValues[]> {
  const rows = yield* all<{ rule: string; value: string }>(detailSql(t).extracted, urlId);
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
  return readTransaction(db, () => runOnFile(db, redirectChainQ(fileTarget(db), urlId)));
}

function* redirectChainQ(t: FilterTarget, urlId: number): Q<RedirectChain> {
  const sql = detailSql(t);
  const hop = function* (id: number): Q<RedirectHop> {
    return (yield* get<RedirectHop>(sql.hop, id))!;
  };
  const sourcesOf = (id: number, max: number) => all<{ id: number }>(sql.redirectSources, id, max);
  const viaOf = function* (id: number): Q<number | null> {
    return (yield* get<{ via_id: number | null }>('SELECT via_id FROM urls WHERE id = ?', id))?.via_id ?? null;
  };
  const targetOf = function* (id: number): Q<number | null> {
    return (yield* get<{ to_id: number }>(sql.redirectTarget, id))?.to_id ?? null;
  };

  const start = yield* hop(urlId);
  const seen = new Set([urlId]);
  let loop = false;
  let truncated = false;

  const direct = yield* sourcesOf(urlId, MAX_LISTED);
  const before: RedirectHop[] = [];
  let sources = direct.slice(0, MAX_CHAIN_HOPS + 1);
  for (let cur = urlId; sources.length > 0; ) {
    if (before.length >= MAX_CHAIN_HOPS) {
      truncated = true;
      break;
    }
    const via = yield* viaOf(cur);
    const pick = sources.find((s) => s.id === via)?.id ?? sources[0]!.id;
    if (seen.has(pick)) {
      loop = true;
      break;
    }
    seen.add(pick);
    before.unshift(yield* hop(pick));
    cur = pick;
    sources = yield* sourcesOf(cur, MAX_CHAIN_HOPS + 1);
  }

  const after: RedirectHop[] = [];
  for (let cur = start; cur.redirect_url !== null; ) {
    const next = yield* targetOf(cur.url_id);
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
    cur = yield* hop(next);
    after.push(cur);
  }

  const redirectedFrom: RedirectChain['redirected_from'] = [];
  for (const { id } of direct) {
    const h = yield* hop(id);
    redirectedFrom.push({ url_id: h.url_id, url: h.url, state: h.state, status_code: h.status_code });
  }
  return { hops: [...before, start, ...after], position: before.length, loop, truncated, redirected_from: redirectedFrom };
}
