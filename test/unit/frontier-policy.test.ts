// The frontier's decisions that both stores share (politeness.ts, robots-policy.ts, redirect-chain.ts), called
// directly at their edges: the store contract reaches them only through whole claims, where an off-by-one (a host
// held one fetch early, a chain cut one hop late, a 499 robots.txt taken for a failure) can go unnoticed.
import { describe, expect, it } from 'vitest';
import { HELD, MAX_REDIRECT_HOPS, RobotsState, type PageClaim } from '../../electron/engine/frontier/model.ts';
import { hostCap, hostShare, nextFetchAfter, nextFetchAfterClaim, nextReadyFrom } from '../../electron/engine/frontier/politeness.ts';
import { redirectVerdict, redirectVerdictAsync, type ChainLink } from '../../electron/engine/frontier/redirect-chain.ts';
import { awaitsRobots, robotsFetchFailed, robotsRetryWaitMs, robotsVerdict } from '../../electron/engine/frontier/robots-policy.ts';
import type { RobotsRules } from '../../electron/engine/frontier/robots-rules.ts';

describe('politeness', () => {
  const free = { delayMs: 0, polite: false, maxPerHost: 4 };

  it('lets a host take maxPerHost fetches at once (any number when unset), one when any delay applies', () => {
    expect(hostCap(free, 0)).toBe(4);
    expect(hostCap({ ...free, maxPerHost: null }, 0)).toBe(Infinity);
    expect(hostCap({ ...free, polite: true }, 0)).toBe(1);
    expect(hostCap({ ...free, delayMs: 1 }, 0)).toBe(1);
    expect(hostCap(free, 1)).toBe(1);
  });

  it("takes a fair share of the claims wanted, at least one, within the host's room", () => {
    expect(hostShare(10, 10, 3)).toBe(4);
    expect(hostShare(10, 9, 3)).toBe(3);
    expect(hostShare(2, 10, 3)).toBe(2);
    expect(hostShare(10, 1, 5)).toBe(1);
    expect(hostShare(0, 10, 1)).toBe(0);
  });

  it('holds a host once a claim fills its room, not before', () => {
    expect(nextFetchAfterClaim(0, 0, 1_000)).toBe(1_000);
    expect(nextFetchAfterClaim(0, 3, 1_000)).toBe(1_000);
    expect(nextFetchAfterClaim(2, 3, 1_000)).toBe(1_000);
    expect(nextFetchAfterClaim(3, 3, 1_000)).toBe(HELD);
    expect(nextFetchAfterClaim(4, 3, 1_000)).toBe(HELD);
  });

  it('names no next fetch time when nothing is queued or every queued host is held', () => {
    expect(nextReadyFrom(null)).toBeNull();
    expect(nextReadyFrom(HELD)).toBeNull();
    expect(nextReadyFrom(HELD - 1)).toBe(HELD - 1);
    expect(nextReadyFrom(0)).toBe(0);
  });

  it('waits our delay or the Crawl-delay after a fetch, whichever is longer', () => {
    expect(nextFetchAfter({ delayMs: 500, polite: false }, 100, 0, 10_000)).toBe(10_500);
    expect(nextFetchAfter({ delayMs: 500, polite: false }, 100, 2_000, 10_000)).toBe(12_000);
    // The polite rule: five times the fetch, at least 3 s.
    expect(nextFetchAfter({ delayMs: 0, polite: true }, 1_000, 0, 10_000)).toBe(15_000);
  });
});

describe('robots.txt policy', () => {
  const rules = (allowed: boolean): RobotsRules => ({
    isAllowed: () => allowed,
    refusal: () => (allowed ? null : 'blocked by robots.txt'),
    crawlDelayMs: 0,
    blockedReason: 'blocked by robots.txt',
  });

  it("holds a host's URLs until its robots.txt is known, unless the crawl ignores robots.txt", () => {
    expect(awaitsRobots({ robots: 'respect' }, RobotsState.unknown)).toBe(true);
    expect(awaitsRobots({ robots: 'report' }, RobotsState.fetching)).toBe(true);
    expect(awaitsRobots({ robots: 'respect' }, RobotsState.known)).toBe(false);
    expect(awaitsRobots({ robots: 'ignore' }, RobotsState.unknown)).toBe(false);
  });

  it('blocks a disallowed URL when respecting, marks it when reporting, and lets allowed URLs through', () => {
    expect(robotsVerdict(null, 'http://a.test/x', { robots: 'respect' })).toEqual({ verdict: 'allowed', reason: null });
    expect(robotsVerdict(rules(true), 'http://a.test/x', { robots: 'respect' })).toEqual({ verdict: 'allowed', reason: null });
    expect(robotsVerdict(rules(false), 'http://a.test/x', { robots: 'respect' })).toEqual({
      verdict: 'blocked',
      reason: 'blocked by robots.txt',
    });
    expect(robotsVerdict(rules(false), 'http://a.test/x', { robots: 'report' })).toEqual({
      verdict: 'reported',
      reason: 'blocked by robots.txt',
    });
  });

  it('takes a 5xx or no response as a failure for the moment, a 4xx or an unresolvable name as a verdict', () => {
    expect(robotsFetchFailed({ statusCode: 200, error: null })).toBe(false);
    expect(robotsFetchFailed({ statusCode: 404, error: null })).toBe(false);
    expect(robotsFetchFailed({ statusCode: 499, error: null })).toBe(false);
    expect(robotsFetchFailed({ statusCode: 500, error: null })).toBe(true);
    expect(robotsFetchFailed({ statusCode: 503, error: null })).toBe(true);
    expect(robotsFetchFailed({ statusCode: null, error: 'connection refused' })).toBe(true);
    expect(robotsFetchFailed({ statusCode: null, error: null })).toBe(true);
    expect(robotsFetchFailed({ statusCode: null, error: 'DNS lookup failed (ENOTFOUND)' })).toBe(false);
    // Only a name that does not resolve is a verdict: the same words later in another error are not.
    expect(robotsFetchFailed({ statusCode: null, error: 'proxy said: DNS lookup failed' })).toBe(true);
  });

  it('tries a failed robots.txt again after a backoff until maxAttempts failures, then gives up', () => {
    const settings = { maxAttempts: 4, retryDelayMs: 1_000, maxRetryAfterMs: 60_000 };
    // Exponential backoff with jitter: 1 s, 2 s, 4 s, each times 0.5 to 1.5.
    for (let i = 0; i < 20; i++) {
      for (const [failures, base] of [
        [1, 1_000],
        [2, 2_000],
        [3, 4_000],
      ] as const) {
        const wait = robotsRetryWaitMs(failures, settings);
        expect(wait).toBeGreaterThanOrEqual(base / 2);
        expect(wait).toBeLessThanOrEqual(base * 1.5);
      }
    }
    expect(robotsRetryWaitMs(4, settings)).toBeNull();
    expect(robotsRetryWaitMs(5, settings)).toBeNull();
  });
});

describe('redirect chains', () => {
  const claim = (urlId: number, hops: number): PageClaim => ({
    kind: 'page',
    urlId,
    hostId: 1,
    url: `http://a.test/${urlId}`,
    depth: 0,
    hops,
    urlKind: 'page',
    checkOnly: false,
  });
  /** A chain /1 -> /2 -> ... -> /n: row i has hops i - 1 and came from row i - 1. */
  const chain = (n: number): Map<number, ChainLink> =>
    new Map(Array.from({ length: n }, (_, i) => [i + 1, { url: `http://a.test/${i + 1}`, via: i === 0 ? null : i, hops: i }]));
  const both = async (c: PageClaim, target: string, rows: Map<number, ChainLink>) => {
    const sync = redirectVerdict(c, target, (id) => rows.get(id));
    const viaAsync = await redirectVerdictAsync(c, target, async (id) => rows.get(id));
    expect(viaAsync).toBe(sync);
    return sync;
  };

  it(`follows up to ${MAX_REDIRECT_HOPS} hops and cuts the one past them`, async () => {
    const rows = chain(MAX_REDIRECT_HOPS + 1);
    expect(await both(claim(MAX_REDIRECT_HOPS, MAX_REDIRECT_HOPS - 1), 'http://a.test/new', rows)).toBe('follow');
    expect(await both(claim(MAX_REDIRECT_HOPS + 1, MAX_REDIRECT_HOPS), 'http://a.test/new', rows)).toBe(
      `too many redirects (over ${MAX_REDIRECT_HOPS})`,
    );
  });

  it('cuts a redirect back to any URL of its own chain, itself and the first included', async () => {
    const rows = chain(5);
    expect(await both(claim(5, 4), 'http://a.test/5', rows)).toBe('redirect loop');
    expect(await both(claim(5, 4), 'http://a.test/3', rows)).toBe('redirect loop');
    expect(await both(claim(5, 4), 'http://a.test/1', rows)).toBe('redirect loop');
    expect(await both(claim(1, 0), 'http://a.test/1', rows)).toBe('redirect loop');
    expect(await both(claim(5, 4), 'http://a.test/6', rows)).toBe('follow');
  });

  it('walks back only to where the chain started, and stops at a row that is gone', async () => {
    // /3 started a chain of its own (hops 0) although a redirect from /2 once reached it: /1 is not in its chain.
    const rows = chain(4);
    rows.set(3, { url: 'http://a.test/3', via: 2, hops: 0 });
    expect(await both(claim(4, 1), 'http://a.test/1', rows)).toBe('follow');
    expect(await both(claim(4, 1), 'http://a.test/3', rows)).toBe('redirect loop');
    rows.delete(3);
    expect(await both(claim(4, 1), 'http://a.test/1', rows)).toBe('follow');
  });

  it('reads at most the rows of one longest chain, even when the rows loop', async () => {
    const rows = new Map<number, ChainLink>([
      [1, { url: 'http://a.test/1', via: 2, hops: 1 }],
      [2, { url: 'http://a.test/2', via: 1, hops: 1 }],
    ]);
    let reads = 0;
    const verdict = redirectVerdict(claim(1, 1), 'http://a.test/new', (id) => {
      reads++;
      return rows.get(id);
    });
    expect(verdict).toBe('follow');
    expect(reads).toBe(MAX_REDIRECT_HOPS + 1);
  });
});
