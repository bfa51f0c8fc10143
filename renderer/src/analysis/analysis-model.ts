// The analyst views' pure parts: filters grouped for the explorer's tabs, response headers as lines, charts merged
// from live updates and laid out as series, exclude patterns from a queue prefix or a search, and the texts the
// tables show. No React, no DOM: tested on their own (test/renderer/analysis-model.test.ts).
import type { ChartData, ComparisonRow, FilterCounts, FilterGroupId, FilterId, HostReportRow } from '../../../shared/analysis.ts';
import type { ComparedField } from '../../../shared/analysis.ts';
import { COMPARED_FIELDS, FILTER_GROUPS, RESULT_FILTERS } from '../../../shared/analysis.ts';
import { formatDuration, formatInt, formatNumber, formatTime } from '../format.ts';
import { i18next } from '../i18n/i18n.ts';

// Texts through the 'analysis' strings (i18n/en/analysis.ts), in the language shown now.
const t = i18next.getFixedT(null, 'analysis');

export interface FilterTab {
  id: FilterId;
  label: string;
  description: string;
  /** null until the counts arrive. */
  count: number | null;
}

export interface FilterGroupTabs {
  id: FilterGroupId;
  label: string;
  filters: FilterTab[];
}

/** The explorer's filters in their groups (Screaming Frog's tabs), each with its count. */
export function groupedFilters(counts: Partial<FilterCounts> | null): FilterGroupTabs[] {
  return FILTER_GROUPS.map((g) => ({
    id: g.id,
    label: t(`filterGroups.${g.id}`),
    filters: RESULT_FILTERS.filter((f) => f.group === g.id).map((f) => ({
      id: f.id,
      label: t(`filters.${f.id}.label`),
      description: t(`filters.${f.id}.description`),
      count: counts?.[f.id] ?? null,
    })),
  }));
}

/**
 * The groups the explorer shows: the JavaScript group only for a crawl that rendered pages (a crawl without rendering
 * would show a list of zeros that say nothing), or while one of its filters is the one chosen.
 */
export function shownGroups(groups: FilterGroupTabs[], counts: Partial<FilterCounts> | null, chosen: FilterId): FilterGroupTabs[] {
  return groups.filter((g) => g.id !== 'javascript' || (counts?.['js-rendered'] ?? 0) > 0 || g.filters.some((f) => f.id === chosen));
}

/** The filter's name as a heading: "Page titles: Missing", "All". */
export function filterTitle(id: FilterId): string {
  const f = RESULT_FILTERS.find((x) => x.id === id);
  if (!f) return id;
  const label = t(`filters.${f.id}.label`);
  return f.group === 'internal' || f.group === 'external'
    ? label
    : t('filterTitle', { group: t(`filterGroups.${f.group}`), filter: label });
}

/** Response headers as name/value lines, by name; a repeated header gives a line per value. */
export function headerLines(headers: Record<string, string | string[]> | null): { name: string; value: string }[] {
  if (!headers) return [];
  const out: { name: string; value: string }[] = [];
  for (const name of Object.keys(headers).sort()) {
    const v = headers[name]!;
    for (const value of Array.isArray(v) ? v : [v]) out.push({ name, value: String(value) });
  }
  return out;
}

/** A status code as the tables show it. */
export const statusText = (code: number | null): string => (code === null ? t('noResponse') : String(code));

// ---- charts ----

/**
 * The chart after a live update: `next` holds only what came after `prev.last_seq` (status, depth, response time:
 * counts to add) or the buckets from its first one on (over time: to replace). Without `prev`, `next` is whole.
 */
export function mergeChart(prev: ChartData | null, next: ChartData): ChartData {
  if (!prev || prev.kind !== next.kind) return next;
  switch (next.kind) {
    case 'status': {
      const p = prev as typeof next;
      const byCode = new Map(p.rows.map((r) => [r.status_code, { ...r }]));
      for (const r of next.rows) {
        const have = byCode.get(r.status_code);
        if (have) have.count += r.count;
        else byCode.set(r.status_code, { ...r });
      }
      const rows = [...byCode.values()].sort((a, b) => (a.status_code ?? -1) - (b.status_code ?? -1));
      return { ...next, rows, total: p.total + next.total };
    }
    case 'depth': {
      const p = prev as typeof next;
      const byDepth = new Map(p.rows.map((r) => [r.depth, { ...r }]));
      for (const r of next.rows) {
        const have = byDepth.get(r.depth);
        if (have) have.count += r.count;
        else byDepth.set(r.depth, { ...r });
      }
      return { ...next, rows: [...byDepth.values()].sort((a, b) => a.depth - b.depth), total: p.total + next.total };
    }
    case 'response-time': {
      const p = prev as typeof next;
      const rows = p.rows.map((r, i) => ({ ...r, count: r.count + (next.rows[i]?.count ?? 0) }));
      return { ...next, rows, without_time: p.without_time + next.without_time, total: p.total + next.total };
    }
    case 'over-time': {
      const p = prev as typeof next;
      if (p.bucket_ms !== next.bucket_ms) return next;
      const from = next.rows[0]?.at ?? Infinity;
      return { ...next, rows: [...p.rows.filter((r) => r.at < from), ...next.rows] };
    }
  }
}

export interface ChartSeries {
  /** x values: bucket indexes, or times in seconds (over time). */
  xs: number[];
  /** A label per x, for the axis and the CSV-free tooltip (bars). */
  labels: string[];
  series: { label: string; values: number[] }[];
  /** True when there is something to draw. */
  hasData: boolean;
}

/** A chart's data as series for the plot. */
export function chartSeries(data: ChartData | null): ChartSeries {
  if (!data) return { xs: [], labels: [], series: [], hasData: false };
  switch (data.kind) {
    case 'status':
      return bars(
        // The label the host gives is English ("no response"): the code, or the interface's words for none.
        data.rows.map((r) => statusText(r.status_code)),
        t('charts.urls'),
        data.rows.map((r) => r.count),
      );
    case 'depth':
      return bars(
        data.rows.map((r) => String(r.depth)),
        t('charts.urls'),
        data.rows.map((r) => r.count),
      );
    case 'response-time':
      return bars(
        data.rows.map((r) => (r.to_ms === null ? `≥ ${shortMs(r.from_ms)}` : `${shortMs(r.from_ms)}–${shortMs(r.to_ms)}`)),
        t('charts.urls'),
        data.rows.map((r) => r.count),
      );
    case 'over-time':
      return {
        xs: data.rows.map((r) => r.at / 1000),
        labels: data.rows.map((r) => formatTime(r.at)),
        series: [
          { label: t('charts.pagesPerSecond'), values: data.rows.map((r) => r.pages_per_second) },
          { label: t('charts.errors'), values: data.rows.map((r) => r.errors) },
        ],
        hasData: data.rows.some((r) => r.pages > 0 || r.errors > 0),
      };
  }
}

/** 100 → "100", 2000 → "2s": short enough for a bar's label. */
export const shortMs = (ms: number): string => (ms >= 1000 ? `${formatNumber(ms / 1000)}s` : String(ms));

function bars(labels: string[], label: string, values: number[]): ChartSeries {
  return { xs: labels.map((_, i) => i), labels, series: [{ label, values }], hasData: values.some((v) => v > 0) };
}

/** What a chart sums up in a line: "80 URLs", "80 URLs in 12 s buckets". */
export function chartTotal(data: ChartData | null): string {
  if (!data) return '';
  if (data.kind === 'over-time') {
    const pages = data.rows.reduce((n, r) => n + r.pages, 0);
    const errors = data.rows.reduce((n, r) => n + r.errors, 0);
    return t('charts.overTimeTotal', { pages: formatInt(pages), errors: formatInt(errors), seconds: data.bucket_ms / 1000 });
  }
  return t('charts.totalUrls', { n: formatInt(data.total) });
}

// ---- queue ----

/** A text as a regular expression matching it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, (c) => `\\${c}`);
}

/** The exclude pattern of a queue prefix: URLs of that origin whose path starts with it. */
export function prefixPattern(origin: string, prefix: string): string {
  return `^${escapeRegex(origin + prefix)}`;
}

/** The exclude pattern of a search: URLs containing the text. */
export function searchPattern(text: string): string {
  return escapeRegex(text);
}

// ---- hosts ----

export function politenessText(row: HostReportRow): string {
  const p = row.politeness;
  switch (p.state) {
    case 'idle':
      return t('hosts.politeness.idle');
    case 'ready':
      return t('hosts.politeness.ready');
    case 'busy':
      return t('hosts.politeness.busy');
    case 'waiting':
      return t('hosts.politeness.waiting', { time: formatSeconds(p.wait_ms) });
  }
}

export function robotsText(row: HostReportRow): string {
  const r = row.robots;
  if (r.state === 'unknown') return t('hosts.robots.unknown');
  if (r.state === 'fetching') return t('hosts.robots.fetching');
  if (r.error) return r.failures ? t('hosts.robots.failures', { error: r.error, failures: r.failures }) : r.error;
  if (r.status === null) return t('noResponse');
  if (r.status >= 400 && r.status < 500) return t('hosts.robots.allowed', { status: r.status });
  return String(r.status);
}

function formatSeconds(ms: number): string {
  return formatDuration(ms);
}

// ---- comparison ----

/** A compared field as a person reads it (compare.fields in the 'analysis' strings). */
export const fieldLabel = (field: string): string =>
  (COMPARED_FIELDS as readonly string[]).includes(field) ? t(`compare.fields.${field as ComparedField}`) : field;

/** Each changed field of a row as "title: Old → New". */
export function changeLines(row: ComparisonRow): { field: string; before: string; after: string }[] {
  return row.fields.map((f) => ({ field: fieldLabel(f), before: cellText(row.old?.[f]), after: cellText(row.new?.[f]) }));
}

function cellText(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return t('compare.nothing');
  return typeof v === 'number' ? String(v) : v === '' ? t('compare.empty') : v;
}

// ---- the URL detail pane's history ----

/** The URLs the detail pane showed, as a browser's history: opening a link drops what was ahead. */
export interface DetailHistory<T> {
  entries: readonly T[];
  index: number;
}

export const startHistory = <T>(first: T): DetailHistory<T> => ({ entries: [first], index: 0 });

export function openInHistory<T>(h: DetailHistory<T>, next: T): DetailHistory<T> {
  return { entries: [...h.entries.slice(0, h.index + 1), next], index: h.index + 1 };
}

export const canGoBack = (h: DetailHistory<unknown>): boolean => h.index > 0;
export const canGoForward = (h: DetailHistory<unknown>): boolean => h.index < h.entries.length - 1;
export const goBack = <T>(h: DetailHistory<T>): DetailHistory<T> => (canGoBack(h) ? { ...h, index: h.index - 1 } : h);
export const goForward = <T>(h: DetailHistory<T>): DetailHistory<T> => (canGoForward(h) ? { ...h, index: h.index + 1 } : h);
export const currentEntry = <T>(h: DetailHistory<T>): T => h.entries[h.index]!;
