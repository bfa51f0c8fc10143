// robots.txt at the edges mutation testing found untested (robots-txt.ts, robots-rules.ts): rules starting with `*`,
// `$` rules whose tail overlaps what came before, a file of exactly the cap, consecutive User-agent lines, an Allow
// and a Disallow of one pattern, an unreadable Crawl-delay, a lone surrogate, which statuses count as rules, and the
// per-host cache of parsed rules. Each case is a one-character change in those files that no other test noticed.
import { describe, expect, it } from 'vitest';
import { RobotsCache, robotsRulesFrom, robotsUrlOf, type StoredRobots } from '../../electron/engine/frontier/robots-rules.ts';
import { parseRobotsTxt, productToken, ROBOTS_MAX_BYTES, robotsTextWithinCap } from '../../electron/engine/frontier/robots-txt.ts';
import { DEFAULT_USER_AGENT } from '../../shared/settings.ts';

const ROBOTS_URL = 'http://a.test/robots.txt';
const allowed = (txt: string, path: string, ua = DEFAULT_USER_AGENT) =>
  robotsRulesFrom(ROBOTS_URL, 200, txt, ua).isAllowed(`http://a.test${path}`);

describe('robots.txt matching', () => {
  it('matches a rule starting with * from the first character of the path', () => {
    const txt = 'User-agent: *\nDisallow: */admin\nDisallow: */private/*.pdf\n';
    expect(allowed(txt, '/admin')).toBe(false);
    expect(allowed(txt, '/x/admin')).toBe(false);
    expect(allowed(txt, '/private/a.pdf')).toBe(false);
    expect(allowed(txt, '/y/private/a.pdf')).toBe(false);
    expect(allowed(txt, '/private/a.html')).toBe(true);
  });

  it('does not let the tail of a $ rule overlap the pieces before it', () => {
    const txt = 'User-agent: *\nDisallow: /ab*b$\n';
    expect(allowed(txt, '/ab')).toBe(true);
    expect(allowed(txt, '/abb')).toBe(false);
    expect(allowed(txt, '/abxb')).toBe(false);
    expect(allowed(txt, '/abxbc')).toBe(true);
  });

  it('lets Allow win over a Disallow of the very same pattern, in either order', () => {
    expect(allowed('User-agent: *\nAllow: /x\nDisallow: /x\n', '/x')).toBe(true);
    expect(allowed('User-agent: *\nDisallow: /x\nAllow: /x\n', '/x')).toBe(true);
  });

  it('allows a URL that does not parse (not this file’s business)', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow: /\n').isAllowed('not a url', DEFAULT_USER_AGENT)).toBe(true);
  });
});

describe('robots.txt parsing', () => {
  it('gives consecutive User-agent lines one group, even across lines it ignores', () => {
    const txt = 'User-agent: a\nUser-agent: b\nnonsense\n: no key\nUser-agent: c\nDisallow: /x\n\nUser-agent: d\nDisallow: /y\n';
    for (const ua of ['a', 'b', 'c']) {
      expect(allowed(txt, '/x', ua), ua).toBe(false);
      expect(allowed(txt, '/y', ua), ua).toBe(true);
    }
    expect(allowed(txt, '/x', 'd')).toBe(true);
    expect(allowed(txt, '/y', 'd')).toBe(false);
  });

  it('reads indented lines and product tokens with spaces before the slash', () => {
    const txt = '  User-agent: Trawl\n\tDisallow: /x\n';
    expect(allowed(txt, '/x', 'Trawl /1.0')).toBe(false);
    expect(productToken('  Trawl /1.0 (+https://x)')).toBe('trawl');
    expect(productToken('a/1.0')).toBe('a');
    expect(productToken('/1.0')).toBe('');
    expect(allowed('User-agent: a\nDisallow: /x\n', '/x', 'a/1.0')).toBe(false);
  });

  it('ignores a Crawl-delay that is not a number, and empty Sitemap lines', () => {
    const parsed = parseRobotsTxt('User-agent: *\nCrawl-delay: soon\nSitemap:\nSitemap: http://a.test/s.xml\n');
    expect(parsed.crawlDelay(DEFAULT_USER_AGENT)).toBeUndefined();
    expect(parsed.sitemaps).toEqual(['http://a.test/s.xml']);
    expect(robotsRulesFrom(ROBOTS_URL, 200, 'User-agent: *\nCrawl-delay: soon\n', DEFAULT_USER_AGENT).crawlDelayMs).toBe(0);
  });

  it('never throws on a rule with a lone surrogate, and keeps the other rules', () => {
    const txt = 'User-agent: *\nDisallow: /a\uD800\nDisallow: /b\n';
    expect(() => parseRobotsTxt(txt)).not.toThrow();
    expect(allowed(txt, '/b')).toBe(false);
    expect(allowed(txt, '/c')).toBe(true);
  });
});

describe('robots.txt size cap', () => {
  it('keeps the last line of a file under the cap, newline or not', () => {
    expect(allowed('User-agent: *\nDisallow: /x', '/x')).toBe(false);
    // Long enough that its characters could reach the cap as UTF-8, but its bytes do not.
    const long = `User-agent: *\n#${'x'.repeat(200_000)}\nDisallow: /x`;
    expect(robotsTextWithinCap(long)).toBe(long);
    expect(allowed(long, '/x')).toBe(false);
  });

  it('drops the cut last line of a file of exactly the cap (less the BOM the decoder dropped), and only that line', () => {
    const head = 'User-agent: *\n';
    const tail = 'Disallow: /ab\nDisallow: /';
    const padding = `#${'x'.repeat(ROBOTS_MAX_BYTES - 3 - head.length - tail.length - 2)}\n`;
    const txt = `${head}${padding}${tail}`;
    expect(Buffer.byteLength(txt)).toBe(ROBOTS_MAX_BYTES - 3);
    expect(robotsTextWithinCap(txt)).toBe(`${head}${padding}Disallow: /ab\n`);
    expect(allowed(txt, '/ab/x')).toBe(false);
    expect(allowed(txt, '/ac')).toBe(true);
    // The same file cut at a CR line break.
    const cr = txt.replaceAll('\n', '\r');
    expect(robotsTextWithinCap(cr)).toBe(`${head}${padding}Disallow: /ab\n`.replaceAll('\n', '\r'));
  });
});

describe('robots.txt rules of a fetch', () => {
  it('reads rules only from a 2xx: a 3xx or 4xx body is not robots.txt', () => {
    const all = 'User-agent: *\nDisallow: /\n';
    expect(robotsRulesFrom(ROBOTS_URL, 200, all, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(false);
    expect(robotsRulesFrom(ROBOTS_URL, 299, all, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(false);
    expect(robotsRulesFrom(ROBOTS_URL, 300, all, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(true);
    expect(robotsRulesFrom(ROBOTS_URL, 404, all, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(true);
    expect(robotsRulesFrom(ROBOTS_URL, 499, null, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(true);
    expect(robotsRulesFrom(ROBOTS_URL, 500, null, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(false);
  });

  it('says why a URL is blocked, and leaves URLs of other origins alone', () => {
    const rules = robotsRulesFrom(ROBOTS_URL, 200, 'User-agent: *\nDisallow: /x\n', DEFAULT_USER_AGENT);
    expect(rules.blockedReason).toBe('blocked by robots.txt');
    expect(rules.isAllowed('http://a.test/x')).toBe(false);
    expect(rules.isAllowed('http://b.test/x')).toBe(true);
    expect(rules.isAllowed('http://a.test:8080/x')).toBe(true);
  });

  it('blocks every URL of a host whose name does not resolve, or that gave no response', () => {
    const dns = robotsRulesFrom(ROBOTS_URL, null, null, DEFAULT_USER_AGENT, 'DNS lookup failed (ENOTFOUND a.test)');
    expect([dns.isAllowed('http://a.test/x'), dns.blockedReason]).toEqual([false, 'DNS lookup failed (ENOTFOUND a.test)']);
    const silent = robotsRulesFrom(ROBOTS_URL, null, null, DEFAULT_USER_AGENT);
    expect([silent.isAllowed('http://a.test/x'), silent.blockedReason]).toEqual([false, 'blocked: robots.txt unreachable (no response)']);
  });
});

describe('the cache of parsed rules', () => {
  const host = (id: number, txt: string): StoredRobots => ({
    id,
    origin: `http://h${id}.test`,
    robots_status: 200,
    robots_txt: txt,
    robots_error: null,
  });
  const settings = { robots: 'respect', userAgent: DEFAULT_USER_AGENT };

  it("finds a host's robots.txt at /robots.txt of its origin", () => {
    expect(robotsUrlOf('http://a.test:8080')).toBe('http://a.test:8080/robots.txt');
  });

  it('parses a host row once and keeps it; none when the crawl ignores robots.txt', () => {
    const cache = new RobotsCache();
    const rules = cache.rulesFor(host(1, 'User-agent: *\nDisallow: /x\n'), settings);
    expect(rules?.isAllowed('http://h1.test/x')).toBe(false);
    expect(rules?.isAllowed('http://h1.test/y')).toBe(true);
    // The row is read once: a later row of the same host does not replace the rules.
    expect(cache.rulesFor(host(1, ''), settings)).toBe(rules);
    expect(cache.rulesFor(host(2, ''), { ...settings, robots: 'ignore' })).toBeNull();
    expect(cache.get(2)).toBeUndefined();
  });

  it('keeps the most recently used hosts up to its capacity', () => {
    const cache = new RobotsCache(2);
    const a = cache.rulesFor(host(1, ''), settings);
    const b = cache.rulesFor(host(2, ''), settings);
    expect(cache.get(1)).toBe(a); // 1 is now the most recent
    cache.rulesFor(host(3, ''), settings);
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBe(a);
    expect(cache.get(3)).toBeDefined();
    expect(b).not.toBe(a);
    // Setting a host again does not push another out.
    cache.set(3, a!);
    expect(cache.get(1)).toBe(a);
    expect(cache.get(3)).toBe(a);
  });
});
