// `npm run compare -- OLD.trawl NEW.trawl [--out diff.csv] [--word-threshold N|N%]`: the URLs added, removed and
// changed between two crawls of one site (electron/engine/analysis/compare.ts), as one summary line and a CSV.
import { runCompare } from './compare-command.ts';

runCompare(process.argv.slice(2), process.stdout, process.stderr).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`trawl compare: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
