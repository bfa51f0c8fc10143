// The preload: exposes the CrawlerApi to the renderer as named methods (window.trawl), never ipcRenderer itself.
// Runs sandboxed, so it imports nothing but electron and the tiny channel list.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { ipcChannel } from '../../shared/ipc-channels.ts';
import type { CommandName, EventName } from '../../shared/ipc-channels.ts';
import type { CrawlerApi } from '../../shared/crawler-api.ts';

const invoke =
  (name: CommandName) =>
  (...args: unknown[]) =>
    ipcRenderer.invoke(ipcChannel(name), ...args);

function subscribe<T>(name: EventName, listener: (payload: T) => void): () => void {
  const handler = (_event: IpcRendererEvent, payload: T) => listener(payload);
  ipcRenderer.on(ipcChannel(name), handler);
  // The current snapshot comes first, so a freshly loaded window is never blank.
  if (name === 'snapshot') void ipcRenderer.invoke('trawl:current-snapshot').then((s) => s && listener(s as T));
  return () => ipcRenderer.removeListener(ipcChannel(name), handler);
}

const api: CrawlerApi = {
  defaults: invoke('defaults') as CrawlerApi['defaults'],
  start: invoke('start') as CrawlerApi['start'],
  pause: invoke('pause') as CrawlerApi['pause'],
  resume: invoke('resume') as CrawlerApi['resume'],
  stop: invoke('stop') as CrawlerApi['stop'],
  setThreads: invoke('setThreads') as CrawlerApi['setThreads'],
  setMaxRate: invoke('setMaxRate') as CrawlerApi['setMaxRate'],
  addExclude: invoke('addExclude') as CrawlerApi['addExclude'],
  deprioritise: invoke('deprioritise') as CrawlerApi['deprioritise'],
  testExtraction: invoke('testExtraction') as CrawlerApi['testExtraction'],
  listPresets: invoke('listPresets') as CrawlerApi['listPresets'],
  savePreset: invoke('savePreset') as CrawlerApi['savePreset'],
  deletePreset: invoke('deletePreset') as CrawlerApi['deletePreset'],
  listCrawls: invoke('listCrawls') as CrawlerApi['listCrawls'],
  openCrawl: invoke('openCrawl') as CrawlerApi['openCrawl'],
  resumeCrawl: invoke('resumeCrawl') as CrawlerApi['resumeCrawl'],
  queryResults: invoke('queryResults') as CrawlerApi['queryResults'],
  exportCsv: invoke('exportCsv') as CrawlerApi['exportCsv'],
  filterCounts: invoke('filterCounts') as CrawlerApi['filterCounts'],
  queryFiltered: invoke('queryFiltered') as CrawlerApi['queryFiltered'],
  urlDetail: invoke('urlDetail') as CrawlerApi['urlDetail'],
  urlInlinks: invoke('urlInlinks') as CrawlerApi['urlInlinks'],
  urlOutlinks: invoke('urlOutlinks') as CrawlerApi['urlOutlinks'],
  queueHosts: invoke('queueHosts') as CrawlerApi['queueHosts'],
  queuePrefixes: invoke('queuePrefixes') as CrawlerApi['queuePrefixes'],
  queueSearch: invoke('queueSearch') as CrawlerApi['queueSearch'],
  hostsReport: invoke('hostsReport') as CrawlerApi['hostsReport'],
  chartData: invoke('chartData') as CrawlerApi['chartData'],
  exportChartCsv: invoke('exportChartCsv') as CrawlerApi['exportChartCsv'],
  exportView: invoke('exportView') as CrawlerApi['exportView'],
  compareCrawls: invoke('compareCrawls') as CrawlerApi['compareCrawls'],
  comparePage: invoke('comparePage') as CrawlerApi['comparePage'],
  exportComparison: invoke('exportComparison') as CrawlerApi['exportComparison'],
  listStoreCrawls: invoke('listStoreCrawls') as CrawlerApi['listStoreCrawls'],
  attachStore: invoke('attachStore') as CrawlerApi['attachStore'],
  detachStore: invoke('detachStore') as CrawlerApi['detachStore'],
  onSnapshot: (listener) => subscribe('snapshot', listener),
  onState: (listener) => subscribe('state', listener),
  onCleared: (listener) => subscribe('cleared', () => listener()),
};

contextBridge.exposeInMainWorld('trawl', api);
