// The web console's clients name crawl files by their name in the crawls folder, never by a path: the arguments
// the command table marks as crawl files are resolved to paths before the session sees them, and the answers it
// marks as naming crawl files go back with names. Error messages lose the server's own folder too.
import path from 'node:path';
import { commandSpec } from '../../shared/commands.ts';
import type { CommandName } from '../../shared/commands.ts';
import type { CrawlFileInfo, StartResult } from '../../shared/crawler-api.ts';
import type { ComparisonSummary } from '../../shared/analysis.ts';
import { CRAWL_FILE_EXT } from '../engine/session/crawl-session.ts';
import type { Handlers } from '../host/command-handlers.ts';
import { nameComparedFiles, resolveCrawlFileArgs, wrapCrawlFileHandlers, type CrawlFileAnswers } from '../host/crawl-file-refs.ts';

export interface CrawlNames {
  /** Error messages without the server's own folder, which clients have no use for. */
  publicMessage(err: unknown): string;
  /** A crawl name from a client: a plain .trawl file name in the crawls folder, nothing else. */
  resolve(name: string): string;
  /** A command's arguments (checked against its schema) with the crawl names the table marks resolved to paths. */
  resolveArgs(name: CommandName, args: unknown[]): unknown[];
  /** The handlers, with crawl names in and out where the command table says a command names crawl files. */
  wrap(handlers: Handlers): Handlers;
}

export function crawlNames(crawlsDir: string): CrawlNames {
  const publicMessage = (err: unknown): string => {
    const message = err instanceof Error ? err.message : String(err);
    return message.split(crawlsDir + path.sep).join('');
  };

  const resolve = (name: string): string => {
    const bad =
      name.includes('/') ||
      name.includes('\\') ||
      name.includes('..') ||
      name.includes('\0') ||
      !name.endsWith(CRAWL_FILE_EXT) ||
      name.length <= CRAWL_FILE_EXT.length;
    const file = path.join(crawlsDir, name);
    if (bad || path.dirname(file) !== crawlsDir) throw new Error(`"${name}" is not the name of a crawl in the crawls folder`);
    return file;
  };

  const named = (info: CrawlFileInfo | null): CrawlFileInfo | null => info && { ...info, file: path.basename(info.file) };
  const answers: CrawlFileAnswers = {
    fileInfo: named,
    fileInfos: (list: CrawlFileInfo[]) => list.map(named),
    start: (result: StartResult): StartResult => {
      if (result.ok) return { ok: true, file: path.basename(result.file) };
      return {
        ok: false,
        problems: result.problems.map((p) => {
          const message = publicMessage(new Error(p.message));
          // The message's code goes along (for the renderer to say it in its language) unless a path had to be hidden.
          return message === p.message ? { ...p } : { field: p.field, message };
        }),
      };
    },
    comparison: (s: ComparisonSummary): ComparisonSummary => nameComparedFiles(s, (file) => path.basename(file)),
  };

  return {
    publicMessage,
    resolve,
    resolveArgs(name, args) {
      const refs = commandSpec(name).crawlFiles?.args;
      return refs ? resolveCrawlFileArgs(refs, args, resolve) : args;
    },
    wrap: (handlers) => wrapCrawlFileHandlers(handlers, resolve, answers),
  };
}
