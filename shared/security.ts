// Security (issue 18.5): what is wrong with a parsed HTML page's security, as flags kept with the page (the crawl
// file's security.flags), so each explorer filter is one bit of a narrow index. No node:, no electron.
import type { PageSecurity } from './protocol.ts';

export const SECURITY_FLAG = {
  /** The page was fetched over plain http:. */
  http: 1,
  /** An https: page loads a resource over http: (mixed content). */
  mixedContent: 2,
  /** An https: page without Strict-Transport-Security (or with max-age=0). */
  noHsts: 4,
  /** No Content-Security-Policy header. */
  noCsp: 8,
  /** X-Content-Type-Options is not "nosniff". */
  noNosniff: 16,
  /** Neither X-Frame-Options (DENY or SAMEORIGIN) nor a CSP frame-ancestors directive: the page can be framed (clickjacking). */
  noFrameOptions: 32,
  /** A target=_blank link to another origin without rel noopener or noreferrer. */
  unsafeBlankLinks: 64,
} as const;
export type SecurityFlag = keyof typeof SECURITY_FLAG;

/** The flags of a page at `pageUrl` with what it showed of its security. */
export function securityFlags(pageUrl: string, s: PageSecurity): number {
  const https = /^https:/i.test(pageUrl);
  let flags = 0;
  if (!https) flags |= SECURITY_FLAG.http;
  if (https && s.httpResources.length > 0) flags |= SECURITY_FLAG.mixedContent;
  if (https && !/max-age\s*=\s*"?0*[1-9]/i.test(s.hsts ?? '')) flags |= SECURITY_FLAG.noHsts;
  if (!s.csp?.trim()) flags |= SECURITY_FLAG.noCsp;
  if ((s.xContentTypeOptions ?? '').trim().toLowerCase() !== 'nosniff') flags |= SECURITY_FLAG.noNosniff;
  const xfo = (s.xFrameOptions ?? '').trim().toLowerCase();
  if (xfo !== 'deny' && xfo !== 'sameorigin' && !/(^|;)\s*frame-ancestors\s/i.test(s.csp ?? '')) flags |= SECURITY_FLAG.noFrameOptions;
  if (s.unsafeBlankLinks.length > 0) flags |= SECURITY_FLAG.unsafeBlankLinks;
  return flags;
}

// ---- the URL detail's security and hreflang sections (issue 18.5) ----

/** The problems a security row's flags say, by SECURITY_FLAG name, in SECURITY_FLAG order. */
export function securityProblems(flags: number): SecurityFlag[] {
  return (Object.keys(SECURITY_FLAG) as SecurityFlag[]).filter((k) => (flags & SECURITY_FLAG[k]) !== 0);
}

/** A parsed page's security as the detail pane shows it. */
export interface SecurityDetail {
  problems: SecurityFlag[];
  /** The four headers the filters read, by lower-case name, null when the response had none. */
  headers: {
    'strict-transport-security': string | null;
    'content-security-policy': string | null;
    'x-content-type-options': string | null;
    'x-frame-options': string | null;
  };
  /** Resources it loads over plain HTTP (at most 50). */
  http_resources: { url: string; kind: string }[];
  /** target=_blank links to another origin without noopener or noreferrer (at most 50). */
  unsafe_links: string[];
}

/** What is wrong with one alternate a page names. */
export type HreflangProblem = 'invalid code' | 'no return link' | 'not 200' | 'non-indexable';

export interface HreflangAlternate {
  lang: string;
  target_id: number;
  target_url: string;
  /** The target's results row exists (crawled); its status when it is. */
  crawled: boolean;
  status_code: number | null;
  problems: HreflangProblem[];
}

/** A page's hreflang alternates (its own <link rel="alternate" hreflang>), each with its problems, and the set's. */
export interface HreflangDetail {
  alternates: HreflangAlternate[];
  missing_x_default: boolean;
  missing_self: boolean;
}
