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
} from '../shared/settings.ts';

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
      threads: 5,
      processes: null,
      maxDepth: null,
      maxPages: null,
      scope: 'same-host',
      userAgent: DEFAULT_USER_AGENT,
      robots: 'respect',
      delayMs: 0,
      polite: false,
      maxUrlsPerSecond: null,
      connectTimeoutMs: 10_000,
      responseTimeoutMs: 20_000,
      maxBodyBytes: 10 * 1024 * 1024,
    });
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
    ['an unknown robots mode', { seeds: [SEED], robots: 'sometimes' }, 'robots', /./],
    ['processes 0', { seeds: [SEED], processes: 0 }, 'processes', /at least 1/],
    ['maxUrlsPerSecond 0', { seeds: [SEED], maxUrlsPerSecond: 0 }, 'maxUrlsPerSecond', /more than 0/],
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

  it('reports a non-object as a whole', () => {
    for (const input of [null, 'https://example.com/', 42, []]) {
      expect(problemsOf(input).map((p) => p.field)).toEqual(['(settings)']);
    }
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
    expect(problemsOf({ seeds: [SEED], thredas: 5, dealy: 1 }).map((p) => p.field).sort()).toEqual(['dealy', 'thredas']);
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
