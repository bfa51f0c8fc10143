// The desktop window names crawl files by opaque ids, never by a path: the main process hands out an id for each
// crawl file it listed, created or had picked in a dialog, and takes back only those ids. A renderer that sends any
// other string (an absolute path to some other file, say) is refused before the session sees it. The arguments and
// answers that are crawl files are the ones the command table marks (`crawlFiles`), as in the web console's
// crawl names (electron/server/crawl-names.ts). An id ends with the file's name, so the window can show it.
import crypto from 'node:crypto';
import path from 'node:path';
import type { ComparisonSummary } from '../../shared/analysis.ts';
import { COMMAND_NAMES, commandSpec } from '../../shared/commands.ts';
import type { CommandName, CrawlFileRefs } from '../../shared/commands.ts';
import type { CrawlFileInfo, StartResult } from '../../shared/crawler-api.ts';
import type { Handlers } from '../host/command-handlers.ts';

export interface CrawlFileIds {
  /** The id of a crawl file the main process itself found (listed, created, picked in a dialog): one per path. */
  idFor(file: string): string;
  /** The file an id stands for; throws for anything the main process did not hand out. */
  resolve(id: string): string;
  /** The handlers, with ids in and out where the command table says a command names crawl files. */
  wrap(handlers: Handlers): Handlers;
}

type Answer = NonNullable<CrawlFileRefs['result']>;

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
  const answers: { [A in Answer]: (result: never) => unknown } = {
    fileInfo: withId,
    fileInfos: (list: CrawlFileInfo[]) => list.map(withId),
    start: (result: StartResult): StartResult => (result.ok ? { ok: true, file: idFor(result.file) } : result),
    comparison: (s: ComparisonSummary): ComparisonSummary => ({ ...s, old_file: idFor(s.old_file), new_file: idFor(s.new_file) }),
  };

  /** The arguments (already checked against the command's schema) with their ids resolved. */
  const resolveRefs = (refs: NonNullable<CrawlFileRefs['args']>, args: unknown[]): unknown[] => {
    const out = [...args];
    for (const { arg, fields } of refs) {
      const value = out[arg];
      if (!fields) {
        if (typeof value === 'string') out[arg] = resolve(value);
        continue;
      }
      const object = { ...(value as Record<string, unknown>) };
      for (const field of fields) object[field] = resolve(object[field] as string);
      out[arg] = object;
    }
    return out;
  };

  return {
    idFor,
    resolve,
    wrap(handlers) {
      const wrapped = { ...handlers } as unknown as Record<CommandName, (...args: unknown[]) => Promise<unknown>>;
      for (const name of COMMAND_NAMES) {
        const refs = commandSpec(name).crawlFiles;
        if (!refs) continue;
        const inner = handlers[name] as (...args: unknown[]) => Promise<unknown>;
        wrapped[name] = async (...args) => {
          const result = await inner(...(refs.args ? resolveRefs(refs.args, args) : args));
          return refs.result ? answers[refs.result](result as never) : result;
        };
      }
      return wrapped as unknown as Handlers;
    },
  };
}
