// What the Electron preload exposes (electron/preload): exactly the CrawlerApi, as window.trawl.
import type { CrawlerApi } from '../../shared/crawler-api.ts';

declare global {
  interface Window {
    trawl?: CrawlerApi;
  }
}

export {};
