// The pieces of the results table and the start form that hold logic: the virtual viewport, the page cache,
// and turning the form into settings and the host's problems back into per-field messages.
import { describe, expect, it, vi } from 'vitest';
import type { ResultsPage, ResultsQuery } from '../../shared/crawler-api.ts';
import { computeViewport } from '../../renderer/src/results/viewport.ts';
import { MAX_CACHED_PAGES, PAGE_SIZE, ResultsWindow, SCORES_PENDING_RETRY_MS } from '../../renderer/src/results/results-window.ts';
import {
  cliCommandFromForm,
  formFromDefaults,
  formFromSettings,
  formProblems,
  groupSummary,
  groupsWithProblems,
  headersText,
  lineNumbers,
  parseHeaderLines,
  problemsByField,
  ruleFromForm,
  seedLines,
  settingsFromForm,
  settingsWithoutSeeds,
} from '../../renderer/src/start/start-form-model.ts';
import { newRule } from '../../renderer/src/start/rule-form.ts';
import { patternVerdicts } from '../../renderer/src/start/PatternTester.tsx';
import { presetsSummary } from '../../renderer/src/start/PresetsBar.tsx';
import { USER_AGENT_PRESETS, userAgentChoiceOf, userAgentChoices } from '../../shared/user-agents.ts';
import { DEFAULT_USER_AGENT } from '../../shared/settings.ts';
import { presetNameProblem } from '../../shared/crawler-api.ts';
import type { CrawlDefaults } from '../../shared/crawler-api.ts';
import { LIMITS, crawlSettingsSchema, parseSettings, validateSettings } from '../../shared/settings.ts';
import { errorMessage } from '../../renderer/src/api/connection.ts';

describe('virtual viewport', () => {
  it('renders only the rows in view, plus a few either side', () => {
    const vp = computeViewport(1_000, 2_400, 480, 24, 8_000_000);
    expect(vp.height).toBe(24_000);
    expect(vp.first).toBe(100 - 6);
    expect(vp.last).toBe(120 + 6);
    expect(vp.offsetY).toBe(vp.first * 24);
  });

  it('scales the scrollbar for a million rows and still reaches the last row', () => {
    const total = 1_000_000;
    const top = computeViewport(total, 0, 600, 24, 8_000_000);
    expect(top.height).toBe(8_000_000);
    expect(top.first).toBe(0);
    const bottom = computeViewport(total, 8_000_000 - 600, 600, 24, 8_000_000);
    expect(bottom.last).toBe(total - 1);
    // The last row ends exactly at the bottom of the spacer.
    expect(bottom.offsetY + (bottom.last - bottom.first + 1) * 24).toBeCloseTo(8_000_000, 6);
    const middle = computeViewport(total, (8_000_000 - 600) / 2, 600, 24, 8_000_000);
    expect(Math.abs(middle.first + 6 - total / 2)).toBeLessThan(30);
  });

  it('renders nothing for no rows', () => {
    const vp = computeViewport(0, 0, 600);
    expect(vp.last).toBeLessThan(vp.first);
    expect(vp.height).toBe(0);
  });
});

function fakeResults(total: number) {
  const queries: ResultsQuery[] = [];
  const resolvers: (() => void)[] = [];
  const fetchPage = (q: ResultsQuery) =>
    new Promise<ResultsPage>((resolve) => {
      queries.push(q);
      resolvers.push(() => {
        const rows = [];
        for (let i = q.offset; i < Math.min(total, q.offset + q.limit); i++)
          rows.push({ seq: i + 1, url: `https://a.test/${i}` } as ResultsPage['rows'][number]);
        resolve({ total, offset: q.offset, rows, extractionRules: [] });
      });
    });
  const flush = async () => {
    while (resolvers.length) resolvers.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { queries, fetchPage, flush };
}

const FILTER = { sort: 'seq', descending: false, text: '', statusClass: null } as const;

describe('results window', () => {
  it('fetches the pages in view once, and serves rows from them', async () => {
    const f = fakeResults(1_000);
    let changes = 0;
    const w = new ResultsWindow(FILTER, f.fetchPage, () => changes++);
    w.ensure(0, 30);
    w.ensure(0, 30);
    expect(f.queries).toEqual([{ ...FILTER, offset: 0, limit: PAGE_SIZE }]);
    await f.flush();
    expect(changes).toBe(1);
    expect(w.total).toBe(1_000);
    expect(w.row(5)?.url).toBe('https://a.test/5');
    expect(w.row(150)).toBeUndefined();
    w.ensure(90, 130);
    expect(f.queries.map((q) => q.offset)).toEqual([0, 100]);
  });

  it('keeps showing rows after a refresh while fetching them again', async () => {
    const f = fakeResults(500);
    const w = new ResultsWindow(FILTER, f.fetchPage, () => {});
    w.ensure(0, 10);
    await f.flush();
    w.refresh();
    expect(w.row(3)?.seq).toBe(4);
    w.ensure(0, 10);
    expect(f.queries).toHaveLength(2);
  });

  it('holds a bounded number of pages', async () => {
    const f = fakeResults(1_000_000);
    const w = new ResultsWindow(FILTER, f.fetchPage, () => {});
    for (let p = 0; p < MAX_CACHED_PAGES + 20; p++) {
      w.ensure(p * PAGE_SIZE, p * PAGE_SIZE + 10);
      await f.flush();
    }
    expect(w.cachedPages()).toHaveLength(MAX_CACHED_PAGES);
    expect(w.row(0)).toBeUndefined();
  });

  it('asks again for rows that came without their Link Scores, until they come with them', async () => {
    vi.useFakeTimers();
    try {
      let pending = true;
      const asked: number[] = [];
      let changes = 0;
      const w = new ResultsWindow(
        FILTER,
        (q) => {
          asked.push(q.offset);
          return Promise.resolve({ total: 300, offset: q.offset, rows: [], extractionRules: [], scoresPending: pending });
        },
        () => changes++,
      );
      w.ensure(0, 10);
      await vi.advanceTimersByTimeAsync(0);
      expect(asked).toEqual([0]);
      // Nothing is asked before the moment passes, then the page in view is stale and asked for again.
      await vi.advanceTimersByTimeAsync(SCORES_PENDING_RETRY_MS - 1);
      w.ensure(0, 10);
      expect(asked).toEqual([0]);
      await vi.advanceTimersByTimeAsync(1);
      expect(changes).toBe(2);
      w.ensure(0, 10);
      await vi.advanceTimersByTimeAsync(0);
      expect(asked).toEqual([0, 0]);
      // Scored now: no more refreshes.
      pending = false;
      await vi.advanceTimersByTimeAsync(SCORES_PENDING_RETRY_MS);
      w.ensure(0, 10);
      await vi.advanceTimersByTimeAsync(0);
      expect(asked).toEqual([0, 0, 0]);
      await vi.advanceTimersByTimeAsync(10 * SCORES_PENDING_RETRY_MS);
      w.ensure(0, 10);
      expect(asked).toEqual([0, 0, 0]);
      w.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the crawl's extraction rules from the pages, the same array while they do not change", async () => {
    let rules = ['price'];
    const w = new ResultsWindow(
      FILTER,
      (q) => Promise.resolve({ total: 300, offset: q.offset, rows: [], extractionRules: [...rules] }),
      () => {},
    );
    expect(w.rules).toEqual([]);
    w.ensure(0, 10);
    await new Promise((r) => setTimeout(r, 0));
    const first = w.rules;
    expect(first).toEqual(['price']);
    w.ensure(150, 160);
    await new Promise((r) => setTimeout(r, 0));
    expect(w.rules).toBe(first);
    rules = ['price', 'sku'];
    w.ensure(250, 260);
    await new Promise((r) => setTimeout(r, 0));
    expect(w.rules).toEqual(['price', 'sku']);
  });

  it('does not hammer the host after a failed page', async () => {
    let calls = 0;
    const w = new ResultsWindow(
      FILTER,
      () => (calls++, Promise.reject(new Error('db busy'))),
      () => {},
    );
    w.ensure(0, 10);
    await new Promise((r) => setTimeout(r, 0));
    expect(w.error).toBe('db busy');
    w.ensure(0, 10);
    expect(calls).toBe(1);
  });
});

describe('start form', () => {
  it('takes seed lines, skipping blanks, and remembers their line numbers', () => {
    expect(seedLines('  https://a.test/ \n\n\r\nhttps://b.test/\n')).toEqual({
      seeds: ['https://a.test/', 'https://b.test/'],
      lineOf: [1, 4],
    });
  });

  it('turns seeds.N problems into line numbers under the seeds field', () => {
    const { lineOf } = seedLines('https://a.test/\n\nnope\nftp://x');
    const byField = problemsByField(
      [
        { field: 'seeds.1', message: '"nope" is not a valid URL' },
        { field: 'seeds.2', message: '"ftp://x" is not an http or https URL' },
        { field: 'threads', message: 'must be at most 200' },
      ],
      { seeds: lineOf },
    );
    expect(byField.get('seeds')).toEqual(['line 3: "nope" is not a valid URL', 'line 4: "ftp://x" is not an http or https URL']);
    expect(byField.get('threads')).toEqual(['must be at most 200']);
  });

  it('sends numbers as numbers, blanks as unlimited, and anything else as typed for the host to name', () => {
    const form = {
      ...formFromDefaults(null),
      seeds: 'https://a.test/',
      threads: '12',
      maxDepth: '',
      maxPages: '500',
      delayMs: 'soon',
      maxUrlsPerSecond: '2.5',
    };
    const settings = settingsFromForm(form) as Record<string, unknown>;
    expect(settings['seeds']).toEqual(['https://a.test/']);
    expect(settings['threads']).toBe(12);
    expect(settings['maxDepth']).toBeNull();
    expect(settings['maxPages']).toBe(500);
    expect(settings['delayMs']).toBe('soon');
    expect(settings['maxUrlsPerSecond']).toBe(2.5);
    expect(settings['robots']).toBe('respect');
    expect('userAgent' in settings).toBe(false);
  });
});

/** The host's defaults, as CrawlSession gives them. */
const DEFAULTS: CrawlDefaults = {
  settings: parseSettings({ seeds: ['https://default.test/'] }),
  limits: { threads: { min: LIMITS.threads.min, max: LIMITS.threads.max } },
};

describe('start form: every setting', () => {
  // A setting the engine adds shows up here until the start form (renderer/src/start/) has a
  // field for it: StartForm, formFromDefaults, settingsFromForm, and a control in the right group.
  /** Settings the form knowingly leaves at their defaults: none, now that extraction, headers and auth are in. */
  const NOT_IN_FORM: string[] = [];

  it('has a field for every setting of the schema', () => {
    const sent = Object.keys(settingsFromForm({ ...formFromDefaults(DEFAULTS), seeds: 'https://a.test/' }));
    const schema = Object.keys(crawlSettingsSchema.shape);
    expect(
      schema.filter((k) => !sent.includes(k) && !NOT_IN_FORM.includes(k)),
      'settings the start form has no field for',
    ).toEqual([]);
    expect(
      NOT_IN_FORM.filter((k) => sent.includes(k) || !schema.includes(k)),
      'NOT_IN_FORM entries to drop',
    ).toEqual([]);
    expect(
      sent.filter((k) => !schema.includes(k)),
      'fields the start form sends that are not settings',
    ).toEqual([]);
  });

  it('sends the defaults back unchanged when nothing is touched', () => {
    const result = validateSettings(settingsFromForm({ ...formFromDefaults(DEFAULTS), seeds: 'https://a.test/' }));
    expect(result).toEqual({ ok: true, settings: { ...DEFAULTS.settings, seeds: ['https://a.test/'] } });
  });

  it('fills the new fields from the defaults', () => {
    const form = formFromDefaults({
      ...DEFAULTS,
      settings: {
        ...DEFAULTS.settings,
        include: ['^https://a\\.test/docs/'],
        exclude: ['\\.pdf$', '/print/'],
        checkResources: ['scripts'],
      },
    });
    expect(form.scope).toBe('same-host');
    expect(form.allowedHosts).toBe('');
    expect(form.include).toBe('^https://a\\.test/docs/');
    expect(form.exclude).toBe('\\.pdf$\n/print/');
    expect(form.maxUrlLength).toBe('2048');
    expect(form.maxPerHost).toBe('');
    expect(form.maxAttempts).toBe('3');
    expect(form.retryDelayMs).toBe('1000');
    expect(form.maxRetryAfterMs).toBe('60000');
    expect(form.followNofollow).toBe(false);
    expect(form.checkResources).toEqual(['scripts']);
    expect(form.checkExternal).toBe(false);
    expect(form.mode).toBe('spider');
    // Before the host answers, the form still works: blanks are the host's defaults.
    const bare = formFromDefaults(null);
    expect([bare.scope, bare.include, bare.maxAttempts, bare.checkResources, bare.checkExternal]).toEqual(['same-host', '', '', [], false]);
    expect(validateSettings(settingsFromForm({ ...bare, seeds: 'https://a.test/' })).ok).toBe(true);
  });

  it('sends list fields a line an item, numbers as numbers, and resources in a fixed order', () => {
    const form = {
      ...formFromDefaults(DEFAULTS),
      seeds: 'https://a.test/',
      scope: 'hosts' as const,
      allowedHosts: ' cdn.a.test \n\nA.test:8080\n',
      include: '^https://a\\.test/',
      exclude: '\\.pdf$\r\n\r\n/print/',
      stripQueryParams: 'utm_*\nsessionid',
      maxUrlLength: '512',
      maxPerHost: '',
      maxAttempts: '5',
      retryDelayMs: '250',
      maxRetryAfterMs: '',
      followNofollow: true,
      checkResources: ['stylesheets', 'images'] as const,
      checkExternal: true,
    };
    const sent = settingsFromForm(form) as Record<string, unknown>;
    expect(sent['allowedHosts']).toEqual(['cdn.a.test', 'A.test:8080']);
    expect(sent['exclude']).toEqual(['\\.pdf$', '/print/']);
    expect(sent['stripQueryParams']).toEqual(['utm_*', 'sessionid']);
    expect(sent['checkResources']).toEqual(['images', 'stylesheets']);
    expect(sent['maxPerHost']).toBeNull();
    expect('maxRetryAfterMs' in sent).toBe(false);
    const result = validateSettings(sent);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.settings).toMatchObject({
      scope: 'hosts',
      allowedHosts: ['cdn.a.test', 'a.test:8080'],
      include: ['^https://a\\.test/'],
      maxUrlLength: 512,
      maxPerHost: null,
      maxAttempts: 5,
      retryDelayMs: 250,
      maxRetryAfterMs: 60_000,
      followNofollow: true,
      checkResources: ['images', 'stylesheets'],
      checkExternal: true,
    });
  });

  it("puts the host's problems with list items under their field, at their line", () => {
    const form = {
      ...formFromDefaults(DEFAULTS),
      seeds: 'https://a.test/',
      include: '\n^ok\n\n(unclosed\n',
      allowedHosts: 'good.test\nhttp://bad.test/x',
      maxAttempts: '0',
      checkResources: [],
    };
    const sent = settingsFromForm(form) as Record<string, unknown>;
    const result = validateSettings({ ...sent, checkResources: ['images', 'videos'] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.field).sort()).toEqual(['allowedHosts.1', 'checkResources.1', 'include.1', 'maxAttempts']);
    const byField = problemsByField(result.problems, lineNumbers(form));
    expect(byField.get('include')).toEqual([expect.stringMatching(/^line 4: invalid regular expression/)]);
    expect(byField.get('allowedHosts')).toEqual([expect.stringMatching(/^line 2: "http:\/\/bad.test\/x" is not a valid host name/)]);
    expect(byField.get('checkResources')).toEqual(['must be one of images, scripts, stylesheets']);
    expect(byField.get('maxAttempts')).toEqual(['must be at least 1']);
    expect(groupsWithProblems(result.problems)).toEqual(new Set(['scope', 'check', 'politeness']));
  });

  it('sends list mode with the URLs to crawl', () => {
    const form = { ...formFromDefaults(DEFAULTS), seeds: 'https://a.test/1\nhttps://a.test/2', mode: 'list' as const, maxDepth: '4' };
    const result = validateSettings(settingsFromForm(form));
    expect(result.ok && result.settings).toMatchObject({ mode: 'list', seeds: ['https://a.test/1', 'https://a.test/2'] });
  });

  it('names a cross-field problem on the field to fix', () => {
    const form = {
      ...formFromDefaults(DEFAULTS),
      seeds: 'https://a.test/\nhttps://a.test/file.pdf',
      scope: 'hosts' as const,
      exclude: '\\.pdf$',
    };
    const result = validateSettings(settingsFromForm(form));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byField = problemsByField(result.problems, lineNumbers(form));
    expect(byField.get('allowedHosts')).toEqual(['list at least one host when scope is "hosts"']);
    expect(byField.get('seeds')).toEqual([expect.stringMatching(/^line 2: .*excluded by your include\/exclude patterns/)]);
    expect(groupsWithProblems(result.problems)).toEqual(new Set(['scope']));
  });

  it('says what a closed group is set to', () => {
    const form = formFromDefaults(DEFAULTS);
    expect(groupSummary('scope', form)).toBe('same host');
    expect(groupSummary('check', form)).toBe('pages');
    expect(groupSummary('politeness', form)).toBe('no delay · 3 attempts');
    expect(groupSummary('more', form)).toBe('20 s timeout');
    expect(groupSummary('more', { ...form, processes: '2', responseTimeoutMs: '' })).toBe('2 processes');
    expect(groupSummary('more', formFromDefaults(null))).toBe('processes, timeouts, body size');
    const changed = {
      ...form,
      scope: 'domain' as const,
      allowedHosts: 'cdn.test',
      exclude: 'a\nb',
      stripQueryParams: 'utm_*',
      followNofollow: true,
      checkResources: ['scripts', 'images'] as const,
      checkExternal: true,
      delayMs: '500',
      maxPerHost: '2',
      maxAttempts: '1',
    };
    expect(groupSummary('scope', changed)).toBe('whole domain · +1 host · 2 exclude · 1 param stripped · follows nofollow');
    expect(groupSummary('check', changed)).toBe('pages, images, scripts · external links');
    expect(groupSummary('politeness', changed)).toBe('500 ms delay · ≤ 2 per host · no retries');
    expect(groupSummary('politeness', { ...changed, polite: true })).toBe('polite preset · ≤ 2 per host · no retries');
  });
});

describe('start form: headers, authentication and user agents', () => {
  it('reads "Name: value" lines, naming a line without a colon and a name given twice', () => {
    expect(parseHeaderLines('Cookie: a=1; b=2\n\n  X-Token :  abc:def \n')).toEqual({
      headers: { Cookie: 'a=1; b=2', 'X-Token': 'abc:def' },
      problems: [],
    });
    expect(parseHeaderLines('no colon here\nX-A: 1\n\nX-A: 2\n: empty name').problems).toEqual([
      { field: 'headers', message: 'line 1: write "Name: value"' },
      { field: 'headers', message: 'line 4: "X-A" is given twice' },
      { field: 'headers', message: 'line 5: write "Name: value"' },
    ]);
    // Every name is the object's own, even one that is not a property name anywhere else.
    const odd = parseHeaderLines('__proto__: x').headers;
    expect(Object.hasOwn(odd, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(headersText({ Cookie: 'a=1', 'X-Token': 'abc' })).toBe('Cookie: a=1\nX-Token: abc');
    expect(formProblems({ ...formFromDefaults(DEFAULTS), headers: 'oops' })).toHaveLength(1);
  });

  it('sends headers, basic authentication (none when both are blank) and rules the host accepts', () => {
    const form = {
      ...formFromDefaults(DEFAULTS),
      seeds: 'https://a.test/',
      headers: 'X-Token: abc\nAccept-Language: en-GB',
      basicAuth: { username: 'ann', password: 'p a:ss' },
      extraction: [
        { name: 'price', type: 'css' as const, expression: '.price', output: 'attribute' as const, attribute: 'content', all: true },
        { name: 'sku', type: 'regex' as const, expression: 'sku: (\\w+)', output: 'html' as const, attribute: 'ignored', all: false },
      ],
    };
    const sent = settingsFromForm(form) as Record<string, unknown>;
    expect(sent['headers']).toEqual({ 'X-Token': 'abc', 'Accept-Language': 'en-GB' });
    expect(sent['basicAuth']).toEqual({ username: 'ann', password: 'p a:ss' });
    expect(sent['extraction']).toEqual([
      { name: 'price', type: 'css', expression: '.price', output: 'attribute', attribute: 'content', all: true },
      { name: 'sku', type: 'regex', expression: 'sku: (\\w+)', output: 'text', all: false },
    ]);
    const result = validateSettings(sent);
    expect(result.ok).toBe(true);
    expect(settingsFromForm({ ...form, basicAuth: { username: ' ', password: '' } })['basicAuth']).toBeNull();
    expect(settingsWithoutSeeds(form)).not.toHaveProperty('seeds');
    expect(ruleFromForm({ ...form.extraction[0]!, output: 'text' })).not.toHaveProperty('attribute');
  });

  it('fills the form back from settings (a preset), and round-trips them', () => {
    const settings = parseSettings({
      seeds: ['https://a.test/'],
      headers: { Cookie: 'x=1' },
      basicAuth: { username: 'ann', password: 'secret' },
      extraction: [{ name: 'h1', type: 'css', expression: 'h1', all: true }],
      polite: true,
      mode: 'list',
    });
    const { seeds: _seeds, ...preset } = settings;
    const form = formFromSettings(preset);
    expect(form.headers).toBe('Cookie: x=1');
    expect(form.basicAuth).toEqual({ username: 'ann', password: 'secret' });
    expect(form.extraction).toEqual([{ name: 'h1', type: 'css', expression: 'h1', output: 'text', attribute: '', all: true }]);
    expect(form.mode).toBe('list');
    const back = validateSettings(settingsFromForm({ ...form, seeds: 'https://a.test/' }));
    expect(back).toEqual({ ok: true, settings });
  });

  it('puts header and authentication problems under their field, naming the header or the part', () => {
    const result = validateSettings(
      settingsFromForm({
        ...formFromDefaults(DEFAULTS),
        seeds: 'https://a.test/',
        headers: 'Host: x\nX-Ok: fine',
        basicAuth: { username: '', password: 'pw' },
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byField = problemsByField(result.problems, {});
    expect(byField.get('headers')).toEqual(['"Host" is set by Trawl itself']);
    expect(byField.get('basicAuth')).toEqual(['username: must not be empty']);
    expect(groupsWithProblems(result.problems)).toEqual(new Set(['request']));
    const value = validateSettings({ seeds: ['https://a.test/'], headers: { 'X-A': 'line\nbreak' } });
    expect(!value.ok && problemsByField(value.problems, {}).get('headers')).toEqual([
      expect.stringMatching(/^X-A: must be a valid HTTP header value/),
    ]);
  });

  it("offers Trawl's agent, four common ones and a custom one", () => {
    const choices = userAgentChoices(DEFAULT_USER_AGENT);
    expect(choices.map((c) => c.label)).toEqual([
      'Trawl (default)',
      'Googlebot smartphone',
      'Bingbot',
      'Chrome on Windows',
      'Safari on iPhone',
    ]);
    expect(userAgentChoiceOf('', DEFAULT_USER_AGENT)?.id).toBe('trawl');
    expect(userAgentChoiceOf(USER_AGENT_PRESETS[1]!.value, DEFAULT_USER_AGENT)?.id).toBe('bingbot');
    expect(userAgentChoiceOf('MyBot/1.0', DEFAULT_USER_AGENT)).toBeNull();
    // Every one is a user agent the settings accept.
    for (const c of choices) expect(validateSettings({ seeds: ['https://a.test/'], userAgent: c.value }).ok, c.label).toBe(true);
    expect(USER_AGENT_PRESETS.find((p) => p.id === 'googlebot-smartphone')?.value).toMatch(/Googlebot\/2\.1/);
  });
});

describe('start form: extraction rules, the pattern tester, presets and the command line', () => {
  it('names a new rule after the others', () => {
    expect(newRule([]).name).toBe('rule 1');
    const two = [newRule([]), { ...newRule([]), name: 'rule 3' }];
    expect(newRule(two).name).toBe('rule 4');
    expect(newRule([{ ...newRule([]), name: 'Price' }]).name).toBe('rule 2');
  });

  it('says how many rules and headers a closed group holds', () => {
    const form = formFromDefaults(DEFAULTS);
    expect(groupSummary('extraction', form)).toBe('none');
    expect(groupSummary('request', form)).toBe('none');
    const set = {
      ...form,
      headers: 'A: 1\nB: 2',
      basicAuth: { username: 'ann', password: 'x' },
      extraction: [newRule([]), { ...newRule([]), name: 'price' }],
    };
    expect(groupSummary('extraction', set)).toBe('2 rules: rule 1, price');
    expect(groupSummary('request', set)).toBe('2 headers · basic auth as ann');
    expect(groupSummary('request', set)).not.toContain('x');
  });

  it("judges sample URLs by the form's scope, patterns, length and stripped parameters, saying why not", () => {
    const form = {
      ...formFromDefaults(DEFAULTS),
      seeds: 'https://www.a.test/',
      include: '',
      exclude: '\\.pdf$\n/private/',
      stripQueryParams: 'utm_*',
      allowedHosts: 'cdn.a.test',
      maxUrlLength: '64',
    };
    const result = patternVerdicts(
      form,
      'https://www.a.test/docs?utm_source=x\nhttps://www.a.test/file.pdf\nhttps://other.test/\nhttps://cdn.a.test/img\nmailto:x@a.test\n\nhttps://www.a.test/' +
        'x'.repeat(80),
      'same host',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.verdicts.map((v) => [v.crawled, v.why])).toEqual([
      [true, 'crawled when linked (as https://www.a.test/docs)'],
      [false, 'matches exclude pattern \\.pdf$'],
      [false, 'host other.test is outside the scope (same host)'],
      [true, 'crawled when linked'],
      [false, 'not an http(s) URL the crawl can fetch'],
      [false, expect.stringMatching(/^\d+ characters long, over the 64 limit$/)],
    ]);
    const included = patternVerdicts({ ...form, include: '^https://www\\.a\\.test/docs' }, 'https://www.a.test/blog');
    expect(included.ok && included.verdicts[0]).toMatchObject({ crawled: false, why: 'matches no include pattern' });
    const list = patternVerdicts({ ...form, mode: 'list' }, 'https://www.a.test/x');
    expect(list.ok && list.verdicts[0]!.why).toMatch(/list mode fetches only the listed URLs/);
    const domain = patternVerdicts({ ...form, scope: 'domain' }, 'https://blog.a.test/');
    expect(domain.ok && domain.verdicts[0]!.crawled).toBe(true);
    expect(patternVerdicts({ ...form, exclude: '(' }, 'https://www.a.test/')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^invalid regular expression "\(": .*; fix the pattern to test URLs$/),
    });
    expect(
      patternVerdicts({ ...form, seeds: '' }, 'https://www.a.test/').ok &&
        patternVerdicts({ ...form, seeds: '', allowedHosts: '' }, 'https://www.a.test/'),
    ).toMatchObject({
      verdicts: [{ crawled: false, why: 'no seed yet: the hosts crawled come from the seeds' }],
    });
  });

  it('gives the command line of the form, only what differs from the defaults', () => {
    expect(cliCommandFromForm(formFromDefaults(DEFAULTS), null)).toBeNull();
    const form = {
      ...formFromDefaults(DEFAULTS),
      seeds: 'https://a.test/\nhttps://a.test/b',
      mode: 'list' as const,
      threads: '12',
      exclude: '\\.pdf$',
      headers: 'X-Token: abc',
      extraction: [{ ...newRule([]), name: 'h1', expression: 'h1' }],
    };
    expect(cliCommandFromForm(form, DEFAULTS)).toBe(
      `npm run crawl -- https://a.test/ https://a.test/b --mode list --threads 12 --exclude '\\.pdf$' --extract '{"name":"h1","type":"css","expression":"h1","output":"text","all":false}' --header 'X-Token: ***'`,
    );
    expect(cliCommandFromForm({ ...formFromDefaults(DEFAULTS), seeds: 'https://a.test/' }, DEFAULTS)).toBe(
      'npm run crawl -- https://a.test/',
    );
  });

  it('checks preset names as the host does, and sums up the presets', () => {
    expect(presetNameProblem('Docs, polite (UK)')).toBeNull();
    expect(presetNameProblem('')).toBe('give the preset a name');
    expect(presetNameProblem('a/b')).toMatch(/may hold letters/);
    expect(presetsSummary(null, null)).toBe('…');
    expect(presetsSummary([], null)).toBe('none saved');
    expect(presetsSummary([{ name: 'a', savedAt: '', settings: DEFAULTS.settings }], null)).toBe('1 saved');
    expect(presetsSummary([], 'broken')).toBe('presets file unreadable');
  });
});

describe('error messages', () => {
  it("strips Electron's IPC wrapper", () => {
    expect(errorMessage(new Error("Error invoking remote method 'trawl:pause': Error: cannot pause the crawl: it has finished"))).toBe(
      'cannot pause the crawl: it has finished',
    );
    expect(errorMessage('plain')).toBe('plain');
  });
});
