// A filter asked for from outside the Results explorer (an issue of the issues overview): the app switches to the
// explorer, which opens on that filter (and forgets the request, so a later visit opens as it would).
import { createStore } from 'zustand/vanilla';
import type { FilterId } from '../../../shared/analysis.ts';

export const explorerRequest = createStore<{ filter: FilterId | null }>(() => ({ filter: null }));

export const requestExplorerFilter = (filter: FilterId) => explorerRequest.setState({ filter });

/** The filter asked for, once: the explorer takes it when it opens. */
export function takeExplorerFilter(): FilterId | null {
  const { filter } = explorerRequest.getState();
  if (filter !== null) explorerRequest.setState({ filter: null });
  return filter;
}
