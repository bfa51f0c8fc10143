// The colour theme: System (follows prefers-color-scheme), Light or Dark, kept in localStorage. The colours
// themselves are CSS variables (styles/theme.css); a choice other than System sets data-theme on <html>, which
// overrides the media query. Charts drawn on a canvas read the same variables through themeColors().
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
export const THEME_STORAGE_KEY = 'trawl.theme';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A stored value as a choice: anything unknown (an old version's value, a hand edit) is System. */
export function parseThemeChoice(value: unknown): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** The user's choice from storage; storage that refuses (privacy modes, a file:// origin) reads as System. */
export function readThemeChoice(storage: Store | undefined = defaultStorage()): ThemeChoice {
  try {
    return parseThemeChoice(storage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

/** Keeps the choice: System is the absence of one, so a later change of default reaches those who never chose. */
export function writeThemeChoice(choice: ThemeChoice, storage: Store | undefined = defaultStorage()): void {
  try {
    if (choice === 'system') storage?.removeItem(THEME_STORAGE_KEY);
    else storage?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not kept; the choice still holds for this page.
  }
}

/** The theme a choice shows, given whether the system asks for dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
}

/** Puts the choice on <html>: data-theme for Light or Dark, none for System (the media query decides). */
export function applyThemeChoice(
  choice: ThemeChoice,
  root: { setAttribute(n: string, v: string): void; removeAttribute(n: string): void },
): void {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}

function defaultStorage(): Store | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

// ---- the live choice, shared by the switch and the charts ----

const listeners = new Set<() => void>();
let current: ThemeChoice | null = null;
let media: MediaQueryList | null = null;

function darkQuery(): MediaQueryList | null {
  if (media === null && typeof matchMedia === 'function') {
    media = matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', notify);
  }
  return media;
}

function notify(): void {
  for (const l of listeners) l();
}

export function currentThemeChoice(): ThemeChoice {
  current ??= readThemeChoice();
  return current;
}

/** The theme on screen now. */
export function currentTheme(): Theme {
  return resolveTheme(currentThemeChoice(), darkQuery()?.matches ?? false);
}

/** Applies the stored choice to the page; main.tsx calls it before the first render. */
export function initTheme(): void {
  if (typeof document !== 'undefined') applyThemeChoice(currentThemeChoice(), document.documentElement);
  darkQuery();
}

export function setThemeChoice(choice: ThemeChoice): void {
  current = choice;
  writeThemeChoice(choice);
  if (typeof document !== 'undefined') applyThemeChoice(choice, document.documentElement);
  notify();
}

function subscribe(listener: () => void): () => void {
  darkQuery();
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, currentThemeChoice, () => 'system');
}

/** The theme on screen, re-rendering when the choice or the system's preference changes. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme, () => 'light');
}

// ---- colours for canvases ----

export interface ChartColors {
  axis: string;
  grid: string;
  line: string;
  lineFill: string;
  bar: string;
  errors: string;
}

/** Light-theme values, for where no stylesheet is there to ask (server rendering, tests). */
export const LIGHT_CHART_COLORS: ChartColors = {
  axis: '#4a5568',
  grid: '#eef0f3',
  line: '#2563eb',
  lineFill: 'rgba(37, 99, 235, 0.08)',
  bar: 'rgba(37, 99, 235, 0.55)',
  errors: '#c62828',
};

const CHART_VARS: Record<keyof ChartColors, string> = {
  axis: '--chart-axis',
  grid: '--chart-grid',
  line: '--chart-line',
  lineFill: '--chart-line-fill',
  bar: '--chart-bar',
  errors: '--chart-errors',
};

/**
 * The chart colours as the page resolves them now. A variable's own computed value is its text (light-dark(…)),
 * which a canvas cannot read, so each is resolved as an element's color.
 */
export function themeColors(): ChartColors {
  if (typeof document === 'undefined' || !document.body) return LIGHT_CHART_COLORS;
  const probe = document.createElement('span');
  probe.hidden = true;
  document.body.append(probe);
  try {
    const out = { ...LIGHT_CHART_COLORS };
    for (const key of Object.keys(CHART_VARS) as (keyof ChartColors)[]) {
      probe.style.color = `var(${CHART_VARS[key]})`;
      const value = getComputedStyle(probe).color;
      if (value) out[key] = value;
    }
    return out;
  } finally {
    probe.remove();
  }
}
