// The analyst views and the results table in Simplified Chinese: the explorer's filters and groups, the export's
// columns, the table's column labels, the charts' legend and a URL's fields are read in the language chosen, while
// crawled content (titles, URLs) and the names shared with the CLI and the CSV headers (shared/analysis.ts) stay
// as they are.
import { createElement } from 'react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResultRow } from '../../shared/crawler-api.ts';
import { exportColumnLabel, FILTER_GROUPS, RESULT_FILTERS } from '../../shared/analysis.ts';
import { filterTitle, groupedFilters, politenessText } from '../../renderer/src/analysis/analysis-model.ts';
import { overTimeLegend } from '../../renderer/src/analysis/chart-layout.ts';
import { ExportDialog } from '../../renderer/src/analysis/ExportDialog.tsx';
import { explorerColumns } from '../../renderer/src/analysis/ExplorerView.tsx';
import { ReportsView } from '../../renderer/src/analysis/ReportsView.tsx';
import { i18next } from '../../renderer/src/i18n/i18n.ts';
import { COLUMNS, indexabilityText } from '../../renderer/src/results/ResultRowView.tsx';
import { RowFields } from '../../renderer/src/results/RowDetails.tsx';
import { createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import { TrawlProvider } from '../../renderer/src/store/context.tsx';
import { fakeApi } from './helpers.ts';

function render(element: ReactElement): string {
  return renderToStaticMarkup(createElement(TrawlProvider, { api: fakeApi(), store: createCrawlStore(), children: element }));
}

const row = {
  seq: 1,
  url: 'https://a.test/missing',
  kind: 'page',
  status_code: null,
  content_type: null,
  size_bytes: null,
  response_time_ms: null,
  crawl_depth: 2,
  indexability: null,
  indexability_reason: null,
  title: 'Page title in English',
  meta_description: null,
  h1: null,
  h1_count: null,
  h2: null,
  h2_count: null,
  canonical: null,
  lang: null,
  hreflang: null,
  meta_robots: null,
  x_robots_tag: null,
  meta_refresh: null,
  word_count: null,
  inlinks: 0,
  outlinks: 0,
  redirect_url: null,
  attempts: 0,
  robots_disallowed: 0,
  error: 'connect ECONNREFUSED',
  extracted: {},
} as unknown as ResultRow;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('the analyst views in Simplified Chinese', () => {
  it('renders the export dialog in Chinese, the CSV names and shared labels unchanged', async () => {
    await i18next.changeLanguage('zh-CN');
    const html = render(createElement(ExportDialog, { filter: 'status-4xx', text: '', extractionRules: ['price'], onClose: () => {} }));
    expect(html).toContain('导出“响应状态码：客户端错误 (4xx)”');
    expect(html).toContain('<span>Meta 描述</span>');
    expect(html).toContain('<span>不可索引的原因</span>');
    // The CSV's column names and an extraction rule's name are data: as they are.
    expect(html).toContain('title="CSV 列：meta_description"');
    expect(html).toContain('<span>price</span>');
    expect(html).not.toContain('Screaming Frog headers');
    expect(html).not.toContain('Cancel');
    // The CLI and the CSV headers keep the English names of shared/.
    expect(exportColumnLabel('meta_description')).toBe('Meta description');
    expect(FILTER_GROUPS.find((g) => g.id === 'title')!.label).toBe('Page titles');
  });

  it('names every filter and group in Chinese, by its id', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(filterTitle('title-missing')).toBe('页面标题：缺失');
    expect(filterTitle('all')).toBe('全部');
    const groups = groupedFilters(null);
    expect(groups.map((g) => g.label)).toContain('响应状态码');
    const filters = groups.flatMap((g) => g.filters);
    expect(filters).toHaveLength(RESULT_FILTERS.length);
    // Every filter is described in Chinese; only the technical names (HTML, Noindex, Nofollow) keep their label.
    const technical = new Set(['html', 'directive-noindex', 'directive-nofollow']);
    for (const f of filters) {
      expect(f.description, f.id).toMatch(/\p{Script=Han}/u);
      if (!technical.has(f.id)) expect(f.label, f.id).toMatch(/\p{Script=Han}/u);
    }
  });

  it('labels the table columns in the language shown, switching back and forth', async () => {
    const url = COLUMNS.find((c) => c.id === 'status')!;
    expect(url.label).toBe('Status');
    await i18next.changeLanguage('zh-CN');
    expect(url.label).toBe('状态码');
    expect(explorerColumns(['price']).map((c) => c.label)).toEqual(expect.arrayContaining(['深度', '入链', 'price', '内容类型']));
    await i18next.changeLanguage('en');
    expect(explorerColumns([]).find((c) => c.id === 'words')!.label).toBe('Words');
  });

  it('writes the reports, the legend and the hosts in Chinese', async () => {
    await i18next.changeLanguage('zh-CN');
    const html = render(createElement(ReportsView));
    expect(html).toContain('报告');
    expect(html).not.toContain('Reports');
    expect(overTimeLegend(null, null)).toBe('尚未抓取任何页面');
    expect(
      overTimeLegend(
        { kind: 'over-time', bucket_ms: 1000, rows: [{ at: 0, pages: 3, pages_per_second: 3, errors: 2 }] } as never,
        null,
        () => '12:00:00',
      ),
    ).toBe('最近一秒：12:00:00 · 3 页/秒 · 2 个错误');
    expect(politenessText({ politeness: { state: 'busy' } } as never)).toBe('正在抓取（一次一个）');
  });

  it("lists a URL's fields in Chinese, its crawled values as they are", async () => {
    await i18next.changeLanguage('zh-CN');
    const html = render(createElement(RowFields, { row, rules: ['price'] }));
    expect(html).toContain('<dt>标题</dt>');
    expect(html).toContain('Page title in English');
    expect(html).toContain('connect ECONNREFUSED');
    expect(html).toContain('0（从未抓取）');
    expect(html).toContain('自定义提取');
    expect(html).not.toContain('<dt>Title</dt>');
    expect(indexabilityText({ indexability: 'non-indexable', indexability_reason: 'client error' })).toBe('不可索引：客户端错误');
    expect(indexabilityText({ indexability: 'non-indexable', indexability_reason: 'status 199' })).toBe('不可索引：状态码 199');
    await i18next.changeLanguage('en');
    expect(indexabilityText({ indexability: 'non-indexable', indexability_reason: 'client error' })).toBe('non-indexable: client error');
  });
});
