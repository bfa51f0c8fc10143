// The web console's wire protocol over its WebSocket (`npm run serve`): the same commands (commands.ts) and events
// (events.ts) as the Electron IPC, as JSON frames, and the paths of its HTTP routes.
import { COMMANDS } from './commands.ts';
import type { CommandName } from './commands.ts';
import type { EventName, EventPayloads } from './events.ts';

/** Path of the WebSocket endpoint. The access token comes as ?token= or in the cookie the page set. */
export const WS_PATH = '/api';
/** Path of the CSV download of the open crawl (the exportCsv command's download). */
export const EXPORT_PATH = COMMANDS.exportCsv.download.path;
/** Downloads of the analyst workbench, each validated as the matching command's arguments are:
 * a view of the results (?view= the ViewExport as JSON), a chart (?kind=), a comparison (?query= the CompareQuery as JSON). */
export const VIEW_EXPORT_PATH = COMMANDS.exportView.download.path;
export const CHART_EXPORT_PATH = COMMANDS.exportChartCsv.download.path;
export const COMPARE_EXPORT_PATH = COMMANDS.exportComparison.download.path;
/** Name of the cookie the server sets when the page is opened with a valid ?token=. Browsers share cookies between
 * the ports of a host, so the name carries the port: two consoles on one machine keep a cookie each. */
export const tokenCookieName = (port: number | string): string => `trawl_token_${port}`;

/** Client -> server: run a command. `id` pairs the reply with the request. */
export interface CommandFrame {
  id: number;
  cmd: CommandName;
  args: unknown[];
}

/** Server -> client: a command's outcome. */
export type ReplyFrame = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** Server -> client: a pushed event. */
export type EventFrame = { [K in EventName]: { event: K; payload: EventPayloads[K] } }[EventName];

export type ServerFrame = ReplyFrame | EventFrame;
