// electron-vite builds the desktop app from the folders named by the runtime they run in:
// electron/main (+ the crawl worker, run as a utility process), electron/preload, renderer/.
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The worker entry is built beside main: UtilityProcessSpawner forks out/main/worker.js.
      rolldownOptions: {
        input: {
          index: 'electron/main/index.ts',
          worker: 'electron/worker/worker-main.ts',
          // Link Score's worker thread: analysis/link-score-thread.ts starts out/main/link-score-worker.js.
          'link-score-worker': 'electron/engine/analysis/link-score-worker.ts',
          // Duplicate content's: analysis/near-duplicates-thread.ts starts out/main/near-duplicates-worker.js.
          'near-duplicates-worker': 'electron/engine/analysis/near-duplicates-worker.ts',
          // The whole reads of a large crawl file for a view: analysis/crawl-reads-thread.ts starts out/main/crawl-reads-worker.js.
          'crawl-reads-worker': 'electron/engine/analysis/crawl-reads-worker.ts',
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload must be CommonJS.
      rolldownOptions: { input: { index: 'electron/preload/index.ts' }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'renderer',
    // Minified: the web console serves this build over the network (electron-vite leaves it unminified by default).
    // One chunk of about 850 kB (React, uPlot, zod and the app), 300 kB gzipped: the size warning would only be noise.
    build: { outDir: 'out/renderer', minify: true, chunkSizeWarningLimit: 1000, rolldownOptions: { input: 'renderer/index.html' } },
    plugins: [react()],
  },
});
