// Times the worker's reading of HTML pages (not a test: timings belong here, not in assertions).
//   node --import tsx electron/bench/html-read-bench.ts [--dir /usr/share/doc/postgresql-doc-15/html] [--reference]
//     [--without-content | --content-cost [ROUNDS]]
// Reads every .html file of --dir into memory once, then prints the best of 5 passes over all of them for: the
// reader alone with the crawl's default extractors (readHtml), the reader plus link resolution (extractHtml), and
// the worker's whole path from the body's bytes (decodeHtmlPage + extractHtml). --reference also times the reader the
// crawl used before (htmlparser2's Parser, kept in test/helpers as the fuzz test's reference). --without-content
// leaves out duplicate content's main-text extractor (issue 18.1; the word count in its place); --content-cost times
// only the worker path, passes without and with it alternated in this one process (ROUNDS each, 9 by default), by
// the process's CPU time (wall time swings far more on a shared machine), and prints the best and median of each.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeNormaliser } from '../../shared/url/normalise.ts';
import { decodeHtmlPage } from '../worker/fetch-url.ts';

/** The worker's path for page i: its bytes decoded (an ASCII page's bytes kept for its extractors), then read. */
const workerPath = (i: number, list: readonly HtmlExtractor[]) => {
  const { html, ascii } = decodeHtmlPage(bodies[i]!, 'text/html');
  return extractHtml(html, urls[i]!, inScope, normalise, list, undefined, ascii);
};
import { BASE_EXTRACTORS, htmlExtractorsFor } from '../worker/html/crawl-extractors.ts';
import { extractHtml } from '../worker/html/extract-page.ts';
import type { HtmlExtractor, PageDraft } from '../worker/html/extractor-contract.ts';
import { readHtml } from '../worker/html/read-html.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/usr/share/doc/postgresql-doc-15/html' },
    reference: { type: 'boolean', default: false },
    'without-content': { type: 'boolean', default: false },
    'content-cost': { type: 'string' },
  },
});
const dir = values.dir!;
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html'));
const bodies = files.map((f) => fs.readFileSync(path.join(dir, f)));
const pages = bodies.map((b) => b.toString('utf8'));
const urls = files.map((f) => `http://127.0.0.1:8080/${f}`);
const mb = bodies.reduce((n, b) => n + b.length, 0) / 1e6;
console.log(`${pages.length} pages, ${mb.toFixed(1)} MB, from ${dir}`);

const extractors = values['without-content'] ? [...BASE_EXTRACTORS] : htmlExtractorsFor({ checkResources: [] });
const normalise = makeNormaliser({ stripQueryParams: [] });
const inScope = (url: string) => url.startsWith('http://127.0.0.1:8080/');

function time(label: string, pass: () => void): void {
  pass(); // warm up
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    pass();
    best = Math.min(best, performance.now() - start);
  }
  console.log(`${label.padEnd(44)} ${best.toFixed(0).padStart(6)} ms  (${((best * 1000) / pages.length).toFixed(0)} µs/page)`);
}

if (values['content-cost'] !== undefined) {
  const rounds = Number(values['content-cost']) || 9;
  const withIt = htmlExtractorsFor({ checkResources: [] });
  const without = [...BASE_EXTRACTORS];
  const pass = (list: readonly HtmlExtractor[]) => {
    const before = process.cpuUsage();
    for (let i = 0; i < pages.length; i++) workerPath(i, list);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / pages.length;
  };
  for (let warm = 0; warm < 2; warm++) pass(without), pass(withIt);
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) a.push(pass(without)), b.push(pass(withIt));
  const sort = (v: number[]) => v.sort((x, y) => x - y);
  const median = (v: number[]) => sort(v)[v.length >> 1]!;
  const best = (v: number[]) => sort(v)[0]!;
  const pct = (x: number, y: number) => `${y >= x ? '+' : ''}${((100 * (y - x)) / x).toFixed(1)}%`;
  console.log(`the worker path, CPU µs/page over ${rounds} alternated passes each:`);
  console.log(`  without the main-text extractor: best ${best(a).toFixed(0)}, median ${median(a).toFixed(0)}`);
  console.log(`  with it:                         best ${best(b).toFixed(0)}, median ${median(b).toFixed(0)}`);
  console.log(`  added: best ${pct(best(a), best(b))}, median ${pct(median(a), median(b))}`);
  process.exit(0);
}

if (values.reference) {
  const { readHtmlReference } = (await import('../../test/helpers/read-html-reference.ts')) as {
    readHtmlReference: (html: string, extractors: readonly HtmlExtractor[]) => PageDraft;
  };
  time('readHtml, htmlparser2 Parser (reference)', () => {
    for (const html of pages) readHtmlReference(html, extractors);
  });
}
time('readHtml', () => {
  for (const html of pages) readHtml(html, extractors);
});
time('extractHtml (read + resolve links)', () => {
  for (let i = 0; i < pages.length; i++) extractHtml(pages[i]!, urls[i]!, inScope, normalise, extractors);
});
time('decodeHtmlPage + extractHtml (the worker path)', () => {
  for (let i = 0; i < pages.length; i++) workerPath(i, extractors);
});
