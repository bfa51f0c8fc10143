// Every command's arguments, as a tuple schema: the part of the command table (commands.ts) that needs zod and
// the settings' limits, kept apart so that the preload and the renderer, which only send arguments, never bundle
// either. Both hosts check each command's arguments against these before acting on them. The argument types of
// the CrawlerApi and of every handler are these schemas' outputs; the named query types of results.ts and
// analysis.ts are checked to be exactly those outputs, so the two cannot drift apart.
import * as z from './zod.ts';
import type { CommandName } from './commands.ts';
import { CLUSTER_THREAD_LIMITS, STORE_CRAWL_ID_PATTERN, STORE_URL_MAX_LENGTH } from './cluster-store.ts';
import { presetNameProblem } from './presets.ts';
import { RESULT_SORT_COLUMNS, STATUS_CLASSES } from './results.ts';
import type { ResultsQuery } from './results.ts';
import { LIMITS } from './settings.ts';
import { LABEL_LIMITS } from './crawl-label.ts';
import { DAILY_TIME, SCHEDULE_LIMITS } from './schedules.ts';
import { MAX_STRUCTURE_LIMIT, MAX_STRUCTURE_PATHS } from './structure.ts';
import type { SiteStructureQuery } from './structure.ts';
import { MAX_CRAWL_MAP_NODES, MIN_CRAWL_MAP_NODES } from './crawl-map.ts';
import type { CrawlMapQuery } from './crawl-map.ts';
import { LOW_CONTENT_WORDS_MAX } from './content.ts';
import type { CrawlSettingsInput } from './settings.ts';
import { BULK_REPORT_IDS, type BulkReportId } from './bulk-reports.ts';
import { CHANGE_KINDS, CHART_KINDS, EXPORT_FORMATS, FILTER_IDS, HEADER_PRESETS, HOST_SORT_COLUMNS } from './analysis.ts';
import type {
  ChartQuery,
  CompareQuery,
  ExplorerQuery,
  FilterId,
  HostsReportQuery,
  PrefixQuery,
  QueueHostsQuery,
  QueueScreenQuery,
  QueueSearchQuery,
  UrlRef,
  ViewExport,
} from './analysis.ts';

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

const filterId = z.enum(FILTER_IDS as readonly FilterId[] as [FilterId, ...FilterId[]]);
const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const pageLimit = z.number().int().min(1).max(1000);
const searchText = z.string().max(2000);
/** A path prefix within a host: starts with "/", no control characters. */
const pathPrefix = z
  .string()
  .min(1)
  .max(2000)
  .regex(/^\/[^\u0000-\u001f]*$/, 'must be a path starting with "/"');

export const explorerQuerySchema = z
  .object({
    filter: filterId,
    text: searchText,
    prefix: z.string().max(8192).optional(),
    sort: z.enum(RESULT_SORT_COLUMNS),
    descending: z.boolean(),
    offset: z.number().int().min(0).max(1e9),
    limit: pageLimit,
  })
  .strict();

export const viewExportSchema = z
  .object({
    filter: filterId,
    text: searchText,
    // Names are checked against the crawl's columns by the export, which names any it does not know.
    columns: z.array(z.string().min(1).max(200)).min(1).max(200),
    headerPreset: z.enum(HEADER_PRESETS),
    format: z.enum(EXPORT_FORMATS).optional(),
  })
  .strict();

const urlRef = z.union([z.object({ url: z.string().min(1).max(8192) }).strict(), z.object({ id }).strict()]);

const queueCursor = z.object({ host_id: id, url_id: id }).strict();

/** An export's format, after its other arguments: CSV when left out. */
const exportFormat = z.enum(EXPORT_FORMATS).optional();

export const compareQuerySchema = z.object({ oldFile: path, newFile: path, wordThresholdPercent: z.number().min(0).max(1e6) }).strict();

export const chartQuerySchema = z
  .object({
    kind: z.enum(CHART_KINDS),
    afterSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
    fromMs: z.number().int().min(0).max(8.64e15).nullable(),
    bucketMs: z.number().int().min(1000).max(86_400_000).nullable(),
  })
  .strict();

/**
 * Settings as sent by the renderer: here only an object; the engine checks them field by field (and names each
 * problem), so the session takes them as unknown. Typed as what a client should send.
 */
const settingsObject = z.record(z.string(), z.unknown());
const settingsArg = settingsObject as unknown as z.ZodType<CrawlSettingsInput>;
const settingsWithoutSeeds = settingsObject as unknown as z.ZodType<Omit<CrawlSettingsInput, 'seeds'>>;

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

// ---- crawl management ----

/** A crawl's label; its finer rules (one line, tag characters) are checked by the session, which names what is wrong. */
const crawlLabel = z
  .object({
    name: z.string().max(LABEL_LIMITS.name * 2),
    description: z.string().max(LABEL_LIMITS.description * 2),
    tags: z.array(z.string().max(LABEL_LIMITS.tag * 2)).max(LABEL_LIMITS.tags * 2),
  })
  .strict();
const scheduleTiming = z.discriminatedUnion('every', [
  z
    .object({ every: z.literal('minutes'), minutes: z.number().int().min(SCHEDULE_LIMITS.minutes.min).max(SCHEDULE_LIMITS.minutes.max) })
    .strict(),
  z.object({ every: z.literal('day'), at: z.string().regex(DAILY_TIME, 'a time of day as HH:MM') }).strict(),
]);
const scheduleId = z.string().regex(/^[0-9a-f]{12}$/, 'not a schedule id');

/** Arguments of every command of the table, as a tuple schema (exactly the table's names: the compiler checks). */
export const COMMAND_ARGS = {
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
  testExtraction: z.tuple([z.string().min(1).max(8192), settingsWithoutSeeds]),
  listPresets: z.tuple([]),
  savePreset: z.tuple([presetName, settingsWithoutSeeds]),
  deletePreset: z.tuple([presetName]),
  listCrawls: z.tuple([]),
  openCrawl: z.tuple([path.nullable()]),
  resumeCrawl: z.tuple([path]),
  deleteCrawl: z.tuple([path]),
  queryResults: z.tuple([resultsQuerySchema]),
  exportCsv: z.tuple([exportFormat]),
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
    z
      .object({ text: searchText, hostId: id.nullable(), under: pathPrefix.nullable(), after: queueCursor.nullable(), limit: pageLimit })
      .strict(),
  ]),
  queueScreen: z.tuple([z.object({ hostId: id.nullable(), under: pathPrefix.nullable(), text: searchText, limit: pageLimit }).strict()]),
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
  exportChartCsv: z.tuple([z.enum(CHART_KINDS), exportFormat]),
  exportView: z.tuple([viewExportSchema]),
  compareCrawls: z.tuple([compareQuerySchema]),
  comparePage: z.tuple([compareQuerySchema, z.enum(CHANGE_KINDS), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable()]),
  exportComparison: z.tuple([compareQuerySchema, exportFormat]),
  issuesOverview: z.tuple([]),
  exportOverview: z.tuple([exportFormat]),
  listStoreCrawls: z.tuple([storeUrl]),
  attachStore: z.tuple([storeUrl, storeCrawlId]),
  detachStore: z.tuple([]),
  attachedStoreCrawls: z.tuple([]),
  currentSnapshot: z.tuple([]),
  labelCrawl: z.tuple([path, crawlLabel]),
  listSchedules: z.tuple([]),
  addSchedule: z.tuple([path, scheduleTiming]),
  updateSchedule: z.tuple([scheduleId, z.object({ timing: scheduleTiming, enabled: z.boolean() }).strict()]),
  deleteSchedule: z.tuple([scheduleId]),
  exportBulkReport: z.tuple([z.enum(BULK_REPORT_IDS as [BulkReportId, ...BulkReportId[]]), exportFormat]),
  siteStructure: z.tuple([
    z
      .object({
        // Folders as URL prefixes ("https://example.com/docs/"): the session finds them in the tree, or leaves them out.
        paths: z.array(z.string().min(1).max(8192)).max(MAX_STRUCTURE_PATHS),
        limit: z.number().int().min(1).max(MAX_STRUCTURE_LIMIT),
      })
      .strict(),
  ]),
  exportStructureCsv: z.tuple([]),
  exportSitemap: z.tuple([]),
  // crawl map (issue 18.6)
  crawlMap: z.tuple([z.object({ maxNodes: z.number().int().min(MIN_CRAWL_MAP_NODES).max(MAX_CRAWL_MAP_NODES) }).strict()]),
  // duplicate content (issue 18.1)
  contentOptions: z.tuple([
    z
      .object({
        threshold: z.number().min(0.5).max(1).optional(),
        allPages: z.boolean().optional(),
        lowContentWords: z.number().int().min(0).max(LOW_CONTENT_WORDS_MAX).optional(),
      })
      .strict(),
  ]),
  contentDiff: z.tuple([id, id]),
} as const satisfies { [K in CommandName]: z.ZodTuple };

/** A command's arguments, as its schema gives them to a handler (and as a client sends them). */
export type CommandArgs<K extends CommandName> = z.output<(typeof COMMAND_ARGS)[K]>;

/** Checks a command's arguments; throws an Error naming what is wrong. */
export function parseCommandArgs<K extends CommandName>(name: K, args: unknown): CommandArgs<K> {
  const parsed = COMMAND_ARGS[name].safeParse(args);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    throw new Error(`invalid arguments for ${name}: ${detail}`);
  }
  return parsed.data as CommandArgs<K>;
}

// ---- the named argument types are exactly what the schemas give (a compile error names any drift) ----

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;
type Arg<K extends CommandName, I extends number> = CommandArgs<K>[I];
export type NamedArgumentTypesMatch = [
  Check<Same<Arg<'queryResults', 0>, ResultsQuery>>,
  Check<Same<Arg<'queryFiltered', 0>, ExplorerQuery>>,
  Check<Same<Arg<'exportView', 0>, ViewExport>>,
  Check<Same<Arg<'urlDetail', 0>, UrlRef>>,
  Check<Same<Arg<'queueHosts', 0>, QueueHostsQuery>>,
  Check<Same<Arg<'queuePrefixes', 0>, PrefixQuery>>,
  Check<Same<Arg<'queueSearch', 0>, QueueSearchQuery>>,
  Check<Same<Arg<'queueScreen', 0>, QueueScreenQuery>>,
  Check<Same<Arg<'hostsReport', 0>, HostsReportQuery>>,
  Check<Same<Arg<'chartData', 0>, ChartQuery>>,
  Check<Same<Arg<'compareCrawls', 0>, CompareQuery>>,
  Check<Same<Arg<'siteStructure', 0>, SiteStructureQuery>>,
  Check<Same<Arg<'crawlMap', 0>, CrawlMapQuery>>,
];
