#!/usr/bin/env -S node --max-semi-space-size=4
// `trawl crawl|compare|serve [ARGS...]`: the command package.json's `bin` names, so `npx trawl crawl URL` works in a
// checkout and `trawl` works once the package is installed or linked (`npm link`). It runs exactly what `npm run
// crawl`, `compare` and `serve` run, scripts/run-node.mjs, in this same process (no second Node): the bundles are
// rebuilt only when a source changed, then the subcommand's bundle runs with the arguments that follow it.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SUBCOMMANDS = {
  crawl: 'crawl a site (or a list of URLs) headless, with live progress, and export CSV or XLSX',
  compare: 'compare two crawl files of a site: the URLs added, removed and changed',
  serve: 'serve the web console: the desktop UI in a browser, for machines without a desktop',
};

const HELP = `Usage: trawl <command> [ARGS...]

Trawl, the crawling workbench, from the command line. Commands:
${Object.entries(SUBCOMMANDS)
  .map(([name, what]) => `  ${name.padEnd(9)}${what}`)
  .join('\n')}

Run \`trawl <command> --help\` for a command's options (its usage names the same command as
\`npm run <command> --\`). Examples:
  trawl crawl https://example.com/ --threads 10 --out results.xlsx
  trawl compare old.trawl new.trawl --out changes.csv
  trawl serve --port 8420
`;

const [command, ...args] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP);
  process.exit(command === undefined ? 2 : 0);
}
if (!Object.hasOwn(SUBCOMMANDS, command)) {
  process.stderr.write(`trawl: unknown command "${command}"; the commands are ${Object.keys(SUBCOMMANDS).join(', ')}\n\n${HELP}`);
  process.exit(2);
}

// run-node.mjs reads its command and arguments from process.argv, as when npm runs it.
const runNode = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'run-node.mjs');
process.argv = [process.argv[0], runNode, command, ...args];
await import(pathToFileURL(runNode).href);
