// A site with known duplicate content (issue 18.1), on 127.0.0.1: every page has the same large nav and footer
// (5,000 words of boilerplate), and in its <main>:
//   /a, /a-copy        the same 300 words (exact duplicates; /a-copy's differ only in case, spacing and punctuation)
//   /a-noindex         the same again, but noindex (compared only when the analysis takes every page)
//   /near-1, /near-2   600 words, 3 of them different (near-duplicates, about 95% similar)
//   /distinct-1, -2    210 words each, unrelated (near-duplicates only if the nav and footer were compared)
//   /thin              30 words (low content)
//   /                  the home page, 250 words of its own, linking to all of them
// and, with { moreNear: true } (the detail pane's browser test):
//   /near-3            /near-2's words with one more changed (closest to /near-2, further from /near-1)
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.ts';

/** Deterministic words: `count` of them from `seed`. */
export function words(seed: number, count: number, short = false): string[] {
  const out: string[] = [];
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    out.push(short ? `b${(x % 1_000_000).toString(36)}` : `word${(x % 100_000_000).toString(36)}`);
  }
  return out;
}

const sentences = (list: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += 12) out.push(`<p>${list.slice(i, i + 12).join(' ')}.</p>`);
  return out.join('\n');
};

const NAV = `<header><h2>${words(1, 100, true).join(' ')}</h2></header>
<nav>${words(2, 2400, true)
  .map((w) => `<a href="/">${w}</a>`)
  .join(' ')}</nav>`;
const FOOTER = `<footer>${words(3, 2500, true).join(' ')}</footer>`;

const A = words(10, 300);
const NEAR = words(20, 600);
const NEAR_2 = NEAR.map((w, i) => (i === 100 || i === 300 || i === 500 ? `changed${i}` : w));

export const DUPLICATE_PAGES: Record<string, { title: string; main: string; noindex?: boolean }> = {
  '/a': { title: 'A', main: sentences(A) },
  // The same words: other case, spacing and punctuation.
  '/a-copy': { title: 'A copy', main: `<div>${A.map((w, i) => (i % 7 === 0 ? w.toUpperCase() : w)).join(' ,  ')}!</div>` },
  '/a-noindex': { title: 'A noindex', main: sentences(A), noindex: true },
  '/near-1': { title: 'Near 1', main: sentences(NEAR) },
  '/near-2': { title: 'Near 2', main: sentences(NEAR_2) },
  '/distinct-1': { title: 'Distinct 1', main: sentences(words(30, 210)) },
  '/distinct-2': { title: 'Distinct 2', main: sentences(words(40, 210)) },
  '/thin': { title: 'Thin', main: sentences(words(50, 30)) },
};

/** Served only with { moreNear: true }. */
export const MORE_NEAR_PAGES: Record<string, { title: string; main: string }> = {
  '/near-3': { title: 'Near 3', main: sentences(NEAR_2.map((w, i) => (i === 200 ? 'changed200' : w))) },
};

function page(path: string, more: boolean): string | null {
  const pages: Record<string, { title: string; main: string; noindex?: boolean }> = more
    ? { ...DUPLICATE_PAGES, ...MORE_NEAR_PAGES }
    : DUPLICATE_PAGES;
  const links = Object.keys(pages)
    .map((p) => `<a href="${p}">${p}</a>`)
    .join(' ');
  const p = path === '/' ? { title: 'Home', main: `${sentences(words(60, 250))}<p>${links}</p>` } : pages[path];
  if (!p) return null;
  const robots = 'noindex' in p && p.noindex ? '<meta name="robots" content="noindex">' : '';
  return `<!doctype html><html lang="en"><head><title>${p.title}</title>${robots}
<script>var tracking = "${words(70, 50).join(' ')}";</script><style>body { margin: 0 }</style></head>
<body>${NAV}<main>${p.main}</main>${FOOTER}</body></html>`;
}

export interface DuplicateSite {
  origin: string;
  url(path: string): string;
  requests(): number;
  close(): Promise<void>;
}

export async function startDuplicateSite(options: { moreNear?: boolean } = {}): Promise<DuplicateSite> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const path = (req.url ?? '/').split('?')[0]!;
    const body = page(path, options.moreNear === true);
    if (body === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, url: (p) => `${origin}${p}`, requests: () => requests, close };
}
