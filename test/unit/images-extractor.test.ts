// The images extractor (issue 18.3): every image a page uses, with its alt (absent and empty kept apart), its
// dimensions as written, srcset candidates and picture sources, bounded per page.
import { describe, expect, it } from 'vitest';
import { IMAGE_ALT_MAX, MAX_PAGE_IMAGES } from '../../shared/protocol.ts';
import { htmlExtractorsFor } from '../../electron/worker/html/crawl-extractors.ts';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';

const PAGE = 'https://example.com/dir/page.html';
const inScope = (url: string) => url.startsWith('https://example.com/');
const read = (html: string) => extractHtml(html, PAGE, inScope);

describe('images extractor', () => {
  it('keeps a missing alt apart from an empty one, with width and height as written', () => {
    const page = read(`<body>
      <img src="/a.png" alt="A cat" width="100" height="50">
      <img src="b.png">
      <img src="c.png" alt="">
      <img src="d.png" alt="   " width=" 30 ">
      <img src="data:image/png;base64,AAAA" alt="inline">
    </body>`);
    expect(page.images).toEqual([
      { url: 'https://example.com/a.png', alt: 'A cat', altLength: 5, width: '100', height: '50' },
      { url: 'https://example.com/dir/b.png', alt: null, altLength: null, width: null, height: null },
      { url: 'https://example.com/dir/c.png', alt: '', altLength: 0, width: null, height: null },
      // Whitespace only is empty; a width given without a height is kept as given.
      { url: 'https://example.com/dir/d.png', alt: '', altLength: 0, width: '30', height: null },
    ]);
    expect(page.imagesOver).toBe(0);
  });

  it('records every srcset candidate and a picture’s sources with the alt of the picture’s img', () => {
    const page = read(`<picture>
        <source srcset="/p-wide.webp 1200w, /p-narrow.webp 600w" media="(min-width: 600px)">
        <img src="/p.jpg" alt="Picture" width="600" height="400">
      </picture>
      <img src="/s.png" srcset="/s-2x.png 2x, /s-3x.png 3x" alt="Set">
      <video><source srcset="/not-an-image.mp4"></video>`);
    expect(page.images!.map((i) => [i.url.replace('https://example.com', ''), i.alt, i.width])).toEqual([
      ['/p-wide.webp', 'Picture', '600'],
      ['/p-narrow.webp', 'Picture', '600'],
      ['/p.jpg', 'Picture', '600'],
      ['/s.png', 'Set', null],
      ['/s-2x.png', 'Set', null],
      ['/s-3x.png', 'Set', null],
    ]);
  });

  it('bounds a long alt (its real length kept) and the uses per page, counting those left out', () => {
    const long = 'x'.repeat(IMAGE_ALT_MAX + 250);
    const [image] = read(`<img src="/l.png" alt="${long}">`).images!;
    expect(image!.alt).toHaveLength(IMAGE_ALT_MAX);
    expect(image!.altLength).toBe(IMAGE_ALT_MAX + 250);
    const many = Array.from({ length: MAX_PAGE_IMAGES + 20 }, (_, i) => `<img src="/i${i}.png">`).join('');
    const page = read(many);
    expect(page.images).toHaveLength(MAX_PAGE_IMAGES);
    expect(page.imagesOver).toBe(20);
  });

  it('records the same image used twice with the same attributes once, and with different alts twice', () => {
    const page = read('<img src="/logo.png" alt="Logo"><img src="/logo.png" alt="Logo"><img src="/logo.png">');
    expect(page.images!.map((i) => i.alt)).toEqual(['Logo', null]);
  });

  it('runs in every crawl, whether or not it checks images; anchors still take an image’s alt', () => {
    for (const checkResources of [[], ['images']] as const) {
      const page = extractHtml(
        '<a href="/x"><img src="/y.png" alt="Go"></a>',
        PAGE,
        inScope,
        undefined,
        htmlExtractorsFor({ checkResources: [...checkResources] }),
      );
      expect(page.images).toEqual([{ url: 'https://example.com/y.png', alt: 'Go', altLength: 2, width: null, height: null }]);
      expect(page.links.find((l) => l.url === 'https://example.com/x')?.anchor).toBe('Go');
    }
  });
});
