// The events a host pushes to the renderer (Electron IPC or the web console's WebSocket), with their payloads:
// the small table beside the command table (commands.ts).
import type { CrawlSnapshot, StateChange } from './snapshot.ts';

/** snapshot and state: the crawl in view; cleared: nothing is in view any more (detached from a cluster crawl). */
export const EVENT_NAMES = ['snapshot', 'state', 'cleared'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Events pushed from the host to the renderer. */
export interface EventPayloads extends Record<EventName, unknown> {
  snapshot: CrawlSnapshot;
  state: StateChange;
  /** Nothing is in view any more (the cluster crawl was detached from, in whichever window): every window empties. */
  cleared: null;
}
