// What a worker keeps from a page after reading it (shared/own-string.ts): the link memo's keys and a page's main text
// are pieces of the page, and V8 keeps a whole string alive for any piece cut from it. After a crawl of the PostgreSQL
// manual the worker's link memo held 15 MB of its pages; with 3 MB pages, every page a remembered href came from.
import { describe, expect, it } from 'vitest';
import { MainTextStream } from '../../shared/content.ts';
import { ownString } from '../../shared/own-string.ts';
import { LinkMemo } from '../../electron/worker/html/link-memo.ts';
import { exposeGc } from '../helpers/heap-meter.ts';

const gc = exposeGc();
const PAGES = 40;
const PAGE_CHARS = 1_000_000;

/** A page of its own (a flat string made at run time, as a decoded response is) with a link at its end. */
function page(i: number): { html: string; href: string } {
  const html = `${String(i).padStart(8, '0')}${'x'.repeat(PAGE_CHARS)}<a href="/docs/page-${i}.html">`;
  const start = html.indexOf('/docs/');
  return { html, href: html.slice(start, html.indexOf('"', start)) };
}

/**
 * What a test allows to stay: a page or two may, for V8's own reasons (what the last call left in registers and
 * caches); a leak keeps all PAGES.
 */
const FEW_PAGES = 3 * PAGE_CHARS;

/** How much more heap stays in use after `keep` took something from each of PAGES pages, and the pages went. */
function retainedBy(keep: (p: { html: string; href: string }) => void): number {
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < PAGES; i++) keep(page(i));
  gc!();
  return process.memoryUsage().heapUsed - before;
}

describe.skipIf(!gc)('what a worker keeps of a page', () => {
  it('a string cut from a page keeps the page; its own copy does not', () => {
    const slices: string[] = [];
    const copies: string[] = [];
    // The measurement itself: were it not able to see a kept page, the test below could not fail.
    expect(retainedBy((p) => slices.push(p.href))).toBeGreaterThan((PAGES * PAGE_CHARS) / 2);
    expect(retainedBy((p) => copies.push(ownString(p.href)))).toBeLessThan(FEW_PAGES);
    expect(copies[3]).toBe('/docs/page-3.html');
    expect(ownString('')).toBe('');
  });

  it('the link memo keeps answers, not the pages their hrefs came from', () => {
    const memo = new LinkMemo();
    const normalise = (href: string, base: string) => new URL(href, base).href;
    const retained = retainedBy((p) => memo.resolve(p.href, 'https://example.invalid/a/b.html', normalise, () => true));
    expect(retained).toBeLessThan(FEW_PAGES);
    // Still remembered: the same href on another page of the site is answered from the memo, as it was.
    expect(
      memo.resolve(
        '/docs/page-7.html',
        'https://example.invalid/z.html',
        () => null,
        () => false,
      ),
    ).toEqual({
      url: 'https://example.invalid/docs/page-7.html',
      inScope: true,
    });
  });

  it('a main text keeps its characters, not its page', () => {
    const texts: string[] = [];
    const retained = retainedBy((p) => {
      const stream = new MainTextStream();
      stream.feed(p.html, 0, 8);
      stream.feed(p.html, p.html.length - 40, p.html.length);
      texts.push(stream.finish().text);
    });
    expect(retained).toBeLessThan(FEW_PAGES);
    expect(texts[2]).toContain('00000002');
  });
});
