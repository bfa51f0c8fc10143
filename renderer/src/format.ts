// How numbers, sizes, durations and dates read in a dense table: in the user's locale (the browser's preferred
// languages: 1,234.5 in en-US, 1.234,5 in de-DE), through Intl formatters made once per locale and kind.

let locales: readonly string[] | undefined;
let formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

/** The browser's preferred languages (Electron: the system's), or the runtime's default locale. */
function preferredLocales(): readonly string[] | undefined {
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;
  if (nav?.languages && nav.languages.length > 0) return nav.languages;
  return nav?.language ? [nav.language] : undefined;
}

/** Sets the locale numbers and dates are formatted in (tests, a language switch); undefined: the browser's again. */
export function setFormatLocale(locale: string | readonly string[] | undefined): void {
  locales = locale === undefined ? undefined : typeof locale === 'string' ? [locale] : locale;
  formatters = new Map();
}

/** The locale the formatters use, as Intl resolved it (e.g. "de-DE"). */
export function formatLocale(): string {
  return numberFormat(0).resolvedOptions().locale;
}

function numberFormat(fractionDigits: number): Intl.NumberFormat {
  const key = `n${fractionDigits}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) {
    f = new Intl.NumberFormat(resolvedLocales(), { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
    formatters.set(key, f);
  }
  return f;
}

function dateFormat(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) {
    f = new Intl.DateTimeFormat(resolvedLocales(), options);
    formatters.set(key, f);
  }
  return f;
}

function resolvedLocales(): string[] | undefined {
  const wanted = locales ?? preferredLocales();
  if (!wanted) return undefined;
  // An unknown or malformed tag falls back to the runtime's default rather than throwing in the middle of a render.
  const ok = wanted.filter((l) => {
    try {
      return Intl.NumberFormat.supportedLocalesOf([l]).length > 0;
    } catch {
      return false;
    }
  });
  return ok.length > 0 ? ok : undefined;
}

/** A number with a fixed count of decimals, grouped: formatDecimal(1234.5, 1) is 1,234.5 (en) or 1.234,5 (de). */
export function formatDecimal(n: number, fractionDigits: number): string {
  return Number.isFinite(n) ? numberFormat(fractionDigits).format(n) : '';
}

/** A number with up to three decimals, as many as it has: 1.5, 2, 0.125. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return '';
  let f = formatters.get('n*') as Intl.NumberFormat | undefined;
  if (!f) {
    f = new Intl.NumberFormat(resolvedLocales(), { maximumFractionDigits: 3 });
    formatters.set('n*', f);
  }
  return f.format(n);
}

export function formatInt(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '' : numberFormat(0).format(n);
}

export function formatRate(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return formatDecimal(0, 0);
  return n >= 100 ? formatDecimal(n, 0) : formatDecimal(n, 1);
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  if (n < 1024) return `${formatDecimal(n, 0)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${formatDecimal(v, v >= 100 ? 0 : 1)} ${units[u]}`;
}

/** 0:07, 12:34, 1:02:03. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Time in a step: 0.4 s, 12 s, 3 m 05 s. */
export function formatStepTime(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `${formatDecimal(t / 1000, 1)} s`;
  if (t < 60_000) return `${Math.floor(t / 1000)} s`;
  const m = Math.floor(t / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  return m < 60 ? `${m} m ${String(s).padStart(2, '0')} s` : formatClock(t);
}

/** A short duration: 850 ms, 2.5 s, 1,234.0 s. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${formatDecimal(Math.max(0, Math.round(ms)), 0)} ms` : `${formatDecimal(ms / 1000, 1)} s`;
}

/** text/html; charset=utf-8 -> text/html */
export function shortContentType(ct: string | null): string {
  if (!ct) return '';
  return ct.split(';')[0]!.trim();
}

export function fileName(path: string | null): string {
  if (!path) return '';
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** A date and time to the minute, in the locale's order: Dec 1, 2026, 6:08 PM (en-US), 01.12.2026, 18:08 (de-DE). */
export function formatWhen(iso: string | number | Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return dateFormat('when', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A time of day to the second (chart axes, timelines): 6:08:09 PM (en-US), 18:08:09 (de-DE). */
export function formatTime(epochMs: number): string {
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) return '';
  return dateFormat('time', { timeStyle: 'medium' }).format(d);
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
