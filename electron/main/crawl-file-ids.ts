// The desktop window names crawl files by opaque ids, never by a path: the main process hands out an id for each
// crawl file it listed, created or had picked in a dialog, and takes back only those ids. A renderer that sends any
// other string (an absolute path to some other file, say) is refused before the session sees it. The arguments and
// answers that are crawl files are the ones the command table marks (`crawlFiles`), as in the web console's
// crawl names (electron/server/crawl-names.ts). An id ends with the file's name, so the window can show it.
import crypto from 'node:crypto';
import path from 'node:path';
import type { ComparisonSummary } from '../../shared/analysis.ts';
import type { CrawlFileInfo, StartResult } from '../../shared/crawler-api.ts';
import type { Handlers } from '../host/command-handlers.ts';
import { nameComparedFiles, wrapCrawlFileHandlers, type CrawlFileAnswers } from '../host/crawl-file-refs.ts';

export interface CrawlFileIds {
  /** The id of a crawl file the main process itself found (listed, created, picked in a dialog): one per path. */
  idFor(file: string): string;
  /** The file an id stands for; throws for anything the main process did not hand out. */
  resolve(id: string): string;
  /** The handlers, with ids in and out where the command table says a command names crawl files. */
  wrap(handlers: Handlers): Handlers;
}

export function crawlFileIds(): CrawlFileIds {
  const byId = new Map<string, string>();
  const byPath = new Map<string, string>();

  const idFor = (file: string): string => {
    const known = byPath.get(file);
    if (known !== undefined) return known;
    const id = `${crypto.randomBytes(9).toString('base64url')}/${path.basename(file)}`;
    byId.set(id, file);
    byPath.set(file, id);
    return id;
  };

  const resolve = (id: string): string => {
    const file = byId.get(id);
    if (file === undefined) throw new Error('refused: not a crawl file from the list or an open dialog; choose it again');
    return file;
  };

  const withId = (info: CrawlFileInfo | null): CrawlFileInfo | null =>
    info && typeof info.file === 'string' ? { ...info, file: idFor(info.file) } : info;
  const answers: CrawlFileAnswers = {
    fileInfo: withId,
    fileInfos: (list: CrawlFileInfo[]) => list.map(withId),
    start: (result: StartResult): StartResult => (result.ok ? { ok: true, file: idFor(result.file) } : result),
    comparison: (s: ComparisonSummary): ComparisonSummary => nameComparedFiles(s, idFor),
  };

  return {
    idFor,
    resolve,
    wrap: (handlers) => wrapCrawlFileHandlers(handlers, resolve, answers),
  };
}
