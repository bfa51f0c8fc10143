// The URL detail's security and hreflang sections (issue 18.5): a parsed page's security row (its headers, problems,
// plain-HTTP resources and unsafe links) and the hreflang alternates it names, each judged as the explorer's hreflang
// filters judge it (result-filters.ts), by key look-ups only. Files older than version 6 have neither: null.
import { X_DEFAULT } from '../../../shared/hreflang.ts';
import { securityProblems, type HreflangDetail, type HreflangProblem, type SecurityDetail } from '../../../shared/security.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { all, get, type Q, runOnFile } from './queries.ts';
import { fileTarget, type FilterTarget } from './result-filters.ts';

interface SecurityRow {
  flags: number;
  hsts: string | null;
  csp: string | null;
  x_content_type_options: string | null;
  x_frame_options: string | null;
  http_resources: string | null;
  unsafe_links: string | null;
}

export function securityDetail(db: Db, urlId: number): SecurityDetail | null {
  return runOnFile(db, securityDetailQ(fileTarget(db), urlId));
}

export function* securityDetailQ(t: FilterTarget, urlId: number): Q<SecurityDetail | null> {
  if (!t.has('security')) return null;
  const s = yield* get<SecurityRow>('SELECT * FROM security WHERE url_id = ?', urlId);
  if (!s) return null;
  return {
    problems: securityProblems(s.flags),
    headers: {
      'strict-transport-security': s.hsts,
      'content-security-policy': s.csp,
      'x-content-type-options': s.x_content_type_options,
      'x-frame-options': s.x_frame_options,
    },
    http_resources: s.http_resources ? (JSON.parse(s.http_resources) as SecurityDetail['http_resources']) : [],
    unsafe_links: s.unsafe_links ? (JSON.parse(s.unsafe_links) as string[]) : [],
  };
}

interface AlternateRow {
  lang: string;
  target_id: number;
  target_url: string;
  valid: number;
  crawled: number;
  status_code: number | null;
  parsed: number;
  indexability: string | null;
  returns: number;
}

// The page's alternates, each target's row and whether it names the page back, by key.
// Conditions as 0 or 1 (CASE): SQLite's and PostgreSQL's booleans differ.
export const ALTERNATES_SQL = `SELECT h.lang, h.target_id, u.url AS target_url, h.valid, CASE WHEN t.url_id IS NOT NULL THEN 1 ELSE 0 END AS crawled,
    t.status_code, CASE WHEN t.h1_count IS NOT NULL THEN 1 ELSE 0 END AS parsed, t.indexability,
    CASE WHEN EXISTS (SELECT 1 FROM hreflang b WHERE b.url_id = h.target_id AND b.target_id = h.url_id) THEN 1 ELSE 0 END AS returns
  FROM hreflang h JOIN urls u ON u.id = h.target_id LEFT JOIN results t ON t.url_id = h.target_id
  WHERE h.url_id = ? ORDER BY lower(h.lang), u.url`;

/** A page's alternates with their problems; null when it names none (or the file has no hreflang table). */
export function hreflangDetail(db: Db, urlId: number): HreflangDetail | null {
  return runOnFile(db, hreflangDetailQ(fileTarget(db), urlId));
}

export function* hreflangDetailQ(t: FilterTarget, urlId: number): Q<HreflangDetail | null> {
  if (!t.has('hreflang')) return null;
  const rows = yield* all<AlternateRow>(ALTERNATES_SQL, urlId);
  if (rows.length === 0) return null;
  return {
    alternates: rows.map((r) => {
      const self = r.target_id === urlId;
      const problems: HreflangProblem[] = [];
      if (r.valid === 0) problems.push('invalid code');
      if (!self && r.crawled && (r.status_code ?? 0) !== 200) problems.push('not 200');
      if (!self && r.crawled && r.status_code === 200 && r.indexability !== 'indexable') problems.push('non-indexable');
      if (!self && r.parsed && !r.returns) problems.push('no return link');
      return {
        lang: r.lang,
        target_id: r.target_id,
        target_url: r.target_url,
        crawled: r.crawled === 1,
        status_code: r.status_code,
        problems,
      };
    }),
    missing_x_default: !rows.some((r) => r.lang.toLowerCase() === X_DEFAULT),
    missing_self: !rows.some((r) => r.target_id === urlId),
  };
}
