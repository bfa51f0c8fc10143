// The Renderer the engine uses: a pool over browsers. At most `concurrency` pages render at once; each browser is
// retired after `pagesPerBrowser` renders (closed once its last render ends, a fresh one launched for the next) so
// memory a browser keeps across pages stays bounded; a launch and every render run under a hard timeout. A page
// whose script never yields (`while (true) {}`) is torn down by its browser (the context closed, which kills its
// renderer process from the browser's side); when even that does not end the render within KILL_GRACE_MS the
// whole browser is killed. Either way the render returns "render timeout" and the pool goes on with a fresh
// browser. close() closes everything and resolves once no process of any of its browsers is left.
import { errorText, failedRender, renderTimeoutMs } from './render-policy.ts';
import type { RenderRequest, RenderResult, Renderer, ResourceFetcher } from './renderer.ts';

/** One browser the pool drives (playwright's Chromium, or a slot of Electron's). */
export interface PooledBrowser {
  /**
   * Renders one page. When `signal` aborts (timeout, the caller, close) the render must end its page at once and
   * resolve with `error` set to the abort reason's message.
   */
  render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult>;
  /** Closes the browser; resolves once its processes are gone (the pool bounds how long it waits). */
  close(): Promise<void>;
  /** Kills the browser's processes at once (SIGKILL); for a browser that does not answer. */
  kill(): void;
  /** Whether the browser died or disconnected by itself (crash): the pool replaces it. */
  readonly dead: boolean;
  /** Its processes' ids (empty where they cannot be known). */
  pids(): number[];
}

export type BrowserLauncher = (signal: AbortSignal) => Promise<PooledBrowser>;

export interface RenderPoolOptions {
  /** Pages rendering at once. */
  concurrency: number;
  /** Renders a browser serves before it is retired. */
  pagesPerBrowser?: number;
  launchTimeoutMs?: number;
  /** A render's hard timeout; by default its wait plus RENDER_OVERHEAD_MS (render-policy.ts). */
  renderTimeoutMs?: (request: RenderRequest) => number;
}

export const DEFAULT_PAGES_PER_BROWSER = 100;
export const DEFAULT_LAUNCH_TIMEOUT_MS = 30_000;
/** How long a timed-out render may take to end its page before its browser is killed. */
export const KILL_GRACE_MS = 5_000;
/** How long close() lets a browser close itself before killing it. */
export const CLOSE_GRACE_MS = 5_000;

interface Slot {
  browser: PooledBrowser;
  started: number;
  active: number;
  retired: boolean;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function delay(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

export class RenderPool implements Renderer {
  private readonly concurrency: number;
  private readonly pagesPerBrowser: number;
  private readonly launchTimeoutMs: number;
  private readonly timeoutFor: (request: RenderRequest) => number;
  private readonly slots = new Set<Slot>();
  private current: Slot | null = null;
  private launching: Promise<Slot> | null = null;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closing: Promise<void> | null = null;
  private readonly closeAll = new AbortController();
  /** Browsers launched and renders done, for tests and the bench. */
  readonly stats = { launched: 0, rendered: 0, timedOut: 0, killed: 0 };

  constructor(
    private readonly launch: BrowserLauncher,
    options: RenderPoolOptions,
  ) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency));
    this.pagesPerBrowser = Math.max(1, Math.floor(options.pagesPerBrowser ?? DEFAULT_PAGES_PER_BROWSER));
    this.launchTimeoutMs = options.launchTimeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS;
    this.timeoutFor = options.renderTimeoutMs ?? ((request) => renderTimeoutMs(request.options));
  }

  /** The processes of every browser the pool holds now (for tests and the bench). */
  browserPids(): number[] {
    return [...this.slots].flatMap((slot) => slot.browser.pids());
  }

  async render(request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult> {
    const started = performance.now();
    if (this.closing) return failedRender('renderer closed');
    if (!(await this.acquire(signal))) return failedRender(this.closing ? 'renderer closed' : 'render cancelled');
    try {
      let slot: Slot;
      try {
        slot = await this.slotForRender();
      } catch (err) {
        return failedRender(`browser launch failed: ${errorText(err)}`, Math.round(performance.now() - started));
      }
      slot.started++;
      slot.active++;
      if (slot.started >= this.pagesPerBrowser) this.retire(slot);
      try {
        return await this.renderIn(slot, request, fetcher, signal);
      } finally {
        slot.active--;
        this.stats.rendered++;
        if ((slot.retired || slot.browser.dead) && slot.active === 0) void this.dispose(slot);
      }
    } finally {
      this.release();
    }
  }

  private async renderIn(slot: Slot, request: RenderRequest, fetcher: ResourceFetcher, signal: AbortSignal): Promise<RenderResult> {
    const abort = new AbortController();
    const onCallerAbort = () => abort.abort(new Error('render cancelled'));
    const onClose = () => abort.abort(new Error('renderer closed'));
    signal.addEventListener('abort', onCallerAbort, { once: true });
    this.closeAll.signal.addEventListener('abort', onClose, { once: true });
    if (signal.aborted) onCallerAbort();
    const timeout = setTimeout(() => abort.abort(new Error('render timeout')), this.timeoutFor(request));
    const rendering = slot.browser.render(request, fetcher, abort.signal).catch((err) => failedRender(errorText(err)));
    try {
      // The render ends by itself, or, once aborted, within KILL_GRACE_MS; otherwise its browser is killed.
      const aborted = new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }));
      const first = await Promise.race([rendering, aborted.then(() => null)]);
      const reason = abort.signal.aborted ? errorText(abort.signal.reason) : null;
      if (reason === 'render timeout') this.stats.timedOut++;
      if (first) return first;
      const grace = delay(KILL_GRACE_MS);
      const late = await Promise.race([rendering, grace.promise.then(() => null)]);
      grace.cancel();
      if (late) return late.error ? late : { ...late, error: reason };
      // The page did not let go: kill its browser (its other renders fail and are recorded so).
      this.stats.killed++;
      this.retire(slot);
      slot.browser.kill();
      return failedRender(reason ?? 'render timeout', this.timeoutFor(request) + KILL_GRACE_MS);
    } finally {
      clearTimeout(timeout);
      signal.removeEventListener('abort', onCallerAbort);
      this.closeAll.signal.removeEventListener('abort', onClose);
    }
  }

  private acquire(signal: AbortSignal): Promise<boolean> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        this.closeAll.signal.removeEventListener('abort', onAbort);
        signal.removeEventListener('abort', onAbort);
        resolve(false);
      };
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        this.closeAll.signal.removeEventListener('abort', onAbort);
        this.running++;
        resolve(true);
      };
      if (signal.aborted) return resolve(false);
      signal.addEventListener('abort', onAbort, { once: true });
      this.closeAll.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(go);
    });
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }

  private retire(slot: Slot): void {
    slot.retired = true;
    if (this.current === slot) this.current = null;
  }

  private async slotForRender(): Promise<Slot> {
    const current = this.current;
    if (current && !current.retired && !current.browser.dead) return current;
    if (current) this.retire(current);
    this.launching ??= this.launchSlot().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async launchSlot(): Promise<Slot> {
    const abort = new AbortController();
    const onClose = () => abort.abort(new Error('renderer closed'));
    this.closeAll.signal.addEventListener('abort', onClose, { once: true });
    const timer = setTimeout(() => abort.abort(new Error(`no browser within ${this.launchTimeoutMs} ms`)), this.launchTimeoutMs);
    const launching = this.launch(abort.signal);
    try {
      const aborted = new Promise<never>((_, reject) =>
        abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true }),
      );
      const browser = await Promise.race([launching, aborted]);
      const slot: Slot = { browser, started: 0, active: 0, retired: false };
      this.stats.launched++;
      this.slots.add(slot);
      if (this.closing) {
        void this.dispose(slot);
        throw new Error('renderer closed');
      }
      this.current = slot;
      return slot;
    } catch (err) {
      // A launch that finishes after its timeout: close what it started.
      launching.then((late) => late.close().catch(() => late.kill())).catch(() => {});
      throw err;
    } finally {
      clearTimeout(timer);
      this.closeAll.signal.removeEventListener('abort', onClose);
    }
  }

  private async dispose(slot: Slot): Promise<void> {
    if (!this.slots.has(slot)) return;
    this.slots.delete(slot);
    const grace = delay(CLOSE_GRACE_MS);
    const closed = await Promise.race([
      slot.browser.close().then(
        () => true,
        () => false,
      ),
      grace.promise.then(() => false),
    ]);
    grace.cancel();
    if (!closed) {
      slot.browser.kill();
      await slot.browser.close().catch(() => {});
    }
  }

  /** Ends every render ("renderer closed"), closes every browser; resolves once no browser process is left. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closeAll.abort();
      await this.launching?.catch(() => {});
      // Renders end within KILL_GRACE_MS of the abort; then every browser goes, whatever it was doing.
      await Promise.all([...this.slots].map((slot) => this.dispose(slot)));
    })();
    return this.closing;
  }
}
