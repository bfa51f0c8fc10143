import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';
import { createCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { Frontier } from '../../electron/engine/frontier/sqlite/frontier.ts';
import { CLAIM_SQL } from '../../electron/engine/frontier/sqlite/frontier-statements.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { PageFetchResult } from '../../shared/protocol.ts';
import { fetchedPage } from '../helpers/page-result.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'text/html' }).end(body);

function pageResult(url: string, links: string[], extra: Partial<PageFetchResult> = {}): PageFetchResult {
  return fetchedPage(url, links, { inScope: (u) => u.startsWith('http://a.test'), extra });
}

describe('frontier in a crawl', () => {
  it('fetches a URL once however it is spelled, records robots-blocked and out-of-scope links without fetching them', async () => {
    site = await startFixtureSite({
      robotsTxt: 'User-agent: *\nDisallow: /private\n',
      routes: {
        '/': html(`<a href="/a">1</a><a href="/a#x">2</a><a href="./a">3</a><a href="/b/../a">4</a><a href="/%61">5</a>
          <a href="/private/x">secret</a><a href="http://elsewhere.invalid/">out</a><a href="/deep">deeper</a>`),
        '/a': html('<a href="/">home</a>'),
        '/deep': html('<a href="/deeper">on</a>'),
        '/deeper': html('end'),
      },
    });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 3, maxDepth: 1 });
    controller.start();
    const info = await controller.done;
    expect(info.reason).toBe('completed');
    expect(site.fetchedPaths().sort()).toEqual(['/', '/a', '/deep']);
    expect(site.log.filter((e) => e.path === '/robots.txt')).toHaveLength(1);

    const db = new Database(dbPath, { readonly: true });
    const row = (suffix: string) =>
      db
        .prepare('SELECT u.state, r.error, u.depth FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.url = ?')
        .get(site!.url(suffix));
    expect(row('/private/x')).toEqual({ state: 3, error: 'blocked by robots.txt', depth: 1 });
    expect(row('/deeper')).toEqual({ state: 5, error: null, depth: 2 });
    expect(db.prepare("SELECT state FROM urls WHERE url = 'http://elsewhere.invalid/'").get()).toEqual({ state: 4 });
    // The link graph keeps every distinct link, crawled or not, with its anchor.
    const out = db
      .prepare(
        'SELECT t.url, l.anchor FROM links l JOIN urls f ON f.id = l.from_id JOIN urls t ON t.id = l.to_id WHERE f.url = ? ORDER BY t.id',
      )
      .all(site.url('/'));
    expect(out).toEqual([
      { url: site.url('/a'), anchor: '1' },
      { url: site.url('/private/x'), anchor: 'secret' },
      { url: 'http://elsewhere.invalid/', anchor: 'out' },
      { url: site.url('/deep'), anchor: 'deeper' },
    ]);
    db.close();
  });
});

describe('frontier', () => {
  function frontier(settings: Record<string, unknown> = {}) {
    const s = parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false, ...settings });
    const db = createCrawlFile(path.join(tempDir(), 'f.trawl'), s);
    return { db, f: new Frontier(db, s) };
  }

  it('answers the claim queries from indexes, never scanning urls', () => {
    const { db } = frontier();
    const plans = Object.values(CLAIM_SQL).map((sql) =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.includes('?') ? [1, 1].slice(0, sql.split('?').length - 1) : [])) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | '),
    );
    expect(plans[0]).toMatch(/USING INDEX hosts_ready/);
    expect(plans[2]).toMatch(/USING INDEX urls_claim_order/);
    for (const plan of plans) expect(plan).not.toMatch(/SCAN urls|TEMP B-TREE/);
    db.close();
  });

  it('dedups discovered links on the canonical URL and claims breadth-first', () => {
    const { db, f } = frontier();
    f.addSeeds(['http://A.test:80/#top', 'http://a.test/']);
    expect(f.getCounts().queued).toBe(1);
    const [seed] = f.claim(10);
    expect(seed).toMatchObject({ kind: 'page', url: 'http://a.test/', depth: 0 });
    f.recordPage(seed as never, pageResult('http://a.test/', ['http://a.test/x', 'http://a.test/y', 'http://b.test/']));
    expect(f.getCounts()).toEqual({ queued: 2, crawled: 1, failed: 0 });
    const next = f.claim(10);
    expect(next.map((c) => c.url)).toEqual(['http://a.test/x', 'http://a.test/y']);
    db.close();
  });

  it('hands out one URL at a time for a host with a delay, and none until its fetch returns', () => {
    const { db, f } = frontier({ delayMs: 1000 });
    f.addSeeds(['http://a.test/']);
    const [seed] = f.claim(5, 1_000);
    f.recordPage(seed as never, pageResult('http://a.test/', ['http://a.test/1', 'http://a.test/2']), 2_000);
    expect(f.claim(5, 2_500)).toEqual([]);
    expect(f.nextReadyAt()).toBe(3_000);
    const one = f.claim(5, 3_000);
    expect(one).toHaveLength(1);
    expect(f.claim(5, 10_000)).toEqual([]); // held while in flight
    expect(f.nextReadyAt()).toBeNull();
    db.close();
  });

  it('claims deprioritised URLs after the rest of their host, now and for URLs found later, and keeps the pattern', () => {
    const { db, f } = frontier();
    f.addSeeds(['http://a.test/']);
    const [seed] = f.claim(1);
    f.recordPage(
      seed as never,
      pageResult('http://a.test/', ['http://a.test/tag/1', 'http://a.test/p/1', 'http://a.test/tag/2', 'http://a.test/p/2']),
    );
    expect(f.deprioritise('/tag/')).toBe(2);
    const first = f.claim(2);
    expect(first.map((c) => c.url)).toEqual(['http://a.test/p/1', 'http://a.test/p/2']);
    f.recordPage(first[0] as never, pageResult('http://a.test/p/1', ['http://a.test/tag/3', 'http://a.test/p/3']));
    // A reopened frontier (a resumed crawl) still knows the pattern.
    const reopened = new Frontier(db, parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false }));
    expect(reopened.claim(10).map((c) => c.url)).toEqual([
      'http://a.test/p/3',
      'http://a.test/tag/1',
      'http://a.test/tag/2',
      'http://a.test/tag/3',
    ]);
    db.close();
  });

  it('after a crash, recoverLeases queues the claimed URLs again', () => {
    const { db, f } = frontier();
    f.addSeeds(['http://a.test/', 'http://a.test/2']);
    expect(f.claim(5)).toHaveLength(2);
    expect(f.getCounts().queued).toBe(0);
    const reopened = new Frontier(db, parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false }));
    expect(reopened.recoverLeases()).toBe(2);
    expect(reopened.getCounts().queued).toBe(2);
    expect(reopened.claim(5)).toHaveLength(2);
    db.close();
  });
});

describe('url keys', () => {
  it('keeps two URLs apart even when their dedup keys collide', async () => {
    const { urlKey } = await import('../../shared/url/url-key.ts');
    const s = parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', crawlLinkedSitemaps: false });
    const db = createCrawlFile(path.join(tempDir(), 'k.trawl'), s);
    const f = new Frontier(db, s);
    f.addSeeds(['http://a.test/one']);
    // Force a collision: give the stored row the key the second URL will have.
    db.prepare('UPDATE urls SET url_key = ? WHERE url = ?').run(urlKey('http://a.test/two'), 'http://a.test/one');
    expect(f.addSeeds(['http://a.test/two'])).toBe(1);
    expect(f.addSeeds(['http://a.test/two#again'])).toBe(0);
    expect(db.prepare('SELECT count(*) AS n FROM urls').get()).toEqual({ n: 2 });
    db.close();
  });
});
