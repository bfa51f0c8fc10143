// The contract between the renderer and whatever hosts the engine (Electron main over IPC, or the web console over
// a WebSocket), declared once: every command with the schema of its arguments, every pushed event. Both hosts
// validate each payload against these schemas before acting on it.
import { z } from 'zod';
import type { CrawlerApi } from './crawler-api.ts';
import { RESULT_SORT_COLUMNS, STATUS_CLASSES, presetNameProblem } from './crawler-api.ts';
import { LIMITS } from './settings.ts';
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

/** Settings as sent by the renderer: checked field by field later, by the engine. */
const settingsArg = z.record(z.string(), z.unknown());

const presetName = z.string().superRefine((name, ctx) => {
  const problem = presetNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Arguments of every command, as a tuple schema. Settings are checked field by field later, by the engine. */
export const COMMANDS = {
  defaults: z.tuple([]),
  start: z.tuple([settingsArg]),
  pause: z.tuple([]),
  resume: z.tuple([]),
  stop: z.tuple([]),
  setThreads: z.tuple([z.number().int().min(LIMITS.threads.min).max(LIMITS.threads.max)]),
  setMaxRate: z.tuple([z.number().positive().max(LIMITS.maxUrlsPerSecond).nullable()]),
  // The pattern itself is compiled by the controller, which names what is wrong with it.
  addExclude: z.tuple([z.string().min(1).max(2000)]),
  testExtraction: z.tuple([z.string().min(1).max(8192), settingsArg]),
  listPresets: z.tuple([]),
  savePreset: z.tuple([presetName, settingsArg]),
  deletePreset: z.tuple([presetName]),
  listCrawls: z.tuple([]),
  openCrawl: z.tuple([path.nullable()]),
  resumeCrawl: z.tuple([path]),
  queryResults: z.tuple([resultsQuerySchema]),
  exportCsv: z.tuple([]),
} as const satisfies Record<CommandName, z.ZodTuple>;

export type CommandArgs<K extends CommandName> = Parameters<CrawlerApi[K]>;
export type CommandResult<K extends CommandName> = Awaited<ReturnType<CrawlerApi[K]>>;

/** Events pushed from the host to the renderer. */
export interface EventPayloads extends Record<EventName, unknown> {
  snapshot: CrawlSnapshot;
  state: StateChange;
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
