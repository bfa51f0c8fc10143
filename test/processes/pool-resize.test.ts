import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { duplicates, newCrawl, waitForSnapshot } from '../helpers/engine.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('resizing the pool live', () => {
  it('grows at once and shrinks after the current URL, fetching every page exactly once', async () => {
    site = await startFixtureSite({ pages: 160, linksPerPage: 4, delayMs: 60 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 2 });
    controller.start();
    await waitForSnapshot(controller, (s) => s.counters.crawled >= 5);

    controller.setThreads(8);
    // Growing: the new threads exist at once and are all fetching soon after.
    expect(controller.snapshot().threads).toHaveLength(8);
    expect(controller.snapshot().threadTarget).toBe(8);
    const grown = await waitForSnapshot(controller, (s) => s.counters.inFlight === 8);
    expect(new Set(grown.threads.map((t) => t.worker)).size).toBe(2); // spread over two processes (cpuCount 3)

    controller.setThreads(2);
    // Shrinking: busy threads retire after their URL; the grid shows them leaving.
    const right = controller.snapshot();
    expect(right.threads.filter((t) => t.step !== 'retiring')).toHaveLength(2);
    expect(right.threads.some((t) => t.step === 'retiring')).toBe(true);
    const shrunk = await waitForSnapshot(controller, (s) => s.threads.length === 2);
    expect(shrunk.counters.inFlight).toBeLessThanOrEqual(2);

    controller.setThreads(5);
    await waitForSnapshot(controller, (s) => s.threads.length === 5);

    const info = await controller.done;
    expect(info.reason).toBe('completed');
    expect(duplicates(site.fetchedPaths())).toEqual([]);
    expect(site.fetchedPaths().sort()).toEqual(site.pagePaths().sort());
    expect(info.snapshot.counters.crawled).toBe(160);
  });

  it('rejects a thread count out of range with a clear error', async () => {
    site = await startFixtureSite({ pages: 3 });
    const { controller } = newCrawl({ seeds: [site.url('/p/0')], threads: 2 });
    expect(() => controller.setThreads(0)).toThrow(/threads must be a whole number from 1 to 200 \(got 0\)/);
    expect(() => controller.setThreads(2.5)).toThrow(/threads/);
    expect(() => controller.setThreads(201)).toThrow(/threads/);
    controller.start();
    await controller.done;
  });
});
