// A process that hosts a render pool mid-render, for the SIGKILL test: renders the page given (a page that never
// goes quiet), prints the pool's browser processes once the render runs, and waits to be killed.
import { createPlaywrightRenderer } from '../../electron/engine/render/playwright-renderer.ts';
import { countingFetcher, fetchDocument } from './render-fixtures.ts';

const [chromium, url] = process.argv.slice(2) as [string, string];
const pool = createPlaywrightRenderer({ executablePath: chromium, concurrency: 2 });
const request = await fetchDocument(url, { waitMs: 120_000 });
void pool.render(request, countingFetcher(), new AbortController().signal);
void pool.render(request, countingFetcher(), new AbortController().signal);
while (pool.browserPids().length < 4) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1_500));
process.stdout.write(`RENDERING ${JSON.stringify(pool.browserPids())}\n`);
setInterval(() => {}, 60_000);
