// The decisions a render makes, whichever browser drives it (playwright-core here, Electron's webContents in
// electron/main/render): which requests are never loaded, how the crawl's answers are handed to the browser,
// what a render records (bounded), how long it may take, and the two scripts run in the page (quiet tracking and
// the DOM's serialisation). Plain functions, so both implementations share them and the tests call them directly.
import os from 'node:os';
import { compileSaved, matchesAny } from '../../../shared/pattern.ts';
import type { UserPattern } from '../../../shared/pattern.ts';
import { RENDER_LIMITS } from './renderer.ts';
import type { RenderOptions, RenderResult } from './renderer.ts';

/** Quiet means: no request in flight and no DOM mutation for this long. */
export const QUIET_MS = 500;
/** How often the wait looks at the page. */
export const QUIET_POLL_MS = 100;
/** The hard limit on one render beyond its wait: loading the document and its scripts, serialising the DOM. */
export const RENDER_OVERHEAD_MS = 20_000;

/**
 * A render's hard timeout: past it the page is torn down (or its browser killed) and the render fails. A render
 * waits for the load event at most `waitMs`, then for quiet at most `waitMs` again.
 */
export function renderTimeoutMs(options: RenderOptions): number {
  return 2 * options.waitMs + RENDER_OVERHEAD_MS;
}

/** Permissions a rendered page asks for and is refused (names of the Permissions API). */
export const DENIED_PERMISSIONS = [
  'geolocation',
  'notifications',
  'push',
  'midi',
  'camera',
  'microphone',
  'background-sync',
  'background-fetch',
  'persistent-storage',
  'clipboard-read',
  'clipboard-write',
  'display-capture',
  'idle-detection',
  'storage-access',
  'window-management',
  'local-fonts',
  'screen-wake-lock',
  'accelerometer',
  'gyroscope',
  'magnetometer',
  'ambient-light-sensor',
] as const;

/**
 * Request kinds, as both browsers name them mapped to one vocabulary (playwright's resourceType names: document,
 * stylesheet, image, media, font, script, texttrack, xhr, fetch, eventsource, websocket, manifest, ping, other).
 */
export function normaliseResourceType(type: string): string {
  switch (type) {
    case 'mainFrame':
    case 'subFrame':
      return 'document';
    case 'webSocket':
      return 'websocket';
    case 'cspReport':
      return 'ping';
    case 'object':
      return 'other';
    default:
      return type;
  }
}

export interface BlockRules {
  patterns: readonly UserPattern[];
  blockFonts: boolean;
}

export function blockRules(options: RenderOptions): BlockRules {
  return { patterns: compileSaved(options.blockPatterns), blockFonts: options.blockFonts === true };
}

/**
 * Why a sub-resource is never loaded, or null when it goes to the crawl's fetcher. Media (audio, video) never: a
 * crawl reads no media and a stream never ends; fonts when asked; event streams and web sockets never end either;
 * pings and beacons are side effects (analytics), not content; and whatever the crawl's block patterns match.
 */
export function blockReason(url: string, resourceType: string, rules: BlockRules): string | null {
  const type = normaliseResourceType(resourceType);
  if (!/^https?:/i.test(url)) return `scheme not crawled`;
  if (type === 'media') return 'media';
  if (type === 'font' && rules.blockFonts) return 'font';
  if (type === 'eventsource' || type === 'websocket') return type;
  if (type === 'ping') return 'ping';
  if (matchesAny(rules.patterns, url)) return 'block pattern';
  return null;
}

/** Headers that describe a transfer the crawl already undid (it decoded the body), so must not reach the browser. */
const TRANSFER_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * The page's own document as handed to the browser: the crawl's status and headers, its decoded text sent as
 * UTF-8 (so the content type's charset says UTF-8), and never a redirect (a Location would make the browser go
 * fetch the target itself; the crawl follows redirects, the renderer does not).
 */
export function documentHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (TRANSFER_HEADERS.has(lower) || lower === 'location' || lower === 'refresh') continue;
    out[lower] = value;
  }
  const type = out['content-type'];
  const mime = type ? (type.split(';')[0] ?? '').trim() : '';
  out['content-type'] = `${mime === '' ? 'text/html' : mime}; charset=utf-8`;
  return out;
}

/** A sub-resource's headers as handed to the browser: as the crawl got them, less the transfer it undid. */
export function resourceHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!TRANSFER_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
}

/** The document's status as the browser gets it: a redirect, an informational or a no-content status shows the body as 200. */
export function documentStatus(status: number): number {
  // 204 and 205 have no body by definition; the crawl's body is shown all the same.
  return status >= 200 && status <= 599 && !(status >= 300 && status < 400) && status !== 204 && status !== 205 ? status : 200;
}

/** Whether a main-frame navigation of the rendered page to `target` is a script navigating away (a JS redirect). */
export function isNavigationAway(documentUrl: string, target: string): boolean {
  try {
    const a = new URL(documentUrl);
    const b = new URL(target);
    a.hash = '';
    b.hash = '';
    return a.href !== b.href;
  } catch {
    return true;
  }
}

function cut(text: string): string {
  return text.length > RENDER_LIMITS.messageChars ? text.slice(0, RENDER_LIMITS.messageChars) : text;
}

/** What a render records as it goes, each list bounded by RENDER_LIMITS. */
export class RenderLog {
  readonly consoleErrors: string[] = [];
  readonly pageErrors: string[] = [];
  readonly failedResources: { url: string; reason: string }[] = [];
  readonly blockedResources: { url: string; reason: string }[] = [];
  jsRedirect: string | null = null;

  consoleError(text: string): void {
    if (this.consoleErrors.length < RENDER_LIMITS.messages) this.consoleErrors.push(cut(text));
  }
  pageError(text: string): void {
    if (this.pageErrors.length < RENDER_LIMITS.messages) this.pageErrors.push(cut(text));
  }
  failed(url: string, reason: string): void {
    if (this.failedResources.length < RENDER_LIMITS.messages) this.failedResources.push({ url: cut(url), reason: cut(reason) });
  }
  blocked(url: string, reason: string): void {
    if (this.blockedResources.length < RENDER_LIMITS.messages) this.blockedResources.push({ url: cut(url), reason: cut(reason) });
  }
  /** The first navigation away is the redirect (later ones were the page trying again). */
  redirect(target: string): void {
    this.jsRedirect ??= target;
  }

  result(html: string | null, renderMs: number, error: string | null): RenderResult {
    let body = html;
    let why = error;
    if (body !== null && body.length > RENDER_LIMITS.htmlChars) {
      body = body.slice(0, RENDER_LIMITS.htmlChars);
      why ??= `rendered HTML cut at ${RENDER_LIMITS.htmlChars} characters`;
    }
    return {
      html: body,
      jsRedirect: this.jsRedirect,
      consoleErrors: this.consoleErrors,
      pageErrors: this.pageErrors,
      failedResources: this.failedResources,
      blockedResources: this.blockedResources,
      renderMs,
      error: why,
    };
  }
}

/** A render that never ran or failed before it had a DOM. */
export function failedRender(error: string, renderMs = 0): RenderResult {
  return new RenderLog().result(null, renderMs, error);
}

/** A message from an Error or anything thrown, on one line. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? text).trim();
}

/**
 * Run in every frame before the page's own scripts. Two jobs:
 * - A link download (`<a download>` clicked, by a person or a script) is refused before Chromium starts it, and
 *   kept for the render's record. Chromium's download manager fetches such a file itself, past the routes, so the
 *   site would otherwise see a request the crawl never made through its fetcher (robots.txt, rate, scope), and a
 *   second download of a page may be held by Chromium's limit on automatic downloads without a word. Only links
 *   Chromium would download (same origin, blob: or data:) are held; a link elsewhere is a navigation, refused as
 *   one. Downloads started otherwise (a detached link, a frame's attachment) still reach the browser's download
 *   event, which refuses them.
 * - In the top frame, the time of the last DOM mutation, so the wait can tell when the DOM has gone quiet.
 * Both are read through functions on symbols, not enumerable.
 */
export const PAGE_INIT_SCRIPT = `(() => {
  let downloads = [];
  // The page's scripts run after this one and may replace these: the originals are kept.
  const pathOf = Event.prototype.composedPath, prevent = Event.prototype.preventDefault, has = Element.prototype.hasAttribute;
  const Anchor = HTMLAnchorElement, Area = HTMLAreaElement, Url = URL, origin = location.origin;
  addEventListener('click', (event) => {
    for (const node of pathOf.call(event)) {
      if (!(node instanceof Anchor || node instanceof Area) || !has.call(node, 'download')) continue;
      let url;
      try { url = new Url(node.href); } catch { return; }
      if (url.protocol !== 'blob:' && url.protocol !== 'data:' && url.origin !== origin) return;
      prevent.call(event);
      if (downloads.length < ${RENDER_LIMITS.messages}) downloads[downloads.length] = url.href.slice(0, ${RENDER_LIMITS.messageChars});
      return;
    }
  }, true);
  const taken = () => {
    const out = downloads;
    downloads = [];
    return out;
  };
  Object.defineProperty(window, Symbol.for('trawl.linkDownloads'), { value: taken, enumerable: false });
  // The rest is the top frame's.
  if (window !== window.top) return;
  let last = performance.now();
  const note = () => { last = performance.now(); };
  try {
    new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch {}
  Object.defineProperty(window, Symbol.for('trawl.domQuietMs'), { value: () => performance.now() - last, enumerable: false });
})();`;

/**
 * The frames asked for their link downloads at the end of a render: the top one and the first of the others. Each
 * is a round trip to the browser, and a page can make thousands of frames; a link download in a frame past these is
 * refused all the same, not recorded.
 */
export const DOWNLOAD_FRAMES_MAX = 20;

/** Evaluated in a frame: the link downloads PAGE_INIT_SCRIPT refused in it since last asked. */
export const LINK_DOWNLOADS_EXPRESSION = `(() => { const f = window[Symbol.for('trawl.linkDownloads')]; return typeof f === 'function' ? f() : []; })()`;

/**
 * Records the link downloads the page reports (LINK_DOWNLOADS_EXPRESSION's answer) as blocked. The page can
 * replace the function, so the answer is checked: strings only, as many as the log keeps.
 */
export function recordLinkDownloads(log: RenderLog, answer: unknown): void {
  if (!Array.isArray(answer)) return;
  for (const url of answer.slice(0, RENDER_LIMITS.messages)) if (typeof url === 'string') log.blocked(url, 'download');
}

/** Evaluated in the page: milliseconds since the last DOM mutation. */
export const DOM_QUIET_EXPRESSION = `(() => { const f = window[Symbol.for('trawl.domQuietMs')]; return typeof f === 'function' ? f() : 1e9; })()`;

/** Evaluated in the page: the DOM serialised, doctype and documentElement. */
export const SERIALISE_EXPRESSION = `(() => {
  const dt = document.doctype;
  let head = '';
  if (dt) {
    head = '<!DOCTYPE ' + dt.name;
    if (dt.publicId) head += ' PUBLIC "' + dt.publicId + '"';
    if (dt.systemId) head += (dt.publicId ? '' : ' SYSTEM') + ' "' + dt.systemId + '"';
    head += '>\\n';
  }
  return head + (document.documentElement ? document.documentElement.outerHTML : '');
})()`;

/**
 * Waits until the page is quiet (no request in flight for QUIET_MS and the DOM unchanged as long) or `waitMs` has
 * passed, whichever first. `inFlight` and `sinceNetwork` come from the browser's request events; `domQuietMs` asks
 * the page. Resolves early when `signal` aborts.
 */
export async function waitForQuiet(
  waitMs: number,
  network: { inFlight(): number; quietMs(): number },
  domQuietMs: () => Promise<number>,
  signal: AbortSignal,
): Promise<'quiet' | 'waited'> {
  const end = Date.now() + waitMs;
  while (!signal.aborted) {
    const left = end - Date.now();
    if (left <= 0) return 'waited';
    if (network.inFlight() === 0 && network.quietMs() >= QUIET_MS) {
      const dom = await domQuietMs();
      if (dom >= QUIET_MS) return 'quiet';
    }
    await sleep(Math.min(QUIET_POLL_MS, left), signal);
  }
  return 'waited';
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Pages rendering at once when the settings leave it to the machine: a browser page takes about a core while its
 * scripts run, and the crawl's own processes need one, so the cores but one, from 1 to 4.
 */
export function renderPagesDefault(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}
