// robots.txt parsed and matched as RFC 9309 says, in time a site cannot blow up. The file is read up to
// ROBOTS_MAX_BYTES (the rest is ignored, as the RFC allows); a URL is matched against each rule with the greedy
// glob algorithm: the literal text between `*`s is found left to right with indexOf (leftmost placement is always
// right for `*`-only patterns, so nothing is ever backtracked), which is O(path) per rule instead of the
// O(rule x path) of the position-set matcher robots-parser and google/robotstxt use.
//
// The semantics are the ones robots-parser gave before: groups by user agent (product token: lower case, up to the
// first "/"), a crawler's own group replaces `*`, groups of the same agent add up, the longest matching rule wins
// and Allow wins a tie, `$` at a rule's end anchors it, rules and paths compared with percent-escapes upper-cased
// and non-ASCII percent-encoded, the last Crawl-delay of a group counts.

/** RFC 9309 2.5: a crawler must read at least 500 KiB of robots.txt and may ignore the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

interface Rule {
  /** The rule's path pattern after normalisation; its length decides which rule wins. */
  pattern: string;
  allow: boolean;
  /** The literal pieces between `*`s (a trailing `$` removed): the first is a prefix, the others follow in order. */
  pieces: string[];
  /** The pattern ended with `$`: the last piece must end the path. */
  anchored: boolean;
}

interface Group {
  /** Longest first, and Allow before Disallow at equal length: the first rule that matches decides. */
  rules: Rule[];
  crawlDelay?: number;
}

export interface ParsedRobots {
  /** True when the path (path and query, as URL gives them) may be fetched. */
  isPathAllowed(path: string, userAgent: string): boolean;
  /** True when the URL may be fetched; URLs of another origin, or none, are not this file's business (allowed). */
  isAllowed(url: string, userAgent: string): boolean;
  /** The Crawl-delay (seconds) of the group that applies to the agent, if it has one. */
  crawlDelay(userAgent: string): number | undefined;
  sitemaps: string[];
}

/** "Trawl/0.1 (+https://…)" -> "trawl": the product token, compared case-insensitively. */
export function productToken(userAgent: string): string {
  const lower = userAgent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash > -1 ? lower.slice(0, slash) : lower).trim();
}

/** Percent-escapes in upper case (%2f -> %2F), so that rules and paths compare escape for escape. */
function upperEscapes(s: string): string {
  return s.indexOf('%') === -1 ? s : s.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase());
}

/** A rule's pattern in the form URL gives paths: non-ASCII percent-encoded, escapes kept and upper-cased. */
export function normalisePattern(pattern: string): string {
  try {
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern; // a lone surrogate: encodeURI refuses it, keep the rule as written
  }
}

function compileRule(raw: string, allow: boolean): Rule {
  const pattern = normalisePattern(raw);
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  return { pattern, allow, pieces, anchored };
}

/** Whether `rule` matches `path` (from its start): `*` is any run of characters, a final `$` the end of the path. */
export function ruleMatches(pieces: readonly string[], anchored: boolean, path: string): boolean {
  const first = pieces[0]!;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let at = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const found = path.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  const tail = pieces[last]!;
  if (anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, at) >= 0;
}

/**
 * The text robots.txt rules are read from: at most ROBOTS_MAX_BYTES of UTF-8, and when the file reaches it, its
 * cut last line dropped (half a rule must not block or allow anything). A byte order mark is not part of the text.
 */
export function robotsTextWithinCap(text: string): string {
  let body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Each UTF-16 unit is at most 3 UTF-8 bytes: short texts are under the cap without encoding them.
  // A text of the cap's length was cut there (the worker reads no more; its decoder drops a 3-byte BOM), its last
  // line most likely mid-rule.
  if (body.length * 3 >= ROBOTS_MAX_BYTES - 3 && Buffer.byteLength(body) >= ROBOTS_MAX_BYTES - 3) {
    body = Buffer.from(body).subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
    const lastBreak = Math.max(body.lastIndexOf('\n'), body.lastIndexOf('\r'));
    body = body.slice(0, lastBreak + 1);
  }
  return body;
}

/** Parses a robots.txt body; never throws, whatever the bytes. */
export function parseRobotsTxt(text: string): ParsedRobots {
  const groups = new Map<string, { rules: Map<string, Rule>; crawlDelay?: number }>();
  const sitemaps: string[] = [];
  const groupOf = (agent: string) => {
    let g = groups.get(agent);
    if (!g) groups.set(agent, (g = { rules: new Map() }));
    return g;
  };
  let agents: string[] = [];
  // A run of User-agent lines names one group; any other directive ends the run.
  let inAgentRun = false;
  for (const line of robotsTextWithinCap(text).split(/\r\n|\r|\n/)) {
    const hash = line.indexOf('#');
    const content = hash > -1 ? line.slice(0, hash) : line;
    const colon = content.indexOf(':');
    if (colon < 0) continue;
    const key = content.slice(0, colon).trim().toLowerCase();
    if (key === '') continue;
    const value = content.slice(colon + 1).trim();
    switch (key) {
      case 'user-agent':
        if (!inAgentRun) agents = [];
        if (value) agents.push(productToken(value));
        break;
      case 'allow':
      case 'disallow':
        for (const agent of agents) {
          const group = groupOf(agent);
          // An empty rule matches nothing, but a group that has only it still is the agent's group.
          if (!value) continue;
          const allow = key === 'allow';
          const rule = compileRule(value, allow);
          group.rules.set(`${allow ? 'A' : 'D'}${rule.pattern}`, rule);
        }
        break;
      case 'crawl-delay': {
        const delay = Number(value);
        for (const agent of agents) {
          const group = groupOf(agent);
          if (!Number.isNaN(delay)) group.crawlDelay = delay;
        }
        break;
      }
      case 'sitemap':
        if (value) sitemaps.push(value);
        break;
    }
    inAgentRun = key === 'user-agent';
  }

  const compiled = new Map<string, Group>();
  for (const [agent, g] of groups) {
    const rules = [...g.rules.values()].sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow));
    compiled.set(agent, g.crawlDelay === undefined ? { rules } : { rules, crawlDelay: g.crawlDelay });
  }
  const groupFor = (userAgent: string): Group | undefined => compiled.get(productToken(userAgent || '*')) ?? compiled.get('*');

  const isPathAllowed = (path: string, userAgent: string): boolean => {
    const group = groupFor(userAgent);
    if (!group) return true;
    const normal = upperEscapes(path);
    for (const rule of group.rules) if (ruleMatches(rule.pieces, rule.anchored, normal)) return rule.allow;
    return true;
  };

  return {
    isPathAllowed,
    isAllowed(url, userAgent) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return true;
      }
      return isPathAllowed(parsed.pathname + parsed.search, userAgent);
    },
    crawlDelay: (userAgent) => groupFor(userAgent)?.crawlDelay,
    sitemaps,
  };
}
