// User patterns run on URLs and pages a site controls, in a linear-time engine (shared/pattern.ts): a pattern
// that backtracks exponentially in JavaScript, (a+)+$, on URLs and a page built to trigger it, finishes at once in
// the frontier's deprioritise and live exclude, in the scope's include/exclude test and in an extraction rule.
// A pattern the engine cannot take (backreference, lookaround) is refused where it is typed, naming the feature.
// The time bounds are loose hang bounds: JavaScript's RegExp takes tens of seconds on these inputs (and ever
// longer on the extraction page), the engine milliseconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { Frontier } from '../../electron/engine/frontier/sqlite/frontier.ts';
import { checkPattern } from '../../electron/engine/controller/live-settings.ts';
import { extractWithRules } from '../../electron/worker/chain/extract-custom.ts';
import { makeScopeReason } from '../../shared/scope.ts';
import { parseSettings, validateSettings, type ExtractionRule } from '../../shared/settings.ts';
import { compilePattern } from '../../shared/pattern.ts';
import { MAX_EXTRACTED_VALUES } from '../../shared/protocol.ts';
import type { PageFetchResult } from '../../shared/protocol.ts';
import { fetchedPage } from '../helpers/page-result.ts';

const EVIL = '(a+)+$';
const HANG_BOUND_MS = 5_000;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-pattern-redos-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
let n = 0;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

function pageResult(url: string, links: string[]): PageFetchResult {
  return fetchedPage(url, links, { inScope: () => true });
}

/** A frontier with the seed crawled and `links` queued. */
function frontierWith(links: string[]): Frontier {
  const settings = parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false });
  const db = createCrawlFile(path.join(dir, `${++n}.trawl`), settings);
  const f = new Frontier(db, settings);
  f.addSeeds(['http://a.test/']);
  const [seed] = f.claim(1);
  f.recordPage(seed as never, pageResult('http://a.test/', links));
  expect(f.getCounts().queued).toBe(links.length);
  return f;
}

/** 40 URLs that make (a+)+$ backtrack: a run of a's, then a character that is not one. */
const evilUrls = (as: number) => Array.from({ length: 40 }, (_, i) => `http://a.test/${'a'.repeat(as)}!${i}`);

describe('a pattern that backtracks exponentially in JavaScript finishes promptly', () => {
  it('deprioritise over 40 queued URLs built to trigger it', () => {
    const f = frontierWith([...evilUrls(24), 'http://a.test/aaa']);
    const { value: moved, ms } = timed(() => f.deprioritise(EVIL));
    expect(moved).toBe(1); // only /aaa ends in a's
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    // URLs found later are matched by the same compiled pattern, promptly too.
    expect(f.claim(50).at(-1)?.url).toBe('http://a.test/aaa');
  });

  it('a live exclude over 40 queued URLs built to trigger it', () => {
    const f = frontierWith([...evilUrls(24), 'http://a.test/aaa']);
    const { value: dropped, ms } = timed(() => f.addExclude(EVIL));
    expect(dropped).toBe(1);
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    expect(f.getCounts().queued).toBe(40);
  });

  it('an include or exclude scope pattern on a long URL', () => {
    const url = `http://a.test/${'a'.repeat(28)}!`;
    for (const key of ['include', 'exclude'] as const) {
      const reason = makeScopeReason({ seeds: ['http://a.test/'], [key]: [EVIL] });
      const { value, ms } = timed(() => reason(url));
      expect(value).toBe(key === 'include' ? 'not included' : null);
      expect(ms).toBeLessThan(HANG_BOUND_MS);
      expect(reason('http://a.test/aaa')).toBe(key === 'include' ? null : 'excluded');
    }
  });

  it('an extraction regex on a page of 40 a’s and a "!"', () => {
    const page = `<p>${'a'.repeat(40)}!</p>`;
    const rules: ExtractionRule[] = [
      { name: 'evil', type: 'regex', expression: EVIL, output: 'text', all: true },
      { name: 'also', type: 'regex', expression: '(a+)+!', output: 'text', all: false },
    ];
    const { value, ms } = timed(() => extractWithRules(page, rules));
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    // The first group when the rule has one: (a+)+ repeats, so the group holds its last repetition.
    expect(value).toEqual({ evil: [], also: ['a'.repeat(40)] });
  });
});

describe('extraction keeps its semantics in the linear-time engine', () => {
  it('the first group if the rule has one, else the whole match; all takes every match up to the cap', () => {
    const page = `${Array.from({ length: MAX_EXTRACTED_VALUES + 5 }, (_, i) => `<b>v${i}</b>`).join('')}<i>x</i>`;
    const out = extractWithRules(page, [
      { name: 'first', type: 'regex', expression: '<b>(v\\d+)</b>', output: 'text', all: false },
      { name: 'all', type: 'regex', expression: '<b>(?<value>v\\d+)</b>', output: 'text', all: true },
      { name: 'whole', type: 'regex', expression: '<i>\\w</i>', output: 'text', all: false },
      { name: 'optional', type: 'regex', expression: '<i>(y)?', output: 'text', all: false },
      { name: 'empty', type: 'regex', expression: 'z*', output: 'text', all: true },
    ]);
    expect(out.first).toEqual(['v0']);
    expect(out.all).toEqual(Array.from({ length: MAX_EXTRACTED_VALUES }, (_, i) => `v${i}`));
    expect(out.whole).toEqual(['<i>x</i>']);
    expect(out.optional).toEqual(['']);
    expect(out.empty).toEqual(Array.from({ length: MAX_EXTRACTED_VALUES }, () => ''));
  });
});

describe('a pattern the engine cannot take is refused where it is typed, naming what it uses', () => {
  const refused: [string, RegExp][] = [
    ['(a)\\1', /backreference \\1 is not supported/],
    ['(?<x>a)\\k<x>', /named backreference \\k<name> is not supported/],
    ['/p(?=\\d)', /lookahead \(\?=\.\.\.\) is not supported/],
    ['/p(?!\\d)', /negative lookahead \(\?!\.\.\.\) is not supported/],
    ['(?<=/)p', /lookbehind \(\?<=\.\.\.\) is not supported/],
    ['(?<!/)p', /negative lookbehind \(\?<!\.\.\.\) is not supported/],
  ];

  it.each(refused)('%s', (pattern, message) => {
    const compiled = compilePattern(pattern);
    expect(compiled.ok).toBe(false);
    expect(compiled.ok ? '' : compiled.error).toMatch(message);
    expect(compiled.ok ? '' : compiled.error).toMatch(/linear-time engine/);
  });

  it('in settings: include and exclude patterns and extraction rules (the start form and the CLI)', () => {
    const result = validateSettings({
      seeds: ['http://a.test/'],
      include: ['(a)\\1'],
      exclude: ['/p(?=\\d)'],
      extraction: [{ name: 'x', type: 'regex', expression: '(?<!a)b' }],
    });
    expect(result.ok).toBe(false);
    const byField = Object.fromEntries(result.ok ? [] : result.problems.map((p) => [p.field, p.message]));
    expect(byField['include.0']).toMatch(/^invalid regular expression: backreference \\1 is not supported: .* in "\(a\)\\1"$/);
    expect(byField['exclude.0']).toMatch(/^invalid regular expression: lookahead \(\?=\.\.\.\) is not supported/);
    expect(byField['extraction.0.expression']).toMatch(/^invalid regular expression: negative lookbehind \(\?<!\.\.\.\) is not supported/);
  });

  it('in a live exclude or deprioritise command', () => {
    expect(() => checkPattern('(a)\\1', 'exclude pattern')).toThrow(
      /^invalid exclude pattern "\(a\)\\1": backreference \\1 is not supported/,
    );
    expect(() => checkPattern('/p(?!x)', 'pattern')).toThrow(/^invalid pattern "\/p\(\?!x\)": negative lookahead/);
  });

  it('a pattern JavaScript refuses too keeps JavaScript’s reason', () => {
    expect(compilePattern('(')).toEqual({ ok: false, error: 'Unterminated group' });
  });

  it('takes the syntax URL patterns use', () => {
    for (const pattern of [
      '\\.pdf$',
      '/p/[45]\\d$',
      '\\?page=\\d+',
      '^https?://[^/]+/(en|de)/',
      '\\bfoo\\b',
      '(?<name>x)',
      '(?i)/Tag/',
      '\\/x\\/',
    ]) {
      expect(compilePattern(pattern).ok, pattern).toBe(true);
    }
  });
});
