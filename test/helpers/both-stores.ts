// The same crawl made by the CLI into a crawl file and into the PostgreSQL store, and a session open on each: what the
// tests that check both stores answer alike (test/postgres/analysis-contract.test.ts, sitemaps-store.test.ts) start from.
import { expect } from 'vitest';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { runCli } from './cli.ts';
import { spawner, tempDir } from './engine.ts';

export interface BothStores {
  /** The crawl file's path. */
  file: string;
  /** The crawl's ID in the store. */
  crawlId: string;
  fileSession: CrawlSession;
  storeSession: CrawlSession;
}

/**
 * Crawls with `args` (the CLI's, seeds first) into `file` (in `dir`, the file session's crawls folder), then into the
 * store at `storeUrl`, `beforeStore` run between the two; each must exit 0.
 */
export async function crawlIntoBoth(
  storeUrl: string,
  dir: string,
  file: string,
  args: readonly string[],
  beforeStore: () => void = () => {},
): Promise<BothStores> {
  const toFile = await runCli([...args, '--db', file]);
  expect(toFile.code, toFile.stderr).toBe(0);
  beforeStore();
  const toStore = await runCli(['--store', storeUrl, ...args]);
  expect(toStore.code, toStore.stderr).toBe(0);
  const crawlId = /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!;
  const fileSession = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2 });
  await fileSession.openCrawl(file);
  const storeSession = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
  await storeSession.attachStore(storeUrl, crawlId);
  // The crawl's Link Scores and duplicate content computed on each before the tests compare rows and details: a page
  // sorted by the scores, and the badges, wait for them (a page otherwise, and a URL's detail, answer at once with
  // them pending, and the two stores' answers would differ by that).
  const byScore = { filter: 'all', text: '', sort: 'link_score', descending: false, offset: 0, limit: 1 } as const;
  await Promise.all([fileSession, storeSession].map(async (s) => Promise.all([s.queryFiltered(byScore), s.filterCounts()])));
  return { file, crawlId, fileSession, storeSession };
}
