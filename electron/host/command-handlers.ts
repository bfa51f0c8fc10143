// What both hosts (Electron main over IPC, the web console over its WebSocket) share about running a command:
// the handler types derived from the command table, the session's methods as every command's default handler,
// and one checked way to run a command by name. A host's handler map is `{ ...sessionHandlers(session),
// ...its overrides }` typed as Handlers, so a command without a handler does not compile in either host.
import { COMMAND_NAMES, commandSpec } from '../../shared/commands.ts';
import type { CommandName, CommandResult, HostHandledName, SessionCommandName } from '../../shared/commands.ts';
import { parseCommandArgs } from '../../shared/command-args.ts';
import type { CommandArgs } from '../../shared/command-args.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';

export type Handler<K extends CommandName> = (...args: CommandArgs<K>) => Promise<CommandResult<K>>;
/** A handler for every command of the table. */
export type Handlers = { [K in CommandName]: Handler<K> };
/** The handlers a host must write itself: the table's `hostHandler` commands. */
export type HostHandlers = { [K in HostHandledName]: Handler<K> };

/** The session's side of the table: a method of the command's name, arguments and answer, for each command but the host's own. */
export type SessionCommands = { [K in SessionCommandName]: (...args: CommandArgs<K>) => Promise<CommandResult<K>> };

/**
 * CrawlSession is both hosts' session: a command added to the table without its CrawlSession method (or with
 * another signature) is a compile error here, naming the command.
 */
export const crawlSessionCommands = (session: CrawlSession): SessionCommands => session;

/** The default handlers: each command is the session's method of the same name. */
export function sessionHandlers(session: SessionCommands): { [K in SessionCommandName]: Handler<K> } {
  const out: Partial<Record<SessionCommandName, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const name of COMMAND_NAMES) {
    if (commandSpec(name).hostHandler) continue;
    const method = name as SessionCommandName;
    out[method] = (...args) => (session[method] as (...a: unknown[]) => Promise<unknown>).apply(session, args);
  }
  return out as { [K in SessionCommandName]: Handler<K> };
}

/** Checks a command's arguments against its schema, then runs its handler; a bad argument throws, naming it. */
export async function runCommand<K extends CommandName>(handlers: Handlers, name: K, rawArgs: unknown): Promise<CommandResult<K>> {
  const args = parseCommandArgs(name, rawArgs);
  return (handlers[name] as (...a: CommandArgs<K>) => Promise<CommandResult<K>>)(...args);
}
