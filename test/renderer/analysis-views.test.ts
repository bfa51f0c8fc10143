// The analyst views' pure parts: filters grouped with counts, headers as lines, live chart updates merged, exclude
// patterns from the queue, comparison texts; and the detail pane and export dialog rendered, crawled content as text.
import { createElement } from 'react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChartData, ExplorerRow, FilterCounts, HostReportRow, UrlDetail } from '../../shared/analysis.ts';
import { FILTER_IDS, RESULT_FILTERS } from '../../shared/analysis.ts';
import {
  changeLines,
  chartSeries,
  chartTotal,
  escapeRegex,
  filterTitle,
  groupedFilters,
  headerLines,
  mergeChart,
  politenessText,
  prefixPattern,
  robotsText,
  searchPattern,
} from '../../renderer/src/analysis/analysis-model.ts';
import { explorerColumns } from '../../renderer/src/analysis/ExplorerView.tsx';
import { ExportDialog } from '../../renderer/src/analysis/ExportDialog.tsx';
import { UrlDetailBody } from '../../renderer/src/analysis/UrlDetailBody.tsx';
import { createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import { TrawlProvider } from '../../renderer/src/store/context.tsx';
import { fakeApi } from './helpers.ts';

const EVIL = '<img src=x onerror=alert(1)>';

function render(element: ReactElement): string {
  return renderToStaticMarkup(createElement(TrawlProvider, { api: fakeApi(), store: createCrawlStore(), children: element }));
}

function explorerRow(patch: Partial<ExplorerRow> = {}): ExplorerRow {
  return {
    seq: 3,
    url: 'https://a.test/p',
    kind: 'page',
    status_code: 200,
    content_type: 'text/html',
    size_bytes: 100,
    response_time_ms: 12,
    crawl_depth: 1,
    indexability: 'indexable',
    indexability_reason: null,
    title: 'T',
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
    word_count: 10,
    inlinks: 1,
    outlinks: 2,
    redirect_url: null,
    attempts: 1,
    robots_disallowed: 0,
    error: null,
    url_id: 5,
    state: 2,
    extracted: {},
    ...patch,
  };
}

describe('explorer model', () => {
  it('groups every filter under its group, in order, with its count (null until counted)', () => {
    const counts = Object.fromEntries(FILTER_IDS.map((id, i) => [id, i])) as FilterCounts;
    const groups = groupedFilters(counts);
    expect(groups.flatMap((g) => g.filters.map((f) => f.id))).toEqual([...FILTER_IDS]);
    expect(groups.map((g) => g.label)).toContain('Page titles');
    expect(groups.find((g) => g.id === 'response')!.filters.find((f) => f.id === 'status-4xx')!.count).toBe(
      FILTER_IDS.indexOf('status-4xx'),
    );
    expect(groupedFilters(null)[0]!.filters[0]!.count).toBeNull();
    expect(filterTitle('title-missing')).toBe('Page titles: Missing');
    expect(filterTitle('all')).toBe('All');
    expect(RESULT_FILTERS).toHaveLength(FILTER_IDS.length);
  });

  it('lists response headers by name, a line per value of a repeated one', () => {
    expect(headerLines({ 'set-cookie': ['a=1', 'b=2'], 'content-type': 'text/html' })).toEqual([
      { name: 'content-type', value: 'text/html' },
      { name: 'set-cookie', value: 'a=1' },
      { name: 'set-cookie', value: 'b=2' },
    ]);
    expect(headerLines(null)).toEqual([]);
  });

  it("renders the detail pane's headers, anchors and extracted values as text, never markup", () => {
    const detail: UrlDetail = {
      url_id: 5,
      url: `https://a.test/${EVIL}`,
      state: 2,
      state_name: 'fetched',
      kind: 'page',
      depth: 1,
      check_only: false,
      discovered_at: 0,
      via: null,
      row: explorerRow({ title: EVIL }),
      fetched: true,
      response_headers: { 'x-evil': EVIL },
      redirect_chain: { hops: [], position: 0, loop: false, truncated: false, redirected_from: [] },
      inlinks: { total: 1, rows: [{ from_id: 1, from_url: 'https://a.test/', anchor: EVIL, kind: 'a', nofollow: false }], next: null },
      outlinks: { total: 0, rows: [], next: null },
      unfetchable_links: [{ href: 'javascript:alert(1)', scheme: 'javascript', anchor: EVIL }],
      unfetchable_truncated: false,
      extracted: [{ rule: 'price', values: [EVIL, '2'] }],
    };
    const html = render(createElement(UrlDetailBody, { detail, onOpen: () => {} }));
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('x-evil');
    expect(html).toContain('Inlinks (1)');
    expect(html).not.toContain('href="javascript');
  });

  it("offers every CSV column and the crawl's extraction rules in the export dialog, with the Screaming Frog option", () => {
    const html = render(createElement(ExportDialog, { filter: 'status-4xx', text: '', extractionRules: ['price'], onClose: () => {} }));
    expect(html).toContain('data-export-column="url"');
    expect(html).toContain('data-export-column="robots_disallowed"');
    expect(html).toContain('data-export-column="price"');
    expect(html).toContain('Screaming Frog headers');
    expect(html).toContain('Response codes: Client error (4xx)');
  });

  it('shows the export columns by their labels, the CSV name only as a tooltip', () => {
    const html = render(createElement(ExportDialog, { filter: 'all', text: '', extractionRules: ['price'], onClose: () => {} }));
    expect(html).toContain('<span>Meta description</span>');
    expect(html).toContain('<span>Why not indexable</span>');
    expect(html).not.toContain('<span>meta_description</span>');
    expect(html).toContain('title="CSV column: meta_description"');
    expect(html).toContain('<span>price</span>');
  });
});

describe('charts model', () => {
  it("adds the counts of a live update to the last answer, and replaces over-time buckets from the update's first", () => {
    const a: ChartData = { kind: 'status', rows: [{ status_code: 200, label: '200', count: 5 }], total: 5, last_seq: 5 };
    const b: ChartData = {
      kind: 'status',
      rows: [
        { status_code: null, label: 'no response', count: 1 },
        { status_code: 200, label: '200', count: 2 },
      ],
      total: 3,
      last_seq: 8,
    };
    expect(mergeChart(a, b)).toEqual({
      kind: 'status',
      rows: [
        { status_code: null, label: 'no response', count: 1 },
        { status_code: 200, label: '200', count: 7 },
      ],
      total: 8,
      last_seq: 8,
    });
    const t1: ChartData = {
      kind: 'over-time',
      bucket_ms: 1000,
      rows: [
        { at: 0, pages: 1, errors: 0, pages_per_second: 1 },
        { at: 1000, pages: 1, errors: 0, pages_per_second: 1 },
      ],
      last_seq: 2,
    };
    const t2: ChartData = {
      kind: 'over-time',
      bucket_ms: 1000,
      rows: [
        { at: 1000, pages: 3, errors: 1, pages_per_second: 3 },
        { at: 2000, pages: 2, errors: 0, pages_per_second: 2 },
      ],
      last_seq: 6,
    };
    expect((mergeChart(t1, t2) as { rows: { pages: number }[] }).rows.map((r) => r.pages)).toEqual([1, 3, 2]);
    expect(mergeChart(null, a)).toBe(a);
    const d1: ChartData = {
      kind: 'response-time',
      rows: [{ from_ms: 0, to_ms: 100, label: '0 ms to 100 ms', count: 2 }],
      without_time: 1,
      total: 3,
      last_seq: 3,
    };
    expect(mergeChart(d1, d1)).toMatchObject({ rows: [{ count: 4 }], without_time: 2, total: 6 });
  });

  it('lays bars out by index with their labels, and throughput by time', () => {
    const s = chartSeries({
      kind: 'depth',
      rows: [
        { depth: 0, count: 1 },
        { depth: 1, count: 4 },
      ],
      total: 5,
      last_seq: 5,
    });
    expect(s).toEqual({ xs: [0, 1], labels: ['0', '1'], series: [{ label: 'URLs', values: [1, 4] }], hasData: true });
    expect(chartSeries(null).hasData).toBe(false);
    const t = chartSeries({
      kind: 'over-time',
      bucket_ms: 1000,
      rows: [{ at: 5000, pages: 2, errors: 1, pages_per_second: 2 }],
      last_seq: 2,
    });
    expect(t.xs).toEqual([5]);
    expect(t.series.map((x) => x.label)).toEqual(['pages/s', 'errors']);
    expect(chartTotal({ kind: 'depth', rows: [], total: 1234, last_seq: 0 })).toBe('1,234 URLs');
    const h = chartSeries({
      kind: 'response-time',
      rows: [
        { from_ms: 500, to_ms: 1000, label: '', count: 1 },
        { from_ms: 1000, to_ms: null, label: '', count: 0 },
      ],
      without_time: 0,
      total: 1,
      last_seq: 1,
    });
    expect(h.labels).toEqual(['500–1s', '≥ 1s']);
  });
});

describe('queue, hosts and comparison texts', () => {
  it('turns a prefix or a search into an exclude pattern matching it literally', () => {
    expect(escapeRegex('a.b?c=(1)')).toBe('a\\.b\\?c=\\(1\\)');
    expect(prefixPattern('http://127.0.0.1:8080', '/p/')).toBe('^http://127\\.0\\.0\\.1:8080/p/');
    expect(new RegExp(prefixPattern('https://a.test', '/docs/')).test('https://a.test/docs/x')).toBe(true);
    expect(new RegExp(prefixPattern('https://a.test', '/docs/')).test('https://a.test/api/docs/x')).toBe(false);
    expect(new RegExp(searchPattern('?print=1')).test('https://a.test/x?print=1')).toBe(true);
  });

  it("says a host's politeness and robots.txt state in words", () => {
    const host = (p: Partial<HostReportRow['politeness']>, r: Partial<HostReportRow['robots']>): HostReportRow => ({
      host_id: 1,
      origin: 'https://a.test',
      crawled: 1,
      failed: 0,
      http_errors: 0,
      errors: 0,
      bytes: 0,
      queued: 0,
      in_flight: 0,
      politeness: { state: 'idle', next_fetch_at: null, wait_ms: 0, crawl_delay_ms: 0, last_fetch_ms: null, ...p },
      robots: { state: 'known', status: 200, error: null, failures: 0, ...r },
    });
    expect(politenessText(host({ state: 'waiting', wait_ms: 2500 }, {}))).toBe('waiting 2.5 s');
    expect(robotsText(host({}, { status: 404 }))).toBe('404: everything allowed');
    expect(robotsText(host({}, { state: 'unknown' }))).toBe('not read yet');
  });

  it('names each changed field with its old and new value', () => {
    const fields = {
      status_code: 200,
      title: 'Old',
      meta_description: null,
      canonical: null,
      indexability: 'indexable',
      indexability_reason: null,
      word_count: 10,
    };
    expect(
      changeLines({
        change: 'changed',
        url: 'u',
        fields: ['title', 'meta_description'],
        old: fields,
        new: { ...fields, title: 'New', meta_description: 'D' },
      }),
    ).toEqual([
      { field: 'title', before: 'Old', after: 'New' },
      { field: 'meta description', before: '(none)', after: 'D' },
    ]);
  });
});

describe('web console downloads', () => {
  it('puts the analyst downloads beside /export.csv, keeping the token and encoding what they carry', async () => {
    const { downloadUrl } = await import('../../renderer/src/api/ws-transport.ts');
    expect(downloadUrl('http://h:1/export.csv?token=abc', '/chart.csv', { kind: 'status' })).toBe(
      'http://h:1/chart.csv?token=abc&kind=status',
    );
    expect(downloadUrl('/export.csv', '/compare.csv', { query: '{"a":"b c&d"}' })).toBe('/compare.csv?query=%7B%22a%22%3A%22b+c%26d%22%7D');
  });

  it("gives the downloads a URL without the token (the page's cookie authenticates them), the socket the link's token", async () => {
    const { webConsoleUrls } = await import('../../renderer/src/api/create-api.ts');
    const { downloadUrl } = await import('../../renderer/src/api/ws-transport.ts');
    const location = { protocol: 'http:', host: '127.0.0.1:7777', href: 'http://127.0.0.1:7777/?token=secret-token-0123456789abcdef0123' };
    const urls = webConsoleUrls(location, 'secret-token-0123456789abcdef0123');
    expect(urls).toEqual({
      url: 'ws://127.0.0.1:7777/api?token=secret-token-0123456789abcdef0123',
      exportUrl: 'http://127.0.0.1:7777/export.csv',
    });
    expect(downloadUrl(urls.exportUrl, '/chart.csv', { kind: 'status' })).toBe('http://127.0.0.1:7777/chart.csv?kind=status');
    expect(downloadUrl(urls.exportUrl, '/view.csv', {})).toBe('http://127.0.0.1:7777/view.csv');
    // Reloaded (no token left in the address): the cookie carries it for the socket too.
    expect(webConsoleUrls({ ...location, href: 'http://127.0.0.1:7777/' }, null).url).toBe('ws://127.0.0.1:7777/api');
  });
});

describe('explorer columns', () => {
  it('puts a column per extraction rule after the title, its values joined as text', () => {
    const columns = explorerColumns(['Price', 'SKU']);
    const ids = columns.map((c) => c.id);
    expect(ids.slice(ids.indexOf('title'), ids.indexOf('title') + 3)).toEqual(['title', 'extract:Price', 'extract:SKU']);
    const row = explorerRow({ extracted: { Price: ['9.99', '12.50'], __proto__: [EVIL] } as never });
    expect(columns.find((c) => c.id === 'extract:Price')!.cell(row)).toBe('9.99 | 12.50');
    expect(columns.find((c) => c.id === 'extract:SKU')!.cell(row)).toBe('');
    expect(explorerColumns([]).map((c) => c.id)).not.toContain('extract:Price');
  });
});
