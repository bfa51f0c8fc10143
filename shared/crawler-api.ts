// The one interface the renderer talks to, whatever carries it: Electron's preload (desktop app) or a WebSocket
// (the `serve` web console). No component knows which transport it has. Its command methods are derived from the
// command table (commands.ts: what each answers; command-args.ts: what each takes); the events from events.ts.
// It also re-exports the types its commands take and answer, so that a client needs this one import.
import type { CommandArgs } from './command-args.ts';
import type { COMMANDS, CommandResult } from './commands.ts';
import type { CrawlSnapshot, StateChange } from './snapshot.ts';

export * from './results.ts';
export * from './crawl-info.ts';
export * from './presets.ts';
export * from './cluster-store.ts';

/** A method per command of the table (its documentation is the table entry's). */
export type CommandMethods = { [K in keyof typeof COMMANDS]: (...args: CommandArgs<K>) => Promise<CommandResult<K>> };

/** A listener per event of events.ts; each returns an unsubscribe. */
export interface EventSubscriptions {
  /** Current snapshot (or null before any crawl), then every coalesced snapshot; returns an unsubscribe. */
  onSnapshot(listener: (snapshot: CrawlSnapshot) => void): () => void;
  onState(listener: (change: StateChange) => void): () => void;
  /**
   * Nothing is in view any more: the host detached from the cluster crawl it showed (asked by any window or
   * browser, or in starting, resuming or opening a local crawl). Every window's live view empties.
   */
  onCleared(listener: () => void): () => void;
}

export type CrawlerApi = CommandMethods & EventSubscriptions;
