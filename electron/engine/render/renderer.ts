// JavaScript rendering: what the engine asks of a browser, whichever drives it (playwright-core and a system
// Chromium in plain Node, Electron's own Chromium in the desktop app). The page's own document is fetched by the
// crawl as every page is (status, headers, raw fields); the renderer loads that body in a fresh browser context,
// lets its scripts run, and returns the DOM they made. Every sub-resource the page asks for goes through the
// crawl's ResourceFetcher (its cache, robots.txt and politeness), never straight to the network.

/** How a page is rendered: part of the crawl's settings. */
export interface RenderOptions {
  /** Longest wait for scripts after the load event; ends earlier once the network and the DOM are quiet. */
  waitMs: number;
  viewport: { width: number; height: number; mobile: boolean };
  userAgent: string;
  /** Regular expressions (the crawl's pattern dialect, already checked) of sub-resource URLs never loaded. */
  blockPatterns: string[];
  /** Web fonts are not loaded either (media never is). */
  blockFonts?: boolean;
}

/** The document as the crawl fetched it. */
export interface RenderRequest {
  url: string;
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The body as text (the crawl decoded it). */
  html: string;
  options: RenderOptions;
}

/** A sub-resource's answer from the crawl: a response, or why it was not loaded. */
export type ResourceAnswer =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Uint8Array }
  | { kind: 'blocked'; reason: string }
  | { kind: 'failed'; reason: string };

/** The crawl's way to fetch what a render asks for (cached per crawl, robots.txt and politeness applied). */
export type ResourceFetcher = (url: string, resourceType: string, signal: AbortSignal) => Promise<ResourceAnswer>;

/** What became of a render. At most RENDER_LIMITS.messages entries in each list, each cut to RENDER_LIMITS.messageChars. */
export interface RenderResult {
  /** The rendered DOM serialised (doctype and documentElement), or null when the render failed. */
  html: string | null;
  /** Where the page ended up when a script navigated it away (location change), else null. */
  jsRedirect: string | null;
  consoleErrors: string[];
  /** Uncaught exceptions. */
  pageErrors: string[];
  failedResources: { url: string; reason: string }[];
  blockedResources: { url: string; reason: string }[];
  renderMs: number;
  /** Why the render failed or was cut (e.g. "render timeout", "browser crashed"), or null. */
  error: string | null;
}

export const RENDER_LIMITS = {
  messages: 50,
  messageChars: 500,
  /** A rendered DOM larger than this is cut off and the render recorded with an error. */
  htmlChars: 20 * 1024 * 1024,
} as const;

/** A browser (or a pool of them) that renders pages. */
export interface Renderer {
  render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult>;
  /** Closes every page and browser; resolves once no browser process of this renderer is left. */
  close(): Promise<void>;
}
