// The renderer of plain Node (the CLI, the web console, the tests): the render pool over a Chromium found on the
// machine (or the one given with --chromium), driven by playwright-core. The desktop app passes its own.
import os from 'node:os';
import type { ParsedSettings } from '../../../shared/settings.ts';
import { findChromium } from './find-chromium.ts';
import { createPlaywrightRenderer } from './playwright-renderer.ts';
import type { Renderer } from './renderer.ts';

/**
 * Pages rendering at once when the settings leave it to the machine: a browser page takes about a core while its
 * scripts run, and the crawl's own processes need one, so the cores but one, from 1 to 4.
 */
export function renderPagesDefault(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/**
 * The controller's renderer factory: finds the Chromium when a crawl that renders starts (a ChromiumNotFoundError
 * says what was tried and how to get one).
 */
export function systemRenderer(explicit: string | null = null): (settings: ParsedSettings) => Renderer {
  return (settings) =>
    createPlaywrightRenderer({
      executablePath: findChromium({ explicit }),
      concurrency: settings.renderPages ?? renderPagesDefault(),
    });
}
