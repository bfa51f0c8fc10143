// The SQLite crawl file a crawl runs on alone: a new file from parsed settings, or an interrupted crawl's file
// reopened to continue it. Reopening is where a crawl file's stored settings enter the engine again, so they are
// parsed here, once, with the few settings a resumed crawl may change; the controller takes them as they are.
import { parseSettings, type ParsedSettings } from '../../../shared/settings.ts';
import { createCrawlFile, openCrawlFile, readMeta, readSecrets, readStoredSettings, writeSettings } from '../frontier/sqlite/crawl-file.ts';
import type { FrontierStore } from '../frontier/frontier-store.ts';
import { ELAPSED_META, SqliteFrontierStore } from '../frontier/sqlite/sqlite-store.ts';
import { plainSecretStore, type SecretStore } from '../secrets/secret-store.ts';
import { makeScope } from '../../../shared/scope.ts';
import { makeNormaliser } from '../../../shared/url/normalise.ts';

/** Settings that may differ when an interrupted crawl is resumed. */
export interface ResumeOverrides {
  threads?: number;
}

export interface OpenedCrawlFile {
  store: FrontierStore;
  settings: ParsedSettings;
  /** Store work that must be done before the crawl starts (seeding, lease recovery). */
  prepared: Promise<unknown>;
  /** What earlier sessions of a reopened crawl ran, paused time left out: its clock continues from there. */
  elapsedMs: number;
}

/** The elapsed time a crawl file notes (0 when it notes none, as a file of an older version). */
export function storedElapsedMs(db: Parameters<typeof readMeta>[0]): number {
  const ms = Number(readMeta(db, ELAPSED_META));
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/**
 * A new crawl file holding `settings` (its credentials sealed by `secrets`) and its seeds, and the sitemaps of
 * `sitemapFiles` (local files, `--sitemap FILE`) read into it before the crawl starts.
 */
export function createCrawlFileStore(
  settings: ParsedSettings,
  dbPath: string,
  secrets: SecretStore = plainSecretStore,
  sitemapFiles: readonly string[] = [],
): OpenedCrawlFile {
  const db = createCrawlFile(dbPath, settings, secrets);
  const store = new SqliteFrontierStore(db, settings, dbPath);
  // SQLite answers at once: the seeds are in the file (and counted) when this returns.
  const seeded = store.addSeeds(settings.seeds);
  if (sitemapFiles.length === 0) return { store, settings, prepared: seeded, elapsedMs: 0 };
  const deps = { scope: makeScope(settings), normalise: makeNormaliser(settings) };
  const prepared = seeded.then(async () => {
    // Loaded only here: the sitemap reader brings the worker's HTTP client (undici), which the crawl's own process
    // never uses otherwise and which cost every start about 40 ms to load.
    const { readSitemapFile } = await import('../../worker/sitemap/run-sitemap.ts');
    for (const file of sitemapFiles) await store.recordSitemapFile(await readSitemapFile(file, deps));
  });
  return { store, settings, prepared, elapsedMs: 0 };
}

/**
 * Reopens a crawl file to continue it: URLs that were in flight when it was interrupted are queued again. Throws a
 * SettingsError when its stored settings (with `overrides`) are invalid, closing the file.
 */
export function reopenCrawlFileStore(
  dbPath: string,
  overrides: ResumeOverrides = {},
  secrets: SecretStore = plainSecretStore,
): OpenedCrawlFile {
  const db = openCrawlFile(dbPath);
  try {
    const stored = readStoredSettings(db) as Record<string, unknown>;
    // The credentials are kept apart (a file of an older version has them in its settings: they are moved apart below).
    const settings = parseSettings({ ...stored, ...readSecrets(db, secrets), ...overrides });
    const store = new SqliteFrontierStore(db, settings, dbPath);
    const prepared = store.recoverLeases();
    writeSettings(db, settings, secrets);
    return { store, settings, prepared, elapsedMs: storedElapsedMs(db) };
  } catch (err) {
    if (db.open) db.close();
    throw err;
  }
}
