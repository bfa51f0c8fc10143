// The crawl's lifecycle: PREPARING -> RUNNING <-> PAUSING -> PAUSED, and from any of them STOPPING -> FINISHED.
import type { CrawlState } from '../../../shared/snapshot.ts';

const ALLOWED: Record<CrawlState, CrawlState[]> = {
  preparing: ['running', 'stopping'],
  running: ['pausing', 'stopping'],
  pausing: ['paused', 'running', 'stopping'],
  paused: ['running', 'stopping'],
  stopping: ['finished'],
  finished: [],
};

/** Throws unless the lifecycle allows going from `from` to `to`. */
export function checkTransition(from: CrawlState, to: CrawlState): void {
  if (!ALLOWED[from].includes(to)) throw new Error(`invalid crawl state change ${from} -> ${to}`);
}

/** Stopping or finished: commands that change the crawl are ignored or refused. */
export function isEnding(state: CrawlState): boolean {
  return state === 'stopping' || state === 'finished';
}
