// The issues overview over a real crawl (real workers, a real crawl file) of a loopback site planted with known
// problems: each issue's count is exact, each is its explorer filter's count and lists the URLs planted, the clean
// pages appear in none, and the export writes the issues found, ranked, in English.
import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { filterCounts, queryFiltered, type FilterId } from '../../electron/engine/analysis/result-filters.ts';
import { exportOverview, issuesOverview } from '../../electron/engine/analysis/issues-overview.ts';
import { CHECKED_ISSUES, issuesFound, ISSUES } from '../../shared/issues.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';

// A clean page: a title of 30 to 60 characters and 200 to 561 px, a description of 70 to 155 characters and 400 to
// 985 px, one h1, a canonical to itself. Each problem page changes one or two of these.
const GOOD_DESCRIPTION = 'A page of the fixture site with a description of a sensible length for a search result.';
function page(
  p: string,
  o: { title?: string | null; description?: string | null; h1s?: number; canonical?: string | null; robots?: string; body?: string } = {},
) {
  const title = o.title === undefined ? `The fixture page at ${p} for the overview` : o.title;
  const description = o.description === undefined ? `${GOOD_DESCRIPTION} (${p})` : o.description;
  const canonical = o.canonical === undefined ? p : o.canonical;
  return (_q: http.IncomingMessage, res: http.ServerResponse) =>
    void res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        // The headers the security filters (issue 18.5) look for: over plain HTTP only "HTTP pages" lists them.
        'content-security-policy': "default-src 'self'; frame-ancestors 'self'",
        'x-content-type-options': 'nosniff',
      })
      .end(
        `<!doctype html><html><head>${title === null ? '' : `<title>${title}</title>`}${
          description === null ? '' : `<meta name="description" content="${description}">`
        }${canonical === null ? '' : `<link rel="canonical" href="${canonical}">`}${o.robots ? `<meta name="robots" content="${o.robots}">` : ''}</head>
      <body>${'<h1>Heading</h1>'.repeat(o.h1s ?? 1)}${o.body ?? ''}</body></html>`,
      );
}
const redirect = (to: string) => (_q: http.IncomingMessage, res: http.ServerResponse) =>
  void res.writeHead(301, { location: to, 'content-type': 'text/html' }).end('moved');

const LINKED = [
  '/clean',
  '/missing',
  '/error',
  '/chain-1',
  '/loop-a',
  '/no-title',
  '/dup-1',
  '/dup-2',
  '/wide',
  '/short',
  '/long-description',
  '/short-description',
  '/canonical-to-noindex',
  '/noindex',
  '/two-h1',
  '/no-canonical',
];
const ROUTES: Record<string, (q: http.IncomingMessage, r: http.ServerResponse) => void> = {
  '/': page('/', { body: LINKED.map((p) => `<a href="${p}">${p}</a>`).join(' ') }),
  '/clean': page('/clean'),
  '/missing': (_q, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>'),
  '/error': (_q, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('oops'),
  // Two hops, then a page: /chain-1 redirects to a redirect.
  '/chain-1': redirect('/chain-2'),
  '/chain-2': redirect('/clean'),
  // A loop: /loop-b sends back to /loop-a.
  '/loop-a': redirect('/loop-b'),
  '/loop-b': redirect('/loop-a'),
  // No title and no h1.
  '/no-title': page('/no-title', { title: null, h1s: 0 }),
  '/dup-1': page('/dup-1', { title: 'A title two pages of the fixture share', description: `${GOOD_DESCRIPTION} Shared.` }),
  '/dup-2': page('/dup-2', { title: 'A title two pages of the fixture share', description: `${GOOD_DESCRIPTION} Shared.` }),
  // 40 characters, but 40 W's are 755 px wide at 20 px.
  '/wide': page('/wide', { title: 'W'.repeat(40) }),
  '/short': page('/short', { title: 'Hi' }),
  // 171 characters: over 155, and over 985 px at 14 px.
  '/long-description': page('/long-description', { description: `${GOOD_DESCRIPTION} ${GOOD_DESCRIPTION}` }),
  // 20 characters: under 70, and under 400 px.
  '/short-description': page('/short-description', { description: 'A short description.' }),
  '/canonical-to-noindex': page('/canonical-to-noindex', { canonical: '/noindex' }),
  '/noindex': page('/noindex', { robots: 'noindex' }),
  '/two-h1': page('/two-h1', { h1s: 2 }),
  '/no-canonical': page('/no-canonical', { canonical: null }),
};

/** What each issue must list, by path (every issue this build checks: the others must list nothing). */
const EXPECTED: Partial<Record<FilterId, string[]>> = {
  'broken-internal': ['/error', '/missing'],
  'redirect-chain': ['/chain-1', '/loop-a', '/loop-b'],
  'redirect-loop': ['/loop-b'],
  'title-missing': ['/no-title'],
  'title-duplicate': ['/dup-1', '/dup-2'],
  'title-over-561px': ['/wide'],
  'title-under-30': ['/short'],
  'title-under-200px': ['/short'],
  'description-duplicate': ['/dup-1', '/dup-2'],
  'description-over-155': ['/long-description'],
  'description-over-985px': ['/long-description'],
  'description-under-70': ['/short-description'],
  'description-under-400px': ['/short-description'],
  'h1-missing': ['/no-title'],
  'h1-multiple': ['/two-h1'],
  // The loopback site is plain HTTP: every page read (issue 18.5).
  'security-http': [
    '/',
    '/canonical-to-noindex',
    '/clean',
    '/dup-1',
    '/dup-2',
    '/long-description',
    '/no-canonical',
    '/no-title',
    '/noindex',
    '/short',
    '/short-description',
    '/two-h1',
    '/wide',
  ],
  'canonical-elsewhere': ['/canonical-to-noindex'],
  'canonical-non-indexable': ['/canonical-to-noindex'],
  'canonical-missing': ['/no-canonical'],
  'directive-noindex': ['/noindex'],
};

let site: FixtureSite;
let db: Db;
let dir: string;

beforeAll(async () => {
  site = await startFixtureSite({ pages: 1, routes: ROUTES });
  dir = tempDir('trawl-issues-overview-');
  const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 3, maxAttempts: 1 }, dir);
  controller.start();
  expect((await controller.done).reason).toBe('completed');
  db = openCrawlFile(dbPath, { readonly: true });
}, 60_000);
afterAll(async () => {
  db?.close();
  await site?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pathsOf = (filter: FilterId) =>
  queryFiltered(db, { filter, sort: 'url', descending: false, offset: 0, limit: 100 }).rows.map((r) => new URL(r.url).pathname);

describe('the issues overview of a real crawl', () => {
  it('counts each issue exactly: the URLs planted, as its explorer filter lists and counts them', () => {
    const overview = issuesOverview(db);
    const counts = filterCounts(db);
    expect(overview.issues.map((i) => i.id)).toEqual(CHECKED_ISSUES.map((i) => i.id));
    for (const issue of overview.issues) {
      const want = EXPECTED[issue.filter] ?? [];
      expect({ id: issue.id, urls: pathsOf(issue.filter) }).toEqual({ id: issue.id, urls: want });
      expect({ id: issue.id, count: issue.count }).toEqual({ id: issue.id, count: want.length });
      expect({ id: issue.id, badge: counts[issue.filter] }).toEqual({ id: issue.id, badge: want.length });
    }
    // The loop is recorded as such on the hop that closes it.
    expect(queryFiltered(db, { filter: 'redirect-loop', sort: 'url', descending: false, offset: 0, limit: 10 }).rows[0]!.error).toBe(
      'redirect loop',
    );
  });

  it('ranks the issues found, high priority first, and skips an issue whose filter this build lacks', () => {
    const found = issuesFound(issuesOverview(db));
    expect(found.map((i) => i.id)).toEqual([
      'broken-internal',
      'redirect-loop',
      'title-missing',
      'canonical-non-indexable',
      'directive-noindex',
      'canonical-elsewhere',
      'security-http',
      'h1-missing',
      'redirect-chain',
      'canonical-missing',
      'title-duplicate',
      'title-over-561px',
      'title-under-30',
      'title-under-200px',
      'description-duplicate',
      'description-over-155',
      'description-over-985px',
      'description-under-70',
      'description-under-400px',
      'h1-multiple',
    ]);
    // The sitemap audit's issues are declared, and counted only where their filters exist.
    const sitemap = ISSUES.filter((i) => i.id.startsWith('sitemap-')).map((i) => i.id);
    expect(sitemap).toEqual(['sitemap-non-indexable', 'sitemap-orphans']);
    const have = new Set(Object.keys(filterCounts(db)));
    for (const id of sitemap) expect(CHECKED_ISSUES.some((i) => i.id === id)).toBe(have.has(id));
  });

  it('exports the issues found as CSV: one row each, in English, with its filter', async () => {
    const file = path.join(dir, 'issues.csv');
    expect(await exportOverview(db, file)).toEqual({ rows: 20 });
    const rows = parse(fs.readFileSync(file, 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual({
      issue: 'Broken internal links',
      type: 'issue',
      priority: 'high',
      urls: '2',
      why: ISSUES[0].why,
      how_to_fix: ISSUES[0].fix,
      filter: 'broken-internal',
    });
    const rank = (r: Record<string, string>) => ['high', 'medium', 'low'].indexOf(r.priority ?? '');
    expect(rows.every((r, i) => rank(r) >= 0 && (i === 0 || rank(rows[i - 1]!) <= rank(r)))).toBe(true);
  });
});
