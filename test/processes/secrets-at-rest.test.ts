// A crawl's credentials at rest: the crawls folder is 0700, a crawl file and its -wal and -shm 0600 whatever the
// umask (on create and on resume), the stored settings never hold the credentials, a sealing store (the desktop
// app's safeStorage) leaves none of them in the file's bytes, and no export prints them.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHART_KINDS } from '../../shared/charts.ts';
import { EXPORT_COLUMNS } from '../../shared/analysis.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { StateChange } from '../../shared/snapshot.ts';
import { CrawlController } from '../../electron/engine/controller/crawl-controller.ts';
import { createCrawlFile, openCrawlFile, readMeta } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import type { SecretStore } from '../../electron/engine/secrets/secret-store.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { desktopSecretStore } from '../../electron/main/safe-storage-secrets.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { spawner, tempDir } from '../helpers/engine.ts';

const PASSWORD = 'hunter2-pw-7Q';
const COOKIE = 'session=ck-5521-secret';
const SECRETS = [PASSWORD, COOKIE, 'ck-5521'];
const mode = (file: string) => fs.statSync(file).mode & 0o777;

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A stand-in for Electron's safeStorage: "encrypts" by reversing the bytes, so the sealed text holds no secret as written. */
const fakeSafeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text: string) => Buffer.from(text, 'utf8').reverse(),
  decryptString: (data: Buffer) => Buffer.from(data).reverse().toString('utf8'),
};

async function authSite() {
  const expected = `Basic ${Buffer.from(`ana:${PASSWORD}`).toString('base64')}`;
  const seen: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    seen.push(req.headers.authorization);
    if (req.headers.authorization !== expected || req.headers.cookie !== COOKIE) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>in</title><a href="/a">a</a><a href="/b">b</a>');
  });
  const { origin, close } = await listenOnLoopback(server);
  closers.push(close);
  return { origin, seen, expected };
}

function waitFinished(session: CrawlSession): Promise<StateChange> {
  return new Promise((resolve) => {
    const check = (c: StateChange) => {
      if (c.to !== 'finished') return;
      session.off('state', check);
      resolve(c);
    };
    session.on('state', check);
  });
}

/** Every byte of a crawl file and its -wal, as text. */
function fileBytes(file: string): string {
  return [file, `${file}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('');
}

describe('file modes', () => {
  it('a new crawl file and its -wal and -shm are 0600, and an old 0644 one is made 0600 when opened to write', () => {
    const dir = tempDir();
    const file = path.join(dir, 'c.trawl');
    const umask = process.umask(0o022);
    try {
      const db = createCrawlFile(
        file,
        parseSettings({ seeds: ['https://example.com/'], basicAuth: { username: 'ana', password: PASSWORD } }),
      );
      db.prepare("INSERT INTO meta (key, value) VALUES ('x', 'y')").run(); // a write after creation: -wal and -shm exist
      const modes = { file: mode(file), wal: mode(`${file}-wal`), shm: mode(`${file}-shm`) };
      db.close();
      expect(modes).toEqual({ file: 0o600, wal: 0o600, shm: 0o600 });

      // A file of an older version (0644), reopened to resume: its mode is tightened before SQLite opens it.
      fs.chmodSync(file, 0o644);
      const again = openCrawlFile(file);
      again.prepare("UPDATE meta SET value = 'z' WHERE key = 'x'").run();
      expect({ file: mode(file), wal: mode(`${file}-wal`), shm: mode(`${file}-shm`) }).toEqual({ file: 0o600, wal: 0o600, shm: 0o600 });
      again.close();
    } finally {
      process.umask(umask);
    }
  });

  it('the crawls folder is 0700, even when it existed with wider rights', () => {
    const dir = path.join(tempDir(), 'crawls');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 3 });
    expect(mode(dir)).toBe(0o700);
    const fresh = path.join(tempDir(), 'new', 'crawls');
    new CrawlSession({ crawlsDir: fresh, spawner: spawner(), cpuCount: 3 });
    expect(mode(fresh)).toBe(0o700);
  });
});

describe('credentials at rest', () => {
  async function crawl(secrets?: SecretStore) {
    const site = await authSite();
    const dir = tempDir();
    const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 3, ...(secrets ? { secrets } : {}) });
    closers.push(() => session.close());
    const done = waitFinished(session);
    const started = await session.start({
      seeds: [`${site.origin}/`],
      threads: 2,
      // The pages alone (no /sitemap.xml look-up), so every request counted is a page's.
      crawlLinkedSitemaps: false,
      headers: { Cookie: COOKIE },
      basicAuth: { username: 'ana', password: PASSWORD },
    });
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    // File modes while the crawl runs (its -wal and -shm exist then).
    const file = started.file;
    const during = { dir: mode(dir), file: mode(file), wal: mode(`${file}-wal`), shm: mode(`${file}-shm`) };
    await done;
    return { site, dir, session, file, during };
  }

  it('with the plain store (CLI, web console): the settings hold no credential, the 0600 file holds them apart, a resume reads them back', async () => {
    const { site, dir, session, file, during } = await crawl();
    expect(during).toEqual({ dir: 0o700, file: 0o600, wal: 0o600, shm: 0o600 });
    expect(site.seen.filter((a) => a === site.expected)).toHaveLength(3); // every page was fetched with the credentials
    const db = openCrawlFile(file, { readonly: true });
    const settings = readMeta(db, 'settings')!;
    const secrets = readMeta(db, 'secrets')!;
    db.close();
    for (const s of SECRETS) expect(settings).not.toContain(s);
    expect(JSON.parse(secrets)).toMatchObject({ store: 'plain' });
    expect(secrets).toContain(PASSWORD);

    // Every export of the crawl: results, each view with every column, each chart.
    const outputs: string[] = [];
    const out = (name: string) => {
      const f = path.join(dir, name);
      outputs.push(f);
      return f;
    };
    expect((await session.exportCsv(out('results.csv'))).ok).toBe(true);
    expect(
      (await session.exportView({ filter: 'all', text: '', columns: [...EXPORT_COLUMNS], headerPreset: 'trawl' }, out('view.csv'))).ok,
    ).toBe(true);
    for (const kind of CHART_KINDS) expect((await session.exportChartCsv(kind, out(`${kind}.csv`))).ok, kind).toBe(true);
    for (const f of outputs) {
      const text = fs.readFileSync(f, 'utf8');
      for (const s of SECRETS) expect(text, path.basename(f)).not.toContain(s);
    }

    // Resumed (here: a finished crawl reopened by a controller), the credentials come back from the file.
    const controller = CrawlController.resume({ dbPath: file, spawner: spawner(), cpuCount: 3 });
    expect(controller.settings.basicAuth).toEqual({ username: 'ana', password: PASSWORD });
    expect(controller.settings.headers).toEqual({ Cookie: COOKIE });
    controller.start();
    await controller.done;
  });

  it("with the desktop app's safeStorage store: not one credential in the crawl file's bytes; the CLI's store cannot resume it", async () => {
    const store = desktopSecretStore(fakeSafeStorage, 'linux');
    expect(store.kind).toBe('safeStorage');
    const { site, file, during } = await crawl(store);
    expect(during).toEqual({ dir: 0o700, file: 0o600, wal: 0o600, shm: 0o600 });
    expect(site.seen.filter((a) => a === site.expected)).toHaveLength(3);
    const bytes = fileBytes(file);
    for (const s of [...SECRETS, Buffer.from(`ana:${PASSWORD}`).toString('base64')]) expect(bytes).not.toContain(s);

    // The app resumes it with its keychain; the CLI (plain store) is told why it cannot.
    const resumed = CrawlController.resume({ dbPath: file, spawner: spawner(), cpuCount: 3, secrets: store });
    expect(resumed.settings.basicAuth).toEqual({ username: 'ana', password: PASSWORD });
    resumed.start();
    await resumed.done;
    expect(() => CrawlController.resume({ dbPath: file, spawner: spawner(), cpuCount: 3 })).toThrow(/desktop app's keychain/);
  });

  it('the app falls back to the plain store when safeStorage has no real keychain', () => {
    expect(desktopSecretStore({ ...fakeSafeStorage, isEncryptionAvailable: () => false }, 'darwin').kind).toBe('plain');
    expect(desktopSecretStore({ ...fakeSafeStorage, getSelectedStorageBackend: () => 'basic_text' }, 'linux').kind).toBe('plain');
    expect(desktopSecretStore(fakeSafeStorage, 'win32').kind).toBe('safeStorage');
  });
});

describe('presets', () => {
  it('a preset saved from a form with basic auth and a Cookie header keeps neither: no credential in the 0600 file of the 0700 folder', async () => {
    const dir = tempDir();
    const umask = process.umask(0o022);
    try {
      const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 3 });
      closers.push(() => session.close());
      const saved = await session.savePreset('Behind a login', {
        threads: 3,
        headers: { Cookie: COOKIE },
        basicAuth: { username: 'ana', password: PASSWORD },
      });
      expect(saved.ok).toBe(true);
      const file = path.join(dir, 'trawl-presets.json');
      const text = fs.readFileSync(file, 'utf8');
      for (const s of [...SECRETS, 'ana']) expect(text).not.toContain(s);
      expect({ dir: mode(dir), file: mode(file) }).toEqual({ dir: 0o700, file: 0o600 });
      const [preset] = await session.listPresets();
      expect(preset!.settings).toMatchObject({ threads: 3, headers: {}, basicAuth: null });
    } finally {
      process.umask(umask);
    }
  });

  it('a presets file of an older version holding credentials has them taken out when read', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'trawl-presets.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        presets: [
          {
            name: 'Old',
            savedAt: '2026-01-01T00:00:00.000Z',
            settings: { polite: true, headers: { Cookie: COOKIE }, basicAuth: { username: 'ana', password: PASSWORD } },
          },
        ],
      }),
      { mode: 0o644 },
    );
    const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 3 });
    closers.push(() => session.close());
    const [old] = await session.listPresets();
    expect(old!.settings).toMatchObject({ polite: true, headers: {}, basicAuth: null });
    const text = fs.readFileSync(file, 'utf8');
    for (const s of SECRETS) expect(text).not.toContain(s);
    expect(JSON.parse(text).presets[0].settings.polite).toBe(true);
    expect(mode(file)).toBe(0o600);
  });
});
