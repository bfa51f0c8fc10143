// What the Results explorer is asked to open on from elsewhere: a filter (an issue of the issues overview), taken once
// when the explorer opens (a later visit opens as it would); or a folder of the site structure, whose URLs alone are
// listed (every filter still applies) until the analyst clears it.
import { createStore } from 'zustand/vanilla';
import type { FilterId } from '../../../shared/analysis.ts';

export interface ExplorerRequest {
  /** A folder as a URL prefix ("https://example.com/docs/"). */
  prefix: string;
  /** The crawl it was asked of (the crawl in view's key): another crawl in view drops it. */
  crawlKey: number;
}

export const explorerRequest = createStore<{ filter: FilterId | null; request: ExplorerRequest | null }>(() => ({
  filter: null,
  request: null,
}));

export const requestExplorerFilter = (filter: FilterId) => explorerRequest.setState({ filter });

/** The filter asked for, once: the explorer takes it when it opens. */
export function takeExplorerFilter(): FilterId | null {
  const { filter } = explorerRequest.getState();
  if (filter !== null) explorerRequest.setState({ filter: null });
  return filter;
}

export const requestExplorer = (request: ExplorerRequest) => explorerRequest.setState({ request: { ...request } });

export const clearExplorerRequest = () => explorerRequest.setState({ request: null });
