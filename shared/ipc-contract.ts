// The contract between the renderer and whatever hosts the engine (Electron main over IPC, or the web console over
// a WebSocket), declared once: every command with the schema of its arguments, every pushed event. Both hosts
// validate each payload against these schemas before acting on it.
import { z } from 'zod';
import type { CrawlerApi } from './crawler-api.ts';
import {
  CLUSTER_THREAD_LIMITS,
  RESULT_SORT_COLUMNS,
  STATUS_CLASSES,
  STORE_CRAWL_ID_PATTERN,
  STORE_URL_MAX_LENGTH,
  presetNameProblem,
} from './crawler-api.ts';
import { LIMITS } from './settings.ts';
import { CHANGE_KINDS, CHART_KINDS, FILTER_IDS, HEADER_PRESETS, HOST_SORT_COLUMNS } from './analysis.ts';
import type { CrawlSnapshot, StateChange } from './snapshot.ts';
import type { CommandName, EventName } from './ipc-channels.ts';

export { COMMAND_NAMES, EVENT_NAMES, ipcChannel } from './ipc-channels.ts';
export type { CommandName, EventName } from './ipc-channels.ts';

const path = z.string().min(1).max(4096);

export const resultsQuerySchema = z
  .object({
    offset: z.number().int().min(0).max(1e9),
    limit: z.number().int().min(1).max(1000),
    sort: z.enum(RESULT_SORT_COLUMNS),
    descending: z.boolean(),
    text: z.string().max(2000),
    statusClass: z.enum(STATUS_CLASSES).nullable(),
  })
  .strict();

// ---- the analyst workbench's queries ----

const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const pageLimit = z.number().int().min(1).max(1000);
const searchText = z.string().max(2000);
/** A path prefix within a host: starts with "/", no control characters. */
const pathPrefix = z.string().min(1).max(2000).regex(/^\/[^\u0000-\u001f]*$/, 'must be a path starting with "/"');

export const explorerQuerySchema = z
  .object({
    filter: z.enum(FILTER_IDS as [string, ...string[]]),
    text: searchText,
    sort: z.enum(RESULT_SORT_COLUMNS),
    descending: z.boolean(),
    offset: z.number().int().min(0).max(1e9),
    limit: pageLimit,
  })
  .strict();

export const viewExportSchema = z
  .object({
    filter: z.enum(FILTER_IDS as [string, ...string[]]),
    text: searchText,
    // Names are checked against the crawl's columns by the export, which names any it does not know.
    columns: z.array(z.string().min(1).max(200)).min(1).max(200),
    headerPreset: z.enum(HEADER_PRESETS),
  })
  .strict();

const urlRef = z.union([z.object({ url: z.string().min(1).max(8192) }).strict(), z.object({ id }).strict()]);

const queueCursor = z.object({ host_id: id, url_id: id }).strict();

export const compareQuerySchema = z
  .object({ oldFile: path, newFile: path, wordThresholdPercent: z.number().min(0).max(1e6) })
  .strict();

export const chartQuerySchema = z
  .object({
    kind: z.enum(CHART_KINDS),
    afterSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
    fromMs: z.number().int().min(0).max(8.64e15).nullable(),
    bucketMs: z.number().int().min(1000).max(86_400_000).nullable(),
  })
  .strict();

/** Settings as sent by the renderer: checked field by field later, by the engine. */
const settingsArg = z.record(z.string(), z.unknown());

const presetName = z.string().superRefine((name, ctx) => {
  const problem = presetNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A PostgreSQL store URL; the rest of it (host, database) is checked by the session, which names what is wrong. */
const storeUrl = z
  .string()
  .min(1, 'give the store URL, e.g. postgres://user:password@host:5432/database')
  .max(STORE_URL_MAX_LENGTH)
  .regex(/^postgres(?:ql)?:\/\//i, 'must be a postgres:// or postgresql:// URL');
const storeCrawlId = z
  .string()
  .regex(STORE_CRAWL_ID_PATTERN, 'a crawl ID is lower-case letters, digits and _, starting with a letter, at most 40');

/** Arguments of every command, as a tuple schema. Settings are checked field by field later, by the engine. */
export const COMMANDS = {
  defaults: z.tuple([]),
  start: z.tuple([settingsArg]),
  pause: z.tuple([]),
  resume: z.tuple([]),
  stop: z.tuple([]),
  // A local crawl takes LIMITS.threads (its controller names the range); a cluster's total may be larger.
  setThreads: z.tuple([z.number().int().min(LIMITS.threads.min).max(Math.max(LIMITS.threads.max, CLUSTER_THREAD_LIMITS.max))]),
  setMaxRate: z.tuple([z.number().positive().max(LIMITS.maxUrlsPerSecond).nullable()]),
  // The pattern itself is compiled by the controller, which names what is wrong with it.
  addExclude: z.tuple([z.string().min(1).max(2000)]),
  deprioritise: z.tuple([z.string().min(1).max(2000)]),
  testExtraction: z.tuple([z.string().min(1).max(8192), settingsArg]),
  listPresets: z.tuple([]),
  savePreset: z.tuple([presetName, settingsArg]),
  deletePreset: z.tuple([presetName]),
  listCrawls: z.tuple([]),
  openCrawl: z.tuple([path.nullable()]),
  resumeCrawl: z.tuple([path]),
  queryResults: z.tuple([resultsQuerySchema]),
  exportCsv: z.tuple([]),
  filterCounts: z.tuple([]),
  queryFiltered: z.tuple([explorerQuerySchema]),
  urlDetail: z.tuple([urlRef]),
  urlInlinks: z.tuple([id, id.nullable()]),
  urlOutlinks: z.tuple([id, id.nullable()]),
  queueHosts: z.tuple([z.object({ offset: z.number().int().min(0).max(1e9), limit: pageLimit, text: searchText }).strict()]),
  queuePrefixes: z.tuple([
    z.object({ hostId: id, segments: z.union([z.literal(1), z.literal(2)]), under: pathPrefix.nullable(), limit: pageLimit }).strict(),
  ]),
  queueSearch: z.tuple([
    z.object({ text: searchText, hostId: id.nullable(), under: pathPrefix.nullable(), after: queueCursor.nullable(), limit: pageLimit }).strict(),
  ]),
  hostsReport: z.tuple([
    z
      .object({
        sort: z.enum(HOST_SORT_COLUMNS),
        descending: z.boolean(),
        offset: z.number().int().min(0).max(1e9),
        limit: pageLimit,
        text: searchText,
        includeIdle: z.boolean(),
      })
      .strict(),
  ]),
  chartData: z.tuple([chartQuerySchema]),
  exportChartCsv: z.tuple([z.enum(CHART_KINDS)]),
  exportView: z.tuple([viewExportSchema]),
  compareCrawls: z.tuple([compareQuerySchema]),
  comparePage: z.tuple([compareQuerySchema, z.enum(CHANGE_KINDS), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable()]),
  exportComparison: z.tuple([compareQuerySchema]),
  listStoreCrawls: z.tuple([storeUrl]),
  attachStore: z.tuple([storeUrl, storeCrawlId]),
  detachStore: z.tuple([]),
} as const satisfies Record<CommandName, z.ZodTuple>;

export type CommandArgs<K extends CommandName> = Parameters<CrawlerApi[K]>;
export type CommandResult<K extends CommandName> = Awaited<ReturnType<CrawlerApi[K]>>;

/** Events pushed from the host to the renderer. */
export interface EventPayloads extends Record<EventName, unknown> {
  snapshot: CrawlSnapshot;
  state: StateChange;
  /** Nothing is in view any more (the cluster crawl was detached from, in whichever window): every window empties. */
  cleared: null;
}

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}

/** Checks a command's arguments; throws an Error naming what is wrong. */
export function parseCommandArgs<K extends CommandName>(name: K, args: unknown): CommandArgs<K> {
  const parsed = COMMANDS[name].safeParse(args);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    throw new Error(`invalid arguments for ${name}: ${detail}`);
  }
  return parsed.data as CommandArgs<K>;
}
