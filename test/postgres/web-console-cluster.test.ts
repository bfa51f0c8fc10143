// The web console's WebSocket attached to a crawl in a PostgreSQL store (real server; the crawl written with SQL as
// nodes write it): listing and attaching validated as every command is, the cluster's snapshots pushed to every
// client, commands reaching trawl.crawls and the nodes' channel, and errors that name the problem, never the password.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import ExcelJS from 'exceljs';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { startWebConsole } from '../../electron/server/web-console.ts';
import type { WebConsole } from '../../electron/server/web-console.ts';
import { crawlChannel } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import type { StoreAttachment, StoreCrawlList } from '../../shared/crawler-api.ts';
import { COMMANDS } from '../../shared/commands.ts';
import { CHART_EXPORT_PATH, EXPORT_PATH, VIEW_EXPORT_PATH, WS_PATH } from '../../shared/ws-protocol.ts';
import type { SiteStructure, StatusDistribution } from '../../shared/analysis.ts';

const OVERVIEW_EXPORT_PATH = COMMANDS.exportOverview.download.path;
import { freshDatabase, pgSuite } from '../helpers/postgres.ts';
import type { FreshDatabase } from '../helpers/postgres.ts';
import { createClusterCrawl, threadStatus } from '../helpers/cluster-crawl.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { connect } from '../helpers/ws-client.ts';
import type { WsClient } from '../helpers/ws-client.ts';

const withPg = await pgSuite();
const STRUCTURE_EXPORT_PATH = COMMANDS.exportStructureCsv.download.path;

withPg.describe('web console attached to a crawl in a PostgreSQL store', () => {
  let db: FreshDatabase;
  let session: CrawlSession;
  let server: WebConsole;
  let wsUrl: string;
  const clients: WsClient[] = [];
  const open = async () => {
    const c = await connect(wsUrl);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    db = await freshDatabase('web_cluster');
    await createClusterCrawl(db.url, {
      id: 'shop',
      threads: 4,
      hosts: [{ origin: 'https://shop.test', crawled: 3, queued: 5 }],
      nodes: [
        { name: 'n1', hostname: 'rack-1', threads: [threadStatus(1), threadStatus(2)] },
        { name: 'n2', hostname: 'rack-2', threads: [threadStatus(1, { url: '<img src=x onerror=alert(1)>' }), threadStatus(2)] },
      ],
    });
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Trawl</title>');
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 3 });
    server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    wsUrl = `ws://${new URL(server.url).host}${WS_PATH}?token=${server.token}`;
  });

  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await server?.close();
    await session?.close();
    await db?.drop();
  });

  it('validates the new commands as every other: the URL scheme, the crawl ID form, the arguments', async () => {
    const c = await open();
    expect(await c.error('listStoreCrawls', ['http://example.com/db'])).toMatch(
      /^invalid arguments for listStoreCrawls: 0: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    expect(await c.error('listStoreCrawls', [])).toMatch(/^invalid arguments for listStoreCrawls/);
    expect(await c.error('attachStore', [db.url, "Robert'); DROP TABLE--"])).toMatch(
      /^invalid arguments for attachStore: 1: a crawl ID is lower-case letters/,
    );
    expect(await c.error('attachStore', [db.url])).toMatch(/^invalid arguments for attachStore/);
    expect(await c.error('attachStore', [db.url, 'shop', 'extra'])).toMatch(/^invalid arguments for attachStore/);
    expect(await c.error('detachStore', [1])).toMatch(/^invalid arguments for detachStore/);
    expect(await c.error('setThreads', [1001])).toMatch(/^invalid arguments for setThreads/);
  });

  it('lists the store, attaches, and pushes the cluster snapshot (nodes, their threads) to every client', async () => {
    const c = await open();
    const list = await c.ok<StoreCrawlList>('listStoreCrawls', [db.url]);
    expect(list.crawls.map((x) => [x.id, x.crawled, x.queued, x.liveNodes])).toEqual([['shop', 3, 5, 2]]);
    const attached = await c.ok<StoreAttachment>('attachStore', [db.url, 'shop']);
    expect(attached).toEqual({ server: expect.stringMatching(/^127\.0\.0\.1:\d+\/trawl_t_web_cluster_/), crawlId: 'shop' });
    const s = await c.snapshot((x) => x.store?.crawlId === 'shop');
    expect(s.nodes!.map((n) => n.name)).toEqual(['n1', 'n2']);
    expect(s.threads.map((t) => `${t.node}#${t.id}`).sort()).toEqual(['n1#1', 'n1#2', 'n2#1', 'n2#2']);
    expect(c.events.find((e) => e.event === 'state')?.payload).toMatchObject({ from: null, to: 'running' });
    // A client that connects later gets the cluster's snapshot first.
    const late = await open();
    expect((await late.snapshot((x) => x.store?.crawlId === 'shop')).nodes).toHaveLength(2);
  });

  it('steers the cluster: pause and the thread count reach trawl.crawls and NOTIFY the nodes', async () => {
    const c = await open();
    const listener = new pg.Client({ connectionString: db.url });
    listener.on('error', () => undefined);
    await listener.connect();
    const notes: string[] = [];
    listener.on('notification', (m) => notes.push(m.payload ?? ''));
    await listener.query(`LISTEN ${crawlChannel('shop')}`);
    try {
      await c.ok('pause');
      await c.ok('setThreads', [240]);
      const { rows } = await listener.query<{ state: string; threads: number }>(
        `SELECT state, threads FROM trawl.crawls WHERE id = 'shop'`,
      );
      expect(rows[0]).toEqual({ state: 'paused', threads: 240 });
      await expect.poll(() => notes.filter((n) => n === 'command').length).toBe(2);
      const s = await c.snapshot((x) => x.threadTarget === 240 && x.state !== 'running');
      expect(s.state).toBe('pausing');
      await c.ok('resume');
      await c.snapshot((x) => x.threadTarget === 240 && x.state === 'running');
    } finally {
      await listener.end();
    }
  });

  it('answers the crawl map from the store, and names a bad store or crawl without the password', async () => {
    const c = await open();
    // The crawl map reads the store as the other views do.
    expect(((await c.ok('crawlMap', [{ maxNodes: 100 }])) as { total: number }).total).toBeGreaterThan(0);
    // Live patterns and the cap are the cluster's (test/postgres/cluster-live-settings.test.ts): they go to the store.
    expect(await c.ok('addExclude', ['/x/'])).toEqual({ dropped: 0 });
    expect((await c.snapshot((x) => x.liveExcludes.includes('/x/'))).liveExcludes).toEqual(['/x/']);
    expect(await c.error('attachStore', [db.url, 'nosuch'])).toMatch(/there is no crawl "nosuch" in this store; the store has shop/);
    const wrong = new URL(db.url);
    wrong.password = 'hunter2-secret';
    const refused = await c.error('listStoreCrawls', [wrong.toString()]);
    expect(refused).toMatch(/cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/trawl_t_web_cluster_\w+: password authentication failed/);
    expect(refused).not.toContain('hunter2-secret');
    expect(await c.error('attachStore', ['postgres://u:hunter2-secret@127.0.0.1:1/nowhere', 'shop'])).toMatch(
      /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/nowhere/,
    );
    // Still attached to shop; nothing any client received carries a password.
    expect((await c.snapshot((x) => x.store?.crawlId === 'shop')).store!.node).toBeNull();
    for (const client of clients) for (const f of client.frames) expect(f).not.toMatch(/hunter2-secret|:trawl@/);
  });

  it("exports the cluster crawl's results: the command says go, the download comes from the store", async () => {
    const c = await open();
    expect(await c.ok('exportCsv')).toEqual({ ok: true, rows: null, file: null });
    const res = await fetch(`${new URL(server.url).origin}${EXPORT_PATH}?token=${server.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="cluster-shop.csv"');
    const csv = await res.text();
    expect(csv).toContain('https://shop.test/done-2');
    expect(csv.trim().split('\r\n')).toHaveLength(4);
  });

  it("draws the cluster crawl's charts and folder tree from the store, and downloads them", async () => {
    const c = await open();
    // The three pages the nodes recorded (createClusterCrawl: status 200, depth 1).
    const status = await c.ok<StatusDistribution>('chartData', [{ kind: 'status', afterSeq: null, fromMs: null, bucketMs: null }]);
    expect(status.rows.map((r) => [r.status_code, r.count])).toEqual([[200, 3]]);
    const tree = await c.ok<SiteStructure>('siteStructure', [{ paths: ['https://shop.test/'], limit: 10 }]);
    expect(tree.hosts.children.map((h) => [h.path, h.urls])).toEqual([['https://shop.test/', 3]]);
    expect(tree.levels).toEqual([{ path: 'https://shop.test/', children: [], more: null }]);
    const origin = new URL(server.url).origin;
    expect(await c.ok('exportChartCsv', ['depth'])).toEqual({ ok: true, rows: null, file: null });
    const chart = await fetch(`${origin}${CHART_EXPORT_PATH}?kind=depth&token=${server.token}`);
    expect(chart.headers.get('content-disposition')).toBe('attachment; filename="cluster-shop-depth.csv"');
    // As bytes: fetch's text() would drop the byte-order mark.
    expect(Buffer.from(await chart.arrayBuffer()).toString('utf8')).toBe('\uFEFFdepth,count\r\n1,3\r\n');
    expect(await c.ok('exportStructureCsv')).toEqual({ ok: true, rows: null, file: null });
    const folders = await fetch(`${origin}${STRUCTURE_EXPORT_PATH}?token=${server.token}`);
    expect(folders.status).toBe(200);
    expect(
      Buffer.from(await folders.arrayBuffer())
        .toString('utf8')
        .split('\r\n'),
    ).toEqual([
      '\uFEFFfolder,level,urls,own_urls,indexable,non_indexable,status_2xx,status_3xx,status_4xx,status_5xx,status_none,min_depth,avg_depth',
      'https://shop.test/,0,3,3,0,0,3,0,0,0,0,1,1',
      '',
    ]);
  });

  it("exports the cluster crawl's results as XLSX: ?format=xlsx on the same download, numbers typed, header frozen", async () => {
    const c = await open();
    expect(await c.ok('exportCsv', ['xlsx'])).toEqual({ ok: true, rows: null, file: null });
    const res = await fetch(`${new URL(server.url).origin}${EXPORT_PATH}?format=xlsx&token=${server.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="cluster-shop.xlsx"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const status = (sheet.getRow(1).values as unknown[]).indexOf('status_code');
    expect(sheet.getRow(2).getCell(status).type).toBe(ExcelJS.ValueType.Number);
  });

  it('exports a view of the cluster crawl and its issues overview: the commands say go, the downloads come from the store', async () => {
    const c = await open();
    const origin = new URL(server.url).origin;
    const view = { filter: 'status-2xx', text: 'done-1', columns: ['url', 'status_code', 'title'], headerPreset: 'screaming-frog' };
    expect(await c.ok('exportView', [view])).toEqual({ ok: true, rows: null, file: null });
    const res = await fetch(`${origin}${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify(view))}&token=${server.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="cluster-shop-status-2xx.csv"');
    expect(Buffer.from(await res.arrayBuffer()).toString('utf8')).toBe(
      '\uFEFFAddress,Status Code,Title 1\r\nhttps://shop.test/done-1,200,Page 1\r\n',
    );
    expect(await c.ok('exportView', [{ ...view, columns: ['url', 'password'] }])).toEqual({
      ok: false,
      error: 'unknown column "password"',
    });
    const overview = await c.ok<{ issues: { id: string; count: number }[] }>('issuesOverview');
    expect(overview.issues.find((i) => i.id === 'h1-missing')).toBeDefined();
    expect(await c.ok('exportOverview', ['csv'])).toEqual({ ok: true, rows: null, file: null });
    const issues = await fetch(`${origin}${OVERVIEW_EXPORT_PATH}?token=${server.token}`);
    expect(issues.status).toBe(200);
    expect(
      Buffer.from(await issues.arrayBuffer())
        .toString('utf8')
        .split('\r\n')[0],
    ).toBe('\uFEFFissue,type,priority,urls,why,how_to_fix,filter');
  });

  it('detaches on request, and every connected client learns that nothing is in view any more', async () => {
    const a = await open();
    const b = await open();
    // Both show the cluster crawl (each got its snapshot on connecting).
    for (const c of [a, b]) await c.snapshot((x) => x.store?.crawlId === 'shop');
    await a.ok('detachStore');
    expect(session.attachedStore()).toBeNull();
    // The one that asked and the other one alike: the same frame, which empties the view (crawl-store.ts).
    for (const c of [a, b]) {
      const cleared = await c.waitForEvent((e) => e.event === 'cleared', 3_000, 'the cleared event');
      expect(cleared).toEqual({ event: 'cleared', payload: null });
    }
    // Nothing of the crawl comes after it (its observer is closed), to either client.
    await new Promise((r) => setTimeout(r, 1_200));
    for (const c of [a, b]) {
      const after = c.events.slice(c.events.findIndex((e) => e.event === 'cleared') + 1);
      expect(after).toEqual([]);
    }
    expect(await a.error('pause')).toMatch(/no crawl has been started/);
    // A client that connects now is given no snapshot.
    const late = await open();
    await new Promise((r) => setTimeout(r, 200));
    expect(late.events).toEqual([]);
  });
});
