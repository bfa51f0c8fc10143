// The Electron IPC channel of each command (commands.ts) and event (events.ts). Zod-free, like the table itself,
// so the sandboxed preload can import it.
import type { CommandName } from './commands.ts';
import type { EventName } from './events.ts';

/** The Electron IPC channel of a command or event. */
export const ipcChannel = (name: CommandName | EventName): string => `trawl:${name}`;
