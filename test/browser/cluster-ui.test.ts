// The real UI in real Chromium against `npm run serve`, attached to a crawl in a real PostgreSQL store: the crawl is
// written with SQL as nodes write it, and a stand-in for the nodes keeps their heartbeats and threads moving. Attach
// from the sidebar, watch the grid grouped by node, steer the cluster, lose the store and get it back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { freshDatabase, pgHostPort, pgSuite } from '../helpers/postgres.ts';
import type { FreshDatabase } from '../helpers/postgres.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import type { TcpProxy } from '../helpers/tcp-proxy.ts';
import { createClusterCrawl, threadStatus, withClient } from '../helpers/cluster-crawl.ts';
import { copyStoreCrawlForCompare } from '../../electron/engine/analysis/store-compare-copy.ts';
import type { ThreadStatus } from '../../shared/snapshot.ts';
import type { ThreadStep } from '../../shared/steps.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, until, waitForState } from './workbench-flow.ts';

const withPg = await pgSuite();
const STEPS: ThreadStep[] = ['fetching', 'processing', 'returning', 'claimed', 'waiting', 'politeness'];

// In CI a missing Chromium is a failure (.ci/run installs it), never a silent skip; so is a missing PostgreSQL.
const describeUi =
  chromiumAvailable || process.env['CI']
    ? withPg.describe
    : (name: string, fn: () => void) => describe.skip(`${name} (skipped: no Chromium at ${CHROMIUM})`, fn);

describeUi('cluster crawl in Chromium via the web console', () => {
  let db: FreshDatabase;
  let proxy: TcpProxy;
  let server: ServeProcess;
  let url: string;
  let browser: Browser;
  let page: Page;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let tick = 0;

  /** What the two live nodes report: each has its threads, their steps moving on every beat. */
  const threadsOf = (node: string, n: number): ThreadStatus[] =>
    Array.from({ length: n }, (_, i) =>
      threadStatus(i + 1, {
        step: STEPS[(tick + i + node.length) % STEPS.length]!,
        url: `https://shop.test/${node}/item-${tick * n + i}`,
        pagesDone: tick * 2 + i,
        stepSince: Date.now() - (i + 1) * 700,
      }),
    );

  beforeAll(async () => {
    db = await freshDatabase('cluster_ui');
    await createClusterCrawl(db.url, {
      id: 'shop',
      seeds: ['https://shop.test/'],
      threads: 7,
      hosts: [{ origin: 'https://shop.test', crawled: 40, queued: 25, failed: 2 }],
      nodes: [
        { name: 'node-east', hostname: 'crawler-east-1', pid: 4101, threads: threadsOf('node-east', 4), pagesDone: 23 },
        { name: 'node-west', hostname: 'crawler-west-1', pid: 4202, threads: threadsOf('node-west', 3), pagesDone: 17 },
        { name: 'node-old', hostname: 'crawler-old', pid: 3999, state: 'left', threads: [], silentForMs: 600_000, pagesDone: 9 },
      ],
    });
    await createClusterCrawl(db.url, { id: 'archive', state: 'finished', threads: 2 });
    // The nodes' stand-in: a heartbeat with new thread status every 400 ms, no NOTIFY (as real heartbeats).
    ticker = setInterval(() => {
      tick++;
      void withClient(db.url, async (c) => {
        for (const [node, n] of [
          ['node-east', 4],
          ['node-west', 3],
        ] as const) {
          await c.query(`UPDATE trawl_shop.nodes SET last_seen = $2, status = $3, pages_done = pages_done + 1 WHERE name = $1`, [
            node,
            Date.now(),
            JSON.stringify(threadsOf(node, n)),
          ]);
        }
      }).catch(() => undefined);
    }, 400);
    proxy = await startTcpProxy(pgHostPort(db.url).host, pgHostPort(db.url).port);

    // A crawl file of the cluster crawl as it is now (the copy a comparison makes), in the console's folder: after the
    // nodes record two more pages, Compare finds them added.
    const crawls = tempDir('trawl-e2e-cluster-');
    await copyStoreCrawlForCompare(db.url, 'shop', path.join(crawls, 'shop-before.trawl'));
    server = startServe(crawls);
    url = await server.url;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
  });

  afterAll(async () => {
    if (ticker) clearInterval(ticker);
    await browser?.close();
    await server?.stop();
    await proxy?.close();
    await db?.drop();
  });

  const shot = (name: string) =>
    page.screenshot({ path: path.join(ROOT, ARTIFACTS, `web-${name}.png`), fullPage: false }).then(() => undefined);
  const clusterRow = () =>
    withClient(
      db.url,
      async (c) =>
        (await c.query<{ state: string; threads: number }>(`SELECT state, threads FROM trawl.crawls WHERE id = 'shop'`)).rows[0]!,
    );

  it('attaches from the sidebar, shows every node with its threads, and steers the cluster', async () => {
    await page.goto(url);
    const storeUrl = proxy.viaProxy(db.url);
    const password = new URL(storeUrl).password;
    await page.getByTestId('cluster-attach').locator('summary').click();

    // A wrong scheme is named before asking; a wrong password by the server, without the password.
    await page.getByTestId('store-url').fill('mysql://x:y@h/db');
    await page.getByTestId('list-store-crawls').click();
    await expect.poll(() => page.getByTestId('store-problem').textContent()).toMatch(/postgres:\/\//);
    const wrong = new URL(storeUrl);
    wrong.password = 'not-the-password-42';
    await page.getByTestId('store-url').fill(wrong.toString());
    await page.getByTestId('list-store-crawls').click();
    await expect.poll(() => page.getByTestId('store-problem').textContent(), { timeout: 15_000 }).toMatch(/password authentication failed/);
    expect(await page.getByTestId('store-problem').textContent()).not.toContain('not-the-password-42');

    // The URL is typed into a password field and shown back masked.
    await page.getByTestId('store-url').fill(storeUrl);
    expect(await page.getByTestId('store-url').getAttribute('type')).toBe('password');
    expect(await page.getByTestId('store-url-masked').textContent()).toBe(storeUrl.replace(`:${password}@`, ':••••@'));
    await page.getByTestId('list-store-crawls').click();
    await page.locator('[data-store-crawl="shop"]').waitFor();
    expect(await page.locator('[data-store-crawl]').evaluateAll((items) => items.map((i) => i.getAttribute('data-store-crawl')))).toEqual([
      'archive',
      'shop',
    ]);
    expect(await page.locator('[data-store-crawl="shop"]').textContent()).toMatch(/40 crawled.*25 queued.*2 nodes live/);
    await page.locator('[data-store-crawl="shop"]').getByTestId('attach-store-crawl').click();

    // The grid grouped by node: the live ones with their threads, the one that left dimmed at the end.
    await page.getByTestId('cluster-grid').waitFor();
    await waitForState(page, 'running');
    const sections = () =>
      page
        .locator('.node-group')
        .evaluateAll((els) =>
          els.map((e) => [e.getAttribute('data-node'), e.getAttribute('data-live'), e.querySelectorAll('[data-thread-id]').length]),
        );
    expect(await sections()).toEqual([
      ['node-east', 'true', 4],
      ['node-west', 'true', 3],
      ['node-old', 'false', 0],
    ]);
    expect(Number(await page.evaluate(`getComputedStyle(document.querySelector('.node-group[data-live="false"]')).opacity`))).toBeLessThan(
      1,
    );
    expect(await page.getByTestId('cluster-title').textContent()).toContain('shop');
    // The cap and excludes are the whole cluster's: set here, they go to the registry row every node reads.
    expect(await page.getByTestId('thread-slider').isEnabled()).toBe(true);
    await page.getByTestId('live-max-rate').fill('30');
    await page.getByTestId('live-max-rate-apply').click();
    await until(
      () =>
        withClient(
          db.url,
          async (c) => (await c.query<{ s: string }>(`SELECT settings AS s FROM trawl.crawls WHERE id = 'shop'`)).rows[0]!.s,
        ),
      (s) => (JSON.parse(s) as { maxUrlsPerSecond: number | null }).maxUrlsPerSecond === 30,
      "the cluster's cap at 30/s",
    );
    await until(
      () => page.getByTestId('live-max-rate-now').getAttribute('data-value'),
      (v) => v === '30',
      'the cap shown',
    );
    await page.getByTestId('live-exclude').fill('/checkout/');
    await page.getByTestId('live-exclude-add').click();
    await page.getByTestId('live-exclude-result').waitFor();
    expect(await page.getByTestId('live-exclude-result').getAttribute('data-dropped')).toBe('0');
    await page.locator('[data-testid="live-excludes"] [data-pattern="/checkout/"]').waitFor();
    expect(
      await withClient(
        db.url,
        async (c) => (await c.query<{ l: string }>(`SELECT live_excludes AS l FROM trawl.crawls WHERE id = 'shop'`)).rows[0]!.l,
      ),
    ).toBe('["/checkout/"]');
    expect(Number(await page.locator('[data-counter="crawled"]').getAttribute('data-value'))).toBe(40);
    // Threads move with the nodes' heartbeats (no notification): the grid follows within a second or two.
    const firstUrls = await page.locator('.node-group[data-node="node-east"] .cell-url').allTextContents();
    await until(
      () => page.locator('.node-group[data-node="node-east"] .cell-url').allTextContents(),
      (u) => u.join() !== firstUrls.join(),
      'the threads to move',
      5_000,
    );
    // The results table reads the store.
    await until(
      async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
      (n) => n === 40,
      "the cluster crawl's results",
    );
    await shot('cluster-grid');

    // The Hosts view reads the store's hosts table (the crawl file's query, in PostgreSQL's dialect).
    await page.getByTestId('view-hosts').click();
    await until(
      async () => Number(await page.getByTestId('hosts-total').getAttribute('data-value')),
      (n) => n === 1,
      "the cluster crawl's hosts",
    );
    expect(await page.locator('.hosts-view .vtable').textContent()).toMatch(/https:\/\/shop\.test.*40.*25/);
    await shot('cluster-hosts');
    // So does the queue inspector (the crawl file's queries, in PostgreSQL's dialect).
    await page.getByTestId('view-queue').click();
    await until(
      async () => page.getByTestId('queue-total').getAttribute('data-value'),
      (v) => v === '25',
      "the cluster crawl's queue",
    );
    expect(await page.getByTestId('queue-hosts').textContent()).toContain('https://shop.test');
    await shot('cluster-queue');
    // And the explorer: a filter's count and rows, then one URL's detail (result-filters.ts and url-detail.ts, on the store).
    await page.getByTestId('view-explorer').click();
    await until(
      async () => Number((await page.locator('[data-filter="status-2xx"] .count-badge').getAttribute('data-count')) ?? -1),
      (n) => n === 40,
      "the cluster crawl's 2xx count",
    );
    await page.locator('[data-filter="status-2xx"]').click();
    await until(
      async () => Number(await page.getByTestId('explorer-total').getAttribute('data-value')),
      (n) => n === 40,
      "the cluster crawl's 2xx rows",
    );
    expect(await page.locator('[data-explorer-url]').count()).toBeGreaterThan(0);
    await shot('cluster-explorer');
    const first = (await page.locator('[data-explorer-url]').first().getAttribute('data-explorer-url'))!;
    await page.locator('[data-explorer-url]').first().click();
    await until(
      async () => (await page.getByTestId('url-detail').textContent()) ?? '',
      (t) => t.includes(first) && !t.includes('Loading'),
      "the URL's detail from the store",
    );
    await shot('cluster-url-detail');
    await page.getByLabel('close details').click();
    // The Reports' charts and the Structure tree read the store too (charts-data.ts and site-structure.ts, the
    // crawl file's code), and follow the crawl: two more pages recorded as a node records them (a 404 among them)
    // come into the charts by their live update, the rows after the last answer's seq.
    await page.getByTestId('view-reports').click();
    const statusChart = page.locator('.chart-card[data-chart="status"]');
    await until(
      async () => Number(await statusChart.getAttribute('data-total')),
      (n) => n === 40,
      "the cluster crawl's status chart",
    );
    expect(await statusChart.locator('.panel-note').textContent()).toMatch(/\b40\b/);
    await withClient(db.url, async (c) => {
      await c.query('BEGIN');
      for (const [i, code] of [
        [40, 200],
        [41, 404],
      ] as const) {
        const { rows } = await c.query<{ id: string }>(
          `INSERT INTO trawl_shop.urls (url, host_id, depth, state, discovered_at) VALUES ($1, 1, 2, 2, $2) RETURNING id`,
          [`https://shop.test/live/item-${i}`, Date.now()],
        );
        await c.query(`INSERT INTO trawl_shop.results (url_id, status_code, crawl_depth, fetched_at) VALUES ($1, $2, 2, $3)`, [
          rows[0]!.id,
          code,
          Date.now(),
        ]);
      }
      await c.query(`UPDATE trawl_shop.hosts SET crawled = crawled + 2 WHERE id = 1`);
      await c.query('COMMIT');
    });
    await until(
      async () => Number(await statusChart.getAttribute('data-total')),
      (n) => n === 42,
      'the two new pages in the status chart',
      10_000,
    );
    expect(await statusChart.locator('.panel-note').textContent()).toMatch(/\b42\b/);
    // Each chart asks for its own update: the depth chart follows on its next one.
    await until(
      async () => Number(await page.locator('.chart-card[data-chart="depth"]').getAttribute('data-total')),
      (n) => n === 42,
      'the two new pages in the depth chart',
      10_000,
    );
    await shot('cluster-charts');
    await page.getByTestId('view-structure').click();
    await until(
      async () => Number(await page.getByTestId('structure-total').getAttribute('data-value')),
      (n) => n === 42,
      "the cluster crawl's folder tree",
    );
    expect(await page.getByTestId('structure-table').textContent()).toContain('https://shop.test');
    await shot('cluster-structure');
    // The crawl map: the cluster crawl's pages hung from its seed, each drawn as a node (nothing folded at this size).
    await page.getByTestId('view-crawlMap').click();
    const mapTotal = await until(
      async () => Number(await page.getByTestId('crawl-map-total').getAttribute('data-value')),
      (n) => n > 10,
      "the cluster crawl's map",
    );
    await until(
      async () => Number(await page.getByTestId('crawl-map-canvas').getAttribute('data-order')),
      (n) => n === mapTotal + 1,
      'a node for each page and the root',
    );
    expect(await page.getByTestId('crawl-map-folded').getAttribute('data-urls')).toBe('0');
    await shot('cluster-crawl-map');

    // Compare: the cluster crawl in view is one of the crawls offered; against the file made before the two new pages,
    // they are what was added.
    await page.getByTestId('view-compare').click();
    // The store's other crawl is offered too (listed by the host, which keeps the store's address).
    await until(
      async () => page.getByTestId('compare-old').locator('option[value="cluster:archive"]').count(),
      (n) => n === 1,
      "the store's other crawl offered to compare",
    );
    expect(await page.getByTestId('compare-old').locator('option[value="cluster:archive"]').textContent()).toMatch(
      /^Cluster crawl archive · .+ · 127\.0\.0\.1:/,
    );
    await page.getByTestId('compare-old').selectOption('shop-before.trawl');
    await page.getByTestId('compare-new').selectOption('cluster:shop');
    expect(await page.getByTestId('compare-new').locator('option:checked').textContent()).toMatch(
      /^Cluster crawl shop in view · 127\.0\.0\.1:/,
    );
    await page.getByTestId('compare-run').click();
    await until(
      async () => page.locator('[data-testid="compare-summary"] [data-change="added"]').getAttribute('data-value'),
      (v) => v === '2',
      'the two pages added since the copy',
    );
    expect(await page.getByTestId('compare-sentence').textContent()).toMatch(/2 added/);
    await shot('cluster-compare');
    await page.getByTestId('view-live').click();

    // Pause, resize the cluster's total, resume: trawl.crawls says so.
    await page.getByTestId('pause').click();
    await until(clusterRow, (r) => r.state === 'paused', 'the cluster paused');
    await page.getByTestId('thread-slider').fill('12');
    await until(clusterRow, (r) => r.threads === 12, "the cluster's threads at 12");
    await until(
      async () => page.getByTestId('thread-target').getAttribute('data-value'),
      (v) => v === '12',
      'the slider at 12',
    );
    await page.getByTestId('resume').click();
    await until(clusterRow, (r) => r.state === 'running', 'the cluster running again');

    // The store goes away: the state badge says so and keeps the last view; back again, the error goes.
    proxy.cut();
    await until(
      async () =>
        page
          .locator('.state-error')
          .textContent()
          .catch(() => null),
      (t) => /lost the connection to the PostgreSQL store/.test(t ?? ''),
      'the lost connection shown',
      10_000,
    );
    expect(await sections()).toHaveLength(3);
    expect(await page.getByTestId('cluster-banner').textContent()).toMatch(
      /^Cluster crawl shop: lost the connection to the PostgreSQL store at 127\.0\.0\.1:\d+\/trawl_t_cluster_ui_\w+ .*retrying every 3 s/,
    );
    await shot('cluster-store-lost');
    proxy.restore();
    await until(
      () => page.locator('.state-error, [data-testid="cluster-banner"]').count(),
      (n) => n === 0,
      'the error gone once the store is back',
      15_000,
    );

    // Nothing the page shows carries the password (only the password field holds it).
    expect(await page.locator('body').innerText()).not.toContain(`:${password}@`);

    // Detach: the view empties, in this browser and in another one watching the same console.
    const other = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await other.goto(url);
      await other.getByTestId('cluster-grid').waitFor();
      await page.getByTestId('detach-store').click();
      for (const p of [page, other]) {
        await p.locator('.grid-empty').waitFor();
        expect(await p.locator('.node-group').count()).toBe(0);
        expect(await p.getByTestId('cluster-title').count()).toBe(0);
      }
    } finally {
      await other.close();
    }
  });
});
