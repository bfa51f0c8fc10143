// What recording a fetched page writes, decided the same way by both stores (SQLite and PostgreSQL): its results
// row, and the URLs it leads to (redirect target and links) with what the candidate chain decided for each.
import { isValidHreflang } from '../../../shared/hreflang.ts';
import type { PageFetchResult } from '../../../shared/protocol.ts';
import { securityFlags } from '../../../shared/security.ts';
import { CONTENT_TYPE_MAX, cutText, ERROR_TEXT_MAX, PAGE_TEXT_MAX } from '../../../shared/stored-text.ts';
import { linkCandidate, redirectCandidate, type Candidate, type CandidateSettings } from './candidates.ts';
import { indexabilityOf } from './indexability.ts';
import type { PageClaim, UrlKindName } from './model.ts';

/** A results row with nothing in it. */
const EMPTY_ROW = {
  statusCode: null,
  contentType: null,
  sizeBytes: null,
  responseTimeMs: null,
  title: null,
  metaDescription: null,
  h1: null,
  canonical: null,
  wordCount: null,
  outlinks: 0,
  redirectUrl: null,
  metaRobots: null,
  xRobotsTag: null,
  robotsDisallowed: 0,
  h1Count: null,
  h2: null,
  h2Count: null,
  lang: null,
  hreflang: null,
  metaRefresh: null,
  responseHeaders: null,
};

/** results columns by row field, for stores that build their INSERT from the row (PostgreSQL). */
export const RESULT_COLUMNS = {
  urlId: 'url_id',
  statusCode: 'status_code',
  contentType: 'content_type',
  sizeBytes: 'size_bytes',
  responseTimeMs: 'response_time_ms',
  depth: 'crawl_depth',
  title: 'title',
  metaDescription: 'meta_description',
  h1: 'h1',
  canonical: 'canonical',
  wordCount: 'word_count',
  outlinks: 'outlinks',
  redirectUrl: 'redirect_url',
  error: 'error',
  attempts: 'attempts',
  metaRobots: 'meta_robots',
  xRobotsTag: 'x_robots_tag',
  robotsDisallowed: 'robots_disallowed',
  at: 'fetched_at',
  h1Count: 'h1_count',
  h2: 'h2',
  h2Count: 'h2_count',
  lang: 'lang',
  hreflang: 'hreflang',
  metaRefresh: 'meta_refresh',
  indexability: 'indexability',
  indexabilityReason: 'indexability_reason',
  responseHeaders: 'response_headers',
} as const;

/** A results row, by field (RESULT_COLUMNS names the columns). */
export type ResultRow = { [field in keyof typeof RESULT_COLUMNS]: unknown };

/** The row of a URL that ended without a response: blocked by robots.txt, or crashed its worker. */
export function errorRowOf(
  url: { urlId: number; depth: number; urlKind: UrlKindName; checkOnly: boolean },
  error: string,
  now: number,
): ResultRow {
  const index = indexabilityOf({
    url: '',
    kind: url.urlKind,
    checkOnly: url.checkOnly,
    statusCode: null,
    error,
    robotsDisallowed: false,
    metaRobots: null,
    xRobotsTag: null,
    canonical: null,
  });
  return {
    ...EMPTY_ROW,
    urlId: url.urlId,
    depth: url.depth,
    error: cutText(error, ERROR_TEXT_MAX),
    attempts: 0,
    at: now,
    indexability: index.status,
    indexabilityReason: index.reason,
  };
}

/** A page's fields as a results row shows them: what its render read when it rendered, else its raw HTML's. */
export function shownFields(
  result: PageFetchResult,
): Pick<
  PageFetchResult,
  'title' | 'metaDescription' | 'h1' | 'h1Count' | 'h2' | 'h2Count' | 'canonical' | 'metaRobots' | 'lang' | 'hreflang' | 'wordCount'
> {
  const rendered = result.rendered;
  return rendered && rendered.error === null ? rendered : result;
}

/** The row of a fetched page; `redirect` is the verdict on its redirect ('follow' or why not), null without one. */
export function resultRowOf(claim: PageClaim, result: PageFetchResult, redirect: string | null, attempts: number, now: number): ResultRow {
  const robotsDisallowed = claim.robotsDisallowed === true;
  // A rendered page is recorded and indexed as rendered: what its scripts made is what search engines read (its raw
  // HTML's fields are kept in its renders row, renderRowOf).
  const page = shownFields(result);
  const index = indexabilityOf({
    ...result,
    metaRobots: page.metaRobots,
    canonical: page.canonical,
    url: claim.url,
    kind: claim.urlKind,
    checkOnly: claim.checkOnly,
    robotsDisallowed,
  });
  // The texts the store's narrow indexes hold are cut here, whatever sent them (stored-text.ts): the worker cuts what
  // it reads from a page, not the Content-Type or an error's words.
  return {
    urlId: claim.urlId,
    statusCode: result.statusCode,
    contentType: cutText(result.contentType, CONTENT_TYPE_MAX),
    sizeBytes: result.sizeBytes,
    responseTimeMs: Math.round(result.responseTimeMs),
    depth: claim.depth,
    title: cutText(page.title, PAGE_TEXT_MAX),
    metaDescription: cutText(page.metaDescription, PAGE_TEXT_MAX),
    h1: page.h1,
    h1Count: page.h1Count,
    h2: page.h2,
    h2Count: page.h2Count,
    canonical: page.canonical,
    lang: page.lang,
    hreflang: hreflangText(page.hreflang),
    metaRefresh: result.metaRefresh,
    wordCount: page.wordCount,
    outlinks: result.links.length,
    redirectUrl: result.redirectUrl,
    error: cutText(result.error ?? (redirect === null || redirect === 'follow' ? null : redirect), ERROR_TEXT_MAX),
    attempts,
    metaRobots: page.metaRobots,
    xRobotsTag: result.xRobotsTag,
    robotsDisallowed: robotsDisallowed ? 1 : 0,
    indexability: index.status,
    indexabilityReason: index.reason,
    responseHeaders: result.responseHeaders ? JSON.stringify(result.responseHeaders) : null,
    at: now,
  };
}

/** A URL a page leads to, with the candidate chain's verdict and the link graph row to write. */
export interface PageTarget {
  url: string;
  candidate: Candidate;
  depth: number;
  hops: number;
  linkKind: string;
  anchor: string | null;
  nofollow: boolean;
  /** Only in the rendered DOM (links.rendered). */
  rendered?: boolean;
}

/**
 * The URLs a recorded page leads to, in the order the SQLite store has always written them: the redirect target
 * (same depth, one more hop; a cut chain is recorded, not followed), then the links (one level deeper).
 */
export function pageTargetsOf(
  claim: PageClaim,
  result: PageFetchResult,
  redirect: string | null,
  isLiveExcluded: (url: string) => boolean,
  settings: CandidateSettings,
): PageTarget[] {
  const out: PageTarget[] = [];
  if (result.redirectUrl && redirect !== null) {
    const inScope = result.redirectInScope && !isLiveExcluded(result.redirectUrl);
    const candidate = redirectCandidate(claim.urlKind, inScope, claim.depth, redirect, settings);
    out.push({
      url: result.redirectUrl,
      candidate,
      depth: claim.depth,
      hops: claim.hops + 1,
      linkKind: 'redirect',
      anchor: null,
      nofollow: false,
    });
  }
  for (const link of result.links) {
    const candidate = linkCandidate(
      link.inScope && isLiveExcluded(link.url) ? { ...link, inScope: false } : link,
      claim.depth + 1,
      settings,
    );
    if (candidate === null) continue;
    out.push({
      url: link.url,
      candidate,
      depth: claim.depth + 1,
      hops: 0,
      linkKind: link.kind,
      anchor: link.anchor || null,
      nofollow: link.nofollow === true,
      ...(link.rendered ? { rendered: true } : {}),
    });
  }
  return out;
}

/** What a recorded page adds to its host's counters (the hosts report's, kept with each results row). */
export function hostCountsOf(result: Pick<PageFetchResult, 'statusCode' | 'sizeBytes'>): {
  crawled: number;
  failed: number;
  httpErrors: number;
  bytes: number;
} {
  const ok = result.statusCode !== null;
  return { crawled: ok ? 1 : 0, failed: ok ? 0 : 1, httpErrors: (result.statusCode ?? 0) >= 400 ? 1 : 0, bytes: result.sizeBytes ?? 0 };
}

/**
 * The renders table's columns, in the order renderRowOf gives their values, with their PostgreSQL types: both stores
 * build their INSERT from it (sqlite/frontier-statements.ts, postgres/pg-writes.ts).
 */
export const RENDER_COLUMNS = [
  ['url_id', 'bigint'],
  ['title', 'text'],
  ['meta_description', 'text'],
  ['h1', 'text'],
  ['h1_count', 'int'],
  ['h2', 'text'],
  ['h2_count', 'int'],
  ['canonical', 'text'],
  ['meta_robots', 'text'],
  ['lang', 'text'],
  ['hreflang', 'text'],
  ['word_count', 'int'],
  ['rendered_links', 'int'],
  ['js_redirect', 'text'],
  ['console_errors', 'text'],
  ['page_errors', 'text'],
  ['failed_resources', 'text'],
  ['blocked_resources', 'text'],
  ['render_ms', 'int'],
  ['error', 'text'],
  ['raw_indexability', 'text'],
  // The raw HTML's fields (the results row shows the rendered ones when the render succeeded).
  ['raw_title', 'text'],
  ['raw_meta_description', 'text'],
  ['raw_h1', 'text'],
  ['raw_h1_count', 'int'],
  ['raw_h2', 'text'],
  ['raw_h2_count', 'int'],
  ['raw_canonical', 'text'],
  ['raw_meta_robots', 'text'],
  ['raw_lang', 'text'],
  ['raw_hreflang', 'text'],
  ['raw_word_count', 'int'],
] as const;

/**
 * The renders row of a rendered page (RENDER_COLUMNS' values): its rendered fields, what it found (errors, resources,
 * time), the raw HTML's indexability when that differs and the raw HTML's fields (the results row shows the rendered ones).
 */
export function renderRowOf(claim: PageClaim, result: PageFetchResult): unknown[] | null {
  const r = result.rendered;
  if (!r) return null;
  const json = (list: unknown[]) => (list.length ? JSON.stringify(list) : null);
  const raw = indexabilityOf({
    ...result,
    url: claim.url,
    kind: claim.urlKind,
    checkOnly: claim.checkOnly,
    robotsDisallowed: claim.robotsDisallowed === true,
  });
  const rendered =
    r.error === null
      ? indexabilityOf({
          ...result,
          metaRobots: r.metaRobots,
          canonical: r.canonical,
          url: claim.url,
          kind: claim.urlKind,
          checkOnly: claim.checkOnly,
          robotsDisallowed: claim.robotsDisallowed === true,
        })
      : raw;
  const differs = raw.status !== rendered.status || raw.reason !== rendered.reason;
  return [
    claim.urlId,
    r.title,
    r.metaDescription,
    r.h1,
    r.h1Count,
    r.h2,
    r.h2Count,
    r.canonical,
    r.metaRobots,
    r.lang,
    hreflangText(r.hreflang),
    r.wordCount,
    r.renderedLinks,
    r.jsRedirect,
    json(r.consoleErrors),
    json(r.pageErrors),
    json(r.failedResources),
    json(r.blockedResources),
    Math.round(r.renderMs),
    r.error,
    differs ? [raw.status, raw.reason].filter(Boolean).join(': ') : null,
    result.title,
    result.metaDescription,
    result.h1,
    result.h1Count,
    result.h2,
    result.h2Count,
    result.canonical,
    result.metaRobots,
    result.lang,
    hreflangText(result.hreflang),
    result.wordCount,
  ];
}

/** hreflang alternates as the crawl file keeps them: "en=https://…; de=https://…", or null when there are none. */
function hreflangText(list: readonly { lang: string; url: string }[]): string | null {
  return list.length ? list.map((h) => `${h.lang}=${h.url}`).join('; ') : null;
}

// ---- security and hreflang (issue 18.5) ----

/** The security table's columns, in the order securityRowOf gives their values, with their PostgreSQL types. */
export const SECURITY_COLUMNS = [
  ['url_id', 'bigint'],
  ['flags', 'int'],
  ['hsts', 'text'],
  ['csp', 'text'],
  ['x_content_type_options', 'text'],
  ['x_frame_options', 'text'],
  ['http_resources', 'text'],
  ['unsafe_links', 'text'],
] as const;

/** The security row of a parsed page (SECURITY_COLUMNS' values), or null for a page the worker did not read. */
export function securityRowOf(claim: Pick<PageClaim, 'urlId' | 'url'>, result: PageFetchResult): unknown[] | null {
  const s = result.security;
  if (!s) return null;
  return [
    claim.urlId,
    securityFlags(claim.url, s),
    s.hsts,
    s.csp,
    s.xContentTypeOptions,
    s.xFrameOptions,
    s.httpResources.length ? JSON.stringify(s.httpResources) : null,
    s.unsafeBlankLinks.length ? JSON.stringify(s.unsafeBlankLinks) : null,
  ];
}

/** Alternates kept per page (a site controls how many it writes). */
export const HREFLANG_ROWS_MAX = 500;

/**
 * A page's hreflang rows: [url_id, target_id, lang, valid] per alternate it names (as its results row shows them:
 * rendered when rendered), the target by its urls id (`idOf`: the page's targets; the page itself is its own id);
 * an alternate whose URL has no id is left out. Distinct by (target, lang).
 */
export function hreflangRowsOf(
  claim: Pick<PageClaim, 'urlId' | 'url'>,
  result: PageFetchResult,
  idOf: (url: string) => number | undefined,
): [number, number, string, number][] {
  const rows: [number, number, string, number][] = [];
  const seen = new Set<string>();
  for (const h of shownFields(result).hreflang) {
    if (rows.length >= HREFLANG_ROWS_MAX) break;
    const target = h.url === claim.url ? claim.urlId : idOf(h.url);
    if (target === undefined) continue;
    const lang = h.lang.length > 100 ? h.lang.slice(0, 100) : h.lang;
    const key = `${target} ${lang}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push([claim.urlId, target, lang, isValidHreflang(lang) ? 1 : 0]);
  }
  return rows;
}

/** Bytes as the stores bind a BLOB (a worker's Uint8Array arrives as one after structured cloning). */
const blob = (bytes: Uint8Array | null | undefined): Buffer | null =>
  bytes == null ? null : Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The content row of a parsed page (duplicate content, issue 18.1): url_id, main_words, text_hash, minhash, text (its
 * UTF-8 bytes, as the worker sent them: the statement stores them as text); null for a page without one (not parsed,
 * or from a worker that does not read it).
 */
export function contentRowOf(
  claim: { urlId: number },
  result: PageFetchResult,
): [number, number, string | null, Buffer | null, Buffer | null] | null {
  const c = result.content;
  if (!c || !result.parsed) return null;
  return [claim.urlId, c.words, c.hash, blob(c.minhash), blob(c.text)];
}
