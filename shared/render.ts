// JavaScript rendering's data, as the engine, its workers and the views share it (electron/engine/render has the
// browsers). Plain types: structured-clone safe.

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

/** What a render says of itself beside its DOM, passed on as it is in a page's result. */
export type RenderReport = Pick<
  RenderResult,
  'consoleErrors' | 'pageErrors' | 'failedResources' | 'blockedResources' | 'renderMs' | 'error'
>;

/** What a page's render found (beside the raw fields of its result), as a worker reports it. */
export interface RenderedPage extends RenderReport {
  title: string | null;
  metaDescription: string | null;
  h1: string | null;
  h1Count: number;
  h2: string | null;
  h2Count: number;
  canonical: string | null;
  metaRobots: string | null;
  /** <html lang>, trimmed, or null. */
  lang: string | null;
  /** <link rel="alternate" hreflang> entries in document order, in normal form (protocol.ts's Hreflang). */
  hreflang: { lang: string; url: string }[];
  wordCount: number;
  /** Links in the rendered DOM that the raw HTML did not have (they are in the result's links, marked rendered). */
  renderedLinks: number;
  /** Where a script sent the page (a location change), in normal form; also a link of kind "javascript". */
  jsRedirect: string | null;
}

/** Viewport presets (a custom size is written WIDTHxHEIGHT). */
export const VIEWPORTS = {
  desktop: { width: 1366, height: 768, mobile: false },
  mobile: { width: 412, height: 915, mobile: true },
} as const;

/** The viewport a setting names: a preset, or WIDTHxHEIGHT (a desktop viewport of that size). */
export function viewportOf(setting: string): RenderOptions['viewport'] {
  if (setting === 'desktop' || setting === 'mobile') return { ...VIEWPORTS[setting] };
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(setting);
  return m ? { width: Number(m[1]), height: Number(m[2]), mobile: false } : { ...VIEWPORTS.desktop };
}
