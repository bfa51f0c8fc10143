// Settings that change while a crawl runs: an exclude pattern (dropping the queued URLs it matches, and saying
// how many) and the URLs/s cap; both kept in the crawl file so a resumed crawl continues with them.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, waitForSnapshot } from '../helpers/engine.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('live settings', () => {
  it('an exclude added mid-crawl drops the matching queued URLs, says how many, and holds for links found later', async () => {
    site = await startFixtureSite({ pages: 60, linksPerPage: 6, delayMs: 40 });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/p/0')], threads: 2 });
    controller.start();
    // Exclude pages 40-59 the moment one of them is queued. The exclude runs after the store calls already asked
    // for (a claim may take a matching URL first), so it drops at most what was counted then, and at least one.
    const db = new Database(dbPath, { readonly: true });
    const countQueued = db.prepare(`SELECT count(*) AS n FROM urls WHERE state = 0 AND (url LIKE '%/p/4_' OR url LIKE '%/p/5_')`);
    let queuedMatching = 0;
    let excluding: Promise<{ dropped: number }> | null = null;
    let fetchedBefore = new Set<string>();
    await waitForSnapshot(controller, () => {
      queuedMatching = (countQueued.get() as { n: number }).n;
      if (queuedMatching === 0) return false;
      fetchedBefore = new Set(site!.fetchedPaths());
      excluding = controller.addExclude('/p/[45]\\d$');
      return true;
    });
    const { dropped } = await excluding!;
    expect(dropped).toBeLessThanOrEqual(queuedMatching + 6 * 2);
    expect(dropped).toBeGreaterThan(0);
    expect(controller.snapshot().liveExcludes).toEqual(['/p/[45]\\d$']);
    const info = await controller.done;
    expect(info.reason).toBe('completed');
    const after = site.fetchedPaths().filter((p) => !fetchedBefore.has(p));
    // Nothing matching was fetched after the exclude, except what was already in flight (2 threads).
    expect(after.filter((p) => /\/p\/[45]\d$/.test(p)).length).toBeLessThanOrEqual(2);
    const settings = JSON.parse((db.prepare(`SELECT value FROM meta WHERE key = 'settings'`).get() as { value: string }).value);
    expect(settings.exclude).toEqual(['/p/[45]\\d$']);
    const excluded = (
      db.prepare(`SELECT count(*) AS n FROM urls WHERE state = 4 AND (url LIKE '%/p/4_' OR url LIKE '%/p/5_')`).get() as { n: number }
    ).n;
    expect(excluded).toBeGreaterThanOrEqual(dropped);
    db.close();
  });

  it('refuses an invalid exclude, naming it, and changes nothing', async () => {
    site = await startFixtureSite({ pages: 4, linksPerPage: 2 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 1 });
    controller.start();
    await expect(controller.addExclude('(')).rejects.toThrow('invalid exclude pattern "("');
    expect(controller.snapshot().liveExcludes).toEqual([]);
    await controller.done;
  });

  it('refuses a pattern the linear-time engine cannot take (backreference, lookaround), naming what it uses', async () => {
    site = await startFixtureSite({ pages: 4, linksPerPage: 2 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 1 });
    controller.start();
    await expect(controller.addExclude('/p/(\\d)\\1')).rejects.toThrow(
      /^invalid exclude pattern "\/p\/\(\\d\)\\1": backreference \\1 is not supported/,
    );
    await expect(controller.deprioritise('/p/(?!0)')).rejects.toThrow(
      /^invalid pattern "\/p\/\(\?!0\)": negative lookahead \(\?!\.\.\.\) is not supported/,
    );
    expect(controller.snapshot().liveExcludes).toEqual([]);
    const info = await controller.done;
    expect(info.snapshot.counters.crawled).toBe(4);
  });

  it('the URLs/s cap can be lifted while the crawl runs', async () => {
    site = await startFixtureSite({ pages: 30, linksPerPage: 3 });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/p/0')], threads: 4, maxUrlsPerSecond: 1 });
    const started = Date.now();
    controller.start();
    await waitForSnapshot(controller, (s) => s.counters.crawled >= 2);
    expect(() => controller.setMaxRate(0)).toThrow(/more than 0/);
    controller.setMaxRate(null);
    expect(controller.snapshot().maxUrlsPerSecond).toBeNull();
    const info = await controller.done;
    expect(info.snapshot.counters.crawled).toBe(30);
    // At 1 URL/s the 30 pages would take half a minute; lifted, they take a few seconds (loose: catches a cap that stayed).
    expect(Date.now() - started).toBeLessThan(15_000);
    const db = new Database(dbPath, { readonly: true });
    expect(
      JSON.parse((db.prepare(`SELECT value FROM meta WHERE key = 'settings'`).get() as { value: string }).value).maxUrlsPerSecond,
    ).toBeNull();
    db.close();
  });
});
