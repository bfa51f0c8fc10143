// The render decisions both browsers share (render-policy.ts), finding Chromium, and the render pool's own logic
// (concurrency, retirement, timeouts, kill, launch failure) over stand-in browsers: no Chromium needed.
import { describe, expect, it } from 'vitest';
import { ChromiumNotFoundError, findChromium } from '../../electron/engine/render/find-chromium.ts';
import {
  RenderLog,
  blockReason,
  blockRules,
  documentHeaders,
  documentStatus,
  isNavigationAway,
  recordLinkDownloads,
  resourceHeaders,
  waitForQuiet,
} from '../../electron/engine/render/render-policy.ts';
import { RenderPool } from '../../electron/engine/render/render-pool.ts';
import type { PooledBrowser } from '../../electron/engine/render/render-pool.ts';
import { RENDER_LIMITS } from '../../electron/engine/render/renderer.ts';
import type { RenderOptions, RenderRequest, RenderResult } from '../../electron/engine/render/renderer.ts';

const OPTIONS: RenderOptions = {
  waitMs: 1000,
  viewport: { width: 1280, height: 800, mobile: false },
  userAgent: 'ua',
  blockPatterns: ['google-analytics\\.com', '/ads/'],
};

describe('what a render never loads', () => {
  const rules = blockRules(OPTIONS);
  it('blocks media, event streams, sockets, pings and the block patterns; lets scripts, styles, fetches and images through', () => {
    expect(blockReason('https://a.test/v.mp4', 'media', rules)).toBe('media');
    expect(blockReason('https://a.test/s', 'eventsource', rules)).toBe('eventsource');
    expect(blockReason('wss://a.test/s', 'websocket', rules)).toBe('scheme not crawled');
    expect(blockReason('https://a.test/s', 'webSocket', rules)).toBe('websocket');
    expect(blockReason('https://a.test/beacon', 'ping', rules)).toBe('ping');
    expect(blockReason('https://www.google-analytics.com/analytics.js', 'script', rules)).toBe('block pattern');
    expect(blockReason('https://a.test/ads/banner.png', 'image', rules)).toBe('block pattern');
    expect(blockReason('ftp://a.test/x', 'other', rules)).toBe('scheme not crawled');
    for (const type of ['script', 'stylesheet', 'fetch', 'xhr', 'image', 'font', 'document', 'subFrame']) {
      expect(blockReason('https://a.test/app', type, rules)).toBeNull();
    }
  });
  it('blocks fonts only when asked', () => {
    expect(blockReason('https://a.test/f.woff2', 'font', blockRules({ ...OPTIONS, blockFonts: true }))).toBe('font');
    expect(blockReason('https://a.test/f.woff2', 'font', rules)).toBeNull();
  });
});

describe('how the crawl answers the browser', () => {
  it("hands over the document as UTF-8, without the transfer the crawl undid and without a redirect's Location", () => {
    expect(
      documentHeaders({
        'Content-Type': 'text/html; charset=ISO-8859-1',
        'content-encoding': 'gzip',
        'content-length': '120',
        location: '/elsewhere',
        'x-robots-tag': 'noindex',
        'set-cookie': 'a=1',
      }),
    ).toEqual({ 'content-type': 'text/html; charset=utf-8', 'x-robots-tag': 'noindex', 'set-cookie': 'a=1' });
    expect(documentHeaders({})).toEqual({ 'content-type': 'text/html; charset=utf-8' });
    expect(documentStatus(200)).toBe(200);
    expect(documentStatus(404)).toBe(404);
    expect(documentStatus(301)).toBe(200);
    expect(documentStatus(204)).toBe(200);
    expect(resourceHeaders({ 'Content-Encoding': 'br', 'content-type': 'text/javascript', 'Transfer-Encoding': 'chunked' })).toEqual({
      'content-type': 'text/javascript',
    });
  });
  it('tells a navigation away from a change of fragment', () => {
    expect(isNavigationAway('https://a.test/p', 'https://a.test/p#x')).toBe(false);
    expect(isNavigationAway('https://a.test/p#y', 'https://a.test/p')).toBe(false);
    expect(isNavigationAway('https://a.test/p', 'https://a.test/q')).toBe(true);
    expect(isNavigationAway('https://a.test/p', 'https://a.test/p?x=1')).toBe(true);
  });
});

describe('what a render records', () => {
  it('keeps at most RENDER_LIMITS.messages of each, each cut to RENDER_LIMITS.messageChars, and the first redirect', () => {
    const log = new RenderLog();
    for (let i = 0; i < RENDER_LIMITS.messages + 20; i++) {
      log.consoleError('e'.repeat(RENDER_LIMITS.messageChars + 100));
      log.pageError(`p${i}`);
      log.failed(`u${i}`, 'r');
      log.blocked(`u${i}`, 'r');
    }
    log.redirect('https://a.test/first');
    log.redirect('https://a.test/second');
    const result = log.result('<html></html>', 12, null);
    expect(result.consoleErrors).toHaveLength(RENDER_LIMITS.messages);
    expect(result.consoleErrors[0]).toHaveLength(RENDER_LIMITS.messageChars);
    expect(result.pageErrors).toHaveLength(RENDER_LIMITS.messages);
    expect(result.failedResources).toHaveLength(RENDER_LIMITS.messages);
    expect(result.blockedResources).toHaveLength(RENDER_LIMITS.messages);
    expect(result.jsRedirect).toBe('https://a.test/first');
    expect(result.error).toBeNull();
  });
  it('cuts a rendered DOM past RENDER_LIMITS.htmlChars and says so', () => {
    const result = new RenderLog().result('x'.repeat(RENDER_LIMITS.htmlChars + 10), 1, null);
    expect(result.html).toHaveLength(RENDER_LIMITS.htmlChars);
    expect(result.error).toMatch(/cut/);
  });
  it("takes the page's list of link downloads as data: strings only, no more than the log keeps", () => {
    const log = new RenderLog();
    recordLinkDownloads(log, 'not a list');
    recordLinkDownloads(log, { length: 3 });
    recordLinkDownloads(log, ['https://a.test/file.bin', 42, null, { url: 'x' }, 'blob:https://a.test/id']);
    expect(log.blockedResources).toEqual([
      { url: 'https://a.test/file.bin', reason: 'download' },
      { url: 'blob:https://a.test/id', reason: 'download' },
    ]);
    recordLinkDownloads(
      log,
      Array.from({ length: 10_000 }, (_, i) => `https://a.test/${i}`),
    );
    expect(log.blockedResources).toHaveLength(RENDER_LIMITS.messages);
  });
});

describe('waiting for quiet', () => {
  const never = new AbortController().signal;
  it('ends once the network and the DOM have been quiet', async () => {
    const started = Date.now();
    expect(await waitForQuiet(10_000, { inFlight: () => 0, quietMs: () => 1_000 }, async () => 1_000, never)).toBe('quiet');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
  it('ends at the wait while a request is in flight or the DOM keeps changing', async () => {
    expect(await waitForQuiet(300, { inFlight: () => 1, quietMs: () => 1_000 }, async () => 1_000, never)).toBe('waited');
    expect(await waitForQuiet(300, { inFlight: () => 0, quietMs: () => 1_000 }, async () => 10, never)).toBe('waited');
    expect(await waitForQuiet(300, { inFlight: () => 0, quietMs: () => 10 }, async () => 1_000, never)).toBe('waited');
  });
});

describe('finding Chromium', () => {
  const env = { PATH: '/usr/local/bin:/usr/bin' };
  it('takes an explicit path, or refuses it', () => {
    expect(findChromium({ explicit: '/opt/c/chrome', env, platform: 'linux', isExecutable: (f) => f === '/opt/c/chrome' })).toBe(
      '/opt/c/chrome',
    );
    expect(() => findChromium({ explicit: '/nope', env, platform: 'linux', isExecutable: () => false })).toThrow(/--chromium \/nope/);
  });
  it('looks on PATH by name, then at the install paths', () => {
    expect(findChromium({ env, platform: 'linux', isExecutable: (f) => f === '/usr/bin/google-chrome' })).toBe('/usr/bin/google-chrome');
    expect(findChromium({ env: {}, platform: 'linux', isExecutable: (f) => f === '/opt/google/chrome/chrome' })).toBe(
      '/opt/google/chrome/chrome',
    );
  });
  it('says what it tried and how to get one', () => {
    let error: unknown;
    try {
      findChromium({ env, platform: 'linux', isExecutable: () => false });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ChromiumNotFoundError);
    const message = (error as Error).message;
    for (const tried of [
      'chromium on PATH',
      'chromium-browser on PATH',
      'google-chrome on PATH',
      'google-chrome-stable on PATH',
      '/snap/bin/chromium',
    ]) {
      expect(message).toContain(tried);
    }
    expect(message).toContain('apt-get install chromium');
    expect(message).toContain('--chromium PATH');
  });
});

/** A stand-in browser: renders take `renderMs`, or never end (`stuck`), or ignore their abort (`deaf`). */
class FakeBrowser implements PooledBrowser {
  dead = false;
  closed = false;
  killed = false;
  renders = 0;
  active = 0;
  static mostActive = 0;
  constructor(private readonly behaviour: (url: string) => 'ok' | 'stuck' | 'deaf') {}
  pids(): number[] {
    return [];
  }
  kill(): void {
    this.killed = true;
    this.dead = true;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  render(request: RenderRequest, _fetcher: unknown, signal: AbortSignal): Promise<RenderResult> {
    this.renders++;
    this.active++;
    FakeBrowser.mostActive = Math.max(FakeBrowser.mostActive, this.active);
    const how = this.behaviour(request.url);
    const done = (error: string | null): RenderResult => {
      this.active--;
      return new RenderLog().result(error ? null : '<html></html>', 1, error);
    };
    return new Promise((resolve) => {
      if (how === 'ok') setTimeout(() => resolve(done(null)), 20);
      if (how === 'stuck') signal.addEventListener('abort', () => resolve(done(String((signal.reason as Error).message))));
      // 'deaf': never resolves.
    });
  }
}

const request = (url: string): RenderRequest => ({ url, status: 200, headers: {}, html: '', options: OPTIONS });
const never = new AbortController().signal;
const noFetch = async () => ({ kind: 'failed' as const, reason: 'none' });

describe('render pool logic', () => {
  it('renders at most its concurrency at once and retires each browser after its pages', async () => {
    const browsers: FakeBrowser[] = [];
    FakeBrowser.mostActive = 0;
    const pool = new RenderPool(
      async () => {
        const b = new FakeBrowser(() => 'ok');
        browsers.push(b);
        return b;
      },
      { concurrency: 3, pagesPerBrowser: 10 },
    );
    const results = await Promise.all(Array.from({ length: 45 }, (_, i) => pool.render(request(`https://a.test/${i}`), noFetch, never)));
    expect(results.every((r) => r.error === null)).toBe(true);
    expect(FakeBrowser.mostActive).toBeLessThanOrEqual(3);
    expect(browsers.map((b) => b.renders)).toEqual([10, 10, 10, 10, 5]);
    await pool.close();
    expect(browsers.every((b) => b.closed)).toBe(true);
  });

  it('times a render out, and kills a browser whose page does not let go', async () => {
    const browsers: FakeBrowser[] = [];
    const pool = new RenderPool(
      async () => {
        const b = new FakeBrowser((url) => (url.endsWith('stuck') ? 'stuck' : url.endsWith('deaf') ? 'deaf' : 'ok'));
        browsers.push(b);
        return b;
      },
      { concurrency: 1, renderTimeoutMs: () => 100 },
    );
    expect((await pool.render(request('https://a.test/stuck'), noFetch, never)).error).toBe('render timeout');
    expect(browsers[0]?.killed).toBe(false);
    expect((await pool.render(request('https://a.test/deaf'), noFetch, never)).error).toBe('render timeout');
    expect(browsers[0]?.killed).toBe(true);
    const next = await pool.render(request('https://a.test/ok'), noFetch, never);
    expect(next.error).toBeNull();
    expect(browsers).toHaveLength(2);
    expect(pool.stats).toMatchObject({ timedOut: 2, killed: 1, launched: 2 });
    await pool.close();
  }, 20_000);

  it('returns a launch failure as the render error and tries again for the next page', async () => {
    let launches = 0;
    const pool = new RenderPool(
      async () => {
        launches++;
        if (launches === 1) throw new Error('no display');
        return new FakeBrowser(() => 'ok');
      },
      { concurrency: 1 },
    );
    expect((await pool.render(request('https://a.test/1'), noFetch, never)).error).toBe('browser launch failed: no display');
    expect((await pool.render(request('https://a.test/2'), noFetch, never)).error).toBeNull();
    await pool.close();
    expect((await pool.render(request('https://a.test/3'), noFetch, never)).error).toBe('renderer closed');
  });
});
