// The renderer of plain Node (the CLI, the web console, the tests): the render pool over a Chromium found on the
// machine (or the one given with --chromium), driven by playwright-core. The desktop app passes its own.
import type { ParsedSettings } from '../../../shared/settings.ts';
import { findChromium } from './find-chromium.ts';
import { renderPagesDefault } from './render-policy.ts';
import { createPlaywrightRenderer } from './playwright-renderer.ts';
import type { Renderer } from './renderer.ts';

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
