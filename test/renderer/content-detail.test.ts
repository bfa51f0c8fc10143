// Duplicate content in the renderer (issue 18.1): the detail section lists a page's exact and near duplicates as
// text (crawled URLs never markup), the diff's lines fold runs of the same sentences and mark the words a replaced
// sentence changed, and the threshold input takes whole percents from 50 to 100 only.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ContentDetail } from '../../shared/analysis.ts';
import type { DiffOp } from '../../shared/text-diff.ts';
import { wordDiff } from '../../shared/text-diff.ts';
import { ContentDetailSection, diffLines } from '../../renderer/src/analysis/ContentDetailSection.tsx';
import { thresholdPercent } from '../../renderer/src/analysis/content-options.ts';
import { createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import { TrawlProvider } from '../../renderer/src/store/context.tsx';
import { fakeApi } from './helpers.ts';

const EVIL = 'https://a.test/<img src=x onerror=alert(1)>';
const same = (text: string): DiffOp => ({ op: 'same', text });

describe('duplicate content in the detail pane', () => {
  it('lists exact and near duplicates as text, closest first, the closest chosen', () => {
    const content: ContentDetail = {
      main_words: 640,
      compared: true,
      low: false,
      options: { threshold: 0.9, allPages: false, lowContentWords: 200 },
      exact: { items: [{ url_id: 2, url: 'https://a.test/copy', similarity: 1 }], total: 1 },
      near: {
        items: [
          { url_id: 3, url: EVIL, similarity: 0.984375 },
          { url_id: 4, url: 'https://a.test/far', similarity: 0.9140625 },
        ],
        total: 60,
      },
    };
    const html = renderToStaticMarkup(
      createElement(TrawlProvider, {
        api: fakeApi(),
        store: createCrawlStore(),
        children: createElement(ContentDetailSection, { urlId: 1, content, onOpen: () => {} }),
      }),
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Main-text words');
    expect(html).toContain('Same main text (1)');
    expect(html).toContain('Near duplicates at 90% or more (60)');
    expect(html).toContain('The first 2 of 60.');
    expect(html.indexOf('98.4% similar')).toBeLessThan(html.indexOf('91.4% similar'));
    expect(html).toMatch(/<li data-chosen="true" data-similarity="0.984375">/);
  });

  it('says a page that is not compared is not, and a low-content page is', () => {
    const content: ContentDetail = {
      main_words: 30,
      compared: false,
      low: true,
      options: { threshold: 0.9, allPages: false, lowContentWords: 200 },
      exact: { items: [], total: 0 },
      near: { items: [], total: 0 },
    };
    const html = renderToStaticMarkup(
      createElement(TrawlProvider, {
        api: fakeApi(),
        store: createCrawlStore(),
        children: createElement(ContentDetailSection, { urlId: 1, content, onOpen: () => {} }),
      }),
    );
    expect(html).toContain('low content (under 200 words)');
    expect(html).toContain('Not compared');
    expect(html).not.toContain('Near duplicates at');
  });

  it('folds runs of the same sentences, keeping one each side of a change', () => {
    const ops: DiffOp[] = [...['a', 'b', 'c', 'd'].map(same), { op: 'removed', text: 'x' }, ...['e', 'f', 'g', 'h', 'i'].map(same)];
    expect(diffLines(ops).map((l) => (l.op === 'fold' ? `…${l.n}` : `${l.op[0]}:${l.text}`))).toEqual(['…3', 's:d', 'r:x', 's:e', '…4']);
    // Short runs stay whole.
    expect(diffLines([same('a'), { op: 'added', text: 'y' }, same('b'), same('c')]).map((l) => l.op)).toEqual([
      'same',
      'added',
      'same',
      'same',
    ]);
  });

  it('marks the words a replaced sentence changed', () => {
    const lines = diffLines([
      { op: 'removed', text: 'one two three four.' },
      { op: 'added', text: 'one TWO three four.' },
    ]);
    const marked = lines.map((l) => (l.op === 'fold' ? [] : (l.words ?? []).filter((w) => w.changed).map((w) => w.text)));
    expect(marked).toEqual([['two'], ['TWO']]);
    expect(wordDiff('a b c', 'a b c d e')).toEqual({
      removed: [{ text: 'a b c', changed: false }],
      added: [
        { text: 'a b c ', changed: false },
        { text: 'd e', changed: true },
      ],
    });
    // A removed run without as many added ones: no pairs, no marks.
    expect(
      diffLines([
        { op: 'removed', text: 'a' },
        { op: 'removed', text: 'b' },
        { op: 'added', text: 'c' },
      ]).some((l) => 'words' in l),
    ).toBe(false);
  });

  it('takes a threshold of a whole percent from 50 to 100 only', () => {
    expect(['90', ' 50 ', '100'].map(thresholdPercent)).toEqual([90, 50, 100]);
    expect(['', '49', '101', '92.5', 'abc', '1e2x'].map(thresholdPercent)).toEqual([null, null, null, null, null, null]);
  });
});
