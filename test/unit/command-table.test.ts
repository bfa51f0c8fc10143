// The command table (shared/commands.ts) and what is derived from it agree: every command has a schema and flags,
// a handler in both hosts (built here against a fake session, without Electron or a server), and a command that
// is not in the table is refused. The WebSocket transport's methods: test/renderer/ws-transport.test.ts. That a missing handler does not
// compile is checked by `npm run typecheck` (test/types/command-handlers.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandSpec, isCommandName } from '../../shared/commands.ts';
import { COMMAND_ARGS, parseCommandArgs } from '../../shared/command-args.ts';
import { EVENT_NAMES } from '../../shared/events.ts';
import { ipcChannel } from '../../shared/ipc-channels.ts';
import type { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import type { Handlers } from '../../electron/host/command-handlers.ts';
import { desktopHandlers } from '../../electron/main/desktop-handlers.ts';
import { webConsoleHandlers } from '../../electron/server/console-handlers.ts';
import { crawlNames } from '../../electron/server/crawl-names.ts';
import { createDownloads } from '../../electron/server/downloads.ts';
import { runCommandFrame } from '../../electron/server/command-channel.ts';

const CRAWLS = path.join(path.sep, 'srv', 'crawls');

/** A session whose every method records its call and answers with its name (problems: none), or as `own` says. */
function fakeSession(own: Record<string, (...args: unknown[]) => unknown> = {}) {
  const calls: [string, unknown[]][] = [];
  const answers: Record<string, unknown> = {
    exportProblem: null,
    chartExportProblem: null,
    viewExportProblem: null,
    overviewExportProblem: null,
    currentFile: null,
    attachedStore: null,
    snapshot: null,
  };
  const session = new Proxy(
    {},
    {
      get(_target, name) {
        if (name === 'crawlsDir') return CRAWLS;
        if (typeof name !== 'string' || name === 'then') return undefined;
        return (...args: unknown[]) => {
          calls.push([name, args]);
          if (name in own) return own[name]!(...args);
          if (name in answers) return answers[name];
          if (name === 'resumeCrawl' || name === 'start') return Promise.resolve({ ok: true, file: path.join(CRAWLS, 'a.trawl') });
          return Promise.resolve({ answer: name });
        };
      },
    },
  ) as unknown as CrawlSession;
  return { session, calls };
}

const hosts: Record<string, (session: CrawlSession) => Handlers> = {
  desktop: (session) => desktopHandlers(session, { openCrawl: async () => '/picked.trawl', saveCsv: async () => '/saved.csv' }),
  'web console': (session) => {
    const names = crawlNames(CRAWLS);
    return webConsoleHandlers(session, names, createDownloads(session, names));
  },
};

describe('the command table', () => {
  it('gives every command a schema, and the schemas name no other command', () => {
    expect(Object.keys(COMMAND_ARGS).sort()).toEqual([...COMMAND_NAMES].sort());
    expect(COMMAND_NAMES.length).toBe(new Set(COMMAND_NAMES).size);
    expect(COMMAND_NAMES).toContain('currentSnapshot');
  });

  it("has consistent flags: downloads are the hosts' own, retried commands change nothing, crawl-file arguments exist", () => {
    for (const name of COMMAND_NAMES) {
      const spec = commandSpec(name);
      for (const flag of ['slow', 'retryable', 'changesCrawl', 'hostHandler'] as const) expect([undefined, true]).toContain(spec[flag]);
      if (spec.download) expect(spec.hostHandler, name).toBe(true);
      expect(spec.retryable && spec.changesCrawl, name).toBeFalsy();
      const arity = (COMMAND_ARGS[name] as unknown as { def: { items: unknown[] } }).def.items.length;
      for (const ref of spec.crawlFiles?.args ?? []) expect(ref.arg, name).toBeLessThan(arity);
    }
    const downloads = COMMAND_NAMES.filter((n) => commandSpec(n).download);
    expect(downloads.sort()).toEqual([
      'exportBulkReport',
      'exportChartCsv',
      'exportComparison',
      'exportCsv',
      'exportOverview',
      'exportSitemap',
      'exportStructureCsv',
      'exportView',
    ]);
    expect(new Set(downloads.map((n) => commandSpec(n).download!.path)).size).toBe(downloads.length);
  });

  it('gives every command and event its own IPC channel', () => {
    const channels = [...COMMAND_NAMES, ...EVENT_NAMES].map(ipcChannel);
    expect(new Set(channels).size).toBe(channels.length);
    expect(ipcChannel('currentSnapshot')).toBe('trawl:currentSnapshot');
  });

  it('knows only its own commands', () => {
    for (const name of ['dropDatabase', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '', 'current-snapshot', 42, null]) {
      expect(isCommandName(name)).toBe(false);
    }
    for (const name of COMMAND_NAMES) expect(isCommandName(name)).toBe(true);
  });
});

describe.each(Object.keys(hosts))('the %s host', (host) => {
  const build = hosts[host]!;

  it('has a handler for every command, and the session method is the default one', async () => {
    const { session, calls } = fakeSession();
    const handlers = build(session);
    expect(Object.keys(handlers).sort()).toEqual([...COMMAND_NAMES].sort());
    for (const name of COMMAND_NAMES) {
      expect(typeof handlers[name], name).toBe('function');
      const spec = commandSpec(name);
      if (spec.hostHandler || spec.crawlFiles) continue;
      calls.length = 0;
      const run = handlers[name] as (...args: unknown[]) => Promise<unknown>;
      await expect(run('first', 2)).resolves.toEqual({ answer: name });
      expect(calls, name).toEqual([[name, ['first', 2]]]);
    }
  });

  it('refuses a command not in the table, and checks arguments against the schema', async () => {
    const { session, calls } = fakeSession();
    const handlers = build(session);
    for (const cmd of ['dropDatabase', 'constructor', '__proto__', 'toString']) {
      await expect(runCommandFrame(handlers, { id: 1, cmd, args: [] })).rejects.toThrow(/unknown command/);
    }
    await expect(runCommandFrame(handlers, { id: 1, cmd: 'setThreads', args: ['many'] })).rejects.toThrow(
      /invalid arguments for setThreads/,
    );
    await expect(runCommandFrame(handlers, { id: 1, cmd: 'pause', args: 'no' })).rejects.toThrow(/args must be an array/);
    expect(calls).toEqual([]);
    await expect(runCommandFrame(handlers, { id: 1, cmd: 'setThreads', args: [3] })).resolves.toEqual({ answer: 'setThreads' });
  });
});

describe("the hosts' own handlers", () => {
  it('desktop: a dialog picks the crawl and the export file', async () => {
    const { session, calls } = fakeSession();
    const handlers = hosts['desktop']!(session);
    await handlers.openCrawl(null);
    await handlers.exportChartCsv('status');
    await handlers.exportOverview();
    expect(calls).toContainEqual(['openCrawl', ['/picked.trawl']]);
    expect(calls).toContainEqual(['exportChartCsv', ['status', '/saved.csv']]);
    expect(calls).toContainEqual(['exportOverview', ['/saved.csv']]);
  });

  it('desktop: crawl files go to the window as opaque ids and only ids it was given come back; no path is taken', async () => {
    const listed = ['a.trawl', 'b.trawl'].map((name) => path.join(CRAWLS, name));
    const info = (file: string) => ({ file, seeds: [], state: 'finished', crawled: 1 });
    const { session, calls } = fakeSession({
      listCrawls: async () => listed.map(info),
      openCrawl: async (file) => info(file as string),
      deleteCrawl: async () => [info(listed[1]!)],
      compareCrawls: async (q) => ({ old_file: (q as { oldFile: string }).oldFile, new_file: (q as { newFile: string }).newFile }),
    });
    const handlers = hosts['desktop']!(session);
    const list = await handlers.listCrawls();
    const ids = list.map((c) => c.file);
    // Each id names the file (for the window to show) but holds no folder, and differs from any path.
    expect(ids.map((id) => id.split('/').at(-1))).toEqual(['a.trawl', 'b.trawl']);
    for (const id of ids) expect(id.includes(CRAWLS)).toBe(false);
    expect(await handlers.listCrawls()).toEqual(list);

    calls.length = 0;
    await expect(handlers.openCrawl(ids[0]!)).resolves.toMatchObject({ file: ids[0] });
    await handlers.resumeCrawl(ids[1]!);
    const query = { oldFile: ids[1]!, newFile: ids[0]!, wordThresholdPercent: 10 };
    await expect(handlers.compareCrawls(query)).resolves.toMatchObject({ old_file: ids[1], new_file: ids[0] });
    await expect(handlers.deleteCrawl(ids[0]!)).resolves.toEqual([expect.objectContaining({ file: ids[1] })]);
    expect(calls).toEqual([
      ['openCrawl', [listed[0]]],
      ['resumeCrawl', [listed[1]]],
      ['compareCrawls', [{ ...query, oldFile: listed[1], newFile: listed[0] }]],
      ['deleteCrawl', [listed[0]]],
    ]);

    // Paths, even of a listed file, and made-up ids are refused before the session sees them.
    calls.length = 0;
    const refused = /refused: not a crawl file from the list or an open dialog/;
    for (const bad of [listed[0]!, '/etc/passwd', path.join(path.sep, 'tmp', 'other.trawl'), 'a.trawl', `x${ids[0]}`]) {
      await expect(handlers.openCrawl(bad)).rejects.toThrow(refused);
      await expect(handlers.resumeCrawl(bad)).rejects.toThrow(refused);
      await expect(handlers.deleteCrawl(bad)).rejects.toThrow(refused);
      await expect(handlers.compareCrawls({ oldFile: ids[0]!, newFile: bad, wordThresholdPercent: 10 })).rejects.toThrow(refused);
      await expect(handlers.comparePage({ oldFile: bad, newFile: ids[0]!, wordThresholdPercent: 10 }, 'added', null)).rejects.toThrow(
        refused,
      );
      await expect(handlers.exportComparison({ oldFile: bad, newFile: ids[0]!, wordThresholdPercent: 10 })).rejects.toThrow(refused);
    }
    expect(calls).toEqual([]);

    // A file picked in the dialog, and one a new crawl created, come back as ids the window can use.
    const picked = await handlers.openCrawl(null);
    expect(picked!.file).toMatch(/\/picked\.trawl$/);
    expect(picked!.file).not.toBe('/picked.trawl');
    const started = await handlers.start({ seeds: ['http://a.test/'] });
    expect(started).toEqual({ ok: true, file: ids[0] });
    calls.length = 0;
    await handlers.openCrawl(picked!.file);
    expect(calls).toEqual([['openCrawl', ['/picked.trawl']]]);
  });

  it('web console: crawl names are resolved in the crawls folder and answered as names; downloads answer a check', async () => {
    const { session, calls } = fakeSession();
    const handlers = hosts['web console']!(session);
    await expect(handlers.resumeCrawl('a.trawl')).resolves.toEqual({ ok: true, file: 'a.trawl' });
    expect(calls).toContainEqual(['resumeCrawl', [path.join(CRAWLS, 'a.trawl')]]);
    await expect(handlers.resumeCrawl('../a.trawl')).rejects.toThrow(/not the name of a crawl/);
    await expect(handlers.openCrawl(null)).rejects.toThrow('choose a crawl from the list');
    await expect(handlers.exportCsv()).resolves.toEqual({ ok: true, rows: null, file: null });
    const query = { oldFile: 'a.trawl', newFile: 'b.trawl', wordThresholdPercent: 10 };
    await handlers.comparePage(parseCommandArgs('comparePage', [query, 'added', null])[0], 'added', null);
    expect(calls).toContainEqual([
      'comparePage',
      [{ ...query, oldFile: path.join(CRAWLS, 'a.trawl'), newFile: path.join(CRAWLS, 'b.trawl') }, 'added', null],
    ]);
  });
});
