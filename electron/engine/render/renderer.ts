// JavaScript rendering: what the engine asks of a browser, whichever drives it (playwright-core and a system
// Chromium in plain Node, Electron's own Chromium in the desktop app). The page's own document is fetched by the
// crawl as every page is (status, headers, raw fields); the renderer loads that body in a fresh browser context,
// lets its scripts run, and returns the DOM they made. Every sub-resource the page asks for goes through the
// crawl's ResourceFetcher (its cache, robots.txt and politeness), never straight to the network.

import type { RenderRequest, RenderResult, ResourceFetcher } from '../../../shared/render.ts';

export type { RenderOptions, RenderRequest, RenderResult, ResourceAnswer, ResourceFetcher } from '../../../shared/render.ts';
export { RENDER_LIMITS } from '../../../shared/render.ts';

/** A browser (or a pool of them) that renders pages. */
export interface Renderer {
  render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult>;
  /** Closes every page and browser; resolves once no browser process of this renderer is left. */
  close(): Promise<void>;
}
