// Hands the api and the one store to the components, and the hooks they read the store with.
import { createContext, useCallback, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { CrawlerApi } from '../../../shared/crawler-api.ts';
import type { ThreadStatus } from '../../../shared/snapshot.ts';
import type { CrawlStore, CrawlView, ThreadKey } from './crawl-view.ts';
import { selectStuck, selectThread } from './crawl-store.ts';

interface Trawl {
  api: CrawlerApi;
  store: CrawlStore;
}

const TrawlContext = createContext<Trawl | null>(null);

export function TrawlProvider({ api, store, children }: Trawl & { children: ReactNode }) {
  return <TrawlContext.Provider value={{ api, store }}>{children}</TrawlContext.Provider>;
}

function useTrawl(): Trawl {
  const trawl = useContext(TrawlContext);
  if (!trawl) throw new Error('TrawlProvider is missing');
  return trawl;
}

export const useApi = (): CrawlerApi => useTrawl().api;
export const useCrawlStore = (): CrawlStore => useTrawl().store;

/** A slice of the store; the component re-renders when the selected value changes (Object.is). */
export function useCrawl<T>(selector: (s: CrawlView) => T): T {
  return useStore(useTrawl().store, selector);
}

/** The same, comparing the selected object or array one level deep. */
export function useCrawlShallow<T>(selector: (s: CrawlView) => T): T {
  return useStore(useTrawl().store, useShallow(selector));
}

/** One thread; the object only changes when that thread does. */
export function useThread(id: ThreadKey): ThreadStatus | undefined {
  return useCrawl(useCallback(selectThread(id), [id]));
}

export function useStuck(id: ThreadKey): boolean {
  return useCrawl(useCallback(selectStuck(id), [id]));
}
