// The Renderer of the desktop app: Electron's own Chromium, no browser download. Pages render in hidden windows
// owned by the main process, never in the app's own session: each of the crawl's N render slots has an in-memory
// session partition of its own (a name without "persist:", so nothing reaches the disk), renders one page at a
// time, and has its storage cleared between pages (a page never sees an earlier page's cookies or storage). A
// slot is a "browser" of the shared RenderPool (electron/engine/render/render-pool.ts): retired after its pages (a
// fresh partition; the old one's caches cleared), its renders under the same hard timeout; a page that does not
// let go has its renderer process crashed (forcefullyCrashRenderer) and its window destroyed.
//
// Requests: session.protocol.handle for http and https answers the page's document with what the crawl fetched
// and every other request through the crawl's ResourceFetcher; webRequest.onBeforeRequest (which knows each
// request's kind) refuses what render-policy.ts blocks. Downloads, pop-ups, dialogs and permission requests are
// refused. The DevTools protocol (webContents.debugger) adds the page script (link downloads, DOM quiet) before the page's own,
// dismisses dialogs and reports uncaught exceptions. It cannot run where Electron's binary is absent: it
// type-checks, and its decisions are render-policy.ts's, which the unit tests call.
import { BrowserWindow, session as electronSession } from 'electron';
import type { Session, WebContents } from 'electron';
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
  errorText,
  isNavigationAway,
  normaliseResourceType,
  recordLinkDownloads,
  resourceHeaders,
  sleep,
  waitForQuiet,
} from '../../engine/render/render-policy.ts';
import { RenderPool } from '../../engine/render/render-pool.ts';
import type { PooledBrowser } from '../../engine/render/render-pool.ts';
import type { RenderRequest, RenderResult, Renderer, ResourceFetcher } from '../../engine/render/renderer.ts';

/** What the slot's current render needs from the session's handlers. */
interface CurrentRender {
  request: RenderRequest;
  fetcher: ResourceFetcher;
  fetchSignal: AbortSignal;
  log: RenderLog;
  rules: ReturnType<typeof blockRules>;
  documentServed: boolean;
  /** Request kinds by URL, from onBeforeRequest (protocol.handle's request does not carry it). */
  types: Map<string, string>;
  inFlight: number;
  lastNetwork: number;
}

/** A Response for the crawl's answer to a sub-resource (a refused one is a network error). */
function resourceResponse(current: CurrentRender, url: string, answerPromise: ReturnType<ResourceFetcher>): Promise<Response> {
  return answerPromise.then(
    (answer) => {
      if (answer.kind === 'response') {
        if (answer.status >= 400) current.log.failed(url, `HTTP ${answer.status}`);
        const nullBody = answer.status === 204 || answer.status === 304;
        return new Response(nullBody ? null : Buffer.from(answer.body), {
          status: answer.status,
          headers: resourceHeaders(answer.headers),
        });
      }
      if (answer.kind === 'blocked') current.log.blocked(url, answer.reason);
      else current.log.failed(url, answer.reason);
      return Response.error();
    },
    (err: unknown) => {
      current.log.failed(url, errorText(err));
      return Response.error();
    },
  );
}

class ElectronRenderSlot implements PooledBrowser {
  dead = false;
  private current: CurrentRender | null = null;
  private window: BrowserWindow | null = null;

  constructor(
    private readonly session: Session,
    private readonly partition: string,
  ) {
    // Permission requests and checks: refused.
    session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    session.setPermissionCheckHandler(() => false);
    session.on('will-download', (event, item) => {
      event.preventDefault();
      this.current?.log.blocked(item.getURL(), 'download');
    });
    session.webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
      const current = this.current;
      if (!current) return callback({ cancel: true });
      const type = normaliseResourceType(details.resourceType);
      if (type === 'document' && details.resourceType === 'mainFrame') return callback({});
      const reason = blockReason(details.url, type, current.rules);
      if (reason) {
        current.log.blocked(details.url, reason);
        return callback({ cancel: true });
      }
      current.types.set(details.url, type);
      current.inFlight++;
      current.lastNetwork = performance.now();
      callback({});
    });
    const settled = () => {
      const current = this.current;
      if (!current) return;
      current.inFlight = Math.max(0, current.inFlight - 1);
      current.lastNetwork = performance.now();
    };
    session.webRequest.onCompleted({ urls: ['<all_urls>'] }, settled);
    session.webRequest.onErrorOccurred({ urls: ['<all_urls>'] }, settled);
    const handler = (req: Request): Promise<Response> => {
      const current = this.current;
      if (!current) return Promise.resolve(Response.error());
      const url = req.url;
      if (!current.documentServed && !current.types.has(url)) {
        // The first main-frame request is the page's document: answered with what the crawl fetched.
        current.documentServed = true;
        const status = documentStatus(current.request.status);
        return Promise.resolve(new Response(current.request.html, { status, headers: documentHeaders(current.request.headers) }));
      }
      const type = current.types.get(url) ?? 'other';
      return resourceResponse(current, url, current.fetcher(url, type, current.fetchSignal));
    };
    session.protocol.handle('http', handler);
    session.protocol.handle('https', handler);
  }

  pids(): number[] {
    const pid = this.window?.webContents.getOSProcessId();
    return pid ? [pid] : [];
  }

  kill(): void {
    const win = this.window;
    if (win && !win.isDestroyed()) {
      win.webContents.forcefullyCrashRenderer();
      win.destroy();
    }
    this.window = null;
  }

  async close(): Promise<void> {
    this.kill();
    this.session.protocol.unhandle('http');
    this.session.protocol.unhandle('https');
    await this.session.clearStorageData().catch(() => {});
    await this.session.clearCache().catch(() => {});
  }

  async render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fetches = new AbortController();
    const log = new RenderLog();
    const current: CurrentRender = {
      request,
      fetcher,
      fetchSignal: fetches.signal,
      log,
      rules: blockRules(request.options),
      documentServed: false,
      types: new Map(),
      inFlight: 0,
      lastNetwork: performance.now(),
    };
    this.current = current;
    const { viewport, userAgent } = request.options;
    const win = new BrowserWindow({
      show: false,
      width: viewport.width,
      height: viewport.height,
      webPreferences: {
        partition: this.partition,
        offscreen: true,
        backgroundThrottling: false,
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    });
    this.window = win;
    const onAbort = () => {
      fetches.abort();
      if (!win.isDestroyed()) win.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const wc = win.webContents;
      this.guard(wc, request, log);
      await this.prepare(wc, request);
      wc.setUserAgent(userAgent);
      // Loading fails when a script navigates away before load (the navigation is refused): the page stays.
      const loaded = wc.loadURL(request.url).catch((err: unknown) => {
        if (!log.jsRedirect && !signal.aborted) throw err;
      });
      await Promise.race([loaded, sleep(request.options.waitMs, signal)]);
      if (signal.aborted) throw signal.reason;
      await waitForQuiet(
        request.options.waitMs,
        { inFlight: () => current.inFlight, quietMs: () => performance.now() - current.lastNetwork },
        async () => Number(await wc.executeJavaScript(DOM_QUIET_EXPRESSION)),
        signal,
      );
      if (signal.aborted) throw signal.reason;
      for (const frame of wc.mainFrame.framesInSubtree.slice(0, DOWNLOAD_FRAMES_MAX))
        recordLinkDownloads(log, await frame.executeJavaScript(LINK_DOWNLOADS_EXPRESSION).catch(() => null));
      const html = String(await wc.executeJavaScript(SERIALISE_EXPRESSION));
      return log.result(html, elapsed(), null);
    } catch (err) {
      return log.result(null, elapsed(), signal.aborted ? errorText(signal.reason) : errorText(err));
    } finally {
      signal.removeEventListener('abort', onAbort);
      fetches.abort();
      if (!win.isDestroyed()) win.destroy();
      this.window = null;
      this.current = null;
      // The next page starts with nothing of this one: no cookie, storage or cache entry.
      await this.session.clearStorageData().catch(() => {});
    }
  }

  /** Pop-ups, navigation away, console errors, renderer crashes. */
  private guard(wc: WebContents, request: RenderRequest, log: RenderLog): void {
    wc.setWindowOpenHandler((details) => {
      log.blocked(details.url, 'pop-up');
      return { action: 'deny' };
    });
    wc.on('will-navigate', (event, url) => {
      event.preventDefault();
      if (isNavigationAway(request.url, url)) log.redirect(url);
    });
    wc.on('will-redirect', (event) => event.preventDefault());
    wc.on('will-attach-webview', (event) => event.preventDefault());
    wc.on('console-message', (event) => {
      const { level, message } = event as unknown as { level: string; message: string };
      if (level === 'error' && !message.startsWith('Failed to load resource')) log.consoleError(message);
    });
    wc.on('render-process-gone', (_event, details) => {
      log.pageError(`renderer process gone: ${details.reason}`);
    });
  }

  /** Viewport emulation, the quiet-tracking script, dialogs dismissed and uncaught exceptions, over DevTools. */
  private async prepare(wc: WebContents, request: RenderRequest): Promise<void> {
    const { viewport } = request.options;
    const dbg = wc.debugger;
    dbg.attach('1.3');
    dbg.on('message', (_event, method, params: Record<string, unknown>) => {
      if (method === 'Page.javascriptDialogOpening') {
        this.current?.log.blocked(request.url, `dialog (${String(params['type'])})`);
        void dbg.sendCommand('Page.handleJavaScriptDialog', { accept: false }).catch(() => {});
      } else if (method === 'Runtime.exceptionThrown') {
        const details = params['exceptionDetails'] as { text?: string; exception?: { description?: string } } | undefined;
        const text = details?.exception?.description?.split('\n')[0] ?? details?.text ?? 'uncaught exception';
        this.current?.log.pageError(text);
      }
    });
    await dbg.sendCommand('Page.enable');
    await dbg.sendCommand('Runtime.enable');
    await dbg.sendCommand('Page.addScriptToEvaluateOnNewDocument', { source: PAGE_INIT_SCRIPT });
    await dbg.sendCommand('Emulation.setDeviceMetricsOverride', {
      width: viewport.width,
      height: viewport.height,
      deviceScaleFactor: 0,
      mobile: viewport.mobile,
    });
    await dbg.sendCommand('Emulation.setTouchEmulationEnabled', { enabled: viewport.mobile });
  }
}

export interface ElectronRendererOptions {
  /** The crawl's id: names its partitions (in memory, never the app's session). */
  crawlId: string;
  /** Pages rendering at once (one slot, one partition, each). */
  concurrency: number;
  pagesPerBrowser?: number;
  renderTimeoutMs?: (request: RenderRequest) => number;
}

/** The partition of a crawl's render slot: in memory (no "persist:" prefix), one per slot and generation. */
export function renderPartition(crawlId: string, slot: number, generation: number): string {
  return `trawl-render-${crawlId.replace(/[^A-Za-z0-9_-]/g, '_')}-${slot}-${generation}`;
}

/** N slots, each a RenderPool of one page at a time; a render goes to a free slot. */
export class ElectronRenderer implements Renderer {
  private readonly slots: { pool: RenderPool; busy: boolean }[] = [];
  private readonly waiting: (() => void)[] = [];

  constructor(options: ElectronRendererOptions) {
    for (let i = 0; i < Math.max(1, options.concurrency); i++) {
      let generation = 0;
      const pool = new RenderPool(
        async () => {
          const partition = renderPartition(options.crawlId, i, generation++);
          return new ElectronRenderSlot(electronSession.fromPartition(partition, { cache: true }), partition);
        },
        {
          concurrency: 1,
          ...(options.pagesPerBrowser !== undefined && { pagesPerBrowser: options.pagesPerBrowser }),
          ...(options.renderTimeoutMs !== undefined && { renderTimeoutMs: options.renderTimeoutMs }),
        },
      );
      this.slots.push({ pool, busy: false });
    }
  }

  async render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult> {
    let slot = this.slots.find((s) => !s.busy);
    while (!slot) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      slot = this.slots.find((s) => !s.busy);
    }
    slot.busy = true;
    try {
      return await slot.pool.render(request, fetcher, signal);
    } finally {
      slot.busy = false;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.pool.close()));
    for (const wake of this.waiting.splice(0)) wake();
  }
}
