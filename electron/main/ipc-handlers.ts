// Wires the command table to the crawl session over Electron IPC: a channel per command, whose arguments are
// validated against the command's schema, and any sender that is not the app's own window is refused. The
// handlers are the session's methods, but for the commands the desktop does itself (desktop-handlers.ts).
import { dialog, ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { COMMAND_NAMES } from '../../shared/commands.ts';
import { ipcChannel } from '../../shared/ipc-channels.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { runCommand } from '../host/command-handlers.ts';
import { desktopHandlers } from './desktop-handlers.ts';
import type { DesktopDialogs } from './desktop-handlers.ts';

export function registerIpc(session: CrawlSession, getWindow: () => BrowserWindow | null): () => void {
  const handlers = desktopHandlers(session, electronDialogs(getWindow));

  const fromAppWindow = (event: IpcMainInvokeEvent) => {
    const win = getWindow();
    return win !== null && event.sender === win.webContents && event.senderFrame === win.webContents.mainFrame;
  };

  for (const name of COMMAND_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event, ...args: unknown[]) => {
      if (!fromAppWindow(event)) throw new Error('refused: not the Trawl window');
      return runCommand(handlers, name, args);
    });
  }

  return () => {
    for (const name of COMMAND_NAMES) ipcMain.removeHandler(ipcChannel(name));
  };
}

/** Electron's dialogs, over the app window when there is one. */
function electronDialogs(getWindow: () => BrowserWindow | null): DesktopDialogs {
  return {
    async openCrawl() {
      const win = getWindow();
      const pick = await (win
        ? dialog.showOpenDialog(win, {
            title: 'Open a crawl',
            filters: [{ name: 'Trawl crawls', extensions: ['trawl'] }],
            properties: ['openFile'],
          })
        : dialog.showOpenDialog({ properties: ['openFile'] }));
      return pick.canceled || !pick.filePaths[0] ? null : pick.filePaths[0];
    },
    async saveCsv(title, defaultPath, format = 'csv') {
      const win = getWindow();
      const filter =
        format === 'xlsx'
          ? { name: 'Excel workbook', extensions: ['xlsx'] }
          : format === 'xml'
            ? { name: 'XML sitemap', extensions: ['xml'] }
            : { name: 'CSV', extensions: ['csv'] };
      const options = { title, defaultPath, filters: [filter] };
      const pick = await (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options));
      return pick.canceled || !pick.filePath ? null : pick.filePath;
    },
  };
}
