// robots.txt parsed and matched as RFC 9309 says, in time a site cannot blow up. The file is read up to
// ROBOTS_MAX_BYTES (the rest is ignored, as the RFC allows); a URL is matched against each rule with the greedy
// glob algorithm: the literal text between `*`s is found left to right with indexOf (leftmost placement is always
// right for `*`-only patterns, so nothing is ever backtracked), which is O(path) per rule instead of the
// O(rule x path) of the position-set matcher robots-parser and google/robotstxt use.
//
// A file of many rules must not make each URL cost rules x path either (the claim loop matches every queued URL in
// the parent process). A group's rules are indexed by their literal prefix (the text before the first `*`), in a
// sorted array: a path walks it once, narrowing by binary search one character at a time, and tries only the rules
// whose prefix it starts with, best first, stopping at the first that cannot beat the best match so far. The
// characters the remaining wildcard matching scans are counted against ROBOTS_MATCH_BUDGET: past it the URL is not
// evaluated further and is taken as disallowed ("too complex"), so no file makes one URL cost more than that.
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
  /**
   * steps[i]: the id of the rule's pieces 0 to i + 1 as a sequence (i < pieces.length - 2), shared by every rule that
   * starts with the same pieces: where such a sequence ends in a path is found once per path (see Memo).
   */
  steps: Int32Array;
}

interface Group {
  /** The distinct literal prefixes of the group's rules (each rule's first piece), sorted by UTF-16 code unit. */
  prefixes: string[];
  /**
   * rulesOf[i]: the rules whose prefix is prefixes[i], longest first and Allow before Disallow at equal length (the
   * first one that matches is the best of them).
   */
  rulesOf: Rule[][];
  crawlDelay?: number;
}

/**
 * Characters that matching one URL may scan past rules' literal prefixes (indexOf's search for the pieces after a
 * `*`), plus one per rule tried. A real robots.txt stays far below it (tens of wildcard rules against a path of a
 * few hundred characters); past it the URL is "too complex" and is not fetched. About a millisecond of work at worst.
 */
export const ROBOTS_MATCH_BUDGET = 200_000;

/** What a robots.txt says of a path: one of its rules allows or disallows it, or it was too costly to find out. */
export type RobotsCheck = 'allowed' | 'disallowed' | 'too complex';

export interface ParsedRobots {
  /** What the file says of the path (path and query, as URL gives them); "too complex" past ROBOTS_MATCH_BUDGET. */
  checkPath(path: string, userAgent: string): RobotsCheck;
  /** checkPath of the URL's path; an unparsable URL is not this file's business (allowed). */
  checkUrl(url: string, userAgent: string): RobotsCheck;
  /** True when the path may be fetched (checkPath says "allowed"). */
  isPathAllowed(path: string, userAgent: string): boolean;
  /** True when the URL may be fetched (checkUrl says "allowed"). */
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

function compileRule(raw: string, allow: boolean, stepIds: Map<string, number>): Rule {
  const pattern = normalisePattern(raw);
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const steps = new Int32Array(Math.max(0, pieces.length - 2));
  let key = `\u0002${pieces[0]}`;
  for (let i = 0; i < steps.length; i++) {
    key = `${i === 0 ? key : steps[i - 1]}\u0001${pieces[i + 1]}`;
    let id = stepIds.get(key);
    if (id === undefined) stepIds.set(key, (id = stepIds.size));
    steps[i] = id;
  }
  return { pattern, allow, pieces, anchored, steps };
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
  const stepIds = new Map<string, number>();
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
          const rule = compileRule(value, allow, stepIds);
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

  const memo: Memo = { round: 0, round_: new Uint32Array(stepIds.size), end: new Int32Array(stepIds.size) };
  stepIds.clear();
  const compiled = new Map<string, Group>();
  for (const [agent, g] of groups) {
    const byPrefix = new Map<string, Rule[]>();
    for (const rule of g.rules.values()) {
      const list = byPrefix.get(rule.pieces[0]!);
      if (list) list.push(rule);
      else byPrefix.set(rule.pieces[0]!, [rule]);
    }
    // Default sort compares UTF-16 code units, as charCodeAt reads them in prefixesOf.
    const prefixes = [...byPrefix.keys()].sort();
    const rulesOf = prefixes.map((prefix) =>
      byPrefix.get(prefix)!.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow)),
    );
    const group: Group = { prefixes, rulesOf };
    if (g.crawlDelay !== undefined) group.crawlDelay = g.crawlDelay;
    compiled.set(agent, group);
  }
  const groupFor = (userAgent: string): Group | undefined => compiled.get(productToken(userAgent || '*')) ?? compiled.get('*');

  const checkPath = (path: string, userAgent: string): RobotsCheck => {
    const group = groupFor(userAgent);
    if (!group) return 'allowed';
    const normal = upperEscapes(path);
    let best: Rule | null = null;
    let budget = ROBOTS_MATCH_BUDGET;
    gramsOf = null;
    memo.round++;
    for (const i of prefixesOf(group.prefixes, normal)) {
      for (const rule of group.rulesOf[i]!) {
        // The list is best first: once a rule cannot beat the best match, none after it can.
        if (best && (rule.pattern.length < best.pattern.length || (rule.pattern.length === best.pattern.length && !rule.allow))) break;
        budget -= 1;
        const matched = matchAfterPrefix(rule, normal, memo);
        budget -= scanned;
        if (matched) {
          best = rule;
          break;
        }
        if (budget < 0) return 'too complex';
      }
    }
    return best === null || best.allow ? 'allowed' : 'disallowed';
  };
  const checkUrl = (url: string, userAgent: string): RobotsCheck => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'allowed';
    }
    return checkPath(parsed.pathname + parsed.search, userAgent);
  };

  return {
    checkPath,
    checkUrl,
    isPathAllowed: (path, userAgent) => checkPath(path, userAgent) === 'allowed',
    isAllowed: (url, userAgent) => checkUrl(url, userAgent) === 'allowed',
    crawlDelay: (userAgent) => groupFor(userAgent)?.crawlDelay,
    sitemaps,
  };
}

/**
 * The indexes of the entries of `sorted` (distinct strings, sorted by code unit) that are prefixes of `path`, shortest
 * first. The range of entries that start with path[0, i) narrows by two binary searches per character, and the one
 * entry of length i, if any, is first in it: O(p log n) for a walk of p characters, never longer than the path.
 */
function* prefixesOf(sorted: readonly string[], path: string): Generator<number> {
  let lo = 0;
  let hi = sorted.length;
  for (let i = 0; lo < hi; i++) {
    if (sorted[lo]!.length === i) yield lo++;
    if (i >= path.length) return;
    const c = path.charCodeAt(i);
    // Every entry in [lo, hi) is longer than i now, and they are sorted by their character at i.
    let a = lo;
    let b = hi;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (sorted[mid]!.charCodeAt(i) < c) a = mid + 1;
      else b = mid;
    }
    lo = a;
    b = hi;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (sorted[mid]!.charCodeAt(i) <= c) a = mid + 1;
      else b = mid;
    }
    hi = a;
  }
}

/** Characters the last matchAfterPrefix scanned (indexOf's searches), charged to the URL's budget. */
let scanned = 0;

/**
 * The pairs of adjacent characters of the path being matched (a bit per pair, low bytes of each character), filled
 * the first time a rule needs a search: a piece with a pair the path lacks is not in it, found out without a scan.
 * That settles most wildcard rules at once, e.g. the issue's 5,000 rules `/*a*a…*b<n>` against `/aaa…a`.
 */
const GRAMS = new Uint8Array(8_192);
let gramsOf: string | null = null;

function mayContain(path: string, piece: string): boolean {
  if (piece.length < 2) return true;
  if (gramsOf !== path) {
    GRAMS.fill(0);
    for (let j = 1; j < path.length; j++) {
      const g = ((path.charCodeAt(j - 1) & 0xff) << 8) | (path.charCodeAt(j) & 0xff);
      GRAMS[g >>> 3]! |= 1 << (g & 7);
    }
    gramsOf = path;
  }
  for (let j = 1; j < piece.length; j++) {
    const g = ((piece.charCodeAt(j - 1) & 0xff) << 8) | (piece.charCodeAt(j) & 0xff);
    if ((GRAMS[g >>> 3]! & (1 << (g & 7))) === 0) return false;
  }
  return true;
}

/**
 * Where the rules' shared piece sequences (Rule.steps) end in the path being matched: end[id] is valid when
 * round_[id] is the path's round; -1 when the sequence is not in the path.
 */
interface Memo {
  round: number;
  round_: Uint32Array;
  end: Int32Array;
}

/**
 * ruleMatches for a path known to start with pieces[0], counting in `scanned` the characters its searches went over
 * (a search that fails goes to the end of the path) and one per step not already in the memo.
 */
function matchAfterPrefix(rule: Rule, path: string, memo: Memo): boolean {
  scanned = 0;
  const { pieces, anchored, steps } = rule;
  const first = pieces[0]!;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const last = pieces.length - 1;
  // The longest run of this rule's first pieces already placed in this path by a rule that shares them.
  let known = steps.length - 1;
  while (known >= 0 && memo.round_[steps[known]!] !== memo.round) known--;
  if (known >= 0) {
    at = memo.end[steps[known]!]!;
    if (at < 0) return false;
  }
  for (let i = known + 2; i < last; i++) {
    const piece = pieces[i]!;
    const step = steps[i - 1]!;
    memo.round_[step] = memo.round;
    scanned += 1;
    let found = at;
    if (piece !== '') {
      if (!mayContain(path, piece)) {
        scanned += piece.length;
        found = -1;
      } else {
        found = path.indexOf(piece, at);
        scanned += found < 0 ? path.length - at : found - at + piece.length;
      }
    }
    if (found < 0) {
      memo.end[step] = -1;
      return false;
    }
    at = found + piece.length;
    memo.end[step] = at;
  }
  const tail = pieces[last]!;
  if (anchored) {
    scanned += tail.length;
    return path.length - tail.length >= at && path.endsWith(tail);
  }
  if (tail === '') return true;
  if (!mayContain(path, tail)) {
    scanned += tail.length;
    return false;
  }
  const found = path.indexOf(tail, at);
  scanned += found < 0 ? path.length - at : found - at + tail.length;
  return found >= 0;
}
