// Robots directives of a page (meta robots content, or an X-Robots-Tag header): a comma-separated list such as
// "noindex, nofollow", where a directive may be scoped to one crawler ("googlebot: noindex") and some carry a
// value of their own ("max-image-preview: none", "unavailable_after: 2026-01-01"), which is not the "none"
// directive. One reading for indexability (engine) and nofollow (worker).

/** Directives that take a value after a colon: their value is never a directive. */
const VALUED = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after', 'indexifembedded']);

/** The bare directives of a list, lower-case, with crawler scopes ("googlebot:") removed and valued ones left out. */
export function robotsDirectives(list: string | null): string[] {
  if (list === null) return [];
  const out: string[] = [];
  for (const raw of list.toLowerCase().split(',')) {
    let token = raw.trim();
    const colon = token.indexOf(':');
    if (colon !== -1) {
      const head = token.slice(0, colon).trim();
      if (VALUED.has(head)) continue;
      // "googlebot: noindex": the part after the crawler's name. (A valued directive after a scope,
      // "googlebot: max-snippet: 20", is still valued.)
      token = token.slice(colon + 1).trim();
      const inner = token.indexOf(':');
      if (inner !== -1 && VALUED.has(token.slice(0, inner).trim())) continue;
    }
    if (token) out.push(token);
  }
  return out;
}

export function saysNoindex(list: string | null): boolean {
  return robotsDirectives(list).some((d) => d === 'noindex' || d === 'none');
}

export function saysNofollow(list: string | null): boolean {
  return robotsDirectives(list).some((d) => d === 'nofollow' || d === 'none');
}
