// Names of the renderer <-> host commands and events, without their schemas, so the preload (which must stay
// tiny) can name its channels without pulling in the validation library.

export const COMMAND_NAMES = [
  'defaults',
  'start',
  'pause',
  'resume',
  'stop',
  'setThreads',
  'setMaxRate',
  'addExclude',
  'deprioritise',
  'testExtraction',
  'listPresets',
  'savePreset',
  'deletePreset',
  'listCrawls',
  'openCrawl',
  'resumeCrawl',
  'queryResults',
  'exportCsv',
  'filterCounts',
  'queryFiltered',
  'urlDetail',
  'urlInlinks',
  'urlOutlinks',
  'queueHosts',
  'queuePrefixes',
  'queueSearch',
  'hostsReport',
  'chartData',
  'exportChartCsv',
  'exportView',
  'compareCrawls',
  'comparePage',
  'exportComparison',
  'listStoreCrawls',
  'attachStore',
  'detachStore',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** snapshot and state: the crawl in view; cleared: nothing is in view any more (detached from a cluster crawl). */
export const EVENT_NAMES = ['snapshot', 'state', 'cleared'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The Electron IPC channel of a command or event. */
export const ipcChannel = (name: CommandName | EventName): string => `trawl:${name}`;
