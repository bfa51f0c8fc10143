// Test helpers for running the real engine: real worker processes (the bundled worker), real crawl files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CrawlController } from '../../electron/engine/controller/crawl-controller.ts';
import type { ControllerOptions } from '../../electron/engine/controller/crawl-controller.ts';
import { ChildProcessSpawner } from '../../electron/engine/pool/child-process-spawner.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { CrawlSnapshot } from '../../shared/snapshot.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'out/node/crawl.mjs');
export const WORKER = path.join(ROOT, 'out/node/worker.mjs');

export function tempDir(prefix = 'trawl-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function spawner(): ChildProcessSpawner {
  return new ChildProcessSpawner({ entry: WORKER, execArgv: [] });
}

/** A new crawl of `settings` (parsed here, as the session or the CLI parses what it is given). */
export function newCrawl(settings: Record<string, unknown>, dir = tempDir()): { controller: CrawlController; dbPath: string } {
  const dbPath = path.join(dir, 'crawl.trawl');
  // As on a 3-core machine: two worker processes, so tests exercise threads spread over processes.
  const options: ControllerOptions = { dbPath, spawner: spawner(), cpuCount: 3 };
  return { controller: CrawlController.create(parseSettings(settings), options), dbPath };
}

/** Resolves with the first snapshot that satisfies `test` (loosely bounded, to catch hangs). */
export function waitForSnapshot(
  controller: CrawlController,
  test: (s: CrawlSnapshot) => boolean,
  timeoutMs = 20_000,
): Promise<CrawlSnapshot> {
  return new Promise((resolve, reject) => {
    const now = controller.snapshot();
    if (test(now)) return resolve(now);
    const timer = setTimeout(() => {
      controller.off('snapshot', check);
      reject(new Error(`timed out waiting; last snapshot ${JSON.stringify(controller.snapshot().counters)}`));
    }, timeoutMs);
    const check = (s: CrawlSnapshot) => {
      if (!test(s)) return;
      clearTimeout(timer);
      controller.off('snapshot', check);
      resolve(s);
    };
    controller.on('snapshot', check);
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every repeat in a list (a path fetched twice appears once here), for "fetched exactly once" checks. */
export function duplicates(paths: string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((p) => seen.has(p) || (seen.add(p), false));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
