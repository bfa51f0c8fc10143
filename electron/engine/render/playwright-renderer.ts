// The Renderer of plain Node (CLI, web console, tests): playwright-core driving a system Chromium (find-chromium.ts),
// no browser download. playwright-core is loaded when a crawl first renders, with require (the node bundles are
// CommonJS run through V8's code cache, scripts/load-bundle.mjs, and are built with it external).
//
// Each render gets a fresh browser context (no cookie, storage or cache shared between pages) with the crawl's
// viewport and user agent, service workers blocked and downloads refused (a link's in the page, render-policy.ts's
// PAGE_INIT_SCRIPT, any other at the browser's download event). Every request of the context is routed:
// the page's document is answered with what the crawl fetched (no second fetch), every other request goes through
// the crawl's ResourceFetcher or is refused (render-policy.ts decides), pop-ups are closed, dialogs dismissed;
// headless Chromium denies permission requests (no permission is granted to the context).
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, ConsoleMessage, Dialog, Download, Page, Request, Route, WebSocketRoute } from 'playwright-core';
import { killGroup, trackBrowser, untrackBrowser } from './browser-process.ts';
import { findProcessWithArg, groupMembers, readProc } from './proc.ts';
import type { ProcInfo } from './proc.ts';
import { DEFAULT_PAGES_PER_BROWSER, RenderPool } from './render-pool.ts';
import type { BrowserLauncher, PooledBrowser } from './render-pool.ts';
import {
  DOM_QUIET_EXPRESSION,
  DOWNLOAD_FRAMES_MAX,
  LINK_DOWNLOADS_EXPRESSION,
  PAGE_INIT_SCRIPT,
  RenderLog,
  SERIALISE_EXPRESSION,
  blockReason,
  blockRules,
  documentHeaders,
  documentStatus,
  DENIED_PERMISSIONS,
  QUIET_POLL_MS,
  errorText,
  isNavigationAway,
  recordLinkDownloads,
  resourceHeaders,
  sleep,
  waitForQuiet,
} from './render-policy.ts';
import type { RenderRequest, RenderResult, ResourceFetcher } from './renderer.ts';

type PlaywrightCore = typeof import('playwright-core');
let playwright: PlaywrightCore | undefined;

function loadPlaywright(): PlaywrightCore {
  playwright ??= createRequire(import.meta.url)('playwright-core') as PlaywrightCore;
  return playwright;
}

/** Chromium's switches: off the network by itself (every request of a page is routed), no crash reporter. */
export function chromiumArgs(token: string): string[] {
  const args = [
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-breakpad',
    '--disable-crash-reporter',
    '--disable-quic',
    '--mute-audio',
    // Every request of a page is routed and answered by the crawl (or refused), so nothing should reach the network;
    // a request made past the routes (Chromium's download manager fetches a download itself) goes to a proxy that is
    // not there and fails. <-loopback> sends loopback addresses to it too (Chromium would otherwise go direct).
    '--proxy-server=http://127.0.0.1:9',
    '--proxy-bypass-list=<-loopback>',
    // How the pool finds this browser's process (an unknown switch, ignored by Chromium).
    `--trawl-render=${token}`,
  ];
  // Chromium refuses to run its sandbox as root; elsewhere the sandbox stays (the pages are arbitrary sites).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

export interface PlaywrightLaunchOptions {
  executablePath: string;
  launchTimeoutMs?: number;
}

/** Contexts made ahead per browser, each with its page (a renderer process). */
const MAX_SPARES = 2;

/** A fresh context with its page, made ready for the next render (see PlaywrightBrowser.spare). */
interface Prepared {
  key: string;
  context: BrowserContext;
  page: Page;
  /** Where the page's listeners send what happens: the render in progress (none before it starts). */
  hooks: { current: RenderHooks | null };
}

/** What a render does with each request and event of its page (renderInContext). */
interface RenderHooks {
  route(route: Route, req: Request): Promise<void>;
  websocket(ws: WebSocketRoute): void;
  request(): void;
  done(): void;
  console(message: ConsoleMessage): void;
  pageError(err: Error): void;
  dialog(dialog: Dialog): void;
  download(download: Download): void;
}

class PlaywrightBrowser implements PooledBrowser {
  dead = false;
  private readonly contexts = new Set<BrowserContext>();
  /**
   * The next render's context and page, made while the current one renders. A fresh context per page keeps pages
   * from seeing each other's cookies and storage, but its page costs a renderer process of its own: 0.4 s to start
   * here, the largest part of a render of a static page, and idle time (the browser's CPU was 38% busy at 4 renders
   * at once). Made ahead, a render starts with its page already there. A render never waits for a spare another
   * render is making: with none on hand it makes its own; at most MAX_SPARES wait (a renderer process each).
   */
  private readonly spares: Promise<Prepared | null>[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly leader: ProcInfo | null,
    private readonly tracked: ReturnType<typeof trackBrowser>,
  ) {
    browser.on('disconnected', () => {
      this.dead = true;
    });
  }

  pids(): number[] {
    if (!this.leader) return [];
    return groupMembers(this.leader.pid)
      .filter((p) => this.leader && (p.pid !== this.leader.pid || p.startTime === this.leader.startTime))
      .map((p) => p.pid);
  }

  kill(): void {
    this.dead = true;
    // The tracker's record checks the leader is still the process we started.
    if (this.tracked) killGroup(this.tracked);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.spares.length = 0;
    await this.browser.close().catch(() => {});
    if (this.tracked) {
      // browser.close() resolves when the browser's connection ends; wait for its processes to be reaped.
      const end = Date.now() + 5_000;
      while (this.pids().length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      if (this.pids().length > 0) killGroup(this.tracked);
      untrackBrowser(this.tracked);
    }
  }

  /** A fresh context and page for `options`, permissions denied, nothing loaded yet. */
  private async prepare(options: RenderRequest['options']): Promise<Prepared> {
    const { viewport, userAgent } = options;
    const context = await this.browser.newContext({
      viewport: { width: viewport.width, height: viewport.height },
      screen: { width: viewport.width, height: viewport.height },
      isMobile: viewport.mobile,
      hasTouch: viewport.mobile,
      userAgent,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    this.contexts.add(context);
    try {
      // Every listener is set up here, ahead of the render: each costs a round trip to the browser (together
      // about 0.4 s here), and the render then only says where they report (hooks.current).
      const hooks: Prepared['hooks'] = { current: null };
      await context.addInitScript({ content: PAGE_INIT_SCRIPT });
      await context.route('**/*', (route, req) => hooks.current?.route(route, req) ?? route.abort('blockedbyclient').catch(() => {}));
      await context.routeWebSocket(/.*/, (ws) =>
        hooks.current ? hooks.current.websocket(ws) : void ws.close({ code: 1008 }).catch(() => {}),
      );
      const page = await context.newPage();
      // A pop-up is closed at once (its requests are refused by the route: they are not the page's).
      context.on('page', (other) => {
        if (other !== page) void other.close().catch(() => {});
      });
      page.on('request', () => hooks.current?.request());
      page.on('requestfinished', () => hooks.current?.done());
      page.on('requestfailed', () => hooks.current?.done());
      page.on('console', (message) => hooks.current?.console(message));
      page.on('pageerror', (err) => hooks.current?.pageError(err));
      page.on('dialog', (dialog) => (hooks.current ? hooks.current.dialog(dialog) : void dialog.dismiss().catch(() => {})));
      page.on('download', (download) => (hooks.current ? hooks.current.download(download) : void download.cancel().catch(() => {})));
      await denyPermissions(context, page);
      return { key: preparedKey(options), context, page, hooks };
    } catch (err) {
      this.contexts.delete(context);
      await context.close().catch(() => {});
      throw err;
    }
  }

  /** A spare made for these options, or a new one; and the next spare started. */
  private async take(options: RenderRequest['options']): Promise<Prepared> {
    const spare = this.spares.shift();
    if (!this.dead && !this.closing && this.spares.length < MAX_SPARES) this.spares.push(this.prepare(options).catch(() => null));
    const ready = spare ? await spare : null;
    let prepared: Prepared;
    if (ready && ready.key === preparedKey(options)) prepared = ready;
    else {
      if (ready) {
        this.contexts.delete(ready.context);
        void ready.context.close().catch(() => {});
      }
      prepared = await this.prepare(options);
    }
    return prepared;
  }

  private closing = false;

  async render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult> {
    const started = performance.now();
    const log = new RenderLog();
    const elapsed = () => Math.round(performance.now() - started);
    const fetches = new AbortController();
    let context: BrowserContext | undefined;
    const onAbort = () => {
      fetches.abort();
      // Closing the context ends its renderer from the browser's side, even one spinning in a script.
      void context?.close().catch(() => {});
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal.aborted) throw signal.reason;
      const prepared = await this.take(request.options);
      context = prepared.context;
      if (signal.aborted) throw signal.reason;
      return await renderInContext(prepared, request, fetcher, fetches.signal, signal, log, elapsed);
    } catch (err) {
      const reason = signal.aborted ? errorText(signal.reason) : this.dead ? 'browser crashed' : errorText(err);
      return log.result(null, elapsed(), reason);
    } finally {
      signal.removeEventListener('abort', onAbort);
      fetches.abort();
      if (context) {
        this.contexts.delete(context);
        await context.close().catch(() => {});
      }
    }
  }
}

/** Renders made with the same options can use the same spare. */
function preparedKey(options: RenderRequest['options']): string {
  return JSON.stringify([options.viewport, options.userAgent]);
}

async function renderInContext(
  prepared: Prepared,
  request: RenderRequest,
  fetcher: ResourceFetcher,
  fetchSignal: AbortSignal,
  signal: AbortSignal,
  log: RenderLog,
  elapsed: () => number,
): Promise<RenderResult> {
  const rules = blockRules(request.options);
  const page = prepared.page;
  let documentServed = false;
  let inFlight = 0;
  let lastNetwork = performance.now();

  const route = async (route: Route, req: Request): Promise<void> => {
    const url = req.url();
    try {
      let owner: Page | null = null;
      try {
        owner = req.frame().page();
      } catch {
        owner = null;
      }
      if (owner !== page) {
        log.blocked(url, 'pop-up');
        return await route.abort('blockedbyclient');
      }
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) {
        if (!documentServed) {
          documentServed = true;
          return await route.fulfill({
            status: documentStatus(request.status),
            headers: documentHeaders(request.headers),
            body: request.html,
          });
        }
        // A script (or a refresh) taking the page elsewhere: recorded, not followed.
        if (isNavigationAway(request.url, url)) log.redirect(url);
        return await route.abort('aborted');
      }
      const reason = blockReason(url, req.resourceType(), rules);
      if (reason) {
        log.blocked(url, reason);
        return await route.abort('blockedbyclient');
      }
      const answer = await fetcher(url, req.resourceType(), fetchSignal).catch(
        (err: unknown) => ({ kind: 'failed', reason: errorText(err) }) as const,
      );
      if (answer.kind === 'response') {
        if (answer.status >= 400) log.failed(url, `HTTP ${answer.status}`);
        return await route.fulfill({ status: answer.status, headers: resourceHeaders(answer.headers), body: Buffer.from(answer.body) });
      }
      if (answer.kind === 'blocked') log.blocked(url, answer.reason);
      else log.failed(url, answer.reason);
      return await route.abort(answer.kind === 'blocked' ? 'blockedbyclient' : 'failed');
    } catch {
      // The page or context closed under the request.
    }
  };
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastNetwork = performance.now();
  };
  prepared.hooks.current = {
    route,
    websocket(ws) {
      log.blocked(ws.url(), 'websocket');
      void ws.close({ code: 1008, reason: 'blocked' }).catch(() => {});
    },
    request() {
      inFlight++;
      lastNetwork = performance.now();
    },
    done,
    console(message) {
      if (message.type() !== 'error') return;
      const text = message.text();
      // The browser's own note on a resource that did not load: recorded as a failed or blocked resource instead.
      if (text.startsWith('Failed to load resource')) return;
      log.consoleError(text);
    },
    pageError: (err) => log.pageError(err.stack?.split('\n')[0] ?? `${err.name}: ${err.message}`),
    dialog(dialog) {
      log.blocked(request.url, `dialog (${dialog.type()})`);
      void dialog.dismiss().catch(() => {});
    },
    download(download) {
      log.blocked(download.url(), 'download');
      void download.cancel().catch(() => {});
    },
  };
  await page.goto(request.url, { waitUntil: 'commit', timeout: 0 });
  // The load event, at most the wait long; a script navigating away before it stops the load (the navigation
  // is refused, the page stays as far as it got), so that ends this wait too.
  const loadWait = new AbortController();
  const onAbort = () => loadWait.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const redirected = (async () => {
    while (!loadWait.signal.aborted && log.jsRedirect === null) await sleep(QUIET_POLL_MS, loadWait.signal);
  })();
  await Promise.race([
    page.waitForLoadState('load', { timeout: 0 }).catch(() => {}),
    sleep(request.options.waitMs, loadWait.signal),
    redirected,
  ]);
  loadWait.abort();
  signal.removeEventListener('abort', onAbort);
  if (signal.aborted) throw signal.reason;
  const current = page;
  await waitForQuiet(
    request.options.waitMs,
    { inFlight: () => inFlight, quietMs: () => performance.now() - lastNetwork },
    async () => Number(await current.evaluate(DOM_QUIET_EXPRESSION)),
    signal,
  );
  if (signal.aborted) throw signal.reason;
  for (const frame of page.frames().slice(0, DOWNLOAD_FRAMES_MAX))
    recordLinkDownloads(log, await frame.evaluate(LINK_DOWNLOADS_EXPRESSION).catch(() => null));
  const html = String(await page.evaluate(SERIALISE_EXPRESSION));
  return log.result(html, elapsed(), null);
}

/**
 * Denies every permission request of the page's context (geolocation, notifications, camera...): headless Chromium
 * has no prompt to answer them, so left alone they would stay pending. Set through the DevTools protocol, for the
 * context only (playwright can grant permissions, not deny them).
 */
async function denyPermissions(context: BrowserContext, page: Page): Promise<void> {
  const session = await context.newCDPSession(page);
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo');
    const browserContextId = targetInfo.browserContextId;
    if (!browserContextId) return;
    const browserSession = await (context.browser() as Browser).newBrowserCDPSession();
    try {
      await Promise.all(
        DENIED_PERMISSIONS.map((name) =>
          browserSession.send('Browser.setPermission', { permission: { name }, setting: 'denied', browserContextId }).catch(() => {}),
        ),
      );
    } finally {
      await browserSession.detach().catch(() => {});
    }
  } finally {
    await session.detach().catch(() => {});
  }
}

/** Launches one Chromium for the pool. */
export function playwrightLauncher(options: PlaywrightLaunchOptions): BrowserLauncher {
  return async (signal) => {
    const token = `${process.pid}-${crypto.randomBytes(8).toString('hex')}`;
    const browser = await loadPlaywright().chromium.launch({
      executablePath: options.executablePath,
      args: chromiumArgs(token),
      timeout: options.launchTimeoutMs ?? 30_000,
      // The host's signals are the host's (browser-process.ts); the pipe ends the browser if the host dies.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const leader = findProcessWithArg(`--trawl-render=${token}`);
    const tracked = leader && leader.pgid === leader.pid ? trackBrowser(leader.pid) : null;
    const pooled = new PlaywrightBrowser(browser, leader ? readProc(leader.pid) : null, tracked);
    if (signal.aborted) {
      await pooled.close();
      throw signal.reason;
    }
    return pooled;
  };
}

export interface PlaywrightRendererOptions {
  /** The Chromium to drive (find-chromium.ts). */
  executablePath: string;
  /** Pages rendering at once. */
  concurrency: number;
  pagesPerBrowser?: number;
  launchTimeoutMs?: number;
  renderTimeoutMs?: (request: RenderRequest) => number;
}

/** The render pool over system Chromium: the Renderer of the CLI, the web console and the tests. */
export function createPlaywrightRenderer(options: PlaywrightRendererOptions): RenderPool {
  return new RenderPool(
    playwrightLauncher({
      executablePath: options.executablePath,
      ...(options.launchTimeoutMs !== undefined && { launchTimeoutMs: options.launchTimeoutMs }),
    }),
    {
      concurrency: options.concurrency,
      pagesPerBrowser: options.pagesPerBrowser ?? DEFAULT_PAGES_PER_BROWSER,
      ...(options.launchTimeoutMs !== undefined && { launchTimeoutMs: options.launchTimeoutMs }),
      ...(options.renderTimeoutMs !== undefined && { renderTimeoutMs: options.renderTimeoutMs }),
    },
  );
}
