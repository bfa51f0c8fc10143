import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { startWebConsole } from '../../electron/server/web-console.ts';
import type { WebConsole } from '../../electron/server/web-console.ts';
import type { CrawlFileInfo, ResultsPage, StartResult } from '../../shared/crawler-api.ts';
import type { ReplyFrame } from '../../shared/ws-protocol.ts';
import { COMMANDS, type CommandSpec } from '../../shared/commands.ts';
import {
  CHART_EXPORT_PATH,
  COMPARE_EXPORT_PATH,
  EXPORT_PATH,
  VIEW_EXPORT_PATH,
  WS_PATH,
  tokenCookieName,
} from '../../shared/ws-protocol.ts';
import type { ComparisonSummary, ExplorerPage, FilterCounts, HostsReport, UrlDetail } from '../../shared/analysis.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { connect } from '../helpers/ws-client.ts';
import type { WsClient } from '../helpers/ws-client.ts';

/** Every download route of the command table: each must need the token. */
const DOWNLOAD_PATHS = Object.values(COMMANDS).flatMap((spec: CommandSpec) => (spec.download ? [spec.download.path] : []));

const INDEX_HTML = '<!doctype html><title>Trawl</title><script type="module" src="/assets/app.js"></script>';
const APP_JS = 'console.log("trawl");';

interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw GET: the path goes out exactly as given (no dot-segment clean-up, unlike fetch). */
function get(base: string, rawPath: string, headers: Record<string, string> = {}): Promise<Response> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web console', () => {
  let site: FixtureSite;
  let crawlsDir: string;
  let session: CrawlSession;
  let server: WebConsole;
  let base: string;
  let wsBase: string;
  let cookie: string;
  let TOKEN_COOKIE: string;
  const clients: WsClient[] = [];
  const open = async (url: string, options?: WebSocket.ClientOptions) => {
    const c = await connect(url, options);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    site = await startFixtureSite({ pages: 25, linksPerPage: 3 });
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX_HTML);
    fs.mkdirSync(path.join(staticDir, 'assets'));
    fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), APP_JS);
    crawlsDir = tempDir();
    session = new CrawlSession({ crawlsDir, spawner: spawner(), cpuCount: 3 });
    server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    base = new URL(server.url).origin;
    wsBase = `ws://${new URL(server.url).host}${WS_PATH}`;
    TOKEN_COOKIE = tokenCookieName(new URL(base).port);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    await session?.close();
    await site?.close();
  });

  it('prints a URL carrying a random 32-byte token', () => {
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=${server.token}$`));
  });

  it('refuses every request without the right token', async () => {
    for (const p of ['/', '/index.html', '/assets/app.js', '/nothing-here', ...DOWNLOAD_PATHS]) {
      const res = await get(base, p);
      expect(res.status, p).toBe(403);
      expect(res.body, p).toMatch(/^Forbidden/);
      expect(res.body).not.toContain('trawl');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const wrong = await get(base, '/?token=0123');
    expect(wrong.status).toBe(403);
    const wrongLong = await get(base, `/?token=${'f'.repeat(64)}`);
    expect(wrongLong.status).toBe(403);
    expect((await get(base, '/assets/app.js', { cookie: `${TOKEN_COOKIE}=nope` })).status).toBe(403);

    await expect(connect(wsBase)).rejects.toMatchObject({ status: 403 });
    await expect(connect(`${wsBase}?token=wrong`)).rejects.toMatchObject({ status: 403 });
    await expect(connect(wsBase, { headers: { cookie: `${TOKEN_COOKIE}=wrong` } })).rejects.toMatchObject({ status: 403 });
  });

  it('serves the page with the token, sets the cookie, and the assets with the cookie, with strict headers', async () => {
    const page = await get(base, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toBe(INDEX_HTML);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['set-cookie']).toEqual([`${TOKEN_COOKIE}=${server.token}; HttpOnly; SameSite=Strict; Path=/`]);
    cookie = page.headers['set-cookie']![0]!.split(';')[0]!;

    const asset = await get(base, '/assets/app.js', { cookie });
    expect(asset.status).toBe(200);
    expect(asset.body).toBe(APP_JS);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['content-security-policy']).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://${new URL(base).host}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
    );
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['referrer-policy']).toBe('no-referrer');
    expect(asset.headers['set-cookie']).toBeUndefined();

    const withCookie = await get(base, '/', { cookie: `other=1; ${cookie}` });
    expect(withCookie.status).toBe(200);
    expect(withCookie.body).toBe(INDEX_HTML);
    expect((await get(base, '/assets/missing.js', { cookie })).status).toBe(404);
    expect((await get(base, '/assets', { cookie })).status).toBe(404);
  });

  it('refuses paths outside the static folder', async () => {
    for (const p of [
      '/../package.json',
      '/assets/../../package.json',
      '/%2e%2e/package.json',
      '/assets/%2E%2E/%2E%2E/package.json',
      '/..%2fpackage.json',
      '/..%5cpackage.json',
      '/%00',
    ]) {
      const res = await get(base, p, { cookie });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.body, p).not.toContain('"name"');
    }
    expect((await get(base, '/%E0%A4%A', { cookie })).status).toBe(400);
  });

  it('serves no CSV before a crawl is open', async () => {
    const res = await get(base, EXPORT_PATH, { cookie });
    expect(res.status).toBe(404);
    expect(res.body).toMatch(/No crawl is open/);
  });

  it('runs commands over the WebSocket: a crawl with its events, results, listing and download', async () => {
    const ws = await open(`${wsBase}?token=${server.token}`);

    const defaults = await ws.ok<{ settings: { seeds: string[]; threads: number }; limits: unknown }>('defaults');
    expect(defaults.settings.seeds).toEqual([]);
    expect(defaults.limits).toEqual({ threads: { min: 1, max: 200 } });
    expect(await ws.ok('exportCsv')).toEqual({ ok: false, error: expect.stringContaining('no crawl is open') });

    const invalid = await ws.ok<StartResult>('start', [{ seeds: ['nope'] }]);
    expect(invalid).toEqual({
      ok: false,
      problems: [{ field: 'seeds.0', message: expect.stringContaining('not a valid URL'), code: 'badUrl', params: { value: 'nope' } }],
    });

    const started = await ws.ok<StartResult>('start', [{ seeds: [site.url('/p/0')], threads: 3 }]);
    expect(started).toEqual({ ok: true, file: expect.stringMatching(/^127\.0\.0\.1-\d{8}-\d{6}(-\d+)?\.trawl$/) });
    const name = (started as { file: string }).file;
    expect(fs.existsSync(path.join(crawlsDir, name))).toBe(true);
    expect(await ws.error('start', [{ seeds: [site.url('/p/1')] }])).toMatch(/a crawl is already running/);

    const finished = await ws.waitForEvent((e) => e.event === 'state' && e.payload.to === 'finished');
    expect(finished.payload).toMatchObject({ to: 'finished', reason: 'completed' });
    const states = ws.events.filter((e) => e.event === 'state').map((e) => (e.payload as { to: string }).to);
    expect(states).toEqual(['preparing', 'running', 'stopping', 'finished']);
    const last = await ws.waitForEvent((e) => e.event === 'snapshot' && e.payload.state === 'finished');
    expect(last.event === 'snapshot' && last.payload.counters.crawled).toBe(25);

    const page = await ws.ok<ResultsPage>('queryResults', [
      { offset: 0, limit: 10, sort: 'url', descending: true, text: 'page', statusClass: '2xx' },
    ]);
    expect(page.total).toBe(25);
    expect(page.rows).toHaveLength(10);
    expect(page.rows[0]).toMatchObject({ status_code: 200, url: expect.stringMatching(/\/p\/\d+$/) });

    // A client connecting now gets the current snapshot first.
    const late = await open(`${wsBase}?token=${server.token}`);
    const first = await late.waitForEvent(() => true, 5_000);
    expect(first).toMatchObject({ event: 'snapshot', payload: { state: 'finished' } });

    const list = await ws.ok<CrawlFileInfo[]>('listCrawls');
    expect(list).toEqual([
      expect.objectContaining({ file: name, seeds: [site.url('/p/0')], crawled: 25, queued: 0, finishReason: 'completed' }),
    ]);
    expect(await ws.ok<CrawlFileInfo>('openCrawl', [name])).toEqual(list[0]);
    expect(await ws.ok('exportCsv')).toEqual({ ok: true, rows: null, file: null });

    const csv = await get(base, EXPORT_PATH, { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${name.replace(/\.trawl$/, '')}.csv"`);
    expect(csv.body.startsWith('\uFEFFurl,kind,status_code,content_type,')).toBe(true);
    expect(csv.body.trim().split('\r\n')).toHaveLength(26);
    expect((await get(base, `${EXPORT_PATH}?token=${server.token}`)).status).toBe(200);

    // Resuming a finished crawl completes at once, and answers with the name too.
    expect(await ws.ok<StartResult>('resumeCrawl', [name])).toEqual({ ok: true, file: name });
    await ws.waitForEvent((e) => e.event === 'state' && e.payload.to === 'finished' && e !== finished);
    expect(await ws.ok<StartResult>('resumeCrawl', ['missing.trawl'])).toEqual({
      ok: false,
      problems: [{ field: 'file', message: 'missing.trawl does not exist' }],
    });
  });

  it('answers bad commands with ok:false naming the problem, and refuses names outside the crawls folder', async () => {
    const ws = await open(`${wsBase}?token=${server.token}`);
    expect(
      await ws.error('queryResults', [{ offset: -1, limit: 10, sort: 'seq', descending: false, text: '', statusClass: null }]),
    ).toMatch(/^invalid arguments for queryResults: 0\.offset: /);
    expect(
      await ws.error('queryResults', [{ offset: 0, limit: 10, sort: 'password', descending: false, text: '', statusClass: null }]),
    ).toMatch(/0\.sort/);
    expect(await ws.error('setThreads', ['many'])).toMatch(/invalid arguments for setThreads/);
    expect(await ws.error('setThreads', [1001])).toMatch(/invalid arguments for setThreads: 0: /);
    // Up to a cluster's total passes the contract; a local crawl's pool is refused by the session, naming its range.
    expect(await ws.error('setThreads', [500])).toBe('threads must be a whole number from 1 to 200 (got 500)');
    expect(await ws.error('pause', [1])).toMatch(/invalid arguments for pause/);
    expect(await ws.error('start', [])).toMatch(/invalid arguments for start/);
    expect(await ws.error('dropDatabase')).toBe('unknown command "dropDatabase"');
    expect(await ws.error('constructor')).toMatch(/unknown command/);
    expect(await ws.error('__proto__')).toMatch(/unknown command/);
    const noArgs = await new Promise<ReplyFrame>((resolve) => {
      ws.ws.once('message', (d) => resolve(JSON.parse(String(d)) as ReplyFrame));
      ws.ws.send(JSON.stringify({ id: 99, cmd: 'defaults' }));
    });
    expect(noArgs).toEqual({ id: 99, ok: false, error: 'invalid arguments for defaults: args must be an array' });

    for (const bad of [
      '../x.trawl',
      '..',
      'sub/x.trawl',
      'sub\\x.trawl',
      '/etc/passwd',
      'x.trawl/..',
      '..x.trawl',
      'notes.txt',
      '.trawl',
      path.join(crawlsDir, 'x.trawl'),
    ]) {
      expect(await ws.error('openCrawl', [bad]), bad).toMatch(/is not the name of a crawl in the crawls folder/);
      expect(await ws.error('resumeCrawl', [bad]), bad).toMatch(/is not the name of a crawl in the crawls folder/);
    }
    expect(await ws.error('openCrawl', [null])).toBe('choose a crawl from the list');
    fs.writeFileSync(path.join(crawlsDir, 'junk.trawl'), 'junk');
    expect(await ws.error('openCrawl', ['junk.trawl'])).toMatch(/^junk\.trawl is not a Trawl crawl file/);
  });

  it('refuses bad payloads of the live, rule-test and preset commands, naming the argument', async () => {
    const ws = await open(`${wsBase}?token=${server.token}`);
    for (const [cmd, args, problem] of [
      ['setMaxRate', ['fast'], /^invalid arguments for setMaxRate: 0: /],
      ['setMaxRate', [0], /^invalid arguments for setMaxRate: 0: /],
      ['setMaxRate', [20_000], /^invalid arguments for setMaxRate: 0: /],
      ['setMaxRate', [], /^invalid arguments for setMaxRate/],
      ['addExclude', [5], /^invalid arguments for addExclude: 0: /],
      ['addExclude', [''], /^invalid arguments for addExclude: 0: /],
      ['addExclude', ['x'.repeat(2001)], /^invalid arguments for addExclude: 0: /],
      ['deprioritise', [7], /^invalid arguments for deprioritise: 0: /],
      ['deprioritise', [''], /^invalid arguments for deprioritise: 0: /],
      ['testExtraction', ['https://a.test/'], /^invalid arguments for testExtraction/],
      ['testExtraction', ['https://a.test/', 'rules'], /^invalid arguments for testExtraction: 1: /],
      ['testExtraction', [42, {}], /^invalid arguments for testExtraction: 0: /],
      ['listPresets', [1], /^invalid arguments for listPresets/],
      ['savePreset', ['../escape', {}], /^invalid arguments for savePreset: 0: a preset name may hold letters/],
      ['savePreset', ['', {}], /^invalid arguments for savePreset: 0: give the preset a name/],
      ['savePreset', ['Fine'], /^invalid arguments for savePreset/],
      ['savePreset', ['Fine', []], /^invalid arguments for savePreset: 1: /],
      ['deletePreset', [42], /^invalid arguments for deletePreset: 0: /],
      ['deletePreset', ['a/b'], /^invalid arguments for deletePreset: 0: /],
    ] as const) {
      expect(await ws.error(cmd, [...args]), `${cmd} ${JSON.stringify(args)}`).toMatch(problem);
    }
    // Valid payloads with nothing to act on: the session's own message.
    expect(await ws.error('deletePreset', ['Nothing'])).toBe('there is no preset named "Nothing"');
    expect(await ws.error('addExclude', ['/x'])).toMatch(/^cannot add an exclude pattern to the crawl: it has finished/);
  });

  it('tests rules on a URL, keeps presets in the crawls folder, and changes a running crawl live', async () => {
    const ws = await open(`${wsBase}?token=${server.token}`);
    const rule = { name: 'heading', type: 'css', expression: 'h1' };
    expect(await ws.ok('testExtraction', [site.url('/p/4'), { extraction: [rule] }])).toMatchObject({
      ok: true,
      statusCode: 200,
      problem: null,
      values: { heading: ['Heading 4'] },
    });
    expect(await ws.ok('testExtraction', [site.url('/p/4'), { extraction: [{ ...rule, expression: '' }] }])).toEqual({
      ok: false,
      problems: [{ field: 'extraction.0.expression', message: 'must not be empty', code: 'notEmpty' }],
    });

    expect(await ws.ok('listPresets')).toEqual([]);
    const saved = await ws.ok<{ ok: boolean; presets: { name: string }[] }>('savePreset', [
      'Headings',
      { extraction: [rule], polite: true },
    ]);
    expect(saved.ok).toBe(true);
    expect(saved.presets.map((p) => p.name)).toEqual(['Headings']);
    expect(fs.existsSync(path.join(crawlsDir, 'trawl-presets.json'))).toBe(true);
    expect(await ws.ok('listPresets')).toEqual(saved.presets);
    expect(await ws.ok('deletePreset', ['headings'])).toEqual([]);
    // A damaged file is reported (without the server's folder), not replaced.
    fs.writeFileSync(path.join(crawlsDir, 'trawl-presets.json'), '{oops');
    expect(await ws.error('listPresets')).toMatch(/^the presets file trawl-presets\.json is not valid JSON/);
    expect(await ws.error('savePreset', ['Again', {}])).toMatch(/is not valid JSON/);
    expect(fs.readFileSync(path.join(crawlsDir, 'trawl-presets.json'), 'utf8')).toBe('{oops');
    fs.rmSync(path.join(crawlsDir, 'trawl-presets.json'));

    const slow = await startFixtureSite({ pages: 60, linksPerPage: 3, delayMs: 80 });
    try {
      const started = await ws.ok<StartResult>('start', [{ seeds: [slow.url('/p/0')], threads: 2 }]);
      expect(started.ok).toBe(true);
      await ws.waitForEvent((e) => e.event === 'snapshot' && e.payload.counters.queued >= 5);
      expect(await ws.ok('setMaxRate', [40])).toBeNull();
      await ws.waitForEvent((e) => e.event === 'snapshot' && e.payload.maxUrlsPerSecond === 40);
      expect(await ws.ok('setMaxRate', [null])).toBeNull();
      const { dropped } = await ws.ok<{ dropped: number }>('addExclude', ['/p/\\d*[13579]$']);
      expect(dropped).toBeGreaterThan(0);
      await ws.waitForEvent((e) => e.event === 'snapshot' && e.payload.liveExcludes.includes('/p/\\d*[13579]$'));
      expect(await ws.error('addExclude', ['(oops'])).toMatch(/^invalid exclude pattern "\(oops": /);
      // Even pages go to the back of the queue: some were queued, and the answer says how many moved.
      const { moved } = await ws.ok<{ moved: number }>('deprioritise', ['/p/\\d*[02468]$']);
      expect(moved).toBeGreaterThan(0);
      expect(await ws.error('deprioritise', ['[bad'])).toMatch(/^invalid pattern "\[bad": /);
      expect(await ws.ok('stop')).toBeNull();
    } finally {
      await slow.close();
    }
  });

  it("answers the analyst workbench's queries and serves its downloads, refusing bad payloads and names", async () => {
    const ws = await open(`${wsBase}?token=${server.token}`);
    // A second crawl of the site, so there are two to compare.
    if (session.isRunning()) await ws.ok('stop');
    const started = await ws.ok<StartResult>('start', [{ seeds: [site.url('/p/0')], threads: 3, maxPages: 10 }]);
    for (let i = 0; i < 600 && session.isRunning(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(session.isRunning()).toBe(false);
    const newer = (started as { file: string }).file;
    const names = (await ws.ok<CrawlFileInfo[]>('listCrawls')).map((c) => c.file).filter((f) => f !== newer);
    const older = names[names.length - 1]!;

    const counts = await ws.ok<FilterCounts>('filterCounts');
    expect(counts.all).toBe(10);
    const page = await ws.ok<ExplorerPage>('queryFiltered', [
      { filter: 'status-2xx', text: '/p/', sort: 'url', descending: false, offset: 0, limit: 5 },
    ]);
    expect(page.total).toBe(10);
    expect(page.rows).toHaveLength(5);
    const detail = await ws.ok<UrlDetail>('urlDetail', [{ url: site.url('/p/1') }]);
    expect(detail.inlinks.total).toBeGreaterThan(0);
    expect(detail.response_headers!['content-type']).toMatch(/text\/html/);
    expect((await ws.ok<{ total: number }>('urlInlinks', [detail.url_id, null])).total).toBe(detail.inlinks.total);
    const hosts = await ws.ok<HostsReport>('hostsReport', [
      { sort: 'origin', descending: false, offset: 0, limit: 10, text: '', includeIdle: false },
    ]);
    expect(hosts.rows[0]!.origin).toBe(site.origin);
    expect(await ws.ok('chartData', [{ kind: 'depth', afterSeq: null, fromMs: null, bucketMs: null }])).toMatchObject({
      kind: 'depth',
      total: 10,
    });
    // Stopped at the page limit: the rest stays queued.
    expect(await ws.ok('queueHosts', [{ offset: 0, limit: 10, text: '' }])).toMatchObject({
      rows: [expect.objectContaining({ origin: site.origin })],
    });

    // Downloads: checked over the WebSocket first, then fetched with the token like /export.csv.
    const view = { filter: 'html', text: '', columns: ['url', 'status_code', 'title'], headerPreset: 'screaming-frog' };
    expect(await ws.ok('exportView', [view])).toEqual({ ok: true, rows: null, file: null });
    const viewPath = `${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify(view))}`;
    expect((await get(base, viewPath)).status).toBe(403);
    const viewCsv = await get(base, viewPath, { cookie });
    expect(viewCsv.status).toBe(200);
    expect(viewCsv.headers['content-disposition']).toBe(`attachment; filename="${newer.replace(/\.trawl$/, '')}-html.csv"`);
    const viewLines = viewCsv.body.trim().split('\r\n');
    expect(viewCsv.body.startsWith('\uFEFFAddress,Status Code,Title 1\r\n')).toBe(true);
    expect(viewLines).toHaveLength(11);
    expect(await ws.ok('exportView', [{ ...view, columns: ['url', 'password'] }])).toEqual({
      ok: false,
      error: 'unknown column "password"',
    });
    expect(
      (await get(base, `${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify({ ...view, columns: ['password'] }))}`, { cookie }))
        .status,
    ).toBe(400);
    expect((await get(base, `${VIEW_EXPORT_PATH}?view=not-json`, { cookie })).body).toMatch(/not JSON/);
    expect(
      (await get(base, `${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify({ ...view, where: '1=1' }))}`, { cookie })).status,
    ).toBe(400);

    expect(await ws.ok('exportChartCsv', ['status'])).toEqual({ ok: true, rows: null, file: null });
    const chart = await get(base, `${CHART_EXPORT_PATH}?kind=status`, { cookie });
    expect(chart.body.split('\r\n').slice(0, 2)).toEqual(['\uFEFFstatus_code,count', '200,10']);
    expect((await get(base, `${CHART_EXPORT_PATH}?kind=../../etc/passwd`, { cookie })).status).toBe(400);

    const q = { oldFile: older, newFile: newer, wordThresholdPercent: 10 };
    const summary = await ws.ok<ComparisonSummary>('compareCrawls', [q]);
    expect(summary).toMatchObject({ old_file: older, new_file: newer, new_urls: 10, added: 0 });
    expect(summary.removed).toBe(summary.old_urls - 10);
    expect((await ws.ok<{ rows: unknown[] }>('comparePage', [q, 'removed', null])).rows).toHaveLength(Math.min(100, summary.removed));
    expect(await ws.ok('exportComparison', [q])).toEqual({ ok: true, rows: null, file: null });
    const compared = await get(base, `${COMPARE_EXPORT_PATH}?query=${encodeURIComponent(JSON.stringify(q))}`, { cookie });
    expect(compared.status).toBe(200);
    expect(compared.body.trim().split('\r\n')).toHaveLength(1 + summary.removed + summary.changed);
    expect(compared.body).not.toContain(crawlsDir);

    // Every download route, asked for with arguments that work with the token, is refused without it.
    const working = [
      EXPORT_PATH,
      viewPath,
      `${CHART_EXPORT_PATH}?kind=status`,
      `${COMPARE_EXPORT_PATH}?query=${encodeURIComponent(JSON.stringify(q))}`,
      `${COMMANDS.exportBulkReport.download.path}?report=redirect-chains`,
      COMMANDS.exportOverview.download.path,
      COMMANDS.exportStructureCsv.download.path,
      COMMANDS.exportSitemap.download.path,
    ];
    expect(working.map((p) => p.split('?')[0]).sort()).toEqual([...DOWNLOAD_PATHS].sort());
    for (const p of working) {
      expect((await get(base, p, { cookie })).status, p).toBe(200);
      const withWrongToken = `${p}${p.includes('?') ? '&' : '?'}token=${'0'.repeat(64)}`;
      for (const [target, headers] of [
        [p, {}],
        [p, { cookie: `${TOKEN_COOKIE}=wrong` }],
        [withWrongToken, {}],
      ] as const) {
        const res = await get(base, target, headers);
        expect(res.status, target).toBe(403);
        expect(res.body, target).toMatch(/^Forbidden/);
      }
    }

    // File names: only plain .trawl names of the crawls folder, for the commands and the download alike.
    for (const bad of [
      '../x.trawl',
      '..',
      'sub/x.trawl',
      'sub\\x.trawl',
      '/etc/passwd',
      '..x.trawl',
      'notes.txt',
      path.join(crawlsDir, older),
    ]) {
      for (const query of [
        { ...q, oldFile: bad },
        { ...q, newFile: bad },
      ]) {
        expect(await ws.error('compareCrawls', [query]), bad).toMatch(/is not the name of a crawl in the crawls folder/);
        expect(await ws.error('comparePage', [query, 'added', null]), bad).toMatch(/is not the name of a crawl in the crawls folder/);
        expect(await ws.error('exportComparison', [query]), bad).toMatch(/is not the name of a crawl in the crawls folder/);
        const res = await get(base, `${COMPARE_EXPORT_PATH}?query=${encodeURIComponent(JSON.stringify(query))}`, { cookie });
        expect(res.status, bad).toBe(400);
        expect(res.body, bad).toMatch(/is not the name of a crawl in the crawls folder/);
      }
    }
    expect(await ws.error('compareCrawls', [{ ...q, oldFile: 'junk.trawl' }])).toMatch(/^junk\.trawl is not a Trawl crawl file/);

    // Bad payloads, named by argument.
    for (const [cmd, args, problem] of [
      ['queryFiltered', [{ filter: 'nope', text: '', sort: 'seq', descending: false, offset: 0, limit: 5 }], /0\.filter/],
      [
        'queryFiltered',
        [{ filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 5, sql: 'x' }],
        /invalid arguments for queryFiltered/,
      ],
      ['urlDetail', [{ id: -1 }]],
      ['urlDetail', [{ url: site.url('/p/1'), id: 1 }]],
      ['urlInlinks', [1.5, null]],
      ['queuePrefixes', [{ hostId: 1, segments: 3, under: null, limit: 10 }], /0\.segments/],
      ['queuePrefixes', [{ hostId: 1, segments: 1, under: 'docs', limit: 10 }], /0\.under/],
      ['queueSearch', [{ text: '', hostId: null, under: null, after: { host_id: 'x', url_id: 1 }, limit: 10 }]],
      ['hostsReport', [{ sort: 'password', descending: false, offset: 0, limit: 10, text: '', includeIdle: false }], /0\.sort/],
      ['chartData', [{ kind: 'pie', afterSeq: null, fromMs: null, bucketMs: null }], /0\.kind/],
      ['chartData', [{ kind: 'over-time', afterSeq: null, fromMs: null, bucketMs: 5 }], /0\.bucketMs/],
      ['exportChartCsv', ['pie']],
      ['exportView', [{ ...view, columns: [] }], /0\.columns/],
      ['exportView', [{ ...view, headerPreset: 'excel' }], /0\.headerPreset/],
      ['comparePage', [q, 'everything', null], /invalid arguments for comparePage: 1/],
      ['compareCrawls', [{ ...q, wordThresholdPercent: -1 }], /0\.wordThresholdPercent/],
    ] as [string, unknown[], RegExp?][]) {
      expect(await ws.error(cmd, args), `${cmd} ${JSON.stringify(args)}`).toMatch(problem ?? new RegExp(`^invalid arguments for ${cmd}: `));
    }
  });

  it('closes the connection on a frame that is not JSON', async () => {
    const ws = await open(`${wsBase}?token=${server.token}`);
    ws.ws.send('{not json');
    expect((await ws.closed).code).toBe(1003);
    const ws2 = await open(`${wsBase}?token=${server.token}`);
    ws2.ws.send(JSON.stringify(['defaults']));
    expect((await ws2.closed).code).toBe(1003);
  });

  it('accepts the token from the cookie, refuses WebSocket upgrades from other origins and other paths', async () => {
    const viaCookie = await open(wsBase, { headers: { cookie } });
    expect(await viaCookie.ok('listCrawls')).toEqual(expect.any(Array));

    const own = await open(`${wsBase}?token=${server.token}`, { origin: base });
    expect(await own.ok('defaults')).toMatchObject({ limits: expect.anything() });
    const port = new URL(base).port;
    const alias = await open(`${wsBase}?token=${server.token}`, { origin: `http://localhost:${port}` });
    alias.close();

    for (const origin of [
      'https://evil.example',
      `http://evil.example:${port}`,
      'null',
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${Number(port) + 1}`,
    ]) {
      await expect(connect(`${wsBase}?token=${server.token}`, { origin }), origin).rejects.toMatchObject({ status: 403 });
      await expect(connect(wsBase, { origin, headers: { cookie } }), origin).rejects.toMatchObject({ status: 403 });
    }
    await expect(connect(`ws://${new URL(base).host}/other?token=${server.token}`)).rejects.toMatchObject({ status: 404 });
  });

  it('skips snapshot frames, never state frames, for a client that does not keep up', async () => {
    const slow = await open(`${wsBase}?token=${server.token}`);
    const socket = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket;
    socket.pause();
    const snapshot = { ...session.snapshot()!, error: 'x'.repeat(64 * 1024) };
    const sent = 300; // about 20 MB: more than the socket buffers hold
    const before = slow.events.length;
    for (let i = 0; i < sent; i++) session.emit('snapshot', { ...snapshot, at: i });
    session.emit('state', { from: 'stopping', to: 'finished', reason: 'completed', error: null, at: 424242 });
    socket.resume();
    await slow.waitForEvent((e) => e.event === 'state' && e.payload.at === 424242);
    const snapshots = slow.events.slice(before).filter((e) => e.event === 'snapshot');
    expect(snapshots.length).toBeGreaterThan(0);
    expect(snapshots.length).toBeLessThan(sent);
  });

  it('says to build the pages when the static folder has no index.html, without crashing', async () => {
    const empty = tempDir();
    const token = 'test-token_1.0~x-0123456789abcdef';
    const other = await startWebConsole({ host: '127.0.0.1', port: 0, token, session, staticDir: empty });
    try {
      expect(other.url).toMatch(/\/\?token=test-token_1\.0~x-0123456789abcdef$/);
      const res = await get(new URL(other.url).origin, `/?token=${token}`);
      expect(res.status).toBe(503);
      expect(res.body).toContain('npm run build');
      expect(res.headers['set-cookie']).toEqual([
        `${tokenCookieName(new URL(other.url).port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      ]);
      expect((await get(new URL(other.url).origin, `/assets/app.js?token=${token}`)).status).toBe(404);
    } finally {
      await other.close();
    }
    await expect(startWebConsole({ host: '127.0.0.1', port: 0, token: 'bad token', session, staticDir: empty })).rejects.toThrow(/token/);
  });

  it('refuses a token shorter than 32 characters, naming the rule', async () => {
    for (const token of ['a', 'x'.repeat(31)]) {
      await expect(startWebConsole({ host: '127.0.0.1', port: 0, token, session, staticDir: tempDir() })).rejects.toThrow(
        `the token must be at least 32 (at most 512) characters from A-Z a-z 0-9 . _ ~ - (got ${token.length} characters)`,
      );
    }
    const ok = await startWebConsole({ host: '127.0.0.1', port: 0, token: 'x'.repeat(32), session, staticDir: tempDir() });
    await ok.close();
  });

  it('refuses, even with the token, requests and WebSocket upgrades naming a Host other than a loopback name with its port', async () => {
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await get(base, `/?token=${server.token}`, { host })).status, host).toBe(200);
    }
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      '127.0.0.1',
      `localhost.evil.example:${port}`,
    ]) {
      const res = await get(base, `/?token=${server.token}`, { host });
      expect(res.status, host).toBe(421);
      expect(res.body, host).toBe(
        `Misdirected request: this console answers only to the Host 127.0.0.1:${port}, localhost:${port}, [::1]:${port} (a page of another name reaching it may be a DNS rebinding attack).\n`,
      );
      expect(res.headers['set-cookie'], host).toBeUndefined();
      expect((await get(base, EXPORT_PATH, { host, cookie })).status, host).toBe(421);
      await expect(connect(`${wsBase}?token=${server.token}`, { headers: { host } }), host).rejects.toMatchObject({ status: 421 });
      await expect(connect(wsBase, { headers: { host, cookie } }), host).rejects.toMatchObject({ status: 421 });
    }
    const own = await open(`${wsBase}?token=${server.token}`, { headers: { host: `localhost:${port}` } });
    expect(await own.ok('listCrawls')).toEqual(expect.any(Array));
  });

  it('bound to every address, keeps answering any Host (the token still guards it)', async () => {
    const all = await startWebConsole({ host: '0.0.0.0', port: 0, session, staticDir: tempDir() });
    try {
      const origin = `http://127.0.0.1:${new URL(all.url).port}`;
      expect((await get(origin, `/?token=${all.token}`, { host: `evil.example:${new URL(all.url).port}` })).status).toBe(503);
      expect((await get(origin, '/', { host: 'evil.example' })).status).toBe(403);
    } finally {
      await all.close();
    }
  });

  it('names its cookie after its port, so two consoles on one machine keep a cookie each', async () => {
    const second = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir: tempDir() });
    try {
      const secondBase = new URL(second.url).origin;
      const secondPort = new URL(second.url).port;
      const page = await get(secondBase, `/?token=${second.token}`);
      const secondCookie = page.headers['set-cookie']![0]!.split(';')[0]!;
      expect(secondCookie).toBe(`trawl_token_${secondPort}=${second.token}`);
      expect(cookie).toBe(`trawl_token_${new URL(base).port}=${server.token}`);
      // The browser sends both consoles' cookies to both: each takes its own.
      const both = `${cookie}; ${secondCookie}`;
      expect((await get(base, EXPORT_PATH, { cookie: both })).status).not.toBe(403);
      expect((await get(secondBase, EXPORT_PATH, { cookie: both })).status).not.toBe(403);
      // One console's cookie opens nothing on the other.
      expect((await get(secondBase, EXPORT_PATH, { cookie })).status).toBe(403);
      expect((await get(base, EXPORT_PATH, { cookie: secondCookie })).status).toBe(403);
      const viaCookie = await connect(`ws://${new URL(second.url).host}${WS_PATH}`, { headers: { cookie: both } });
      clients.push(viaCookie);
      expect(await viaCookie.ok('listCrawls')).toEqual(expect.any(Array));
    } finally {
      await second.close();
    }
  });

  it('closes with clients still connected', async () => {
    const other = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir: tempDir() });
    const c = await connect(`ws://${new URL(other.url).host}${WS_PATH}?token=${other.token}`);
    const t = Date.now();
    await other.close();
    expect((await c.closed).code).toBe(1001);
    expect(Date.now() - t).toBeLessThan(2_000);
  });
});
