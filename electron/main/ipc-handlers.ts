// Wires the command table to the crawl session over Electron IPC: a channel per command, whose arguments are
// validated against the command's schema, and any sender that is not the app's own window is refused. The
// handlers are the session's methods, but for the commands the desktop does itself (dialogs, the snapshot).
import { dialog, ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { COMMAND_NAMES } from '../../shared/commands.ts';
import { ipcChannel } from '../../shared/ipc-channels.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { runCommand, sessionHandlers } from '../host/command-handlers.ts';
import type { Handlers, HostHandlers } from '../host/command-handlers.ts';

export function registerIpc(session: CrawlSession, getWindow: () => BrowserWindow | null): () => void {
  const handlers: Handlers = { ...sessionHandlers(session), ...desktopHandlers(session, getWindow) };

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

/** The desktop's own handlers: an open dialog for a crawl not named, save dialogs for the exports. */
function desktopHandlers(session: CrawlSession, getWindow: () => BrowserWindow | null): HostHandlers {
  async function saveDialog(title: string, defaultPath: string): Promise<string | null> {
    const win = getWindow();
    const options = { title, defaultPath, filters: [{ name: 'CSV', extensions: ['csv'] }] };
    const pick = await (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options));
    return pick.canceled || !pick.filePath ? null : pick.filePath;
  }

  return {
    openCrawl: async (file) => {
      let chosen = file;
      if (chosen === null) {
        const win = getWindow();
        const pick = await (win
          ? dialog.showOpenDialog(win, { title: 'Open a crawl', filters: [{ name: 'Trawl crawls', extensions: ['trawl'] }], properties: ['openFile'] })
          : dialog.showOpenDialog({ properties: ['openFile'] }));
        if (pick.canceled || !pick.filePaths[0]) return null;
        chosen = pick.filePaths[0];
      }
      return session.openCrawl(chosen);
    },
    exportCsv: async () => {
      const problem = session.exportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveDialog('Export CSV', 'crawl.csv');
      return file === null ? { ok: false, error: 'export cancelled' } : session.exportCsv(file);
    },
    exportChartCsv: async (kind) => {
      const problem = session.chartExportProblem();
      if (problem) return { ok: false, error: problem };
      const file = await saveDialog(`Export the ${kind} chart as CSV`, `${kind}-chart.csv`);
      return file === null ? { ok: false, error: 'export cancelled' } : session.exportChartCsv(kind, file);
    },
    exportView: async (view) => {
      const problem = session.viewExportProblem(view);
      if (problem) return { ok: false, error: problem };
      const file = await saveDialog('Export this view as CSV', `crawl-${view.filter}.csv`);
      return file === null ? { ok: false, error: 'export cancelled' } : session.exportView(view, file);
    },
    exportComparison: async (query) => {
      const file = await saveDialog('Export the comparison as CSV', 'comparison.csv');
      return file === null ? { ok: false, error: 'export cancelled' } : session.exportComparison(query, file);
    },
    currentSnapshot: async () => session.snapshot(),
  };
}
