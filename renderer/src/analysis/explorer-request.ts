// The explorer opened from elsewhere on a folder of the site structure: the app switches to the explorer, which lists
// the URLs under that prefix (every filter still applies) until the analyst clears it.
import { createStore } from 'zustand/vanilla';

export interface ExplorerRequest {
  /** A folder as a URL prefix ("https://example.com/docs/"). */
  prefix: string;
  /** The crawl it was asked of (the crawl in view's key): another crawl in view drops it. */
  crawlKey: number;
}

export const explorerRequest = createStore<{ request: ExplorerRequest | null }>(() => ({ request: null }));

export const requestExplorer = (request: ExplorerRequest) => explorerRequest.setState({ request: { ...request } });

export const clearExplorerRequest = () => explorerRequest.setState({ request: null });
