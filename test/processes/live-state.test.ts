// The controller's live figures with real workers (issue 15): under a URLs/s cap idle threads say "rate limit",
// not "politeness"; elapsed time stops while paused (pages/s keeps its rate) and a crawl resumed from its file
// continues from its total; the file tells a reopened crawl its final figures.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlController } from '../../electron/engine/controller/crawl-controller.ts';
import { readCrawlFileInfo } from '../../electron/engine/session/crawl-files.ts';
import type { CrawlSnapshot } from '../../shared/snapshot.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, sleep, spawner, waitForSnapshot } from '../helpers/engine.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('live figures that are true', () => {
  it('under a URLs/s cap, idle threads wait on the rate limit, never on politeness', async () => {
    site = await startFixtureSite({ pages: 40, linksPerPage: 4 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 4, maxUrlsPerSecond: 2 });
    const seen = new Set<string>();
    controller.on('snapshot', (s) => s.threads.forEach((t) => seen.add(t.step)));
    controller.start();
    await waitForSnapshot(controller, (s) => s.counters.crawled >= 6 && s.threads.filter((t) => t.step === 'ratelimit').length >= 2);
    await controller.stop();
    expect(seen.has('ratelimit')).toBe(true);
    expect(seen.has('politeness')).toBe(false);
  });

  it('with no cap, a host that must wait still shows politeness', async () => {
    site = await startFixtureSite({ pages: 40, linksPerPage: 4 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 3, delayMs: 400 });
    controller.start();
    await waitForSnapshot(controller, (s) => s.counters.crawled >= 2 && s.threads.some((t) => t.step === 'politeness'));
    expect(controller.snapshot().threads.some((t) => t.step === 'ratelimit')).toBe(false);
    await controller.stop();
  });

  it('stops the clock while paused, keeps the pages/s it paused at, and carries elapsed time into a resumed crawl', async () => {
    site = await startFixtureSite({ pages: 200, linksPerPage: 4, delayMs: 30 });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/p/0')], threads: 3 });
    controller.start();
    await waitForSnapshot(controller, (s) => s.counters.crawled >= 20);
    controller.pause();
    const paused = await waitForSnapshot(controller, (s) => s.state === 'paused');
    await sleep(1_500);
    const later = controller.snapshot();
    // Not one second of the pause counted; the rate is the one it paused at, not a sinking one.
    expect(later.counters.elapsedMs - paused.counters.elapsedMs).toBeLessThan(300);
    expect(later.counters.pagesPerSecond).toBe(paused.counters.pagesPerSecond);
    expect(later.counters.pagesPerSecond).toBeGreaterThan(0);
    controller.resume();
    await waitForSnapshot(controller, (s) => s.state === 'running' && s.counters.elapsedMs > paused.counters.elapsedMs + 200);
    const first = await controller.stop();
    const firstElapsed = first.snapshot.counters.elapsedMs;
    expect(firstElapsed).toBeGreaterThan(paused.counters.elapsedMs);
    expect(first.snapshot.counters.queued).toBeGreaterThan(0);

    // The file knows it (a reopened crawl shows it), with its failures.
    const info = readCrawlFileInfo(dbPath);
    expect(info.elapsedMs).toBeGreaterThanOrEqual(firstElapsed - 50);
    expect(info.elapsedMs).toBeLessThanOrEqual(firstElapsed + 50);
    expect(info.failed).toBe(first.snapshot.counters.failed);

    // Resumed from the file: its clock continues from the total, not from 0.
    const resumed = CrawlController.resume({ dbPath, spawner: spawner(), cpuCount: 3 });
    const snaps: CrawlSnapshot[] = [];
    resumed.on('snapshot', (s) => snaps.push(s));
    resumed.start();
    await waitForSnapshot(resumed, (s) => s.state === 'running' && s.counters.crawled > first.snapshot.counters.crawled);
    expect(snaps.every((s) => s.counters.elapsedMs >= info.elapsedMs!)).toBe(true);
    const done = await resumed.stop();
    expect(done.snapshot.counters.elapsedMs).toBeGreaterThan(info.elapsedMs!);
    // A finished crawl's pages/s is its average over its elapsed time.
    const { crawled, failed, elapsedMs } = done.snapshot.counters;
    expect(done.snapshot.counters.pagesPerSecond).toBeCloseTo(((crawled + failed) / elapsedMs) * 1000, 0);
    expect(readCrawlFileInfo(path.resolve(dbPath)).elapsedMs).toBeGreaterThan(info.elapsedMs!);
  });
});
