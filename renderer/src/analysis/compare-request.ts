// A comparison asked for from outside the Compare view: a scheduled recrawl's run, compared with the run before it
// (the schedules panel's Compare). The app switches to the Compare view, which picks the two crawls and compares them.
import { createStore } from 'zustand/vanilla';
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import { fileName } from '../format.ts';

export interface CompareRequest {
  /** The crawls by file name, as a schedule's runs name them. */
  oldName: string;
  newName: string;
}

export const compareRequest = createStore<{ request: CompareRequest | null }>(() => ({ request: null }));

export const requestComparison = (request: CompareRequest) => compareRequest.setState({ request: { ...request } });

/**
 * The crawl of the list a file name stands for: the web console lists crawls by file name, the desktop by ids that
 * end with it (electron/main/crawl-file-ids.ts). Undefined when the list has no such crawl.
 */
export function crawlNamed(crawls: readonly CrawlFileInfo[], name: string): string | undefined {
  return crawls.find((c) => c.file === name || fileName(c.file) === name)?.file;
}
