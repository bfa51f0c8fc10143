// The workbench's one table and one detail pane, in-process: the column layout (order, hidden columns, widths)
// and how it is kept per view and restored; the explorer's columns and default layout; the detail pane's history
// and its body (every field, headers, links that open in the pane).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ExplorerRow, UrlDetail } from '../../shared/analysis.ts';
import {
  DEFAULT_LAYOUT,
  MAX_COLUMN_PX,
  MIN_COLUMN_PX,
  gridTemplate,
  layoutKey,
  loadLayout,
  moveColumn,
  orderedColumns,
  parseLayout,
  resetLayout,
  resizeColumn,
  saveLayout,
  setHidden,
  shiftColumn,
  visibleColumns,
} from '../../renderer/src/results/column-layout.ts';
import type { LayoutStorage } from '../../renderer/src/results/column-layout.ts';
import { COLUMNS, columnsFor } from '../../renderer/src/results/ResultRowView.tsx';
import { EXPLORER_DEFAULT_LAYOUT, explorerColumns } from '../../renderer/src/analysis/ExplorerView.tsx';
import { UrlDetailBody } from '../../renderer/src/analysis/UrlDetailBody.tsx';
import {
  canGoBack,
  canGoForward,
  currentEntry,
  goBack,
  goForward,
  openInHistory,
  startHistory,
} from '../../renderer/src/analysis/analysis-model.ts';
import { createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import { TrawlProvider } from '../../renderer/src/store/context.tsx';
import { fakeApi } from './helpers.ts';

const EVIL = '<img src=x onerror=alert(1)>';
const ids = (cs: readonly { id: string }[]) => cs.map((c) => c.id);

function memoryStorage(): LayoutStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('column layout', () => {
  it('moves a column, keeping the others in their order', () => {
    const moved = moveColumn(COLUMNS, DEFAULT_LAYOUT, 'title', 1);
    const order = ids(orderedColumns(COLUMNS, moved));
    expect(order.slice(0, 3)).toEqual(['url', 'title', 'status']);
    expect(order).toHaveLength(COLUMNS.length);
    expect([...order].sort()).toEqual(ids(COLUMNS).sort());
    // Moved back to the end.
    const last = moveColumn(COLUMNS, moved, 'url', 1_000);
    expect(ids(orderedColumns(COLUMNS, last)).at(-1)).toBe('url');
  });

  it('shifts a column past hidden ones to its visible neighbour', () => {
    const hidden = setHidden(COLUMNS, setHidden(COLUMNS, DEFAULT_LAYOUT, 'indexability', true), 'title', true);
    const shifted = shiftColumn(COLUMNS, hidden, 'kind', -1);
    expect(ids(visibleColumns(COLUMNS, shifted)).slice(0, 3)).toEqual(['url', 'kind', 'status']);
    // At the edge nothing moves.
    expect(shiftColumn(COLUMNS, DEFAULT_LAYOUT, 'url', -1)).toBe(DEFAULT_LAYOUT);
  });

  it('hides and shows columns, never the URL', () => {
    const hidden = setHidden(COLUMNS, DEFAULT_LAYOUT, 'kind', true);
    expect(ids(visibleColumns(COLUMNS, hidden))).not.toContain('kind');
    expect(ids(visibleColumns(COLUMNS, setHidden(COLUMNS, hidden, 'kind', false)))).toContain('kind');
    expect(setHidden(COLUMNS, DEFAULT_LAYOUT, 'url', true)).toBe(DEFAULT_LAYOUT);
    // A stored layout hiding the URL (edited by hand) still shows it.
    expect(ids(visibleColumns(COLUMNS, { ...DEFAULT_LAYOUT, hidden: ['url'] }))).toContain('url');
  });

  it('puts a column the layout does not know (a new extraction rule) after its default predecessor', () => {
    const layout = moveColumn(COLUMNS, DEFAULT_LAYOUT, 'status', 5);
    const withRule = ids(orderedColumns(columnsFor(['price']), layout));
    // Status (its default predecessor) was moved to 6th place: the rule's column follows it there.
    expect(withRule.slice(0, 7)).toEqual(['url', 'indexability', 'title', 'kind', 'type', 'status', 'x0']);
    expect(withRule).toHaveLength(COLUMNS.length + 1);
  });

  it('gives dragged widths in px, clamped, and the rest their default tracks; the minimum width follows', () => {
    const layout = resizeColumn(resizeColumn(DEFAULT_LAYOUT, 'title', 333.4), 'status', 1);
    expect(layout.widths).toEqual({ title: 333, status: MIN_COLUMN_PX });
    expect(resizeColumn(DEFAULT_LAYOUT, 'url', 1e9).widths['url']).toBe(MAX_COLUMN_PX);
    const cols = COLUMNS.filter((c) => ['url', 'status', 'title'].includes(c.id));
    expect(gridTemplate(cols, layout)).toEqual({
      template: `minmax(300px, 3fr) ${MIN_COLUMN_PX}px 333px`,
      minWidth: 300 + MIN_COLUMN_PX + 333,
    });
  });

  it('keeps a layout per view in storage, restores it, and forgets it on reset', () => {
    const storage = memoryStorage();
    let layout = moveColumn(COLUMNS, DEFAULT_LAYOUT, 'title', 1);
    layout = setHidden(COLUMNS, layout, 'kind', true);
    layout = resizeColumn(layout, 'url', 420);
    saveLayout(storage, 'results', layout);
    expect([...storage.data.keys()]).toEqual([layoutKey('results')]);
    expect(loadLayout(storage, 'results')).toEqual(layout);
    // Another view has its own (here: its default).
    expect(loadLayout(storage, 'explorer', EXPLORER_DEFAULT_LAYOUT)).toBe(EXPLORER_DEFAULT_LAYOUT);
    resetLayout(storage, 'results');
    expect(loadLayout(storage, 'results')).toBe(DEFAULT_LAYOUT);
    // No storage (refused): the default.
    expect(loadLayout(null, 'results')).toBe(DEFAULT_LAYOUT);
  });

  it('reads a damaged or hostile stored layout safely', () => {
    expect(parseLayout('not json')).toEqual(DEFAULT_LAYOUT);
    expect(parseLayout('null')).toEqual(DEFAULT_LAYOUT);
    const parsed = parseLayout('{"order":["url",3,"title"],"hidden":"kind","widths":{"__proto__":120,"title":"wide","url":-5}}');
    expect(parsed.order).toEqual(['url', 'title']);
    expect(parsed.hidden).toEqual([]);
    expect(Object.hasOwn(parsed.widths, '__proto__')).toBe(true);
    expect(parsed.widths['url']).toBe(MIN_COLUMN_PX);
    expect(Object.hasOwn(parsed.widths, 'title')).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('explorer columns in the shared table', () => {
  it("shows its own columns by default and offers the live table's others, hidden", () => {
    const all = explorerColumns(['price']);
    expect(ids(visibleColumns(all, EXPLORER_DEFAULT_LAYOUT))).toEqual([
      'url',
      'status',
      'indexability',
      'title',
      'extract:price',
      'words',
      'inlinks',
      'linkScore',
      'depth',
      'time',
    ]);
    for (const id of ['kind', 'type', 'size', 'attempts', 'h1s', 'outlinks', 'uniqueInlinks', 'directives', 'error'])
      expect(ids(all)).toContain(id);
    // Shown from the column menu, a hidden column renders its cell from the explorer's row.
    const error = all.find((c) => c.id === 'error')!;
    expect(error.cell({ error: 'timeout' } as ExplorerRow)).toBe('timeout');
    // Every column has a track for the grid.
    expect(all.every((c) => c.track && c.minPx > 0)).toBe(true);
  });
});

describe('URL detail pane', () => {
  it('walks its history like a browser: back, forward, and a new link drops what was ahead', () => {
    let h = startHistory('a');
    expect(canGoBack(h)).toBe(false);
    h = openInHistory(h, 'b');
    h = openInHistory(h, 'c');
    expect(currentEntry(h)).toBe('c');
    h = goBack(goBack(h));
    expect(currentEntry(h)).toBe('a');
    expect(canGoBack(h)).toBe(false);
    expect(goBack(h)).toBe(h);
    h = goForward(h);
    expect(currentEntry(h)).toBe('b');
    expect(canGoForward(h)).toBe(true);
    h = openInHistory(h, 'd');
    expect(h.entries).toEqual(['a', 'b', 'd']);
    expect(canGoForward(h)).toBe(false);
  });

  it('shows every field (meta, headings, canonical), the headers, and links that open in the pane, all as text', () => {
    const detail: UrlDetail = {
      url_id: 5,
      url: 'https://a.test/p',
      state: 2,
      state_name: 'fetched',
      kind: 'page',
      depth: 1,
      check_only: false,
      discovered_at: 0,
      via: { url_id: 1, url: 'https://a.test/' },
      row: {
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
        meta_description: `Described ${EVIL}`,
        h1: 'Main heading',
        h1_count: 1,
        h2: null,
        h2_count: 0,
        canonical: 'https://a.test/canonical',
        lang: 'en',
        hreflang: null,
        meta_robots: null,
        x_robots_tag: null,
        meta_refresh: null,
        word_count: 10,
        inlinks: 1,
        outlinks: 1,
        redirect_url: null,
        attempts: 1,
        robots_disallowed: 0,
        error: null,
        url_id: 5,
        state: 2,
        extracted: {},
      },
      fetched: true,
      response_headers: { 'content-type': 'text/html' },
      redirect_chain: { hops: [], position: 0, loop: false, truncated: false, redirected_from: [] },
      inlinks: { total: 1, rows: [{ from_id: 1, from_url: 'https://a.test/', anchor: 'Home', kind: 'a', nofollow: false }], next: null },
      outlinks: {
        total: 1,
        rows: [{ to_id: 9, to_url: 'https://a.test/q', anchor: EVIL, kind: 'a', nofollow: false, state: 2, status_code: 200 }],
        next: null,
      },
      unfetchable_links: [],
      unfetchable_truncated: false,
      extracted: [{ rule: 'price', values: ['12'] }],
    };
    const html = renderToStaticMarkup(
      createElement(TrawlProvider, {
        api: fakeApi(),
        store: createCrawlStore(),
        children: createElement(UrlDetailBody, { detail, onOpen: () => {}, rules: ['price', 'sku'] }),
      }),
    );
    const field = (label: string) => new RegExp(`<dt>${label}</dt><dd[^>]*>([^<]*)</dd>`).exec(html)?.[1];
    expect(field('Meta description')).toBe('Described &lt;img src=x onerror=alert(1)&gt;');
    expect(field('H1')).toBe('Main heading');
    expect(field('Canonical')).toBe('https://a.test/canonical');
    expect(field('Attempts')).toBe('1');
    expect(field('content-type')).toBe('text/html');
    expect(field('price')).toBe('12');
    expect(field('sku')).toBe('—');
    // Links in and out, and where it was found, are buttons opening that URL in the pane (never anchors).
    expect(html).toContain('data-open-url="https://a.test/"');
    expect(html).toContain('data-open-url="https://a.test/q"');
    expect(html).not.toMatch(/<a[\s>]/);
    expect(html).not.toContain('<img');
  });
});
