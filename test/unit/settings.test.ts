import { describe, expect, it } from 'vitest';
import {
  DEFAULT_USER_AGENT,
  LIMITS,
  SettingsError,
  isSerialPerHost,
  parseSettings,
  politenessDelayMs,
  validateSettings,
  type SettingsProblem,
} from '../../shared/settings.ts';

const SEED = 'https://example.com/';

function problemsOf(input: unknown): SettingsProblem[] {
  const result = validateSettings(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be invalid`);
  return result.problems;
}

function thrown(input: unknown): SettingsError {
  try {
    parseSettings(input);
  } catch (err) {
    if (err instanceof SettingsError) return err;
    throw err;
  }
  throw new Error(`expected parseSettings(${JSON.stringify(input)}) to throw`);
}

describe('parseSettings defaults', () => {
  it('fills in every default from just a seed', () => {
    expect(parseSettings({ seeds: [SEED] })).toEqual({
      seeds: [SEED],
      mode: 'spider',
      threads: 5,
      processes: null,
      maxDepth: null,
      maxPages: null,
      scope: 'same-host',
      allowedHosts: [],
      checkResources: [],
      checkExternal: false,
      extraction: [],
      headers: {},
      basicAuth: null,
      firstByteTimeoutMs: 15_000,
      include: [],
      exclude: [],
      maxUrlLength: 2048,
      stripQueryParams: [],
      userAgent: DEFAULT_USER_AGENT,
      robots: 'respect',
      followNofollow: false,
      delayMs: 0,
      polite: false,
      maxUrlsPerSecond: null,
      connectTimeoutMs: 10_000,
      responseTimeoutMs: 20_000,
      processingBudgetMs: 10_000,
      maxBodyBytes: 10 * 1024 * 1024,
      maxAttempts: 3,
      maxPerHost: null,
      retryDelayMs: 1_000,
      maxRetryAfterMs: 60_000,
      render: false,
      renderWaitMs: 5_000,
      viewport: 'desktop',
      renderPages: null,
      renderBlock: [],
      crawlLinkedSitemaps: true,
      crawlSitemapUrls: true,
      sitemaps: [],
      // Duplicate content (issue 18.1): the whole page but its nav, header and footer.
      contentInclude: [],
      contentExclude: ['nav', 'header', 'footer'],
    });
  });

  it('takes content-area selectors: element names (lower-cased), .classes and #ids, and refuses anything else', () => {
    const s = parseSettings({ seeds: [SEED], contentInclude: ['MAIN', '.post-body', '#content'], contentExclude: [] });
    expect([s.contentInclude, s.contentExclude]).toEqual([['main', '.post-body', '#content'], []]);
    const bad = validateSettings({ seeds: [SEED], contentExclude: ['div > p'] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems.map((p) => p.field)).toEqual(['contentExclude.0']);
  });

  it('keeps given values, including the limits themselves', () => {
    const settings = parseSettings({
      seeds: [SEED, 'http://other.example:8080/start'],
      threads: LIMITS.threads.max,
      processes: 2,
      maxDepth: 0,
      maxPages: 1,
      userAgent: '  MyBot/1.0 (+https://example.com/bot)  ',
      robots: 'ignore',
      delayMs: 250,
      polite: true,
      maxUrlsPerSecond: 0.5,
    });
    expect(settings.seeds).toEqual([SEED, 'http://other.example:8080/start']);
    expect(settings.threads).toBe(200);
    expect(settings.processes).toBe(2);
    expect(settings.maxDepth).toBe(0);
    expect(settings.maxPages).toBe(1);
    expect(settings.userAgent).toBe('MyBot/1.0 (+https://example.com/bot)');
    expect(settings.robots).toBe('ignore');
    expect(settings.delayMs).toBe(250);
    expect(settings.polite).toBe(true);
    expect(settings.maxUrlsPerSecond).toBe(0.5);
    expect(parseSettings({ seeds: [SEED], threads: 1 }).threads).toBe(1);
  });

  it('returns the same result through validateSettings', () => {
    expect(validateSettings({ seeds: [SEED] })).toEqual({ ok: true, settings: parseSettings({ seeds: [SEED] }) });
  });
});

describe('bad settings name the field', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['a seed that is not a URL', { seeds: ['notaurl'] }, 'seeds.0', /"notaurl" is not a valid URL/],
    ['an ftp:// seed', { seeds: ['ftp://example.com/file'] }, 'seeds.0', /not an http or https URL/],
    ['a bad second seed', { seeds: [SEED, 'mailto:me@example.com'] }, 'seeds.1', /not an http or https URL/],
    ['empty seeds', { seeds: [] }, 'seeds', /at least one seed/],
    ['missing seeds', {}, 'seeds', /list of URLs/],
    ['seeds as a string', { seeds: SEED }, 'seeds', /list of URLs/],
    ['threads 0', { seeds: [SEED], threads: 0 }, 'threads', /at least 1/],
    ['threads 201', { seeds: [SEED], threads: 201 }, 'threads', /at most 200/],
    ['threads 2.5', { seeds: [SEED], threads: 2.5 }, 'threads', /whole number/],
    ['threads "5" (no coercion of strings)', { seeds: [SEED], threads: '5' }, 'threads', /whole number/],
    ['threads NaN', { seeds: [SEED], threads: Number.NaN }, 'threads', /whole number/],
    ['a user agent with CR LF inside', { seeds: [SEED], userAgent: 'Bot/1.0\r\nX-Injected: yes' }, 'userAgent', /header value/],
    ['a user agent with a lone LF', { seeds: [SEED], userAgent: 'Bot\nX: y' }, 'userAgent', /header value/],
    ['a user agent with NUL', { seeds: [SEED], userAgent: 'Bot\0' }, 'userAgent', /header value/],
    ['a blank user agent', { seeds: [SEED], userAgent: '   ' }, 'userAgent', /must not be empty/],
    ['an unknown option', { seeds: [SEED], thredas: 5 }, 'thredas', /unknown setting/],
    ['a negative delay', { seeds: [SEED], delayMs: -1 }, 'delayMs', /at least 0/],
    ['an unknown robots mode', { seeds: [SEED], robots: 'sometimes' }, 'robots', /^must be respect, ignore or report$/],
    ['processes 0', { seeds: [SEED], processes: 0 }, 'processes', /at least 1/],
    ['a processing budget under 100 ms', { seeds: [SEED], processingBudgetMs: 99 }, 'processingBudgetMs', /at least 100/],
    ['a processing budget over 10 minutes', { seeds: [SEED], processingBudgetMs: 600_001 }, 'processingBudgetMs', /at most 600000/],
    ['maxUrlsPerSecond 0', { seeds: [SEED], maxUrlsPerSecond: 0 }, 'maxUrlsPerSecond', /more than 0/],
    ['an unknown scope', { seeds: [SEED], scope: 'everything' }, 'scope', /must be one of same-host, subdomains, domain, hosts/],
    ['scope "hosts" with no allowedHosts', { seeds: [SEED], scope: 'hosts' }, 'allowedHosts', /at least one host when scope is "hosts"/],
    ['allowedHosts as a string', { seeds: [SEED], allowedHosts: 'example.org' }, 'allowedHosts', /list of host names/],
    [
      'an allowed host with a scheme',
      { seeds: [SEED], allowedHosts: ['https://example.org/'] },
      'allowedHosts.0',
      /"https:\/\/example.org\/" is not a valid host name/,
    ],
    [
      'an allowed host with a path',
      { seeds: [SEED], allowedHosts: ['ok.org', 'example.org/a'] },
      'allowedHosts.1',
      /not a valid host name/,
    ],
    ['an allowed host with a space', { seeds: [SEED], allowedHosts: ['exa mple.org'] }, 'allowedHosts.0', /not a valid host name/],
    ['an allowed host with an empty label', { seeds: [SEED], allowedHosts: ['a..example.org'] }, 'allowedHosts.0', /not a valid host name/],
    ['an allowed host with a wildcard', { seeds: [SEED], allowedHosts: ['*.example.org'] }, 'allowedHosts.0', /not a valid host name/],
    ['an allowed host with a bad port', { seeds: [SEED], allowedHosts: ['example.org:99999'] }, 'allowedHosts.0', /not a valid host name/],
    [
      'an allowed host with a label starting with -',
      { seeds: [SEED], allowedHosts: ['-x.example.org'] },
      'allowedHosts.0',
      /not a valid host name/,
    ],
    ['an empty allowed host', { seeds: [SEED], allowedHosts: ['  '] }, 'allowedHosts.0', /not a valid host name/],
    [
      'an invalid exclude pattern',
      { seeds: [SEED], exclude: ['\\.pdf$', '('] },
      'exclude.1',
      /^invalid regular expression: Unterminated group in "\("$/,
    ],
    ['an invalid include pattern', { seeds: [SEED], include: ['[a-'] }, 'include.0', /^invalid regular expression: .* in "\[a-"$/],
    ['an empty include pattern', { seeds: [SEED], include: [''] }, 'include.0', /must not be empty/],
    ['a non-string exclude pattern', { seeds: [SEED], exclude: [42] }, 'exclude.0', /must be a regular expression/],
    ['include as a string', { seeds: [SEED], include: '/blog/' }, 'include', /list of regular expressions/],
    ['maxUrlLength 63', { seeds: [SEED], maxUrlLength: 63 }, 'maxUrlLength', /at least 64/],
    ['maxUrlLength 8193', { seeds: [SEED], maxUrlLength: 8193 }, 'maxUrlLength', /at most 8192/],
    ['maxUrlLength 100.5', { seeds: [SEED], maxUrlLength: 100.5 }, 'maxUrlLength', /whole number/],
    ['a strip param with = inside', { seeds: [SEED], stripQueryParams: ['a=b'] }, 'stripQueryParams.0', /not a query parameter name/],
    ['a strip param with * inside', { seeds: [SEED], stripQueryParams: ['ok', 'utm_*_x'] }, 'stripQueryParams.1', /a \* only at the end/],
    ['an empty strip param', { seeds: [SEED], stripQueryParams: [''] }, 'stripQueryParams.0', /must not be empty/],
    ['stripQueryParams as a string', { seeds: [SEED], stripQueryParams: 'utm_*' }, 'stripQueryParams', /list of query parameter names/],
    [
      'an excluded seed',
      { seeds: [SEED, 'https://example.com/private/'], exclude: ['/private/'] },
      'seeds.1',
      /^"https:\/\/example.com\/private\/" is excluded by your include\/exclude patterns \(it matches exclude pattern "\/private\/"\)$/,
    ],
    [
      'a seed no include pattern matches',
      { seeds: [SEED], include: ['/blog/'] },
      'seeds.0',
      /is excluded by your include\/exclude patterns \(it matches no include pattern\)/,
    ],
    [
      'a seed longer than maxUrlLength',
      { seeds: [SEED + 'x'.repeat(100)], maxUrlLength: 64 },
      'seeds.0',
      /is 120 characters long, more than maxUrlLength \(64\)/,
    ],
  ])('%s', (_label, input, field, message) => {
    const problems = problemsOf(input);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe(field);
    expect(problems[0]?.message).toMatch(message);
    const err = thrown(input);
    expect(err.name).toBe('SettingsError');
    expect(err.problems).toEqual(problems);
    expect(err.message).toContain(`${field}: `);
  });

  it('drops a trailing line break from the user agent rather than sending it', () => {
    expect(parseSettings({ seeds: [SEED], userAgent: 'Bot/1.0\r\n' }).userAgent).toBe('Bot/1.0');
  });

  // Found by fuzzing (fuzz-settings.test.ts): a setting named "" came back with an empty field name.
  it('names an unknown setting with an empty name', () => {
    expect(problemsOf({ seeds: [SEED], '': 1 })).toEqual([{ field: '""', message: 'unknown setting', code: 'unknownSetting' }]);
  });

  it('reports a non-object as a whole', () => {
    for (const input of [null, 'https://example.com/', 42, []]) {
      expect(problemsOf(input).map((p) => p.field)).toEqual(['(settings)']);
    }
  });
});

describe('scope settings', () => {
  it('keeps given values, lower-casing and trimming allowed hosts', () => {
    const settings = parseSettings({
      seeds: [SEED],
      scope: 'hosts',
      allowedHosts: [' Shop.Example.ORG ', '127.0.0.1:8080', '[::1]:3000', 'xn--bcher-kva.example', 'under_score.example'],
      include: ['^https://example\\.com/'],
      exclude: ['\\.pdf$', 'zz|qq'],
      maxUrlLength: 64,
      stripQueryParams: ['utm_*', 'sessionid', '*'],
    });
    expect(settings.scope).toBe('hosts');
    expect(settings.allowedHosts).toEqual([
      'shop.example.org',
      '127.0.0.1:8080',
      '[::1]:3000',
      'xn--bcher-kva.example',
      'under_score.example',
    ]);
    expect(settings.include).toEqual(['^https://example\\.com/']);
    expect(settings.exclude).toEqual(['\\.pdf$', 'zz|qq']);
    expect(settings.maxUrlLength).toBe(64);
    expect(settings.stripQueryParams).toEqual(['utm_*', 'sessionid', '*']);
    for (const scope of ['same-host', 'subdomains', 'domain'] as const) expect(parseSettings({ seeds: [SEED], scope }).scope).toBe(scope);
    expect(parseSettings({ seeds: [SEED], maxUrlLength: 8192 }).maxUrlLength).toBe(8192);
  });

  it('accepts allowedHosts in any scope (they are always crawled too)', () => {
    expect(parseSettings({ seeds: [SEED], allowedHosts: ['cdn.example.net'] }).allowedHosts).toEqual(['cdn.example.net']);
  });

  it('checks seeds after stripping parameters, so a seed excluded only by a stripped parameter is fine', () => {
    expect(validateSettings({ seeds: [`${SEED}?utm_source=x`], exclude: ['utm_'], stripQueryParams: ['utm_*'] }).ok).toBe(true);
    expect(problemsOf({ seeds: [`${SEED}?utm_source=x`], exclude: ['utm_'] }).map((p) => p.field)).toEqual(['seeds.0']);
  });

  it('reports an excluded seed together with problems in other fields, and skips the check while patterns are invalid', () => {
    const problems = problemsOf({ seeds: ['notaurl', SEED], exclude: ['example'], threads: 0 });
    expect(problems.map((p) => p.field).sort()).toEqual(['seeds.0', 'seeds.1', 'threads']);
    // An invalid pattern is reported on its own; the seeds are not judged by patterns that do not compile.
    expect(problemsOf({ seeds: [SEED], exclude: ['example', '('] }).map((p) => p.field)).toEqual(['exclude.1']);
    expect(problemsOf({ seeds: [SEED], scope: 'hosts', allowedHosts: ['bad host'] }).map((p) => p.field)).toEqual(['allowedHosts.0']);
  });
});

describe('several bad settings', () => {
  it('are all reported in one SettingsError', () => {
    const err = thrown({
      seeds: ['notaurl', 'ftp://example.com/', SEED],
      threads: 0,
      userAgent: 'Bot\r\nX-Evil: 1',
      thredas: 5,
      delayMs: 2.5,
      maxPages: 0,
    });
    expect(err).toBeInstanceOf(SettingsError);
    expect(err.problems.map((p) => p.field).sort()).toEqual(
      ['delayMs', 'maxPages', 'seeds.0', 'seeds.1', 'thredas', 'threads', 'userAgent'].sort(),
    );
    for (const field of ['seeds.0', 'seeds.1', 'threads', 'userAgent', 'thredas', 'delayMs', 'maxPages']) {
      expect(err.message).toContain(`  - ${field}: `);
    }
  });

  it('include several unknown options', () => {
    expect(
      problemsOf({ seeds: [SEED], thredas: 5, dealy: 1 })
        .map((p) => p.field)
        .sort(),
    ).toEqual(['dealy', 'thredas']);
  });
});

describe('politenessDelayMs', () => {
  const polite = { polite: true, delayMs: 0 };

  it('is the fixed delay when not polite, whatever the fetch took', () => {
    expect(politenessDelayMs({ polite: false, delayMs: 0 }, 5_000)).toBe(0);
    expect(politenessDelayMs({ polite: false, delayMs: 1_500 }, 10)).toBe(1_500);
    expect(politenessDelayMs({ polite: false, delayMs: 1_500 }, 60_000)).toBe(1_500);
  });

  it('is clamp(5 x fetch, 3 s, 30 s) when polite', () => {
    expect(politenessDelayMs(polite, 0)).toBe(3_000);
    expect(politenessDelayMs(polite, 100)).toBe(3_000);
    expect(politenessDelayMs(polite, 600)).toBe(3_000);
    expect(politenessDelayMs(polite, 601)).toBe(3_005);
    expect(politenessDelayMs(polite, 1_000)).toBe(5_000);
    expect(politenessDelayMs(polite, 6_000)).toBe(30_000);
    expect(politenessDelayMs(polite, 60_000)).toBe(30_000);
  });

  it('never goes below a fixed delay that is also set', () => {
    expect(politenessDelayMs({ polite: true, delayMs: 10_000 }, 100)).toBe(10_000);
    expect(politenessDelayMs({ polite: true, delayMs: 10_000 }, 4_000)).toBe(20_000);
    expect(politenessDelayMs({ polite: true, delayMs: 45_000 }, 60_000)).toBe(45_000);
  });

  it('matches LIMITS.polite', () => {
    expect(LIMITS.polite).toEqual({ factor: 5, minMs: 3_000, maxMs: 30_000 });
  });
});

describe('isSerialPerHost', () => {
  it('is true when any per-host delay applies', () => {
    expect(isSerialPerHost({ polite: false, delayMs: 0 }, 0)).toBe(false);
    expect(isSerialPerHost({ polite: true, delayMs: 0 }, 0)).toBe(true);
    expect(isSerialPerHost({ polite: false, delayMs: 1 }, 0)).toBe(true);
    expect(isSerialPerHost({ polite: false, delayMs: 0 }, 2_000)).toBe(true);
  });
});

describe('extraction rules', () => {
  const seeds = ['https://example.com/'];
  it('fills in output and all, and keeps the rest', () => {
    expect(parseSettings({ seeds, extraction: [{ name: 'Price', type: 'css', expression: '.price' }] }).extraction).toEqual([
      { name: 'Price', type: 'css', expression: '.price', output: 'text', all: false },
    ]);
  });

  it('names every problem with its rule and field', () => {
    const result = validateSettings({
      seeds,
      extraction: [
        { name: 'A', type: 'css', expression: 'div[' },
        { name: 'a', type: 'regex', expression: '(' },
        { name: 'B', type: 'css', expression: 'a', output: 'attribute' },
        { name: 'bad=name', type: 'xpath', expression: '//a' },
      ],
    });
    expect(result.ok).toBe(false);
    const byField = Object.fromEntries((result.ok ? [] : result.problems).map((p) => [p.field, p.message]));
    expect(byField['extraction.0.expression']).toMatch(/^invalid CSS selector/);
    expect(byField['extraction.1.expression']).toMatch(/^invalid regular expression/);
    expect(byField['extraction.1.name']).toBe('"a" is the name of another rule');
    expect(byField['extraction.2.attribute']).toMatch(/name the attribute/);
    expect(byField['extraction.3.name']).toMatch(/letters, digits/);
    expect(byField['extraction.3.type']).toBe('must be css or regex');
  });
});

describe('request headers and basic authentication', () => {
  const seeds = ['https://example.com/'];
  it('accepts ordinary headers and credentials', () => {
    const s = parseSettings({ seeds, headers: { Cookie: 'a=1', 'X-Token': 'abc' }, basicAuth: { username: 'me', password: 'p:w' } });
    expect(s.headers).toEqual({ Cookie: 'a=1', 'X-Token': 'abc' });
    expect(s.basicAuth).toEqual({ username: 'me', password: 'p:w' });
  });

  it('names bad, reserved and conflicting headers', () => {
    const result = validateSettings({
      seeds,
      headers: { 'Bad Name': 'x', Host: 'evil.test', 'User-Agent': 'x', 'X-Split': 'a\r\nInjected: 1', Authorization: 'Bearer t' },
      basicAuth: { username: 'a:b', password: 'x' },
    });
    const byField = Object.fromEntries((result.ok ? [] : result.problems).map((p) => [p.field, p.message]));
    expect(byField['headers.Bad Name']).toBe('"Bad Name" is not a valid header name');
    expect(byField['headers.Host']).toBe('"Host" is set by Trawl itself');
    expect(byField['headers.User-Agent']).toBe('set the user agent with userAgent');
    expect(byField['headers.X-Split']).toMatch(/no line breaks/);
    expect(byField['basicAuth.username']).toMatch(/must not contain ":"/);
  });

  it('refuses basic authentication and an Authorization header together', () => {
    const result = validateSettings({ seeds, headers: { authorization: 'Bearer t' }, basicAuth: { username: 'a', password: 'b' } });
    expect(result.ok ? [] : result.problems).toEqual([
      { field: 'basicAuth', message: 'give either basic authentication or an Authorization header, not both', code: 'authTwice' },
    ]);
  });
});
