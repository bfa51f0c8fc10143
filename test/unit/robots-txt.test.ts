// robots.txt parsing and matching (robots-txt.ts): RFC 9309's semantics as before, in time a hostile file cannot
// blow up, and only the first 500 KiB read. The property tests (fast-check, seeded) check the matcher against a
// regular-expression reference, that parsing never throws, and that matching stays fast on large random input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROBOTS_TOO_COMPLEX, robotsRulesFrom } from '../../electron/engine/frontier/robots-rules.ts';
import { parseRobotsTxt, ROBOTS_MAX_BYTES, ruleMatches } from '../../electron/engine/frontier/robots-txt.ts';
import { DEFAULT_USER_AGENT } from '../../shared/settings.ts';
import { manyShortRules, pathologicalRobots } from '../helpers/hostile-robots.ts';

const ROBOTS_URL = 'http://a.test/robots.txt';
const allowed = (txt: string, path: string, ua = DEFAULT_USER_AGENT) =>
  robotsRulesFrom(ROBOTS_URL, 200, txt, ua).isAllowed(`http://a.test${path}`);

describe('robots.txt semantics', () => {
  it('takes the longest matching rule, Allow on a tie, and $ as the end of the path', () => {
    const txt = 'User-agent: *\nDisallow: /shop\nAllow: /shop/public\nDisallow: /*.pdf$\nAllow: /tie\nDisallow: /tie\n';
    expect(allowed(txt, '/shop/cart')).toBe(false);
    expect(allowed(txt, '/shop/public/x')).toBe(true);
    expect(allowed(txt, '/docs/a.pdf')).toBe(false);
    expect(allowed(txt, '/docs/a.pdf?x=1')).toBe(true);
    expect(allowed(txt, '/tie/x')).toBe(true);
    expect(allowed(txt, '/other')).toBe(true);
  });

  it('matches * across any characters, the query included, and keeps $ literal before the end', () => {
    const txt = 'User-agent: *\nDisallow: /*/private/*.html\nDisallow: /*?*sessionid=\nDisallow: /a$b\n';
    expect(allowed(txt, '/x/y/private/z/page.html')).toBe(false);
    expect(allowed(txt, '/x/private/page.htm')).toBe(true);
    expect(allowed(txt, '/list?a=1&sessionid=2')).toBe(false);
    expect(allowed(txt, '/a$b/c')).toBe(false);
    expect(allowed(txt, '/ab')).toBe(true);
  });

  it('compares percent-escapes in either case and non-ASCII rules as URLs encode them', () => {
    const txt = 'User-agent: *\nDisallow: /caf\u00e9\nDisallow: /a%2fb\n';
    expect(allowed(txt, '/caf%C3%A9/menu')).toBe(false);
    expect(allowed(txt, '/a%2Fb')).toBe(false);
    expect(allowed(txt, '/a/b')).toBe(true);
  });

  it("picks the agent's group by product token, case-insensitively; groups add up; * otherwise", () => {
    const txt = [
      'User-agent: other',
      'User-agent: TRAWL/9.9',
      'Disallow: /both',
      '',
      'User-agent: *',
      'Disallow: /star',
      'User-agent: trawl',
      'Disallow: /later',
      'Crawl-delay: 1.5',
    ].join('\r\n');
    // "User-agent: trawl" after a Disallow line opens a new group for trawl, which adds to the first one.
    expect([allowed(txt, '/both'), allowed(txt, '/later'), allowed(txt, '/star')]).toEqual([false, false, true]);
    expect([allowed(txt, '/both', 'Bot'), allowed(txt, '/star', 'Bot')]).toEqual([true, false]);
    expect(robotsRulesFrom(ROBOTS_URL, 200, txt, DEFAULT_USER_AGENT).crawlDelayMs).toBe(1_500);
    // A group with only an empty Disallow is still the agent's own: * does not apply.
    expect(allowed('User-agent: *\nDisallow: /\n\nUser-agent: trawl\nDisallow:\n', '/x')).toBe(true);
  });

  it('ignores comments, lines without a colon, unknown keys, rules before any group and a byte order mark', () => {
    const txt = '\ufeffDisallow: /orphan\nUser-agent: * # all\nnonsense\nDisallow: /a # not /a-b\nFoo: /b\n';
    expect([allowed(txt, '/orphan'), allowed(txt, '/a'), allowed(txt, '/b')]).toEqual([true, false, true]);
    expect(parseRobotsTxt('Sitemap: http://a.test/s.xml\n').sitemaps).toEqual(['http://a.test/s.xml']);
  });
});

describe('a hostile robots.txt', () => {
  it('is matched in bounded time: the issue file against long paths (robots-parser took 5.8 s per check)', () => {
    const started = performance.now();
    const rules = robotsRulesFrom(ROBOTS_URL, 200, pathologicalRobots(), DEFAULT_USER_AGENT);
    for (const n of [2_048, 2_048, 4_096, 8_192]) {
      expect(rules.isAllowed(`http://a.test/${'a'.repeat(n - 1)}`)).toBe(true);
      expect(rules.isAllowed(`http://a.test/${'a'.repeat(n - 3)}b1`)).toBe(false);
    }
    // A loose hang bound: the parse and 8 checks take milliseconds; before, each check took seconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('of 25,000 short rules costs each long URL little, literal prefixes or leading *s (it took 0.2-2.5 s each)', () => {
    for (const star of [false, true]) {
      const started = performance.now();
      const rules = robotsRulesFrom(ROBOTS_URL, 200, manyShortRules(star), DEFAULT_USER_AGENT);
      for (let k = 0; k < 50; k++) {
        for (const n of [2_048, 8_192]) {
          // No rule matches these: they are allowed, as before.
          expect(rules.refusal(`http://a.test/${'a'.repeat(n - 1 - (k % 7))}${'c'.repeat(k % 7)}`)).toBeNull();
        }
      }
      // Rule 777 matches this one.
      expect(rules.refusal(`http://a.test/${'a'.repeat(2_000)}a777b`)).toBe('blocked by robots.txt');
      // Here every rule's pair of characters is in the path, so each one is searched for; past the budget the
      // URL is refused as too complex (conservatively: before it was allowed, after seconds).
      const digits = Array.from({ length: 250 }, (_, i) => `a${i}`).join('');
      const refusal = rules.refusal(`http://a.test/${'a'.repeat(8_192 - digits.length)}${digits}`);
      expect([null, ROBOTS_TOO_COMPLEX]).toContain(refusal);
      // A loose hang bound: a parse and 100 long URLs; before, the URLs alone took 17 s (prefixes) or 150 s (*).
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });

  it('is read up to 500 KiB: rules past it are ignored, and the line cut there too', () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const padding = `#${'x'.repeat(ROBOTS_MAX_BYTES - head.length - 30)}\n`;
    const cut = 'Disallow: /cut-rule-that-goes-past-the-cap\n';
    const txt = `${head}${padding}${cut}Disallow: /late\n`;
    expect(Buffer.byteLength(`${head}${padding}`)).toBeLessThan(ROBOTS_MAX_BYTES);
    expect(Buffer.byteLength(`${head}${padding}${cut}`)).toBeGreaterThan(ROBOTS_MAX_BYTES);
    expect(allowed(txt, '/early')).toBe(false);
    expect(allowed(txt, '/late')).toBe(true);
    // The cut line reads "Disallow: /cut-r…": half a rule, which would block more than the rule did.
    expect(allowed(txt, '/cut-r')).toBe(true);
    // Multi-byte characters count as their UTF-8 bytes.
    const wide = `${head}#${'\u00e9'.repeat(ROBOTS_MAX_BYTES / 2)}\nDisallow: /late\n`;
    expect(allowed(wide, '/late')).toBe(true);
  });
});

// ---- properties ----

const SEED = 1_309;
const RUNS = 10_000;

/** The reference: the rule as a regular expression (`*` any run, a final `$` the end), for small inputs only. */
function referenceMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}

const piece = (chars: string[], max: number) => fc.array(fc.constantFrom(...chars), { maxLength: max }).map((a) => a.join(''));
const rulePattern = piece(['a', 'b', '/', '*', '$', '?', '=', '.'], 12).map((p) => `/${p}`);
const urlPath = piece(['a', 'b', '/', '?', '=', '.', '$', '*'], 24).map((p) => `/${p}`);

describe('robots.txt properties (fast-check, seeded)', () => {
  it('a rule matches exactly when its regular-expression reference does', () => {
    fc.assert(
      fc.property(rulePattern, urlPath, (pattern, path) => {
        const anchored = pattern.endsWith('$');
        const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
        expect(ruleMatches(pieces, anchored, path)).toBe(referenceMatches(pattern, path));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a whole file decides as the longest matching rule does, Allow winning ties', () => {
    const rule = fc.record({ allow: fc.boolean(), pattern: rulePattern });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 12 }), urlPath, (rules, path) => {
        const txt = `User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`;
        let best: { length: number; allow: boolean } | null = null;
        for (const r of rules) {
          if (!referenceMatches(r.pattern, path)) continue;
          if (!best || r.pattern.length > best.length || (r.pattern.length === best.length && r.allow)) {
            best = { length: r.pattern.length, allow: r.allow };
          }
        }
        expect(parseRobotsTxt(txt).isPathAllowed(path, DEFAULT_USER_AGENT)).toBe(best?.allow ?? true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('parsing and matching never throw, whatever the text and the URL', () => {
    const line = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc
        .tuple(
          fc.constantFrom('User-agent', 'Allow', 'Disallow', 'Crawl-delay', 'Sitemap', 'user-AGENT'),
          fc.string({ unit: 'binary', maxLength: 30 }),
        )
        .map(([k, v]) => `${k}:${v}`),
    );
    const text = fc.array(line, { maxLength: 12 }).chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((nl) => lines.join(nl)));
    const bytes = fc.uint8Array({ maxLength: 200 }).map((b) => new TextDecoder().decode(b));
    fc.assert(
      fc.property(fc.oneof(text, bytes), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 20 }), (txt, path, ua) => {
        const rules = robotsRulesFrom(ROBOTS_URL, 200, txt, ua);
        expect(typeof rules.isAllowed(`http://a.test/${path}`)).toBe('boolean');
        expect(typeof rules.isAllowed(path)).toBe('boolean');
        expect(rules.crawlDelayMs).toBeGreaterThanOrEqual(0);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('matching time stays bounded on large random files and long paths', () => {
    const bigRule = piece(['a', 'b', '*', '/'], 60).map((p) => `Disallow: /${p}`);
    const longPath = fc.array(fc.constantFrom('a', 'a', 'a', 'b', '/'), { minLength: 500, maxLength: 2_000 }).map((a) => `/${a.join('')}`);
    let worstMs = 0;
    fc.assert(
      fc.property(fc.array(bigRule, { minLength: 50, maxLength: 150 }), longPath, (rules, path) => {
        const parsed = parseRobotsTxt(`User-agent: *\n${rules.join('\n')}\n`);
        const started = performance.now();
        parsed.isPathAllowed(path, DEFAULT_USER_AGENT);
        worstMs = Math.max(worstMs, performance.now() - started);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // A loose hang bound: a check takes well under a millisecond here.
    expect(worstMs).toBeLessThan(500);
  });
});
