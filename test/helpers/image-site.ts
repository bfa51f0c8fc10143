// A small site of images on 127.0.0.1 for the images analysis (issue 18.3): a home page with an image with alt text,
// one without, one with an empty alt, one with a long alt, a broken one (404), a large one (150 KB), a srcset; a
// gallery with a <picture> (its source and its img without alt) and the logo again.
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.ts';

export const LONG_ALT = `A very long description of a photograph, ${'with many words that go on and on '.repeat(4)}until it ends.`;
export const BIG_BYTES = 150 * 1024;

const HOME = `<!doctype html><html lang="en"><head><title>Image site home page for the test</title></head><body>
<h1>Images</h1>
<a href="/gallery">Gallery</a>
<img src="/img/logo.png" alt="Trawl logo" width="120" height="40">
<img src="/img/photo.jpg">
<img src="/img/spacer.gif" alt="" width="1" height="1">
<img src="/img/long.png" alt="${LONG_ALT}" width="300">
<img src="/img/missing.png" alt="Missing" width="10" height="10">
<img src="/img/big.jpg" alt="Big picture" width="800" height="600">
<img src="/img/s.png" srcset="/img/s-2x.png 2x" alt="Set" width="50" height="50">
</body></html>`;

const GALLERY = `<!doctype html><html lang="en"><head><title>Image site gallery page for the test</title></head><body>
<h1>Gallery</h1>
<picture><source srcset="/img/p.webp" type="image/webp"><img src="/img/p.jpg" width="640" height="480"></picture>
<img src="/img/logo.png" alt="Trawl logo" width="120" height="40">
</body></html>`;

export interface ImageSite {
  origin: string;
  url(path: string): string;
  close(): Promise<void>;
}

export async function startImageSite(): Promise<ImageSite> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/' || path === '/gallery') {
      // The gallery says when it last changed (a sitemap's lastmod).
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(path === '/gallery' ? { 'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT' } : {}),
      });
      res.end(path === '/' ? HOME : GALLERY);
    } else if (path === '/img/big.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(Buffer.alloc(BIG_BYTES, 7));
    } else if (path.startsWith('/img/') && path !== '/img/missing.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(200, 1));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, url: (p) => `${origin}${p}`, close };
}
