// What a results row keeps of a page's texts (shared/stored-text.ts): each cut to its bound on a whole character, in
// the row both stores write (page-outcome.ts), so the store's narrow index of titles, errors and Content-Types fits.
import { describe, expect, it } from 'vitest';
import { CONTENT_TYPE_MAX, cutText, ERROR_TEXT_MAX, PAGE_TEXT_MAX } from '../../shared/stored-text.ts';
import { errorRowOf, resultRowOf } from '../../electron/engine/frontier/page-outcome.ts';
import type { PageClaim } from '../../electron/engine/frontier/model.ts';
import { fetchedPage } from '../helpers/page-result.ts';

describe('cutText', () => {
  it('keeps a text within its bound as it is, and null as null', () => {
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('', 0)).toBe('');
    expect(cutText(null, 3)).toBeNull();
  });

  it('cuts to the bound, never between the two halves of a character outside the BMP', () => {
    expect(cutText('abcdef', 4)).toBe('abcd');
    // "a😀b": the emoji is two UTF-16 units; a cut after its first would leave a lone surrogate.
    expect(cutText('a\u{1F600}b', 2)).toBe('a');
    expect(cutText('a\u{1F600}b', 3)).toBe('a\u{1F600}');
    expect(cutText('\u20ac'.repeat(10), 4)).toBe('\u20ac'.repeat(4));
  });
});

describe("a results row's texts", () => {
  const claim: PageClaim = {
    kind: 'page',
    urlId: 7,
    hostId: 1,
    url: 'http://site.test/a',
    depth: 2,
    hops: 0,
    urlKind: 'page',
    checkOnly: false,
  };

  it('are cut to their bounds: the title, the description, the error and the Content-Type as the server sent them', () => {
    const result = fetchedPage(claim.url, [], {
      inScope: () => true,
      extra: {
        title: 't'.repeat(5000),
        metaDescription: 'd'.repeat(5000),
        error: `network error: ${'e'.repeat(5000)}`,
        contentType: `text/html; x=${'c'.repeat(5000)}`,
      },
    });
    const row = resultRowOf(claim, result, null, 1, 0);
    expect(row.title).toBe('t'.repeat(PAGE_TEXT_MAX));
    expect(row.metaDescription).toBe('d'.repeat(PAGE_TEXT_MAX));
    expect((row.error as string).length).toBe(ERROR_TEXT_MAX);
    expect((row.error as string).startsWith('network error: eee')).toBe(true);
    expect((row.contentType as string).length).toBe(CONTENT_TYPE_MAX);
    expect(errorRowOf(claim, 'x'.repeat(1000), 0).error).toBe('x'.repeat(ERROR_TEXT_MAX));
  });

  it('are kept whole within their bounds', () => {
    const result = fetchedPage(claim.url, [], {
      inScope: () => true,
      extra: { title: 'A title', contentType: 'text/html; charset=utf-8' },
    });
    const row = resultRowOf(claim, result, 'redirect chain too long', 1, 0);
    expect([row.title, row.contentType, row.error]).toEqual(['A title', 'text/html; charset=utf-8', 'redirect chain too long']);
  });
});
