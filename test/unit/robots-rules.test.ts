// robots.txt read as RFC 9309 says: our own group when there is one, else *; 4xx allows all; 5xx and no response
// disallow all (the reason kept for the rows); Crawl-delay honoured up to the cap.
import { describe, expect, it } from 'vitest';
import { robotsRulesFrom } from '../../electron/engine/frontier/robots-rules.ts';
import { robotsCrashSettles, robotsFetchFailed } from '../../electron/engine/frontier/robots-policy.ts';
import { MAX_WORKER_CRASHES } from '../../electron/engine/frontier/model.ts';
import { DEFAULT_USER_AGENT, LIMITS } from '../../shared/settings.ts';

const URL_ = 'http://a.test/robots.txt';
const TXT =
  'User-agent: *\nDisallow: /all-bots\n\nUser-agent: Trawl\nDisallow: /trawl-only\nCrawl-delay: 2\n\nUser-agent: OtherBot\nDisallow: /\n';

describe('robots.txt rules', () => {
  it("uses the user agent's own group when it exists, else *", () => {
    const ours = robotsRulesFrom(URL_, 200, TXT, DEFAULT_USER_AGENT);
    expect(ours.isAllowed('http://a.test/trawl-only/x')).toBe(false);
    // Our group replaces *: what only * disallows is allowed to us.
    expect(ours.isAllowed('http://a.test/all-bots/x')).toBe(true);
    expect(ours.crawlDelayMs).toBe(2_000);
    const other = robotsRulesFrom(URL_, 200, TXT, 'SomeCrawler/2.0');
    expect(other.isAllowed('http://a.test/all-bots/x')).toBe(false);
    expect(other.isAllowed('http://a.test/trawl-only/x')).toBe(true);
    expect(other.crawlDelayMs).toBe(0);
  });

  it('caps Crawl-delay', () => {
    const rules = robotsRulesFrom(URL_, 200, 'User-agent: *\nCrawl-delay: 3600\n', DEFAULT_USER_AGENT);
    expect(rules.crawlDelayMs).toBe(LIMITS.crawlDelayCapMs);
  });

  it('allows everything after a 4xx, blocks everything after a 5xx or no response, and says why', () => {
    expect(robotsRulesFrom(URL_, 404, null, DEFAULT_USER_AGENT).isAllowed('http://a.test/x')).toBe(true);
    const down = robotsRulesFrom(URL_, 503, null, DEFAULT_USER_AGENT);
    expect([down.isAllowed('http://a.test/x'), down.blockedReason]).toEqual([false, 'blocked: robots.txt HTTP 503']);
    const refused = robotsRulesFrom(URL_, null, null, DEFAULT_USER_AGENT, 'connection refused');
    expect(refused.blockedReason).toBe('blocked: robots.txt unreachable (connection refused)');
    // A name that does not resolve: the URLs fail with the DNS error itself.
    expect(robotsRulesFrom(URL_, null, null, DEFAULT_USER_AGENT, 'DNS lookup failed').blockedReason).toBe('DNS lookup failed');
  });

  it('takes a 2xx whose body did not arrive whole as unreachable (tried again, then blocking), never as allow all', () => {
    // A connection reset mid-body: the worker keeps no body, and an empty robots.txt would allow everything.
    const reset = { statusCode: 200, error: 'connection reset' };
    expect(robotsFetchFailed(reset)).toBe(true);
    const rules = robotsRulesFrom(URL_, 200, null, DEFAULT_USER_AGENT, 'connection reset');
    expect([rules.isAllowed('http://a.test/x'), rules.blockedReason]).toEqual([
      false,
      'blocked: robots.txt incomplete (HTTP 200, connection reset)',
    ]);
    expect(robotsFetchFailed({ statusCode: 200, error: null })).toBe(false);
    expect(robotsFetchFailed({ statusCode: 404, error: null })).toBe(false);
    expect(robotsFetchFailed({ statusCode: 503, error: null })).toBe(true);
    expect(robotsFetchFailed({ statusCode: null, error: 'connection refused' })).toBe(true);
  });

  it('settles a robots.txt whose job ran past its deadline at once, and one that crashed its worker after MAX_WORKER_CRASHES', () => {
    expect(robotsFetchFailed({ statusCode: null, error: 'processing timeout' })).toBe(false);
    expect(robotsRulesFrom(URL_, null, null, DEFAULT_USER_AGENT, 'processing timeout').blockedReason).toBe(
      'blocked: robots.txt unreachable (processing timeout)',
    );
    expect(robotsCrashSettles(MAX_WORKER_CRASHES - 1)).toBe(false);
    expect(robotsCrashSettles(MAX_WORKER_CRASHES)).toBe(true);
  });
});
