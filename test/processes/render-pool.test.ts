// The render pool over Debian's Chromium, on fixture sites of its own: what a render sees (script-made titles,
// links and directives, with every sub-resource through the crawl's fetcher), what it refuses (pop-ups, dialogs,
// downloads, blocked patterns, navigation away), how it ends (quiet, the wait, the hard timeout) and that it leaves
// no browser behind. Times are bounded only loosely (hang guards).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stillRunning, readProc } from '../../electron/engine/render/proc.ts';
import { createPlaywrightRenderer } from '../../electron/engine/render/playwright-renderer.ts';
import type { RenderPool } from '../../electron/engine/render/render-pool.ts';
import { countingFetcher, fetchDocument, serveSite, testChromium } from '../helpers/render-fixtures.ts';
import type { FixtureSite } from '../helpers/render-fixtures.ts';

const chromium = testChromium();
const describeWithChromium = chromium.path
  ? describe
  : (name: string, fn: () => void) => describe.skip(`${name} (skipped: ${chromium.why})`, fn);

const SHELL = (script: string) =>
  `<!DOCTYPE html><html><head><title>Loading</title></head><body><div id="app"></div><script>${script}</script></body></html>`;

const never = new AbortController().signal;

describeWithChromium('render pool (playwright-core, system Chromium)', () => {
  let site: FixtureSite;
  let pool: RenderPool;

  beforeAll(async () => {
    site = await serveSite({
      // A client-rendered page: its title and links exist only after a fetch of JSON.
      '/app/': {
        body: '<!DOCTYPE html><html><head><title></title><script src="/static/app.js" defer></script></head><body><div id="root"></div></body></html>',
      },
      '/static/app.js': {
        type: 'text/javascript',
        body: `fetch('/api/page.json').then((r) => r.json()).then((page) => {
          document.title = page.title;
          for (const href of page.links) {
            const a = document.createElement('a');
            a.href = href;
            a.textContent = href;
            document.getElementById('root').append(a);
          }
        });`,
      },
      '/api/page.json': { type: 'application/json', body: JSON.stringify({ title: 'Made by script', links: ['/app/one', '/app/two'] }) },
      '/directives': {
        body: SHELL(`setTimeout(() => {
          const meta = document.createElement('meta'); meta.name = 'robots'; meta.content = 'noindex';
          const link = document.createElement('link'); link.rel = 'canonical'; link.href = 'https://example.com/canonical';
          document.head.append(meta, link);
        }, 100);`),
      },
      '/busy': {
        body: SHELL(`let n = 0;
          setInterval(() => { document.getElementById('app').textContent = 'tick ' + (++n); fetch('/tick?' + n).catch(() => {}); }, 100);
          fetch('/forever').catch(() => {});`),
      },
      '/tick': { type: 'text/plain', body: 'ok' },
      '/forever': { body: '', hang: true },
      '/loop': { body: SHELL('document.title = "spinning"; while (true) {}') },
      '/late-loop': { body: SHELL('setTimeout(() => { for (;;) {} }, 50);') },
      '/quiet': { body: SHELL('document.title = "quiet page";') },
      '/hostile': {
        body: SHELL(`
          // What the crawl's page script reads of a click, replaced before any: it kept the originals.
          Event.prototype.composedPath = () => [];
          Event.prototype.preventDefault = () => {};
          Element.prototype.hasAttribute = () => false;
          const popup = window.open('/popup-target');
          alert('alert!'); confirm('confirm?'); prompt('prompt?');
          const blob = document.createElement('a');
          blob.href = URL.createObjectURL(new Blob(['data'], { type: 'application/octet-stream' }));
          blob.download = 'blob.bin';
          document.body.append(blob);
          blob.click();
          const file = document.createElement('a');
          file.href = '/file.bin';
          file.download = 'file.bin';
          document.body.append(file);
          file.click();
          navigator.geolocation.getCurrentPosition(() => { document.body.dataset.geo = 'granted'; }, () => { document.body.dataset.geo = 'denied'; });
          document.title = 'went on';`),
      },
      // A link download in a frame of the page.
      '/framed-download': {
        body: '<!DOCTYPE html><html><head><title>framed</title></head><body><iframe src="/frame-inner"></iframe></body></html>',
      },
      '/frame-inner': {
        body: SHELL(
          `const a = document.createElement('a'); a.href = '/inner.bin'; a.download = 'inner.bin'; document.body.append(a); a.click();`,
        ),
      },
      '/inner.bin': { type: 'application/octet-stream', body: 'z'.repeat(1000) },
      // A link downloaded without being in the document: not in a click's path, so the browser's download event.
      '/detached-download': {
        body: SHELL(`const a = document.createElement('a'); a.href = '/detached.bin'; a.download = 'detached.bin'; a.click();
          document.title = 'went on';`),
      },
      '/detached.bin': {
        type: 'application/octet-stream',
        headers: { 'content-disposition': 'attachment; filename=detached.bin' },
        body: 'y'.repeat(1000),
      },
      '/popup-target': { body: '<title>popup</title>' },
      '/file.bin': {
        type: 'application/octet-stream',
        headers: { 'content-disposition': 'attachment; filename=file.bin' },
        body: 'x'.repeat(1000),
      },
      '/tracked': {
        body: '<!DOCTYPE html><html><head><title>t</title><script src="/js/analytics.js"></script><script src="/js/app.js"></script></head><body></body></html>',
      },
      '/js/analytics.js': { type: 'text/javascript', body: 'document.documentElement.dataset.tracked = "yes";' },
      '/js/app.js': { type: 'text/javascript', body: 'document.documentElement.dataset.app = "ran";' },
      '/leaves': { body: SHELL(`setTimeout(() => { location.href = '/elsewhere?from=script'; }, 50);`) },
      '/leaves-at-once': {
        body: '<!DOCTYPE html><html><head><script>location.replace("/target");</script></head><body>stay</body></html>',
      },
      '/elsewhere': { body: '<title>elsewhere</title>' },
      '/target': { body: '<title>target</title>' },
      '/set-state': {
        body: SHELL(`document.cookie = 'visited=1; path=/'; localStorage.setItem('seen', 'yes'); sessionStorage.setItem('s', '1');
          document.title = 'set';`),
      },
      '/read-state': {
        body: SHELL(`document.title = 'cookie=[' + document.cookie + '] storage=[' + localStorage.getItem('seen') + ']';`),
      },
      '/viewport': {
        // A mobile viewport lays out at device width when the page asks for it (else at 980 px, as phones do).
        body: `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"><title></title></head><body><script>
          document.title = innerWidth + 'x' + innerHeight + ' ' + navigator.userAgent + ' touch=' + ('ontouchstart' in window);</script></body></html>`,
      },
      '/errors': {
        body: SHELL(`console.error('console says no'); console.log('not an error');
          fetch('/missing.json');
          setTimeout(() => { throw new TypeError('thrown later'); }, 10);`),
      },
    });
    pool = createPlaywrightRenderer({
      executablePath: chromium.path as string,
      concurrency: 2,
      pagesPerBrowser: 100,
      // Short for the spinning pages, whose timeout is what a test waits for; long for the others, whose renders
      // took over 10 s while another suite ran sixty renders beside them (this one's busy page then timed out).
      renderTimeoutMs: (request) => 2 * request.options.waitMs + (/\/(late-)?loop$/.test(request.url) ? 8_000 : 30_000),
    });
  });

  afterAll(async () => {
    await pool?.close();
    await site?.close();
  });

  it('renders a client-rendered page: title and links made after a fetch of JSON, every sub-resource through the fetcher, the document not fetched again', async () => {
    const fetcher = countingFetcher();
    const result = await pool.render(await fetchDocument(`${site.origin}/app/`), fetcher, never);
    expect(result.error).toBeNull();
    expect(result.html).toContain('<title>Made by script</title>');
    expect(result.html).toContain('<a href="/app/one">');
    expect(result.html).toContain('<a href="/app/two">');
    expect(result.html?.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(fetcher.calls.map((c) => [new URL(c.url).pathname, c.type])).toEqual([
      ['/static/app.js', 'script'],
      ['/api/page.json', 'fetch'],
    ]);
    // The server saw the document once (the crawl's fetch) and each sub-resource once (the fetcher's).
    expect(Object.fromEntries(site.hits)).toMatchObject({ '/app/': 1, '/static/app.js': 1, '/api/page.json': 1 });
    expect(result.renderMs).toBeGreaterThan(0);
  });

  it('sees a noindex and a canonical that a script injected', async () => {
    const result = await pool.render(await fetchDocument(`${site.origin}/directives`), countingFetcher(), never);
    expect(result.error).toBeNull();
    expect(result.html).toContain('<meta name="robots" content="noindex">');
    expect(result.html).toContain('<link rel="canonical" href="https://example.com/canonical">');
  });

  it('ends a page that never goes quiet (timers, endless requests) at the wait, with its DOM', async () => {
    const fetcher = countingFetcher();
    const started = Date.now();
    const result = await pool.render(await fetchDocument(`${site.origin}/busy`, { waitMs: 1_500 }), fetcher, never);
    expect(result.error).toBeNull();
    expect(result.html).toMatch(/tick \d+/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(fetcher.calls.some((c) => c.url.endsWith('/forever'))).toBe(true);
  });

  it('ends a quiet page before its wait', async () => {
    const result = await pool.render(await fetchDocument(`${site.origin}/quiet`, { waitMs: 60_000 }), countingFetcher(), never);
    expect(result.error).toBeNull();
    expect(result.html).toContain('<title>quiet page</title>');
    expect(result.renderMs).toBeLessThan(30_000);
  });

  it('gives "render timeout" for a script that never yields, and the next render in the same pool succeeds', async () => {
    const timedOut = pool.stats.timedOut;
    for (const path of ['/loop', '/late-loop']) {
      const started = Date.now();
      const result = await pool.render(await fetchDocument(`${site.origin}${path}`, { waitMs: 1_000 }), countingFetcher(), never);
      expect(result.error).toBe('render timeout');
      expect(result.html).toBeNull();
      expect(Date.now() - started).toBeLessThan(40_000);
      const next = await pool.render(await fetchDocument(`${site.origin}/quiet`), countingFetcher(), never);
      expect(next.error).toBeNull();
      expect(next.html).toContain('<title>quiet page</title>');
    }
    expect(pool.stats.timedOut).toBe(timedOut + 2);
  });

  it('blocks pop-ups, dialogs, downloads and permission requests, and the script goes on', async () => {
    const fetcher = countingFetcher();
    const result = await pool.render(await fetchDocument(`${site.origin}/hostile`), fetcher, never);
    expect(result.error).toBeNull();
    expect(result.html).toContain('<title>went on</title>');
    const blocked = result.blockedResources.map((b) => `${b.reason} ${b.url.replace(site.origin, '')}`);
    expect(blocked).toContain('pop-up /popup-target');
    expect(blocked).toEqual(expect.arrayContaining(['dialog (alert) /hostile', 'dialog (confirm) /hostile', 'dialog (prompt) /hostile']));
    // Both link downloads are refused in the page, before Chromium asks the site for the file (its download
    // manager would fetch it past the routes) or holds the second as an automatic download.
    expect(blocked.filter((b) => b.startsWith('download ')).map((b) => b.replace(/[0-9a-f-]{36}$/, 'ID'))).toEqual([
      'download blob:/ID',
      'download /file.bin',
    ]);
    expect(site.hits.get('/file.bin')).toBeUndefined();
    expect(result.html).toContain('data-geo="denied"');
    // The pop-up never loaded anything.
    expect(site.hits.get('/popup-target')).toBeUndefined();
    expect(fetcher.calls.some((c) => c.url.endsWith('/popup-target'))).toBe(false);
  });

  it('refuses and records a link download in a frame of the page', async () => {
    const fetcher = countingFetcher();
    const result = await pool.render(await fetchDocument(`${site.origin}/framed-download`), fetcher, never);
    expect(result.error).toBeNull();
    // The frame itself came through the crawl's fetcher; its download was refused in it.
    expect(fetcher.calls.map((c) => new URL(c.url).pathname)).toContain('/frame-inner');
    expect(result.blockedResources).toEqual([{ url: `${site.origin}/inner.bin`, reason: 'download' }]);
    expect(site.hits.get('/inner.bin')).toBeUndefined();
  });

  it('refuses a download the page script cannot see (a link not in the document) at the browser, records it, and the site never sees it', async () => {
    const result = await pool.render(await fetchDocument(`${site.origin}/detached-download`), countingFetcher(), never);
    expect(result.error).toBeNull();
    expect(result.html).toContain('<title>went on</title>');
    expect(result.blockedResources).toEqual([{ url: `${site.origin}/detached.bin`, reason: 'download' }]);
    // Chromium's download manager asked for the file past the routes: it met the browser's dead proxy, not the site.
    expect(site.hits.get('/detached.bin')).toBeUndefined();
  });

  it('does not load sub-resources matching the block patterns, and records them', async () => {
    const fetcher = countingFetcher();
    const result = await pool.render(
      await fetchDocument(`${site.origin}/tracked`, { blockPatterns: ['/analytics\\.js$'] }),
      fetcher,
      never,
    );
    expect(result.error).toBeNull();
    expect(result.blockedResources).toEqual([{ url: `${site.origin}/js/analytics.js`, reason: 'block pattern' }]);
    expect(result.html).toContain('data-app="ran"');
    expect(result.html).not.toContain('data-tracked');
    expect(site.hits.get('/js/analytics.js')).toBeUndefined();
    expect(fetcher.calls.map((c) => c.url)).toEqual([`${site.origin}/js/app.js`]);
  });

  it('records a script navigating away as a JavaScript redirect without following it', async () => {
    const later = await pool.render(await fetchDocument(`${site.origin}/leaves`), countingFetcher(), never);
    expect(later.error).toBeNull();
    expect(later.jsRedirect).toBe(`${site.origin}/elsewhere?from=script`);
    expect(later.html).toContain('<title>Loading</title>');
    const atOnce = await pool.render(await fetchDocument(`${site.origin}/leaves-at-once`), countingFetcher(), never);
    expect(atOnce.error).toBeNull();
    expect(atOnce.jsRedirect).toBe(`${site.origin}/target`);
    expect(site.hits.get('/elsewhere')).toBeUndefined();
    expect(site.hits.get('/target')).toBeUndefined();
  });

  it('gives every page a fresh context: no cookie or storage from an earlier page', async () => {
    const set = await pool.render(await fetchDocument(`${site.origin}/set-state`), countingFetcher(), never);
    expect(set.html).toContain('<title>set</title>');
    const read = await pool.render(await fetchDocument(`${site.origin}/read-state`), countingFetcher(), never);
    expect(read.html).toContain('<title>cookie=[] storage=[null]</title>');
  });

  it('renders with the viewport and user agent it is given', async () => {
    const mobile = await pool.render(
      await fetchDocument(`${site.origin}/viewport`, { viewport: { width: 390, height: 844, mobile: true }, userAgent: 'TrawlPhone/1.0' }),
      countingFetcher(),
      never,
    );
    expect(mobile.html).toContain('<title>390x844 TrawlPhone/1.0 touch=true</title>');
    const desktop = await pool.render(
      await fetchDocument(`${site.origin}/viewport`, { viewport: { width: 1366, height: 768, mobile: false }, userAgent: 'TrawlDesk/1.0' }),
      countingFetcher(),
      never,
    );
    expect(desktop.html).toContain('<title>1366x768 TrawlDesk/1.0 touch=false</title>');
  });

  it('records console errors, uncaught exceptions and failed resources', async () => {
    const result = await pool.render(await fetchDocument(`${site.origin}/errors`), countingFetcher(), never);
    expect(result.error).toBeNull();
    expect(result.consoleErrors).toEqual(['console says no']);
    expect(result.pageErrors).toEqual(['TypeError: thrown later']);
    expect(result.failedResources).toEqual([{ url: `${site.origin}/missing.json`, reason: 'HTTP 404' }]);
  });

  it('renders at most its concurrency at once', async () => {
    let active = 0;
    let most = 0;
    const renders = [0, 1, 2, 3, 4].map(async () => {
      const fetcher = countingFetcher();
      let started = false;
      const counted = Object.assign(
        (url: string, type: string, signal: AbortSignal) => {
          if (!started) {
            started = true;
            active++;
            most = Math.max(most, active);
          }
          return fetcher(url, type, signal);
        },
        { calls: fetcher.calls },
      );
      const result = await pool.render(await fetchDocument(`${site.origin}/busy`, { waitMs: 1_000 }), counted, never);
      if (started) active--;
      return result;
    });
    for (const result of await Promise.all(renders)) expect(result.error).toBeNull();
    expect(most).toBe(2);
  });

  it('ends a render its caller cancels', async () => {
    const controller = new AbortController();
    const busy = pool.render(await fetchDocument(`${site.origin}/busy`, { waitMs: 30_000 }), countingFetcher(), controller.signal);
    setTimeout(() => controller.abort(), 1_000);
    const result = await busy;
    expect(result.error).toBe('render cancelled');
  });

  it('leaves no browser process after close()', async () => {
    const other = createPlaywrightRenderer({ executablePath: chromium.path as string, concurrency: 2 });
    const rendering = other.render(await fetchDocument(`${site.origin}/busy`, { waitMs: 20_000 }), countingFetcher(), never);
    // Mid-render: wait until the browser runs.
    for (let i = 0; i < 300 && other.browserPids().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1_000));
    const processes = other.browserPids().map((pid) => ({ pid, startTime: readProc(pid)?.startTime ?? -1 }));
    expect(processes.length).toBeGreaterThan(1);
    await other.close();
    expect((await rendering).error).toBe('renderer closed');
    expect(processes.filter((p) => stillRunning(p.pid, p.startTime))).toEqual([]);
    expect(other.browserPids()).toEqual([]);
    // A closed pool renders nothing.
    expect((await other.render(await fetchDocument(`${site.origin}/quiet`), countingFetcher(), never)).error).toBe('renderer closed');
  });
});
