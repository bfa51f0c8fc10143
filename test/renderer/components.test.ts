// Grid cells and result rows rendered to HTML: the attributes end-to-end tests read, and crawled content coming
// out as escaped text (never markup, never a link).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../shared/crawler-api.ts';
import { ProcessorLegend, ThreadCellView } from '../../renderer/src/components/ThreadGrid.tsx';
import { PROCESSOR_CHAIN } from '../../shared/processors.ts';
import { StateBadge, Counters, CrawlControls } from '../../renderer/src/components/TopBar.tsx';
import { LiveSettings, MAX_RATE, droppedText, parseRate, rateText } from '../../renderer/src/components/LiveSettings.tsx';
import { Sparkline, sparklinePath } from '../../renderer/src/components/Sparkline.tsx';
import {
  COLUMNS,
  ResultRowView,
  columnsFor,
  directivesText,
  extractedText,
  indexabilityText,
} from '../../renderer/src/results/ResultRowView.tsx';
import { gridTemplate } from '../../renderer/src/results/column-layout.ts';
import { RowFields } from '../../renderer/src/results/RowDetails.tsx';
import { StartPanel } from '../../renderer/src/start/StartPanel.tsx';
import { MAX_RULES, RuleEditor, RuleTestOutcome } from '../../renderer/src/start/RuleEditor.tsx';
import { LIMITS, MAX_EXTRACTION_RULES, parseSettings } from '../../shared/settings.ts';
import type { CrawlView } from '../../renderer/src/store/crawl-view.ts';
import { render, thread } from './helpers.ts';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { CrawlFileResults } from '../../electron/engine/session/crawl-file-results.ts';

const EVIL = '<img src=x onerror=alert(1)>';
const EVIL_URL = 'https://a.test/"><script>alert(1)</script>';

function row(patch: Partial<ResultRow> = {}): ResultRow {
  return {
    seq: 7,
    url: 'https://a.test/page',
    kind: 'page',
    status_code: 200,
    content_type: 'text/html; charset=utf-8',
    size_bytes: 12_345,
    response_time_ms: 87,
    crawl_depth: 2,
    indexability: 'indexable',
    indexability_reason: null,
    title: 'A page',
    meta_description: null,
    h1: null,
    h1_count: 0,
    h2: null,
    h2_count: 0,
    canonical: null,
    lang: null,
    hreflang: null,
    meta_robots: null,
    x_robots_tag: null,
    meta_refresh: null,
    word_count: 321,
    inlinks: 4,
    outlinks: 9,
    redirect_url: null,
    attempts: 1,
    robots_disallowed: 0,
    error: null,
    extracted: {},
    ...patch,
  };
}

describe('thread cell', () => {
  it('carries its id and step, and shows crawled text escaped', () => {
    const html = render(
      createElement(ThreadCellView, {
        thread: thread(17, { step: 'fetching', url: EVIL_URL, worker: EVIL, pagesDone: 1234, errors: 2, bytes: 2048, stepSince: 1_000 }),
        stuck: false,
      }),
      { now: 3_500 },
    );
    expect(html).toContain('data-thread-id="17"');
    expect(html).toContain('data-step="fetching"');
    expect(html).not.toContain('data-stuck');
    expect(html).toContain('>fetching<');
    expect(html).toContain('2.5 s'); // time in step from the shared clock
    expect(html).toContain('1,234 pg');
    expect(html).toContain('2.0 kB');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('title="https://a.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toMatch(/<a[\s>]/);
  });

  it('shows the processor it is in under its step, explained on hover', () => {
    const html = render(
      createElement(ThreadCellView, {
        thread: thread(5, { step: 'fetching', processor: 'fetch-http', url: 'https://a.test/' }),
        stuck: false,
      }),
    );
    expect(html).toContain('data-processor="fetch-http"');
    expect(html).toContain('>fetching<');
    expect(html).toMatch(
      /<div class="cell-foot"><span class="cell-processor" title="fetch-http \(fetch\): one HTTP exchange[^"]*">fetch-http</,
    );
    const idle = render(createElement(ThreadCellView, { thread: thread(6, { step: 'waiting', processor: null }), stuck: false }));
    expect(idle).not.toContain('data-processor');
    expect(idle).not.toContain('cell-processor');
    // A processor this renderer does not know (a newer engine) is still shown, as text.
    const unknown = render(createElement(ThreadCellView, { thread: thread(7, { step: 'processing', processor: EVIL }), stuck: false }));
    expect(unknown).toContain('&lt;img src=x onerror=alert(1)&gt;</span>');
    expect(unknown).not.toContain('<img');
  });

  it('lists the processor chain in order', () => {
    const html = render(createElement(ProcessorLegend));
    expect(html).toContain('data-testid="processor-chain"');
    const title = /title="([^"]*)"/.exec(html)?.[1] ?? '';
    const positions = PROCESSOR_CHAIN.map((p) => title.indexOf(`. ${p.name} (`));
    expect(positions.every((at) => at > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('marks a stuck thread', () => {
    const html = render(createElement(ThreadCellView, { thread: thread(3, { step: 'processing' }), stuck: true }));
    expect(html).toContain('data-stuck="true"');
  });

  it('marks a thread past its fetch timeouts as overdue, and says what the watchdog will do', () => {
    const overdue = thread(4, { step: 'processing', url: 'https://a.test/spin', overdue: true });
    const html = render(createElement(ThreadCellView, { thread: overdue, stuck: true }));
    expect(html).toContain('data-overdue="true"');
    expect(html).toContain('data-stuck="true"');
    expect(html).toMatch(/<div class="cell"[^>]* title="Past its fetch timeouts[^"]*processing timeout[^"]*"/);
    const onTime = render(createElement(ThreadCellView, { thread: thread(4, { step: 'processing' }), stuck: false }));
    expect(onTime).not.toContain('data-overdue');
    expect(onTime).not.toContain('Past its fetch timeouts');
  });

  it('uses the step label for the word', () => {
    const html = render(createElement(ThreadCellView, { thread: thread(1, { step: 'claimed' }), stuck: false }));
    expect(html).toContain('about to get URI');
  });
});

describe('results row', () => {
  it('shows a hostile title and URL as text, with data-row-url', () => {
    const html = renderToStaticMarkup(
      createElement(ResultRowView, {
        row: row({
          title: EVIL,
          url: 'javascript:alert(1)',
          error: EVIL,
          h1: EVIL,
          meta_robots: EVIL,
          x_robots_tag: EVIL,
          indexability_reason: EVIL,
          kind: EVIL,
        }),
        index: 0,
        selected: false,
        onCopy: () => {},
      }),
    );
    expect(html).toContain('data-row-url="javascript:alert(1)"');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<a[\s>]/);
    expect(html).not.toContain('href');
  });

  it('renders every column, with the status class on the row', () => {
    const html = renderToStaticMarkup(
      createElement(ResultRowView, { row: row({ status_code: 404, title: null }), index: 4, selected: true }),
    );
    expect(html).toContain('data-status-class="4xx"');
    expect(html).toContain('aria-rowindex="6"');
    expect(html).toContain('aria-selected="true"');
    expect(html.match(/role="cell"/g)).toHaveLength(COLUMNS.length);
    expect(html).toContain('12.1 kB');
    expect(html).toContain('text/html<');
  });

  it('shows a response-less row with a dash and its error', () => {
    const html = renderToStaticMarkup(
      createElement(ResultRowView, { row: row({ status_code: null, error: 'connection refused' }), index: 0, selected: false }),
    );
    expect(html).toContain('data-status-class="none"');
    expect(html).toContain('connection refused');
  });

  it('shows indexability with its reason, kind, tries, H1s and directives', () => {
    const html = renderToStaticMarkup(
      createElement(ResultRowView, {
        row: row({
          indexability: 'non-indexable',
          indexability_reason: 'noindex',
          attempts: 3,
          h1_count: 2,
          h1: 'First',
          meta_robots: 'noindex, follow',
          x_robots_tag: 'noarchive',
        }),
        index: 0,
        selected: false,
      }),
    );
    expect(html).toContain('data-indexability="non-indexable"');
    expect(html).toContain('data-kind="page"');
    expect(html).toContain('class="rcell c-indexability" title="non-indexable: noindex" aria-label="non-indexable: noindex">noindex<');
    expect(html).toMatch(/class="rcell c-attempts num" title="3 fetches"><span class="attention">3</);
    expect(html).toMatch(/class="rcell c-h1s num" title="First"><span class="attention">2</);
    expect(html).toContain('>noindex, follow; noarchive (header)<');
    expect(html).toContain('title="meta robots: noindex, follow\nX-Robots-Tag: noarchive"');

    const resource = renderToStaticMarkup(
      createElement(ResultRowView, {
        row: row({ kind: 'image', indexability: null, h1_count: null, title: null, content_type: 'image/png' }),
        index: 1,
        selected: false,
      }),
    );
    expect(resource).not.toContain('data-indexability');
    expect(resource).toContain('data-kind="image"');
    expect(resource).toMatch(/class="rcell c-indexability"><\/div>/);
    expect(resource).toMatch(/class="rcell c-h1s num"><\/div>/);
  });

  it('formats indexability and directives for reading', () => {
    expect(indexabilityText({ indexability: 'indexable', indexability_reason: null })).toBe('indexable');
    expect(indexabilityText({ indexability: 'non-indexable', indexability_reason: 'canonicalised' })).toBe('non-indexable: canonicalised');
    expect(indexabilityText({ indexability: null, indexability_reason: null })).toBe('');
    expect(directivesText({ meta_robots: null, x_robots_tag: 'noindex' })).toBe('noindex (header)');
    expect(directivesText({ meta_robots: null, x_robots_tag: null })).toBe('');
  });

  it('sorts by indexability and tries on the host, and the rows render in that order', async () => {
    const sorts = COLUMNS.map((c) => c.sort);
    expect(sorts).toContain('indexability');
    expect(sorts).toContain('attempts');
    // A crawl file whose rows differ in both (tries 1 to 4, indexable or not, resources with no indexability).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-sort-'));
    const file = path.join(dir, 'sort.trawl');
    const built = buildSyntheticCrawl(file, { results: 60, queued: 0, externalHosts: 1 });
    built.db.prepare('UPDATE results SET attempts = 1 + (seq * 7) % 4').run();
    built.db.close();
    const reader = new CrawlFileResults(file);
    try {
      // What each column's rendered row says: the row's indexability attribute, the Tries cell's count.
      const rendered: Record<string, (html: string) => string | number | null> = {
        indexability: (html) => /data-indexability="([^"]+)"/.exec(html)?.[1] ?? null,
        attempts: (html) => Number(/class="rcell c-attempts num" title="(\d+) fetch/.exec(html)![1]),
      };
      for (const id of ['indexability', 'attempts']) {
        const column = COLUMNS.find((c) => c.id === id)!;
        for (const descending of [false, true]) {
          const page = await reader.query({ sort: column.sort!, descending, offset: 0, limit: 100, text: '', statusClass: null });
          expect(page.rows).toHaveLength(60);
          const shown = page.rows.map((r, index) =>
            rendered[id]!(renderToStaticMarkup(createElement(ResultRowView, { row: r, index, selected: false }))),
          );
          const values = shown.filter((v) => v !== null);
          expect(new Set(values).size, id).toBeGreaterThan(1);
          // Empty cells last whichever the direction, the rest in order.
          expect(
            shown.slice(values.length).every((v) => v === null),
            id,
          ).toBe(true);
          const ordered = [...values].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
          expect(values, `${id} ${descending ? 'descending' : 'ascending'}`).toEqual(descending ? ordered.reverse() : ordered);
        }
      }
    } finally {
      await reader.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('extracted values in the results', () => {
  it('gives each extraction rule a column after URL and status, its values joined as text', () => {
    expect(columnsFor([])).toBe(COLUMNS);
    const columns = columnsFor(['price', 'sku']);
    expect(columns.map((c) => c.label).slice(0, 5)).toEqual(['URL', 'Status', 'price', 'sku', 'Indexability']);
    expect(columns).toHaveLength(COLUMNS.length + 2);
    const html = renderToStaticMarkup(
      createElement(ResultRowView, { row: row({ extracted: { price: ['€ 12', EVIL], sku: [] } }), index: 0, selected: false, columns }),
    );
    expect(html.match(/role="cell"/g)).toHaveLength(COLUMNS.length + 2);
    expect(html).toContain(
      'class="rcell c-x0 c-extracted" title="price (2 values):\n€ 12\n&lt;img src=x onerror=alert(1)&gt;">€ 12 | &lt;img src=x onerror=alert(1)&gt;</div>',
    );
    expect(html).toContain('<div role="cell" class="rcell c-x1 c-extracted"></div>');
    expect(html).not.toContain('<img');
  });

  it("reads a rule's values safely whatever it is called", () => {
    const extracted = Object.defineProperty({}, '__proto__', { value: ['odd but fine'], enumerable: true }) as Record<string, string[]>;
    expect(extractedText({ extracted }, '__proto__')).toBe('odd but fine');
    expect(extractedText({ extracted: {} }, 'constructor')).toBe('');
    expect(extractedText({ extracted: {} }, 'toString')).toBe('');
  });

  it('widens the grid by a column per rule, between the lead and the rest', () => {
    const plain = gridTemplate(columnsFor([]), { order: [], hidden: [], widths: {} });
    const wider = gridTemplate(columnsFor(['price', 'sku']), { order: [], hidden: [], widths: {} });
    const tracks = (t: string) => t.match(/minmax\([^)]*\)|\S+/g)!;
    expect(tracks(wider.template)).toEqual([
      ...tracks(plain.template).slice(0, 2),
      'minmax(150px, 1.5fr)',
      'minmax(150px, 1.5fr)',
      ...tracks(plain.template).slice(2),
    ]);
    expect(wider.minWidth).toBe(plain.minWidth + 300);
    const css = fs.readFileSync(path.resolve(import.meta.dirname, '../../renderer/src/styles/results.css'), 'utf8');
    expect(css).toContain('grid-template-columns: var(--result-cols);');
  });

  it('lists every rule of the crawl in the row details, a value a line', () => {
    const html = render(createElement(RowFields, { row: row({ extracted: { price: ['12', EVIL] } }), rules: ['price', 'sku'] }));
    expect(html).toContain('Custom extraction');
    expect(html).toContain('<dt>price</dt><dd class="detail-lines">12\n&lt;img src=x onerror=alert(1)&gt;</dd>');
    expect(html).toMatch(/<div class="detail" data-empty="true"><dt>sku<\/dt><dd class="detail-lines">—<\/dd>/);
    expect(render(createElement(RowFields, { row: row() }))).not.toContain('Custom extraction');
  });
});

describe('row details', () => {
  it('shows every field, hreflang a line each, crawled text escaped', () => {
    const html = render(
      createElement(RowFields, {
        row: row({
          kind: 'page',
          indexability: 'non-indexable',
          indexability_reason: 'canonicalised',
          canonical: 'https://a.test/other',
          h1: 'Welcome',
          h1_count: 2,
          h2: EVIL,
          h2_count: 4,
          lang: 'en-GB',
          hreflang: 'en=https://a.test/en; de=https://a.test/de',
          meta_robots: 'noindex',
          x_robots_tag: 'noarchive',
          meta_refresh: '5; url=https://a.test/next',
          attempts: 2,
          robots_disallowed: 1,
        }),
      }),
    );
    const detail = (label: string) => new RegExp(`<dt>${label}</dt><dd[^>]*>([^<]*)</dd>`).exec(html)?.[1];
    expect(detail('Indexability')).toBe('non-indexable: canonicalised');
    expect(detail('Kind')).toBe('page');
    expect(detail('Attempts')).toBe('2');
    expect(detail('H1')).toBe('Welcome (first of 2)');
    expect(detail('H2 count')).toBe('4');
    expect(detail('Language')).toBe('en-GB');
    expect(detail('Hreflang')).toBe('en=https://a.test/en\nde=https://a.test/de');
    expect(html).toContain('<dd class="detail-lines">en=');
    expect(detail('Meta robots')).toBe('noindex');
    expect(detail('X-Robots-Tag')).toBe('noarchive');
    expect(detail('Meta refresh')).toBe('5; url=https://a.test/next');
    expect(detail('robots.txt')).toMatch(/^disallows this URL/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; (first of 4)');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<a[\s>]/);
  });
});

describe('start form', () => {
  const defaults = {
    settings: parseSettings({ seeds: ['https://default.test/'] }),
    limits: { threads: { min: LIMITS.threads.min, max: LIMITS.threads.max } },
  };

  it('has a control with a stable test id for every new setting, each saying its default', () => {
    const html = render(createElement(StartPanel), { defaults });
    for (const id of [
      'setting-scope',
      'setting-allowed-hosts',
      'setting-include',
      'setting-exclude',
      'setting-strip-query-params',
      'setting-max-url-length',
      'setting-max-per-host',
      'setting-max-attempts',
      'setting-retry-delay-ms',
      'setting-max-retry-after-ms',
      'setting-follow-nofollow',
      'setting-check-images',
      'setting-check-scripts',
      'setting-check-stylesheets',
      'setting-check-external',
    ]) {
      expect(html, id).toContain(`data-testid="${id}"`);
    }
    for (const value of ['same-host', 'subdomains', 'domain', 'hosts']) expect(html).toContain(`<option value="${value}"`);
    expect(html).toMatch(/data-testid="setting-mode-spider"[^>]*checked=""/);
    expect(html).toContain('data-testid="setting-mode-list"');
    expect(html).toContain('default same-host');
    expect(html).toContain('default 2,048, 64–8,192');
    expect(html).toContain('default 3, 1–10');
    expect(html).toContain('default 1,000');
    expect(html).toContain('default 60,000');
    expect(html).toContain('default none: pages only');
    // Groups are closed, and say what they are set to.
    expect(html).toMatch(/data-testid="group-scope"(?![^>]*open)/);
    expect(html).toContain('no delay · 3 attempts');
  });

  it('has the user agent presets, headers and authentication with their note, rules, the pattern tester, presets and the CLI copy', () => {
    const html = render(createElement(StartPanel), { defaults });
    for (const id of [
      'setting-user-agent-choice',
      'setting-headers',
      'setting-basic-auth-username',
      'setting-basic-auth-password',
      'credentials-note',
      'group-request',
      'group-extraction',
      'rule-editor',
      'add-rule',
      'pattern-tester',
      'pattern-samples',
      'group-presets',
      'preset-name',
      'preset-save',
      'copy-cli',
    ]) {
      expect(html, id).toContain(`data-testid="${id}"`);
    }
    for (const label of ['Trawl (default)', 'Googlebot smartphone', 'Bingbot', 'Chrome on Windows', 'Safari on iPhone', 'Custom…'])
      expect(html).toContain(`>${label}</option>`);
    expect(html).toMatch(/<option value="trawl" selected="">/);
    expect(html).toMatch(
      /data-testid="setting-basic-auth-password"[^>]*type="password"|type="password"[^>]*data-testid="setting-basic-auth-password"/,
    );
    // The note says where credentials go (exact origins, never https down to http) and how they are kept.
    expect(html).toContain('sent only to the exact origins (scheme, host and port) of the seeds and allowed hosts');
    expect(html).toContain('never from an https seed to plain http');
    expect(html).toContain('encrypted with the system keychain');
    expect(html).toContain('in the crawl file, readable by you only');
    expect(html).toContain('Copy as CLI command');
    // Upload a list only in list mode.
    expect(html).not.toContain('data-testid="list-file"');
    const list = render(createElement(StartPanel), {
      defaults: { ...defaults, settings: { ...defaults.settings, mode: 'list' as const } },
    });
    expect(list).toMatch(/data-testid="list-file"[^>]*type="file"|type="file"[^>]*data-testid="list-file"/);
  });

  it('edits each rule with its type, output, attribute and first-or-all, showing its problems', () => {
    const rules = [
      { name: 'price', type: 'css' as const, expression: '.price', output: 'attribute' as const, attribute: 'content', all: true },
      { name: 'sku', type: 'regex' as const, expression: 'sku: (\\w+)', output: 'text' as const, attribute: '', all: false },
    ];
    const errors = new Map([['extraction.1.expression', ['invalid regular expression: Unterminated group']]]);
    const html = render(
      createElement(RuleEditor, {
        idPrefix: 'f',
        rules,
        onChange: () => {},
        errors,
        firstSeed: 'https://a.test/',
        settingsForTest: () => ({}),
        onProblems: () => {},
      }),
    );
    expect(html).toContain('data-testid="rule-0"');
    expect(html).toContain('data-testid="rule-0-attribute"');
    expect(html).not.toContain('data-testid="rule-1-attribute"');
    expect(html).toMatch(/data-testid="rule-1-output" disabled=""/);
    expect(html).toMatch(/data-testid="rule-1-expression"[^>]*aria-invalid="true"/);
    expect(html).toContain('invalid regular expression: Unterminated group');
    expect(html).toContain('data-testid="rule-test-url"');
    expect(html).toContain('placeholder="https://a.test/"');
    const none = render(
      createElement(RuleEditor, {
        idPrefix: 'f',
        rules: [],
        onChange: () => {},
        errors: new Map(),
        firstSeed: '',
        settingsForTest: () => ({}),
        onProblems: () => {},
      }),
    );
    expect(none).not.toContain('rule-test-url');
  });

  it('shows what each rule found on the sample page as text, or why nothing could be read', () => {
    const html = renderToStaticMarkup(
      createElement(RuleTestOutcome, {
        result: { url: EVIL_URL, statusCode: 200, contentType: 'text/html', problem: null, values: { price: ['12', EVIL], sku: [] } },
        rules: ['sku', 'price'],
      }),
    );
    expect(html).toContain('data-rule="sku" data-matches="0"');
    expect(html).toContain('no match');
    expect(html).toContain('2 matches');
    expect(html).toContain('<dd class="rule-test-value">&lt;img src=x onerror=alert(1)&gt;</dd>');
    expect(html.indexOf('data-rule="sku"')).toBeLessThan(html.indexOf('data-rule="price"'));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    const problem = renderToStaticMarkup(
      createElement(RuleTestOutcome, {
        result: {
          url: 'https://a.test/',
          statusCode: 301,
          contentType: null,
          problem: 'redirects to https://a.test/b; test that URL instead',
          values: {},
        },
        rules: [],
      }),
    );
    expect(problem).toContain('<div class="rule-test-problem">redirects to https://a.test/b; test that URL instead</div>');
  });

  it('in list mode names the seeds "URLs to crawl" and takes no depth', () => {
    const html = render(createElement(StartPanel), {
      defaults: { ...defaults, settings: { ...defaults.settings, mode: 'list' as const } },
    });
    expect(html).toContain('URLs to crawl, one per line');
    expect(html).toMatch(/data-testid="setting-max-depth"[^>]*disabled=""/);
    expect(html).toContain('list mode: the listed URLs only');
  });
});

describe('top bar', () => {
  it('shows the state with its reason, and counters with raw values', () => {
    const state: Partial<CrawlView> = {
      state: 'finished',
      reason: 'page limit',
      counters: { crawled: 12_345, queued: 6, inFlight: 0, failed: 1, pagesPerSecond: 3.25, elapsedMs: 65_000 },
    };
    const badge = render(createElement(StateBadge), state);
    expect(badge).toContain('data-state="finished"');
    expect(badge).toContain('page limit');
    const counters = render(createElement(Counters), state);
    expect(counters).toContain('data-counter="crawled" data-value="12345"');
    expect(counters).toContain('12,345');
    expect(counters).toContain('data-counter="inFlight"');
    expect(counters).toContain('data-counter="pagesPerSecond" data-value="3.25"');
    expect(counters).toContain('1:05');
  });

  it('idle before any crawl', () => {
    expect(render(createElement(StateBadge))).toContain('data-state="idle"');
  });

  it('enables the buttons that apply to the state', () => {
    const enabled = (html: string, id: string) => new RegExp(`<button[^>]*data-testid="${id}"(?![^>]*disabled)`).test(html);
    const running = render(createElement(CrawlControls), { state: 'running' });
    expect([enabled(running, 'pause'), enabled(running, 'resume'), enabled(running, 'stop')]).toEqual([true, false, true]);
    const paused = render(createElement(CrawlControls), { state: 'paused' });
    expect([enabled(paused, 'pause'), enabled(paused, 'resume'), enabled(paused, 'stop')]).toEqual([false, true, true]);
    const finished = render(createElement(CrawlControls), { state: 'finished' });
    expect([enabled(finished, 'pause'), enabled(finished, 'resume'), enabled(finished, 'stop')]).toEqual([false, false, false]);
  });

  it('draws the sparkline as an inline SVG path', () => {
    expect(sparklinePath([]).line).toBe('');
    const { line, max } = sparklinePath([0, 5, 10], 100, 20);
    expect(max).toBe(10);
    expect(line.startsWith('M0.0,19.0')).toBe(true);
    expect(line.endsWith('100.0,2.0')).toBe(true);
    const svg = renderToStaticMarkup(createElement(Sparkline, { points: [1, 2, 3] }));
    expect(svg).toContain('<svg');
    expect(svg).toContain('data-points="3"');
  });
});

describe('live settings', () => {
  const enabled = (html: string, id: string) => new RegExp(`data-testid="${id}"(?![^>]*disabled)`).test(html);

  it('are disabled unless a crawl runs', () => {
    const idle = render(createElement(LiveSettings));
    expect(enabled(idle, 'live-max-rate')).toBe(false);
    expect(enabled(idle, 'live-exclude')).toBe(false);
    expect(idle).toContain('Can be changed while a crawl runs');
    const opened = render(createElement(LiveSettings), {
      state: 'running',
      opened: {
        file: 'x',
        seeds: [],
        createdAt: '',
        state: 'finished',
        finishReason: 'completed',
        crawled: 1,
        queued: 0,
        failed: 0,
        name: '',
        description: '',
        tags: [],
        summary: '',
      },
    });
    expect(enabled(opened, 'live-exclude')).toBe(false);
  });

  it('show the cap and the patterns added live, as text, while a crawl runs', () => {
    const html = render(createElement(LiveSettings), { state: 'running', maxUrlsPerSecond: 2.5, liveExcludes: ['/tag/', EVIL] });
    expect(enabled(html, 'live-max-rate')).toBe(true);
    expect(enabled(html, 'live-exclude')).toBe(true);
    expect(html).toContain('data-testid="live-max-rate-now" data-value="2.5">now: ≤ 2.5/s<');
    expect(html).toContain('data-testid="live-max-rate-remove"');
    expect(html).toContain('data-testid="live-excludes"');
    expect(html).toContain('<code class="live-pattern" data-pattern="/tag/">/tag/</code>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;</code>');
    expect(html).not.toContain('<img');
    const uncapped = render(createElement(LiveSettings), { state: 'paused' });
    expect(uncapped).toContain('now: no cap');
    expect(uncapped).not.toContain('live-max-rate-remove');
    expect(uncapped).not.toContain('live-excludes');
  });

  it('check the cap typed and word the outcome', () => {
    expect(parseRate('2.5')).toEqual({ ok: true, value: 2.5 });
    expect(parseRate(' 10000 ')).toEqual({ ok: true, value: 10_000 });
    expect(parseRate('0')).toMatchObject({ ok: false, problem: expect.stringMatching(/more than 0/) });
    expect(parseRate('20000')).toMatchObject({ ok: false, problem: 'the cap can be at most 10,000' });
    expect(parseRate('fast')).toMatchObject({ ok: false });
    expect(parseRate('')).toMatchObject({ ok: false });
    expect(rateText(null)).toBe('now: no cap');
    expect(droppedText(1)).toBe('dropped 1 queued URL');
    expect(droppedText(1234)).toBe('dropped 1,234 queued URLs');
  });

  it("restate the settings' limits the page cannot import", () => {
    expect(MAX_RATE).toBe(LIMITS.maxUrlsPerSecond);
    expect(MAX_RULES).toBe(MAX_EXTRACTION_RULES);
  });
});

describe('renderer sources', () => {
  const root = path.resolve(import.meta.dirname, '../../renderer');
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));

  it('never set inner HTML, import node: or electron, or link anywhere', () => {
    for (const file of files(path.join(root, 'src')).filter((f) => /\.(ts|tsx)$/.test(f))) {
      const text = fs.readFileSync(file, 'utf8');
      expect(text, file).not.toContain('dangerouslySetInnerHTML');
      expect(text, file).not.toContain('innerHTML');
      expect(text, file).not.toMatch(/from ['"]node:/);
      expect(text, file).not.toMatch(/from ['"]electron['"]/);
      if (file.endsWith('.tsx')) expect(text, file).not.toMatch(/<a[\s>]/);
    }
  });

  it('has a strict CSP and no inline script or style in index.html', () => {
    const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
    expect(html).toContain(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'",
    );
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style="/);
  });
});
