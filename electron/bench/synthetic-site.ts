// A deterministic synthetic site written to a folder: /p/0.html ... /p/N-1.html, each linking to its two
// children in a spanning tree (so every page is reachable from /p/0.html) plus pseudo-random other pages, padded
// with text to the requested size.
import fs from 'node:fs';
import path from 'node:path';

export interface SiteShape {
  pages: number;
  linksPerPage: number;
  /** Approximate bytes of HTML per page. */
  pageBytes: number;
  /**
   * Spread over this many hosts (page t on loopback address 127.0.0.(1 + t mod count), at `port`), with absolute
   * links between them: a crawl of many hosts, as a cluster crawls, rather than one host's queue. Left out: one host,
   * relative links.
   */
  hosts?: { count: number; port: number };
}

/** The loopback addresses of a site spread over `count` hosts. */
export function hostAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, k) => `127.0.0.${k + 1}`);
}

const WORDS = 'crawler frontier thread politeness robots canonical anchor header status depth queue worker'.split(' ');

export function pageLinks(i: number, shape: SiteShape): number[] {
  const out = new Set<number>();
  for (const c of [2 * i + 1, 2 * i + 2]) if (c < shape.pages) out.add(c);
  let x = Math.imul(i + 1, 2654435761) >>> 0;
  const want = Math.min(shape.linksPerPage, shape.pages - 1);
  for (let tries = 0; out.size < want && tries < 100 * want; tries++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const t = (x >>> 8) % shape.pages;
    if (t !== i) out.add(t);
  }
  return [...out];
}

export function pageHtml(i: number, shape: SiteShape): string {
  const hosts = shape.hosts && shape.hosts.count > 1 ? shape.hosts : null;
  const origin = (t: number) => (hosts ? `http://127.0.0.${1 + (t % hosts.count)}:${hosts.port}` : '');
  const links = pageLinks(i, shape)
    .map((t) => `<li><a href="${origin(t)}/p/${t}.html">Page ${t}</a></li>`)
    .join('\n');
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Synthetic page ${i}</title>
<meta name="description" content="Page ${i} of a synthetic benchmark site"></head><body><h1>Page ${i}</h1><ul>
${links}
</ul>`;
  let body = '';
  let w = i;
  while (head.length + body.length < shape.pageBytes - 30) {
    body += `<p>${WORDS[w++ % WORDS.length]} ${WORDS[(w * 7) % WORDS.length]} ${WORDS[(w * 13) % WORDS.length]}.</p>\n`;
  }
  return `${head}${body}</body></html>\n`;
}

/** Writes the site into `dir` (created); returns the number of bytes written. */
export function writeSite(dir: string, shape: SiteShape): number {
  fs.mkdirSync(path.join(dir, 'p'), { recursive: true });
  let bytes = 0;
  for (let i = 0; i < shape.pages; i++) {
    const html = pageHtml(i, shape);
    fs.writeFileSync(path.join(dir, 'p', `${i}.html`), html);
    bytes += html.length;
  }
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow:\n');
  return bytes;
}
