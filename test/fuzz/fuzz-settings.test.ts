// Property-based tests (fast-check) of settings validation: settings come from a form, a command line, a saved
// preset, a crawl file or a WebSocket client, so on any JSON-like value validateSettings must answer (never throw)
// with parsed settings or problems that each name a field; and settings it accepts must be accepted again, as they
// are, when read back (a crawl file or preset holds the parsed settings). Seeded.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { CRAWL_MODES, LIMITS, RESOURCE_TYPES, SCOPES, validateSettings } from '../../shared/settings.ts';
import { canonicalUrl } from '../../shared/url/canonical.ts';

const RUNS = 10_000;
const SEED = 0x5e7713;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

const pick = <T>(...items: T[]) => fc.constantFrom(...items);
/** One of these values, whatever their types. */
const oneOf = (...items: unknown[]) => fc.constantFrom(...items);

/** Values a setting may be given: right and wrong types, edge numbers, JSON-like nesting. */
const anyValue = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: oneOf(
      0,
      -1,
      1.5,
      1e308,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      '',
      ' ',
      null,
      true,
      [],
      {},
      '(a+)+$',
      '[',
      'x'.repeat(600),
    ),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);
const FIELDS = [
  'seeds',
  'mode',
  'threads',
  'processes',
  'maxDepth',
  'maxPages',
  'scope',
  'allowedHosts',
  'include',
  'exclude',
  'maxUrlLength',
  'stripQueryParams',
  'userAgent',
  'checkResources',
  'checkExternal',
  'extraction',
  'headers',
  'basicAuth',
  'followNofollow',
  'robots',
  'delayMs',
  'maxPerHost',
  'polite',
  'maxUrlsPerSecond',
  'connectTimeoutMs',
  'firstByteTimeoutMs',
  'responseTimeoutMs',
  'maxBodyBytes',
  'maxAttempts',
  'retryDelayMs',
  'maxRetryAfterMs',
  '__proto__',
  'constructor',
  'unknownSetting',
] as const;
/** Settings-shaped objects: known field names with any values, and a few unknown ones. */
const settingsLike = fc.dictionary(pick(...FIELDS), anyValue, { maxKeys: 8 });
const input = fc.oneof({ weight: 3, arbitrary: settingsLike }, { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) });

const seed = fc.oneof(
  pick('https://example.com/', 'http://127.0.0.1:8080/a?b=c', 'https://xn--bcher-kva.example/', 'http://[::1]/'),
  fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true }),
);
const safeRegex = pick('^https://example\\.com/', '\\.pdf$', 'page=\\d+', '/tag/', '[?&]sort=');
const header = fc.tuple(pick('Cookie', 'X-Api-Key', 'Accept-Language', 'Referer'), fc.stringMatching(/^[\x20-\x7e]{0,40}$/));
/** Settings a person could give: every field valid, in its range. */
const validSettings = fc
  .record(
    {
      seeds: fc.array(seed, { minLength: 1, maxLength: 3 }),
      mode: pick(...CRAWL_MODES),
      threads: fc.integer({ min: LIMITS.threads.min, max: LIMITS.threads.max }),
      processes: fc.option(fc.integer({ min: LIMITS.processes.min, max: LIMITS.processes.max }), { nil: null }),
      maxDepth: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
      maxPages: fc.option(fc.integer({ min: 1, max: 1_000_000_000 }), { nil: null }),
      scope: pick(...SCOPES.filter((s) => s !== 'hosts')),
      allowedHosts: fc.array(pick('example.org', 'cdn.example.com:8080', '127.0.0.1', '[::1]:81'), { maxLength: 2 }),
      exclude: fc.array(safeRegex, { maxLength: 2 }),
      maxUrlLength: fc.integer({ min: LIMITS.maxUrlLength.max / 2, max: LIMITS.maxUrlLength.max }),
      stripQueryParams: fc.array(pick('utm_*', 'sid', 'fbclid'), { maxLength: 3 }),
      userAgent: fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,60}[\x21-\x7e]$/),
      checkResources: fc.array(pick(...RESOURCE_TYPES), { maxLength: 3 }),
      checkExternal: fc.boolean(),
      extraction: fc
        .uniqueArray(
          fc.record({
            name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _.-]{0,20}$/).map((n) => n.trim() || 'rule'),
            type: pick('css' as const, 'regex' as const),
            all: fc.boolean(),
          }),
          { maxLength: 3, selector: (r) => r.name.trim().toLowerCase() },
        )
        .map((rules) =>
          rules.map((r) => (r.type === 'css' ? { ...r, expression: 'h1 > a.title' } : { ...r, expression: 'price: (\\d+)' })),
        ),
      headers: fc.uniqueArray(header, { maxLength: 3, selector: ([n]) => n.toLowerCase() }).map((h) => Object.fromEntries(h)),
      basicAuth: fc.option(
        fc.record({ username: fc.stringMatching(/^[a-z]{1,10}$/), password: fc.stringMatching(/^[\x20-\x7e]{0,20}$/) }),
        {
          nil: null,
        },
      ),
      followNofollow: fc.boolean(),
      robots: pick('respect' as const, 'ignore' as const, 'report' as const),
      delayMs: fc.integer({ min: 0, max: LIMITS.delayMs.max }),
      maxPerHost: fc.option(fc.integer({ min: 1, max: LIMITS.threads.max }), { nil: null }),
      polite: fc.boolean(),
      maxUrlsPerSecond: fc.option(fc.double({ min: 0.01, max: LIMITS.maxUrlsPerSecond, noNaN: true }), { nil: null }),
      connectTimeoutMs: fc.integer({ min: 100, max: 120_000 }),
      maxAttempts: fc.integer({ min: 1, max: 10 }),
    },
    { requiredKeys: ['seeds'] },
  )
  // A seed the exclude patterns drop is a problem the form names (rightly), not valid settings.
  .filter((s) => !(s.exclude ?? []).some((p) => s.seeds.some((seed) => new RegExp(p).test(canonicalUrl(seed) ?? seed))));

describe('settings validation, fuzzed', () => {
  it('never throws on any JSON-like input, and answers parsed settings or problems that each name a field', () => {
    fc.assert(
      fc.property(input, (value) => {
        const result = validateSettings(value);
        if (result.ok) {
          check(Array.isArray(result.settings.seeds) && result.settings.seeds.length > 0, 'accepted without seeds');
          return;
        }
        check(result.problems.length > 0, 'refused without a problem');
        for (const p of result.problems) {
          check(typeof p.field === 'string' && p.field.length > 0, `problem without a field: ${JSON.stringify(p)}`);
          check(typeof p.message === 'string' && p.message.length > 0, `problem without a message: ${JSON.stringify(p)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('accepts valid settings, and their parsed form again, as it is (a crawl file or preset read back)', () => {
    fc.assert(
      fc.property(validSettings, (settings) => {
        const first = validateSettings(settings);
        check(first.ok, `refused: ${JSON.stringify(!first.ok && first.problems)}`);
        if (!first.ok) return;
        // Through JSON, as it is stored.
        const stored = JSON.parse(JSON.stringify(first.settings)) as unknown;
        const again = validateSettings(stored);
        check(again.ok, `parsed settings refused: ${JSON.stringify(!again.ok && again.problems)}`);
        if (again.ok) check(JSON.stringify(again.settings) === JSON.stringify(first.settings), 'parsed settings changed when parsed again');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
