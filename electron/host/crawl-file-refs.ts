// How a host translates the crawl files a command names (the command table's `crawlFiles` flags), written once for
// both: the desktop turns opaque ids into paths (electron/main/crawl-file-ids.ts), the web console turns names of its
// crawls folder into paths (electron/server/crawl-names.ts), and each turns the paths in the answers back.
import { clusterCrawlOf } from '../../shared/comparison.ts';
import type { ComparisonSummary } from '../../shared/analysis.ts';
import { COMMAND_NAMES, commandSpec } from '../../shared/commands.ts';
import type { CommandName, CrawlFileRefs } from '../../shared/commands.ts';
import type { Handlers } from './command-handlers.ts';

/** What kind of answer names crawl files. */
export type CrawlFileAnswer = NonNullable<CrawlFileRefs['result']>;

/** How a host rewrites each kind of answer (paths to what its clients may see). */
export type CrawlFileAnswers = { [A in CrawlFileAnswer]: (result: never) => unknown };

/** The arguments (already checked against the command's schema) with each crawl-file reference resolved to a path. */
export function resolveCrawlFileArgs(
  refs: NonNullable<CrawlFileRefs['args']>,
  args: unknown[],
  resolve: (ref: string) => string,
): unknown[] {
  const out = [...args];
  for (const { arg, fields } of refs) {
    const value = out[arg];
    if (!fields) {
      if (typeof value === 'string') out[arg] = resolve(value);
      continue;
    }
    const object = { ...(value as Record<string, unknown>) };
    // A comparison's side may be a cluster crawl (clusterCrawlRef): the session resolves it against its store.
    for (const field of fields) {
      const ref = object[field] as string;
      if (clusterCrawlOf(ref) === null) object[field] = resolve(ref);
    }
    out[arg] = object;
  }
  return out;
}

/** A comparison's answer with each crawl file named as the host names them; a cluster crawl keeps its reference. */
export function nameComparedFiles(s: ComparisonSummary, name: (file: string) => string): ComparisonSummary {
  const named = (ref: string) => (clusterCrawlOf(ref) === null ? name(ref) : ref);
  return { ...s, old_file: named(s.old_file), new_file: named(s.new_file) };
}

/** `handlers` with every command that names crawl files taking references in and giving them back in its answer. */
export function wrapCrawlFileHandlers(handlers: Handlers, resolve: (ref: string) => string, answers: CrawlFileAnswers): Handlers {
  const wrapped = { ...handlers } as unknown as Record<CommandName, (...args: unknown[]) => Promise<unknown>>;
  for (const name of COMMAND_NAMES) {
    const refs = commandSpec(name).crawlFiles;
    if (!refs) continue;
    const inner = handlers[name] as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = async (...args) => {
      const result = await inner(...(refs.args ? resolveCrawlFileArgs(refs.args, args, resolve) : args));
      return refs.result ? answers[refs.result](result as never) : result;
    };
  }
  return wrapped as unknown as Handlers;
}
