// Scheduled recrawls through the session, as both hosts run them: a real crawl of a loopback site re-run when its
// schedule falls due (the scheduler's clock moved on by the test, its poll off), each run compared with the one
// before, a run waiting while another crawl runs, and the schedules kept in the crawls folder.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { SCHEDULES_FILE, Scheduler } from '../../electron/engine/session/schedules.ts';
import type { StateChange } from '../../shared/snapshot.ts';
import { describeChanges, describeTiming, nextRunAfter } from '../../shared/schedules.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';

let version = 1;
let slow = false;
let site: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  const page = (title: string, links: string[]) =>
    `<!doctype html><title>${title}</title><h1>${title}</h1><p>Some words.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}`;
  const server = http.createServer((req, res) => {
    const send = (body: string) => {
      const go = () => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
      if (slow) setTimeout(go, 300);
      else go();
    };
    if (req.url === '/') return send(page('Home', version === 1 ? ['/a', '/b', '/gone'] : ['/a', '/b', '/new']));
    if (req.url === '/a') return send(page('A', []));
    if (req.url === '/b') return send(page(version === 1 ? 'Old title' : 'New title', []));
    if (req.url === '/gone' && version === 1) return send(page('Gone later', []));
    if (req.url === '/new' && version === 2) return send(page('New page', []));
    if (req.url?.startsWith('/slow/')) return send(page('Slow', [`/slow/${Number(req.url.slice(6)) + 1}`]));
    res.writeHead(404, { 'content-type': 'text/html' }).end('not found');
  });
  site = await listenOnLoopback(server);
});
afterAll(async () => {
  await site?.close();
});

function waitFinished(session: CrawlSession): Promise<void> {
  return new Promise((resolve) => {
    const check = (c: StateChange) => {
      if (c.to !== 'finished') return;
      session.off('state', check);
      resolve();
    };
    session.on('state', check);
  });
}

describe('scheduled recrawls', () => {
  it('re-runs a crawl when due, compares each run with the one before, and waits while another crawl runs', async () => {
    const dir = tempDir('trawl-schedules-');
    let clock = Date.parse('2026-03-02T10:00:00Z');
    const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2, schedules: { now: () => clock, pollMs: 0 } });
    try {
      const done = waitFinished(session);
      const first = await session.start({ seeds: [`${site.origin}/`], threads: 2 });
      expect(first.ok).toBe(true);
      if (!first.ok) return;
      await done;

      const [schedule] = await session.addSchedule(first.file, { every: 'minutes', minutes: 90 });
      expect(schedule).toMatchObject({ crawl: path.basename(first.file), enabled: true, seeds: [`${site.origin}/`], runs: [] });
      expect(schedule!.nextRunAt).toBe('2026-03-02T11:30:00.000Z');
      // Kept in the crawls folder, the owner's only.
      const stored = path.join(dir, SCHEDULES_FILE);
      expect(fs.statSync(stored).mode & 0o777).toBe(0o600);

      // Not due yet: nothing runs.
      clock += 60 * 60_000;
      await session.scheduler.tick();
      expect(session.isRunning()).toBe(false);

      // Due, and the site has changed meanwhile: a run starts, and its comparison with the first crawl says what changed.
      version = 2;
      clock += 31 * 60_000;
      const runDone = waitFinished(session);
      await session.scheduler.tick();
      expect(session.isRunning()).toBe(true);
      await runDone;
      await session.scheduler.whenIdle();
      let [s] = await session.listSchedules();
      const run = s!.runs[0]!;
      expect(s!.runs).toHaveLength(1);
      expect(run).toMatchObject({ previous: path.basename(first.file), outcome: 'completed', crawled: 4, error: null });
      expect(run.changes).toEqual({ added: 1, removed: 1, changed: 1, byField: { title: 1 } });
      expect(describeChanges(run.changes!)).toBe('1 added, 1 removed, 1 changed (title 1)');
      // The run is the next one's baseline; the next is counted from the run's start.
      expect(s!.crawl).toBe(run.file);
      expect(s!.nextRunAt).toBe(new Date(clock + 90 * 60_000).toISOString());
      expect(fs.existsSync(path.join(dir, run.file))).toBe(true);

      // Due while another crawl runs: the run waits and says why, then starts once that crawl is done.
      slow = true;
      const other = await session.start({ seeds: [`${site.origin}/slow/0`], threads: 1 });
      expect(other.ok).toBe(true);
      if (!other.ok) return;
      // A crawl is labelled while it runs too (its own connection keeps writing).
      expect(await session.labelCrawl(other.file, { name: 'Slow one', description: '', tags: ['slow'] })).toMatchObject({
        name: 'Slow one',
        tags: ['slow'],
        state: expect.stringMatching(/preparing|running/),
      });
      expect(session.isRunning()).toBe(true);
      clock += 91 * 60_000;
      await session.scheduler.tick();
      [s] = await session.listSchedules();
      expect(s!.waiting).toMatch(/waiting for the crawl in progress \((preparing|running)\) to finish/);
      // The same reason as the catalogue's message, for the renderer to say in its language.
      expect(s!.waitingReason).toEqual({
        code: 'waitingForCrawl',
        params: { state: expect.stringMatching(/preparing|running/) },
        text: s!.waiting,
      });
      expect(s!.runs).toHaveLength(1);
      await session.stop();
      slow = false;
      const secondDone = waitFinished(session);
      await session.scheduler.tick();
      expect(session.isRunning()).toBe(true);
      await secondDone;
      await session.scheduler.whenIdle();
      [s] = await session.listSchedules();
      expect(s!.waiting).toBeNull();
      expect(s!.waitingReason).toBeNull();
      expect(s!.runs).toHaveLength(2);
      // Compared with the run before it, not with the crawl in between: nothing changed.
      expect(s!.runs[0]).toMatchObject({ previous: run.file, outcome: 'completed', changes: { added: 0, removed: 0, changed: 0 } });
      expect(describeChanges(s!.runs[0]!.changes!)).toBe('no change');

      // Paused: never due. Another scheduler over the folder (the app started again) lists the same.
      await session.updateSchedule(s!.id, { timing: { every: 'day', at: '07:30' }, enabled: false });
      clock += 48 * 60 * 60_000;
      await session.scheduler.tick();
      expect(session.isRunning()).toBe(false);
      const again = new Scheduler(dir, { busy: () => null, startFrom: () => Promise.reject(new Error('not here')) }, { pollMs: 0 });
      expect(again.list()).toEqual(await session.listSchedules());
      expect(again.list()[0]).toMatchObject({ enabled: false, nextRunAt: null, timing: { every: 'day', at: '07:30' } });
      again.close();

      expect(await session.deleteSchedule(s!.id)).toEqual([]);
      await expect(session.deleteSchedule(s!.id)).rejects.toThrow(/no such schedule/);
    } finally {
      await session.close();
    }
  });

  it('records a run that cannot start, and refuses a crawl outside the crawls folder', async () => {
    const dir = tempDir('trawl-schedules-');
    let clock = Date.parse('2026-03-02T10:00:00Z');
    const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2, schedules: { now: () => clock, pollMs: 0 } });
    try {
      const done = waitFinished(session);
      const first = await session.start({ seeds: [`${site.origin}/a`], threads: 1, mode: 'list' });
      if (!first.ok) throw new Error('not started');
      await done;
      const outside = path.join(tempDir(), 'elsewhere.trawl');
      fs.copyFileSync(first.file, outside);
      await expect(session.addSchedule(outside, { every: 'minutes', minutes: 5 })).rejects.toThrow(/only crawls of the crawls folder/);
      const [s] = await session.addSchedule(first.file, { every: 'minutes', minutes: 5 });
      await session.deleteCrawl(first.file);
      clock += 6 * 60_000;
      await session.scheduler.tick();
      const [after] = await session.listSchedules();
      expect(after!.runs[0]!.error).toMatch(/could not start: the crawl .* whose settings it re-runs is gone/);
      expect(after!.nextRunAt).toBe(new Date(clock + 5 * 60_000).toISOString());
      expect(s!.id).toBe(after!.id);
    } finally {
      await session.close();
    }
  });
});

describe('schedule timing', () => {
  it('says when a schedule runs and finds the next daily run in local time', () => {
    expect(describeTiming({ every: 'minutes', minutes: 360 })).toBe('every 6 hours');
    expect(describeTiming({ every: 'minutes', minutes: 90 })).toBe('every 90 minutes');
    expect(describeTiming({ every: 'day', at: '07:30' })).toBe('every day at 07:30');
    const before = new Date(2026, 2, 2, 6, 0);
    expect(nextRunAfter({ every: 'day', at: '07:30' }, before)).toEqual(new Date(2026, 2, 2, 7, 30));
    expect(nextRunAfter({ every: 'day', at: '07:30' }, new Date(2026, 2, 2, 7, 30))).toEqual(new Date(2026, 2, 3, 7, 30));
  });
});
