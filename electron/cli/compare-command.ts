// `npm run compare -- OLD.trawl NEW.trawl [--out diff.csv|diff.xlsx] [--word-threshold N|N%]`: what the command does, kept
// apart from its entry point (electron/cli/compare.ts) so tests can run it in-process.
import fs from 'node:fs';
import { CrawlFileError } from '../engine/frontier/sqlite/crawl-file.ts';
import type { CrawlComparison, ComparisonSummary, WordThreshold } from '../engine/analysis/compare.ts';
import { openComparison, type CompareSide } from '../engine/analysis/compare-sides.ts';
import { StoreError, parseStoreUrl } from '../engine/frontier/postgres/pg-store-url.ts';
import { crawlIdProblem } from '../engine/frontier/postgres/pg-schema.ts';
import { exportFormatOf } from '../engine/export/export-format.ts';

export const COMPARE_USAGE = `Usage: npm run compare -- OLD.trawl NEW.trawl [options]
       npm run compare -- --store postgres://... --old-crawl CRAWL_ID --new-crawl CRAWL_ID [options]
       npm run compare -- OLD.trawl --store postgres://... --new-crawl CRAWL_ID [options]   (or the other way)

Lists the URLs added, removed and changed (status code, title, meta description, canonical, indexability, word
count) between two crawls of the same site, and prints one summary line. Either crawl may be a crawl of a
PostgreSQL store (a cluster crawl): what the comparison reads of it is copied first, into a private temporary
folder that goes when the command ends.

  --out FILE.csv          write every change as CSV (change, url, changed_fields, then old_ and new_ values); a
                          name ending in .xlsx writes an XLSX workbook instead
  --word-threshold N      a word count changes when it moves by more than N words; with a % sign (10%), by
                          more than that share of the old count (default 10%)
  --store URL             the PostgreSQL store of --old-crawl and --new-crawl
  --old-crawl CRAWL_ID    the old crawl is this crawl of the --store (in place of OLD.trawl)
  --new-crawl CRAWL_ID    the new crawl is this crawl of the --store (in place of NEW.trawl)
  --help                  this text

Exit status: 0 when compared, 1 when the file could not be written, 2 for bad arguments.`;

export class CompareUsageError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'CompareUsageError';
  }
}

export interface CompareRequest {
  help: boolean;
  oldSide: CompareSide;
  newSide: CompareSide;
  out: string | null;
  wordThreshold: WordThreshold;
}

/** "10%" is a share of the old count, "25" a number of words; null when it is neither. */
export function parseWordThreshold(text: string): WordThreshold | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!m) return null;
  const value = Number(m[1]);
  return m[2] ? { percent: value } : { words: value };
}

/** Reads the command line; every problem is named at once (CompareUsageError). */
export function parseCompareArgs(argv: readonly string[]): CompareRequest {
  const problems: string[] = [];
  const files: string[] = [];
  let out: string | null = null;
  let threshold: WordThreshold = { percent: 10 };
  let help = false;
  let store: string | null = null;
  const crawls: { old: string | null; new: string | null } = { old: null, new: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        problems.push(`${name} needs a value`);
        return null;
      }
      i++;
      return next;
    };
    if (name === '--help' || name === '-h') help = true;
    else if (name === '--out') {
      const v = value();
      if (v !== null) out = v;
    } else if (name === '--word-threshold') {
      const v = value();
      if (v !== null) {
        const t = parseWordThreshold(v);
        if (t === null) problems.push(`--word-threshold must be a number of words (25) or a percentage (10%), not "${v}"`);
        else threshold = t;
      }
    } else if (name === '--store') {
      const v = value();
      if (v !== null) store = v;
    } else if (name === '--old-crawl' || name === '--new-crawl') {
      const v = value();
      if (v !== null) crawls[name === '--old-crawl' ? 'old' : 'new'] = v;
    } else if (name.startsWith('-') && name !== '-') problems.push(`unknown option ${name}`);
    else files.push(arg);
  }
  const none: CompareSide = { file: '' };
  if (help) return { help, oldSide: none, newSide: none, out, wordThreshold: threshold };
  const fromStore = (crawls.old !== null ? 1 : 0) + (crawls.new !== null ? 1 : 0);
  if (fromStore > 0 && store === null) problems.push('--old-crawl and --new-crawl name crawls of a --store: give --store postgres://...');
  if (store !== null && fromStore === 0) problems.push('--store needs --old-crawl or --new-crawl (or both): which crawl of it to compare');
  if (store !== null) {
    try {
      parseStoreUrl(store);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  for (const id of [crawls.old, crawls.new]) {
    const problem = id === null ? null : crawlIdProblem(id);
    if (problem !== null) problems.push(problem);
  }
  if (files.length !== 2 - fromStore) {
    problems.push(
      fromStore === 0
        ? `give two crawl files, the old one then the new one (got ${files.length})`
        : `give ${2 - fromStore === 1 ? 'one crawl file' : 'no crawl file'} with ${fromStore === 1 ? 'one of --old-crawl and --new-crawl' : '--old-crawl and --new-crawl'} (got ${files.length})`,
    );
  }
  for (const f of files.slice(0, 2)) if (!fs.existsSync(f)) problems.push(`${f} does not exist`);
  if (out !== null && files.slice(0, 2).some((f) => f === out)) problems.push(`--out ${out} would overwrite a crawl file`);
  if (problems.length) throw new CompareUsageError(problems);
  const queue = [...files];
  const side = (crawlId: string | null): CompareSide => (crawlId !== null ? { store: store!, crawlId } : { file: queue.shift()! });
  const oldSide = side(crawls.old);
  return { help, oldSide, newSide: side(crawls.new), out, wordThreshold: threshold };
}

export function summaryLine(s: ComparisonSummary): string {
  return `Compared ${s.old_file} (${s.old_urls} URLs) with ${s.new_file} (${s.new_urls} URLs): ${s.added} added, ${s.removed} removed, ${s.changed} changed`;
}

function origins(seeds: string[]): Set<string> {
  const out = new Set<string>();
  for (const s of seeds) {
    try {
      out.add(new URL(s).host);
    } catch {
      // not a URL: no origin
    }
  }
  return out;
}

/** Runs the command: returns its exit status, writing to the given streams. */
export async function runCompare(argv: readonly string[], stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  let request: CompareRequest;
  try {
    request = parseCompareArgs(argv);
  } catch (err) {
    if (err instanceof CompareUsageError) {
      stderr.write(`trawl compare: ${err.problems.join('\ntrawl compare: ')}\n\nRun with --help for the options.\n`);
      return 2;
    }
    throw err;
  }
  if (request.help) {
    stdout.write(`${COMPARE_USAGE}\n`);
    return 0;
  }
  let comparison: CrawlComparison;
  try {
    comparison = await openComparison(request.oldSide, request.newSide, { wordThreshold: request.wordThreshold });
  } catch (err) {
    if (err instanceof CrawlFileError || err instanceof StoreError) {
      stderr.write(`trawl compare: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  try {
    const summary = comparison.summary();
    const oldHosts = origins(summary.old_seeds);
    if (oldHosts.size > 0 && ![...origins(summary.new_seeds)].some((h) => oldHosts.has(h))) {
      stderr.write(
        `trawl compare: the crawls start from different hosts (${[...oldHosts].join(', ')} and ${[...origins(summary.new_seeds)].join(', ')})\n`,
      );
    }
    stdout.write(`${summaryLine(summary)}\n`);
    if (request.out !== null) {
      try {
        const format = exportFormatOf(request.out);
        const { rows } = await comparison.exportCsv(request.out, { format });
        stdout.write(`${format.toUpperCase()}: ${request.out} (${rows} rows)\n`);
      } catch (err) {
        stderr.write(`trawl compare: could not write ${request.out}: ${(err as Error).message}\n`);
        return 1;
      }
    }
    return 0;
  } finally {
    comparison.close();
  }
}
