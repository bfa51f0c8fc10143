// Extract from the response head what the engine acts on: Retry-After (for the retry policy) and X-Robots-Tag
// (indexability and nofollow); and keep the head itself, bounded, for the URL's detail view.
import { RESPONSE_HEADERS_MAX, SECURITY_HEADER_MAX, type PageSecurity } from '../../../shared/protocol.ts';
import type { Processor } from './processor.ts';

export const extractHttpHeaders: Processor = {
  name: 'extract-http-headers',
  step: 'processing',
  run(uri) {
    const headers = uri.outcome?.headers ?? {};
    uri.result.retryAfterMs = parseRetryAfter(headers['retry-after']);
    uri.result.xRobotsTag = headers['x-robots-tag'] ?? null;
    if (uri.outcome?.statusCode != null) uri.result.responseHeaders = boundedHeaders(headers);
    return 'next';
  },
};

/** The headers in order until RESPONSE_HEADERS_MAX characters; a header that does not fit is cut, the rest left out. */
export function boundedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  let room = RESPONSE_HEADERS_MAX;
  for (const [name, value] of Object.entries(headers)) {
    if (room <= name.length) break;
    room -= name.length;
    out[name] = value.length > room ? value.slice(0, room) : value;
    room -= out[name]!.length;
  }
  return out;
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3), in ms from now; null when absent or unusable. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The headers that protect a page (issue 18.5), each cut to SECURITY_HEADER_MAX: read from the whole head, so a
 * large head whose kept copy (boundedHeaders) is cut still shows them.
 */
export function securityHeaders(
  headers: Record<string, string>,
): Pick<PageSecurity, 'hsts' | 'csp' | 'xContentTypeOptions' | 'xFrameOptions'> {
  const get = (name: string) => {
    const v = headers[name];
    return v === undefined ? null : v.length > SECURITY_HEADER_MAX ? v.slice(0, SECURITY_HEADER_MAX) : v;
  };
  return {
    hsts: get('strict-transport-security'),
    csp: get('content-security-policy'),
    xContentTypeOptions: get('x-content-type-options'),
    xFrameOptions: get('x-frame-options'),
  };
}
