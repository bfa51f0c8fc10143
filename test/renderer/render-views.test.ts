// The raw-versus-rendered views in the renderer, without a browser: the JavaScript group shown only for a crawl that
// rendered pages, a rendered page's section of the detail pane with crawled content as text (never markup), and the
// export dialog offering the render columns only for a rendered crawl.
import { createElement } from 'react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FilterCounts, RenderDetail } from '../../shared/analysis.ts';
import { groupedFilters, shownGroups } from '../../renderer/src/analysis/analysis-model.ts';
import { ExportDialog } from '../../renderer/src/analysis/ExportDialog.tsx';
import { RenderDetailSection } from '../../renderer/src/analysis/RenderDetailSection.tsx';
import { createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import { TrawlProvider } from '../../renderer/src/store/context.tsx';
import { fakeApi } from './helpers.ts';

const EVIL = '<img src=x onerror=alert(1)>';

function render(element: ReactElement): string {
  return renderToStaticMarkup(createElement(TrawlProvider, { api: fakeApi(), store: createCrawlStore(), children: element }));
}

describe('raw versus rendered in the renderer', () => {
  it('shows the JavaScript group only for a crawl that rendered pages, or while one of its filters is chosen', () => {
    const ids = (counts: Partial<FilterCounts> | null, chosen: 'all' | 'js-errors' = 'all') =>
      shownGroups(groupedFilters(counts), counts, chosen).map((g) => g.id);
    expect(ids(null)).not.toContain('javascript');
    expect(ids({ 'js-rendered': 0 })).not.toContain('javascript');
    expect(ids({ 'js-rendered': 3 })).toContain('javascript');
    expect(ids({ 'js-rendered': 0 }, 'js-errors')).toContain('javascript');
    expect(ids(null)).toContain('external');
  });

  it('renders a page raw beside rendered, the changed fields marked, its errors and resources as text', () => {
    const render_: RenderDetail = {
      fields: [
        { field: 'title', raw: 'Loading…', rendered: EVIL, changed: true },
        { field: 'word_count', raw: 2, rendered: 1200, changed: true },
        { field: 'canonical', raw: null, rendered: null, changed: false },
        { field: 'indexability', raw: 'indexable', rendered: 'non-indexable: noindex', changed: true },
      ],
      rendered_links: 4,
      js_redirect: null,
      render_ms: 1234,
      error: null,
      console_errors: { items: [EVIL], total: 120 },
      page_errors: { items: [], total: 0 },
      failed_resources: { items: [{ url: `https://a.test/${EVIL}`, reason: '404' }], total: 1 },
      blocked_resources: { items: [], total: 0 },
    };
    const html = render(createElement(RenderDetailSection, { render: render_ }));
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('JavaScript changed 3 fields.');
    expect(html).toContain('<tr data-field="title" data-changed="true">');
    expect(html).toContain('<tr data-field="canonical">');
    expect(html).toContain('1,200');
    expect(html).toContain('1,234 ms');
    expect(html).toContain('non-indexable: noindex');
    expect(html).toContain('Console errors (120)');
    expect(html).toContain('The first 1 of 120.');
    expect(html).toContain('Failed resources (1)');
    // Lists with nothing in them are left out.
    expect(html).not.toContain('Uncaught exceptions');
    expect(html).not.toContain('Blocked resources');
  });

  it('offers the render columns in the export dialog for a rendered crawl only', () => {
    const dialog = (rendered: boolean) =>
      render(createElement(ExportDialog, { filter: 'js-errors', text: '', extractionRules: [], rendered, onClose: () => {} }));
    expect(dialog(true)).toContain('data-export-column="raw_title"');
    expect(dialog(true)).toContain('<span>Links only in rendered HTML</span>');
    expect(dialog(false)).not.toContain('data-export-column="raw_title"');
  });
});
