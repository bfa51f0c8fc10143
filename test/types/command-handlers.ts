// Type tests, compiled by `npm run typecheck` (never run): a host's handler map must have a handler of the right
// type for every command of the table, and a session must have a method for every command the hosts do not
// handle themselves. Each @ts-expect-error fails the typecheck if the line below it ever compiles.
import type { Handlers, HostHandlers, SessionCommands } from '../../electron/host/command-handlers.ts';

declare const all: Handlers;
declare const session: SessionCommands;

const { openCrawl: _open, ...withoutOpenCrawl } = all;
// @ts-expect-error a host without a handler for a command of the table does not compile
export const missingHandler: Handlers = withoutOpenCrawl;

const { listCrawls: _list, ...withoutListCrawls } = all;
// @ts-expect-error nor does one without a handler for a command the session would answer
export const missingSessionCommand: Handlers = withoutListCrawls;

// @ts-expect-error a handler must answer the command's result type
export const wrongResult: Handlers = { ...all, listCrawls: async () => 42 };

// @ts-expect-error a host's own handlers must cover every command the table leaves to the hosts
export const missingOwn: HostHandlers = { openCrawl: all.openCrawl, currentSnapshot: all.currentSnapshot };

const { pause: _pause, ...sessionWithoutPause } = session;
// @ts-expect-error a session without a method for one of the table's commands is not a session
export const missingMethod: SessionCommands = sessionWithoutPause;
