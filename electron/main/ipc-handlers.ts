// Wires the IPC contract to the crawl session: every command's arguments are validated against the contract's
// schema, and any sender that is not the app's own window is refused.
import { dialog, ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { COMMAND_NAMES, ipcChannel, parseCommandArgs } from '../../shared/ipc-contract.ts';
import type { CommandArgs, CommandName, CommandResult } from '../../shared/ipc-contract.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';

type Handler<K extends CommandName> = (...args: CommandArgs<K>) => Promise<CommandResult<K>> | CommandResult<K>;

export function registerIpc(session: CrawlSession, getWindow: () => BrowserWindow | null): () => void {
  const handlers: { [K in CommandName]: Handler<K> } = {
    defaults: () => session.defaults(),
    start: (settings) => session.start(settings),
    pause: () => session.pause(),
    resume: () => session.resume(),
    stop: () => session.stop(),
    setThreads: (n) => session.setThreads(n),
    setMaxRate: (n) => session.setMaxRate(n),
    addExclude: (pattern) => session.addExclude(pattern),
    deprioritise: (pattern) => session.deprioritise(pattern),
    testExtraction: (url, settings) => session.testExtraction(url, settings),
    listPresets: () => session.listPresets(),
    savePreset: (name, settings) => session.savePreset(name, settings),
    deletePreset: (name) => session.deletePreset(name),
    listCrawls: () => session.listCrawls(),
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
    resumeCrawl: (file) => session.resumeCrawl(file),
    queryResults: (query) => session.queryResults(query),
    exportCsv: async () => {
      const problem = session.exportProblem();
      if (problem) return { ok: false, error: problem };
      const win = getWindow();
      const options = { title: 'Export CSV', defaultPath: 'crawl.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] };
      const pick = await (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options));
      if (pick.canceled || !pick.filePath) return { ok: false, error: 'export cancelled' };
      return session.exportCsv(pick.filePath);
    },
    filterCounts: () => session.filterCounts(),
    queryFiltered: (query) => session.queryFiltered(query),
    urlDetail: (ref) => session.urlDetail(ref),
    urlInlinks: (urlId, after) => session.urlInlinks(urlId, after),
    urlOutlinks: (urlId, after) => session.urlOutlinks(urlId, after),
    queueHosts: (query) => session.queueHosts(query),
    queuePrefixes: (query) => session.queuePrefixes(query),
    queueSearch: (query) => session.queueSearch(query),
    hostsReport: (query) => session.hostsReport(query),
    chartData: (query) => session.chartData(query),
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
    compareCrawls: (query) => session.compareCrawls(query),
    comparePage: (query, kind, after) => session.comparePage(query, kind, after),
    exportComparison: async (query) => {
      const file = await saveDialog('Export the comparison as CSV', 'comparison.csv');
      return file === null ? { ok: false, error: 'export cancelled' } : session.exportComparison(query, file);
    },
    listStoreCrawls: (storeUrl) => session.listStoreCrawls(storeUrl),
    attachStore: (storeUrl, crawlId) => session.attachStore(storeUrl, crawlId),
    detachStore: () => session.detachStore(),
  };

  async function saveDialog(title: string, defaultPath: string): Promise<string | null> {
    const win = getWindow();
    const options = { title, defaultPath, filters: [{ name: 'CSV', extensions: ['csv'] }] };
    const pick = await (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options));
    return pick.canceled || !pick.filePath ? null : pick.filePath;
  }

  const fromAppWindow = (event: IpcMainInvokeEvent) => {
    const win = getWindow();
    return win !== null && event.sender === win.webContents && event.senderFrame === win.webContents.mainFrame;
  };

  for (const name of COMMAND_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event, ...args: unknown[]) => {
      if (!fromAppWindow(event)) throw new Error('refused: not the Trawl window');
      const valid = parseCommandArgs(name, args);
      return (handlers[name] as (...a: unknown[]) => unknown)(...valid);
    });
  }
  ipcMain.handle('trawl:current-snapshot', (event) => (fromAppWindow(event) ? session.snapshot() : null));

  return () => {
    for (const name of COMMAND_NAMES) ipcMain.removeHandler(ipcChannel(name));
    ipcMain.removeHandler('trawl:current-snapshot');
  };
}
