// The live view tells the truth about what it knows (issue 15, "live state that is not true"): cut off from the host
// it says so (no green "Running", frozen timers, no crawl controls); a console restarted with a new token is told
// apart from one that is down; a reopened crawl shows its final figures; the running crawl is not an earlier crawl.
import type { CrawlFileInfo } from '../../shared/crawl-info.ts';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import { probeHost } from '../../renderer/src/api/create-api.ts';
import { createWsApi } from '../../renderer/src/api/ws-transport.ts';
import type { SocketConstructor, WsApi } from '../../renderer/src/api/ws-transport.ts';
import type { ConnectionStatus } from '../../renderer/src/api/connection.ts';
import { connectCrawlStore, createCrawlStore } from '../../renderer/src/store/crawl-store.ts';
import { PATIENT_STEPS } from '../../renderer/src/store/crawl-view.ts';
import type { CrawlView } from '../../renderer/src/store/crawl-view.ts';
import { Counters, CrawlControls, StateBadge } from '../../renderer/src/components/TopBar.tsx';
import { ConnectionBanner } from '../../renderer/src/components/Notices.tsx';
import { ThreadSlider } from '../../renderer/src/components/ThreadGrid.tsx';
import { STEP_LABELS } from '../../shared/steps.ts';
import type { ConnectionSource } from '../../renderer/src/api/connection.ts';
import { fakeApi, manualFrames, render, snapshot } from './helpers.ts';

const enabled = (html: string, id: string) => new RegExp(`<[a-z]+[^>]*data-testid="${id}"(?![^>]*disabled)`).test(html);
const lost: Partial<CrawlView> = {
  hasSnapshot: true,
  state: 'running',
  connection: { state: 'reconnecting', detail: 'connection dropped', since: 1_000 },
};

describe('cut off from the host', () => {
  it('the badge says disconnected (not Running), with the last known state', () => {
    const html = render(createElement(StateBadge), lost);
    expect(html).toContain('data-state="disconnected"');
    expect(html).not.toContain('data-state="running"');
    expect(html).toContain('Disconnected');
    expect(html).toContain('no host');
    expect(html).toContain('was running');
    const refused = render(createElement(StateBadge), { ...lost, connection: { state: 'refused', detail: null } });
    expect(refused).toContain('token refused');
  });

  it('pause, stop and the thread slider are disabled, the counters marked as of then', () => {
    const controls = render(createElement(CrawlControls), lost);
    expect([enabled(controls, 'pause'), enabled(controls, 'resume'), enabled(controls, 'stop')]).toEqual([false, false, false]);
    expect(enabled(render(createElement(ThreadSlider), { ...lost, threadTarget: 4 }), 'thread-slider')).toBe(false);
    expect(render(createElement(Counters), lost)).toContain('data-offline="true"');
    // Connected again: the same state enables them.
    const back = render(createElement(CrawlControls), { ...lost, connection: { state: 'connected', detail: null } });
    expect([enabled(back, 'pause'), enabled(back, 'stop')]).toEqual([true, true]);
  });

  it('the banner tells a refused token (a restarted console) from a host that is down, and where to go', () => {
    const refused = render(createElement(ConnectionBanner), { ...lost, connection: { state: 'refused', detail: null } });
    expect(refused).toContain('data-connection="refused"');
    expect(refused).toMatch(/restarted with a new one\. Open the link it printed/);
    const down = render(createElement(ConnectionBanner), lost);
    expect(down).toContain('reconnecting');
    expect(down).toContain('If you restarted the console, open the link it printed');
  });

  it('stops the clock behind "time in step" while the connection is lost, and restarts it once back', async () => {
    const frames = manualFrames();
    const store = createCrawlStore();
    let emit: (s: ConnectionStatus) => void = () => undefined;
    const api = Object.assign(fakeApi(), {
      onConnection(listener: (s: ConnectionStatus) => void) {
        emit = listener;
        listener({ state: 'connected', detail: null });
        return () => undefined;
      },
    } satisfies ConnectionSource);
    let clock = 5_000;
    const off = connectCrawlStore(store, api, { frames, localNow: () => clock, tickMs: 5 });
    api.emitSnapshot(snapshot());
    frames.run();
    const tick = async () => {
      clock += 1_000;
      await new Promise((r) => setTimeout(r, 30));
      return store.getState().now;
    };
    const first = await tick();
    expect(await tick()).toBeGreaterThan(first);
    emit({ state: 'reconnecting', detail: 'connection dropped' });
    const frozen = store.getState().now;
    expect(await tick()).toBe(frozen);
    expect(await tick()).toBe(frozen);
    emit({ state: 'connected', detail: null });
    expect(await tick()).toBeGreaterThan(frozen);
    off();
  });
});

describe('a console restarted with a new token', () => {
  let server: http.Server | null = null;
  let api: WsApi | null = null;
  afterEach(async () => {
    api?.close();
    api = null;
    await new Promise((r) => (server ? server.close(r) : r(null)));
    server = null;
  });

  it('the probe reads a 403 as a refused token, another answer as up, no answer as down', async () => {
    let status = 403;
    server = http.createServer((_req, res) => void res.writeHead(status).end());
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/some/page`;
    expect(await probeHost(page)).toBe('refused');
    status = 200;
    expect(await probeHost(page)).toBe('up');
    expect(await probeHost('http://127.0.0.1:1/')).toBe('down');
  });

  it('the transport reports "refused" while the host refuses the token, and no longer once it accepts it', async () => {
    // A server that refuses every WebSocket upgrade, as a console with another token does.
    server = http.createServer();
    server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    let verdict: 'refused' | 'up' | 'down' = 'refused';
    const statuses: ConnectionStatus[] = [];
    api = createWsApi({
      url: `ws://127.0.0.1:${port}/api`,
      exportUrl: `http://127.0.0.1:${port}/export.csv`,
      WebSocket: WebSocket as unknown as SocketConstructor,
      reconnect: { initialMs: 20, maxMs: 50 },
      probe: async () => verdict,
    });
    api.onConnection((s) => statuses.push(s));
    const until = async (check: () => boolean) => {
      const end = Date.now() + 5_000;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out; statuses ${JSON.stringify(statuses.map((s) => s.state))}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await until(() => statuses.at(-1)?.state === 'refused');
    // Further failed attempts keep saying so rather than flipping back to a silent "reconnecting".
    const count = statuses.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(statuses.slice(count).every((s) => s.state === 'refused')).toBe(true);
    verdict = 'down';
    await until(() => statuses.at(-1)?.state === 'reconnecting');
    expect(statuses.at(-1)?.detail).toBe('the host is not reachable');
  });
});

/** A crawl file as listed, finished and unlabelled, with `patch`. */
function openedFile(patch: Partial<CrawlFileInfo>): CrawlFileInfo {
  const base = { file: 'x.trawl', seeds: [], createdAt: '', state: 'finished', finishReason: 'completed' };
  return { ...base, crawled: 0, queued: 0, failed: 0, name: '', description: '', tags: [], summary: '', ...patch };
}

describe('a reopened crawl', () => {
  it('shows its final figures: nothing in flight, its failures, its elapsed time and average pages/s', () => {
    const html = render(createElement(Counters), {
      opened: openedFile({ crawled: 118, failed: 2, elapsedMs: 60_000 }),
    });
    expect(html).toContain('data-counter="inFlight" data-value="0"');
    expect(html).toContain('data-counter="failed" data-value="2"');
    expect(html).toContain('data-counter="pagesPerSecond" data-value="2"');
    expect(html).toContain('data-counter="elapsedMs" data-value="60000"');
    expect(html).toContain('1:00');
    expect(html).not.toContain('–');
  });

  it('shows "–" only for what an older file does not know', () => {
    const html = render(createElement(Counters), {
      opened: openedFile({ crawled: 5 }),
    });
    expect(html).toContain('data-counter="inFlight" data-value="0"');
    expect(html).toMatch(/data-counter="elapsedMs" data-dim="true"><dt>elapsed<\/dt><dd>–/);
  });
});

describe('the rate limit step', () => {
  it('has its own word, distinct from politeness, and is a patient step', () => {
    expect(STEP_LABELS.ratelimit).toBe('rate limit');
    expect(STEP_LABELS.politeness).toBe('politeness wait');
    expect(PATIENT_STEPS.has('ratelimit')).toBe(true);
  });
});

describe('a reopened crawl that was interrupted', () => {
  it('is not shown as running', () => {
    const html = render(createElement(StateBadge), {
      state: 'finished',
      opened: openedFile({ state: 'running', finishReason: null, crawled: 5, queued: 9 }),
    });
    expect(html).toContain('data-state="interrupted"');
    expect(html).toContain('Interrupted');
    expect(html).not.toContain('data-state="running"');
  });
});
