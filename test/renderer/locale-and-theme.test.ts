// Numbers and dates in the user's locale (two locales side by side), the theme choice (System / Light / Dark, kept
// in storage), and the stylesheets' colours: declared once in theme.css with a light and a dark value, used through
// variables everywhere else, and readable (WCAG AA) in both themes.
import fs from 'node:fs';
import vm from 'node:vm';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDecimal,
  formatDuration,
  formatInt,
  formatLocale,
  formatNumber,
  formatRate,
  formatStepTime,
  formatTime,
  formatWhen,
  setFormatLocale,
} from '../../renderer/src/format.ts';
import {
  LIGHT_CHART_COLORS,
  THEME_STORAGE_KEY,
  applyThemeChoice,
  parseThemeChoice,
  readThemeChoice,
  resolveTheme,
  themeColors,
  writeThemeChoice,
} from '../../renderer/src/theme.ts';
import { chartSeries, shortMs } from '../../renderer/src/analysis/analysis-model.ts';

const STYLES = path.resolve(import.meta.dirname, '../../renderer/src/styles');

describe('locale formatting', () => {
  afterEach(() => setFormatLocale(undefined));

  it('groups and separates decimals the way the locale does', () => {
    setFormatLocale('en-US');
    expect(formatLocale()).toBe('en-US');
    expect(formatDecimal(1234.5, 1)).toBe('1,234.5');
    expect(formatInt(1234567)).toBe('1,234,567');
    expect(formatRate(12.34)).toBe('12.3');
    expect(formatRate(1234.4)).toBe('1,234');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(1000)).toBe('1,000 B');
    expect(formatStepTime(2500)).toBe('2.5 s');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(shortMs(2500)).toBe('2.5s');

    setFormatLocale('de-DE');
    expect(formatLocale()).toBe('de-DE');
    expect(formatDecimal(1234.5, 1)).toBe('1.234,5');
    expect(formatInt(1234567)).toBe('1.234.567');
    expect(formatRate(12.34)).toBe('12,3');
    expect(formatRate(1234.4)).toBe('1.234');
    expect(formatBytes(1536)).toBe('1,5 kB');
    expect(formatBytes(1000)).toBe('1.000 B');
    expect(formatStepTime(2500)).toBe('2,5 s');
    expect(formatDuration(1500)).toBe('1,5 s');
    expect(formatNumber(2.5)).toBe('2,5');
    expect(shortMs(2500)).toBe('2,5s');
  });

  it('writes dates and times in the locale order', () => {
    const at = new Date(2026, 11, 1, 18, 8, 9); // local time, as the user sees it
    setFormatLocale('en-US');
    expect(formatWhen(at.toISOString())).toMatch(/^Dec 1, 2026, 6:08\sPM$/u);
    expect(formatTime(at.getTime())).toMatch(/^6:08:09\sPM$/u);
    setFormatLocale('de-DE');
    expect(formatWhen(at.toISOString())).toBe('01.12.2026, 18:08');
    expect(formatTime(at.getTime())).toBe('18:08:09');
    // The throughput chart's labels go through the same formatter.
    const series = chartSeries({ kind: 'over-time', rows: [{ at: at.getTime(), pages: 1, errors: 0, pages_per_second: 1 }] } as never);
    expect(series.labels).toEqual(['18:08:09']);
  });

  it('keeps the empty and invalid cases as they were, and survives a malformed locale', () => {
    setFormatLocale('de-DE');
    expect(formatInt(null)).toBe('');
    expect(formatInt(Number.NaN)).toBe('');
    expect(formatBytes(undefined)).toBe('');
    expect(formatRate(0)).toBe('0');
    expect(formatWhen('not a date')).toBe('not a date');
    setFormatLocale('not a locale!');
    expect(() => formatInt(1234)).not.toThrow();
    expect(formatInt(1234)).toMatch(/^1.?234$/);
  });
});

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('theme choice', () => {
  it('reads System unless Light or Dark was kept, and keeps System as no entry', () => {
    expect(readThemeChoice(memoryStorage())).toBe('system');
    expect(readThemeChoice(memoryStorage({ [THEME_STORAGE_KEY]: 'dark' }))).toBe('dark');
    expect(readThemeChoice(memoryStorage({ [THEME_STORAGE_KEY]: 'sepia' }))).toBe('system');
    expect(parseThemeChoice(null)).toBe('system');

    const s = memoryStorage();
    writeThemeChoice('light', s);
    expect(s.map.get(THEME_STORAGE_KEY)).toBe('light');
    expect(readThemeChoice(s)).toBe('light');
    writeThemeChoice('system', s);
    expect(s.map.has(THEME_STORAGE_KEY)).toBe(false);
  });

  it('falls back to System when storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    expect(readThemeChoice(refusing)).toBe('system');
    expect(() => writeThemeChoice('dark', refusing)).not.toThrow();
  });

  it('follows the system only on System, and marks <html> only for Light or Dark', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');

    const attrs = new Map<string, string>();
    const root = { setAttribute: (n: string, v: string) => void attrs.set(n, v), removeAttribute: (n: string) => void attrs.delete(n) };
    applyThemeChoice('dark', root);
    expect(attrs.get('data-theme')).toBe('dark');
    applyThemeChoice('system', root);
    expect(attrs.has('data-theme')).toBe(false);
  });

  it('has a boot script that applies the stored choice before the first paint, with the same key and values', () => {
    const source = fs.readFileSync(path.resolve(import.meta.dirname, '../../renderer/public/theme-boot.js'), 'utf8');
    const html = fs.readFileSync(path.resolve(import.meta.dirname, '../../renderer/index.html'), 'utf8');
    // Loaded in <head>, before the app's module script and before <body> is painted.
    expect(html.indexOf('theme-boot.js')).toBeGreaterThan(-1);
    expect(html.indexOf('theme-boot.js')).toBeLessThan(html.indexOf('<body>'));
    const run = (stored: string | null | Error) => {
      const attrs = new Map<string, string>();
      const storage = memoryStorage(typeof stored === 'string' ? { [THEME_STORAGE_KEY]: stored } : {});
      const localStorage =
        stored instanceof Error
          ? {
              getItem: () => {
                throw stored;
              },
            }
          : storage;
      vm.runInNewContext(source, {
        localStorage,
        document: { documentElement: { setAttribute: (n: string, v: string) => attrs.set(n, v) } },
      });
      return attrs.get('data-theme') ?? null;
    };
    expect(run('dark')).toBe('dark');
    expect(run('light')).toBe('light');
    expect(run(null)).toBeNull();
    expect(run('sepia')).toBeNull();
    expect(run(new Error('SecurityError'))).toBeNull();
  });

  it('gives the charts light colours where there is no page to ask', () => {
    expect(themeColors()).toEqual(LIGHT_CHART_COLORS);
  });
});

// ---- the stylesheets ----

const HEX = /#[0-9a-fA-F]{3,8}\b/;
const FUNC = /\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/;
const NAMED = /(?<![-\w])(?:white|black|red|green|blue|gray|grey|silver|navy|orange|yellow|purple)(?![-\w])/;

function declarations(css: string): { prop: string; value: string; line: number }[] {
  const out: { prop: string; value: string; line: number }[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  for (const m of text.matchAll(/([-\w]+)\s*:\s*([^;{}]+);/g)) {
    out.push({ prop: m[1]!, value: m[2]!.trim(), line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** theme.css's variables as [light, dark] pairs (a plain value is both; var(--x) is --x's pair). */
function themePairs(): Map<string, [string, string]> {
  const pairs = new Map<string, [string, string]>();
  for (const d of declarations(fs.readFileSync(path.join(STYLES, 'theme.css'), 'utf8'))) {
    if (!d.prop.startsWith('--')) continue;
    const ld = /^light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)$/i.exec(d.value);
    const ref = /^var\((--[-\w]+)\)$/.exec(d.value);
    if (ld) pairs.set(d.prop, [ld[1]!, ld[2]!]);
    else if (ref && pairs.has(ref[1]!)) pairs.set(d.prop, pairs.get(ref[1]!)!);
    else if (/^#[0-9a-f]{6}$/i.test(d.value)) pairs.set(d.prop, [d.value, d.value]);
  }
  return pairs;
}

function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = c.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('colours in the stylesheets', () => {
  it('declares each colour variable once, with a light and a dark value', () => {
    const decls = declarations(fs.readFileSync(path.join(STYLES, 'theme.css'), 'utf8')).filter((d) => d.prop.startsWith('--'));
    const names = decls.map((d) => d.prop);
    expect(new Set(names).size).toBe(names.length);
    for (const core of ['--bg', '--panel', '--text', '--muted', '--accent', '--danger', '--chart-grid']) {
      const d = decls.find((x) => x.prop === core);
      expect(d?.value, core).toMatch(/^light-dark\(|^var\(/);
    }
  });

  it('uses variables, not literal colours, outside theme.css', () => {
    const offenders: string[] = [];
    for (const file of fs.readdirSync(STYLES).filter((f) => f.endsWith('.css') && f !== 'theme.css')) {
      for (const d of declarations(fs.readFileSync(path.join(STYLES, file), 'utf8'))) {
        // A step's or a state's own colour is a variable declaration: the one place that colour is named.
        if (d.prop === '--step' || d.prop === '--state' || d.prop === '--step-bg') continue;
        // Mixing towards black or white for ink inside light-dark() is a colour value relative to a variable.
        const value = d.value.replace(
          /light-dark\(color-mix\(in srgb, var\(--\w+\) \d+%, black\), color-mix\(in srgb, var\(--\w+\) \d+%, white\)\)/g,
          '',
        );
        if (HEX.test(value) || FUNC.test(value) || NAMED.test(value)) offenders.push(`${file}:${d.line} ${d.prop}: ${d.value}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keeps text readable on every surface in both themes (WCAG AA, 4.5:1)', () => {
    const pairs = themePairs();
    const checks: [string, string[]][] = [
      ['--text', ['--bg', '--panel', '--panel-2', '--control-bg', '--row-selected', '--accent-soft']],
      ['--text-2', ['--bg', '--panel', '--panel-2', '--control-bg']],
      ['--muted', ['--bg', '--panel', '--panel-2']],
      ['--accent', ['--panel', '--panel-2', '--accent-soft']],
      ['--danger', ['--panel', '--danger-soft']],
      ['--ok', ['--panel']],
      ['--warn', ['--panel']],
      ['--extract', ['--panel', '--extract-soft']],
      ['--redirect', ['--panel']],
      ['--on-accent', ['--accent-fill', '--accent-fill-hover']],
      ['--inverse-text', ['--inverse-bg']],
      ['--banner-text', ['--banner-bg']],
      ['--toast-text', ['--toast-bg', '--toast-error-bg']],
    ];
    const low: string[] = [];
    for (const [fg, bgs] of checks) {
      for (const bg of bgs) {
        for (const [i, theme] of ['light', 'dark'].entries()) {
          const a = pairs.get(fg)?.[i];
          const b = pairs.get(bg)?.[i];
          expect(a && b, `${fg} on ${bg}`).toBeTruthy();
          const ratio = contrast(a!, b!);
          if (ratio < 4.5) low.push(`${theme}: ${fg} ${a} on ${bg} ${b} = ${ratio.toFixed(2)}`);
        }
      }
    }
    expect(low).toEqual([]);
  });

  it("keeps every thread step's label readable on its tint in both themes", () => {
    const css = fs.readFileSync(path.join(STYLES, 'threads.css'), 'utf8');
    const base = /\[data-step\] \{([^}]*)\}/.exec(css)![1]!;
    const ink =
      /--step-ink: light-dark\(color-mix\(in srgb, var\(--step\) (\d+)%, black\), color-mix\(in srgb, var\(--step\) (\d+)%, white\)\)/.exec(
        base,
      )!;
    const tint = /--step-bg-dark: color-mix\(in srgb, var\(--step\) (\d+)%, var\(--tint-base\)\)/.exec(base)!;
    const darkPanel = themePairs().get('--tint-base')?.[1] ?? '#171c24';
    const mix = (a: string, b: string, pa: number): string =>
      `#${[1, 3, 5]
        .map((i) => Math.round(Number.parseInt(a.slice(i, i + 2), 16) * pa + Number.parseInt(b.slice(i, i + 2), 16) * (1 - pa)))
        .map((v) => v.toString(16).padStart(2, '0'))
        .join('')}`;
    const low: string[] = [];
    const steps = [
      ...css.matchAll(/\[data-step(?:="([\w-]+)")?\] \{[^}]*?--step: (#[0-9a-f]{6});[^}]*?--step-bg: light-dark\((#[0-9a-f]{6}),/g),
    ];
    expect(steps.length).toBeGreaterThanOrEqual(11);
    for (const [, name, step, lightBg] of steps) {
      const light = contrast(mix(step!, '#000000', Number(ink[1]) / 100), lightBg!);
      const dark = contrast(mix(step!, '#ffffff', Number(ink[2]) / 100), mix(step!, darkPanel, Number(tint[1]) / 100));
      if (light < 4.5) low.push(`light ${name ?? 'default'}: ${light.toFixed(2)}`);
      if (dark < 4.5) low.push(`dark ${name ?? 'default'}: ${dark.toFixed(2)}`);
    }
    expect(low).toEqual([]);
  });
});
