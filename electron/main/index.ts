// The Electron main process: one window, the crawl session (controller, frontier, worker pool of utility
// processes) and the IPC wiring. Everything else lives in the engine, which runs the same under the CLI.
import { ElectronRenderer } from './render/electron-renderer.ts';
import { renderPagesDefault } from '../engine/render/render-policy.ts';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, safeStorage, session as electronSession } from 'electron';
import { CrawlSession } from '../engine/session/crawl-session.ts';
import { useSqliteNativeBinding } from '../engine/frontier/sqlite/crawl-file.ts';
import { ipcChannel } from '../../shared/ipc-channels.ts';
import { UtilityProcessSpawner } from './utility-process-spawner.ts';
import { registerIpc } from './ipc-handlers.ts';
import { secureSession, secureWindow } from './window-security.ts';
import { desktopSecretStore } from './safe-storage-secrets.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

// better-sqlite3 built for Electron's ABI, kept apart from Node's build (scripts/electron-native.mjs). A
// packaged app has its own rebuilt copy (electron-builder), so this applies to `npm start` only.
const electronNative = path.resolve(here, '../electron-native/better_sqlite3.node');
if (!app.isPackaged && fs.existsSync(electronNative)) useSqliteNativeBinding(electronNative);

let win: BrowserWindow | null = null;

function createWindow(): BrowserWindow {
  const w = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: 'Trawl',
    show: false,
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  secureWindow(w);
  w.once('ready-to-show', () => w.show());
  const devUrl = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && devUrl) void w.loadURL(devUrl);
  else void w.loadFile(path.join(here, '../renderer/index.html'));
  return w;
}

async function main(): Promise<void> {
  await app.whenReady();
  secureSession(electronSession.defaultSession);
  const crawlSession = new CrawlSession({
    crawlsDir: path.join(app.getPath('userData'), 'crawls'),
    spawner: new UtilityProcessSpawner(path.join(here, 'worker.js')),
    // Credentials are kept encrypted by the OS keychain, not in clear in the crawl files.
    secrets: desktopSecretStore(safeStorage),
    // Crawls that render use the app's own Chromium: hidden windows in in-memory partitions of their own.
    renderer: (settings) =>
      new ElectronRenderer({ crawlId: `${process.pid}-${Date.now()}`, concurrency: settings.renderPages ?? renderPagesDefault() }),
  });
  const send = (channel: string, payload: unknown) => {
    if (win && !win.isDestroyed()) win.webContents.send(channel, payload);
  };
  crawlSession.on('snapshot', (s) => send(ipcChannel('snapshot'), s));
  crawlSession.on('state', (s) => send(ipcChannel('state'), s));
  crawlSession.on('cleared', () => send(ipcChannel('cleared'), null));
  registerIpc(crawlSession, () => win);
  win = createWindow();
  win.on('closed', () => (win = null));

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Stop the crawl gracefully (its file stays resumable) before the process goes.
    event.preventDefault();
    quitting = true;
    void crawlSession.close().finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!win) win = createWindow();
  });
}

void main();
