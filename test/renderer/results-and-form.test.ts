// The pieces of the results table and the start form that hold logic: the virtual viewport, the page cache,
// and turning the form into settings and the host's problems back into per-field messages.
import { describe, expect, it } from 'vitest';
import type { ResultsPage, ResultsQuery } from '../../shared/crawler-api.ts';
import { computeViewport } from '../../renderer/src/results/ResultsPanel.tsx';
import { MAX_CACHED_PAGES, PAGE_SIZE, ResultsWindow } from '../../renderer/src/results/results-window.ts';
import { problemsByField, seedLines, settingsFromForm, formFromDefaults } from '../../renderer/src/components/StartPanel.tsx';
import { errorMessage } from '../../renderer/src/api/connection.ts';

describe('virtual viewport', () => {
  it('renders only the rows in view, plus a few either side', () => {
    const vp = computeViewport(1_000, 2_400, 480, 24, 8_000_000);
    expect(vp.height).toBe(24_000);
    expect(vp.first).toBe(100 - 6);
    expect(vp.last).toBe(120 + 6);
    expect(vp.offsetY).toBe(vp.first * 24);
  });

  it('scales the scrollbar for a million rows and still reaches the last row', () => {
    const total = 1_000_000;
    const top = computeViewport(total, 0, 600, 24, 8_000_000);
    expect(top.height).toBe(8_000_000);
    expect(top.first).toBe(0);
    const bottom = computeViewport(total, 8_000_000 - 600, 600, 24, 8_000_000);
    expect(bottom.last).toBe(total - 1);
    // The last row ends exactly at the bottom of the spacer.
    expect(bottom.offsetY + (bottom.last - bottom.first + 1) * 24).toBeCloseTo(8_000_000, 6);
    const middle = computeViewport(total, (8_000_000 - 600) / 2, 600, 24, 8_000_000);
    expect(Math.abs(middle.first + 6 - total / 2)).toBeLessThan(30);
  });

  it('renders nothing for no rows', () => {
    const vp = computeViewport(0, 0, 600);
    expect(vp.last).toBeLessThan(vp.first);
    expect(vp.height).toBe(0);
  });
});

function fakeResults(total: number) {
  const queries: ResultsQuery[] = [];
  const resolvers: (() => void)[] = [];
  const fetchPage = (q: ResultsQuery) =>
    new Promise<ResultsPage>((resolve) => {
      queries.push(q);
      resolvers.push(() => {
        const rows = [];
        for (let i = q.offset; i < Math.min(total, q.offset + q.limit); i++) rows.push({ seq: i + 1, url: `https://a.test/${i}` } as ResultsPage['rows'][number]);
        resolve({ total, offset: q.offset, rows });
      });
    });
  const flush = async () => {
    while (resolvers.length) resolvers.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { queries, fetchPage, flush };
}

const FILTER = { sort: 'seq', descending: false, text: '', statusClass: null } as const;

describe('results window', () => {
  it('fetches the pages in view once, and serves rows from them', async () => {
    const f = fakeResults(1_000);
    let changes = 0;
    const w = new ResultsWindow(FILTER, f.fetchPage, () => changes++);
    w.ensure(0, 30);
    w.ensure(0, 30);
    expect(f.queries).toEqual([{ ...FILTER, offset: 0, limit: PAGE_SIZE }]);
    await f.flush();
    expect(changes).toBe(1);
    expect(w.total).toBe(1_000);
    expect(w.row(5)?.url).toBe('https://a.test/5');
    expect(w.row(150)).toBeUndefined();
    w.ensure(90, 130);
    expect(f.queries.map((q) => q.offset)).toEqual([0, 100]);
  });

  it('keeps showing rows after a refresh while fetching them again', async () => {
    const f = fakeResults(500);
    const w = new ResultsWindow(FILTER, f.fetchPage, () => {});
    w.ensure(0, 10);
    await f.flush();
    w.refresh();
    expect(w.row(3)?.seq).toBe(4);
    w.ensure(0, 10);
    expect(f.queries).toHaveLength(2);
  });

  it('holds a bounded number of pages', async () => {
    const f = fakeResults(1_000_000);
    const w = new ResultsWindow(FILTER, f.fetchPage, () => {});
    for (let p = 0; p < MAX_CACHED_PAGES + 20; p++) {
      w.ensure(p * PAGE_SIZE, p * PAGE_SIZE + 10);
      await f.flush();
    }
    expect(w.cachedPages()).toHaveLength(MAX_CACHED_PAGES);
    expect(w.row(0)).toBeUndefined();
  });

  it('does not hammer the host after a failed page', async () => {
    let calls = 0;
    const w = new ResultsWindow(FILTER, () => (calls++, Promise.reject(new Error('db busy'))), () => {});
    w.ensure(0, 10);
    await new Promise((r) => setTimeout(r, 0));
    expect(w.error).toBe('db busy');
    w.ensure(0, 10);
    expect(calls).toBe(1);
  });
});

describe('start form', () => {
  it('takes seed lines, skipping blanks, and remembers their line numbers', () => {
    expect(seedLines('  https://a.test/ \n\n\r\nhttps://b.test/\n')).toEqual({ seeds: ['https://a.test/', 'https://b.test/'], lineOf: [1, 4] });
  });

  it('turns seeds.N problems into line numbers under the seeds field', () => {
    const { lineOf } = seedLines('https://a.test/\n\nnope\nftp://x');
    const byField = problemsByField(
      [
        { field: 'seeds.1', message: '"nope" is not a valid URL' },
        { field: 'seeds.2', message: '"ftp://x" is not an http or https URL' },
        { field: 'threads', message: 'must be at most 200' },
      ],
      lineOf,
    );
    expect(byField.get('seeds')).toEqual(['line 3: "nope" is not a valid URL', 'line 4: "ftp://x" is not an http or https URL']);
    expect(byField.get('threads')).toEqual(['must be at most 200']);
  });

  it('sends numbers as numbers, blanks as unlimited, and anything else as typed for the host to name', () => {
    const form = { ...formFromDefaults(null), seeds: 'https://a.test/', threads: '12', maxDepth: '', maxPages: '500', delayMs: 'soon', maxUrlsPerSecond: '2.5' };
    const settings = settingsFromForm(form) as Record<string, unknown>;
    expect(settings['seeds']).toEqual(['https://a.test/']);
    expect(settings['threads']).toBe(12);
    expect(settings['maxDepth']).toBeNull();
    expect(settings['maxPages']).toBe(500);
    expect(settings['delayMs']).toBe('soon');
    expect(settings['maxUrlsPerSecond']).toBe(2.5);
    expect(settings['robots']).toBe('respect');
    expect('userAgent' in settings).toBe(false);
  });
});

describe('error messages', () => {
  it('strips Electron\'s IPC wrapper', () => {
    expect(errorMessage(new Error("Error invoking remote method 'trawl:pause': Error: cannot pause the crawl: it has finished"))).toBe(
      'cannot pause the crawl: it has finished',
    );
    expect(errorMessage('plain')).toBe('plain');
  });
});
