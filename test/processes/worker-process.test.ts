// The worker as a real OS process, forked the way the CLI engine forks it: init/ready, jobs with their step
// messages and results, shutdown, and exiting on its own when the parent link goes away.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messagesOf } from '../../shared/message-batch.ts';
import type { PageFetchResult, ParentToWorker, RobotsFetchResult, WorkerToParent } from '../../shared/protocol.ts';
import { parseSettings } from '../../shared/settings.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORKER = path.join(root, 'electron/worker/worker-main.ts');

interface Worker {
  child: ChildProcess;
  messages: WorkerToParent[];
  stderr: () => string;
  send(msg: ParentToWorker): void;
  /** Resolves with the first message (already received or future) matching the predicate. */
  next<T extends WorkerToParent>(pred: (m: WorkerToParent) => m is T, timeoutMs?: number): Promise<T>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: ChildProcess[] = [];

function startWorker(): Worker {
  const child = fork(WORKER, [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  started.push(child);
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  child.stdout!.resume();
  const messages: WorkerToParent[] = [];
  const waiters = new Set<() => void>();
  // The worker sends its messages in batches (shared/message-batch.ts).
  child.on('message', (m) => {
    messages.push(...messagesOf(m as WorkerToParent | WorkerToParent[]));
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    messages,
    stderr: () => err,
    send: (msg) => void child.send(msg),
    exited,
    next(pred, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(pred);
          if (!found) return;
          cleanup();
          resolve(found as never);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}; stderr: ${err}`));
        }, timeoutMs);
        const cleanup = () => (clearTimeout(timer), waiters.delete(check));
        waiters.add(check);
        check();
      });
    },
  };
}

const isReady = (m: WorkerToParent): m is Extract<WorkerToParent, { t: 'ready' }> => m.t === 'ready';
const resultFor =
  (jobId: number) =>
  (m: WorkerToParent): m is Extract<WorkerToParent, { t: 'result' }> =>
    m.t === 'result' && m.result.jobId === jobId;

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({
    pages: 10,
    robotsTxt: 'User-agent: *\nDisallow: /private\n',
    routes: {
      '/plain': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/p/1">x</a>'),
      // Never answers: a job in flight keeps the worker's event loop busy, as in a real crawl.
      '/hang': () => undefined,
    },
  });
});

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  await site?.close();
});

function init(w: Worker) {
  w.send({ t: 'init', workerName: 'crawl-worker-test', settings: parseSettings({ seeds: [site.origin] }) });
}

describe('worker process', () => {
  it('answers init with ready, runs page and robots jobs concurrently with steps, and exits 0 on shutdown', async () => {
    const w = startWorker();
    init(w);
    const ready = await w.next(isReady);
    expect(ready.pid).toBe(w.child.pid);

    w.send({ t: 'job', job: { kind: 'page', jobId: 1, threadId: 3, url: site.url('/p/0'), depth: 0 } });
    w.send({ t: 'job', job: { kind: 'robots', jobId: 2, threadId: 4, url: site.url('/robots.txt') } });
    const page = (await w.next(resultFor(1))).result as PageFetchResult;
    const robots = (await w.next(resultFor(2))).result as RobotsFetchResult;

    expect(page).toMatchObject({ kind: 'page', jobId: 1, threadId: 3, statusCode: 200, title: 'Page 0', error: null });
    expect(page.links.filter((l) => l.inScope).map((l) => l.url)).toEqual(expect.arrayContaining([site.url('/p/1'), site.url('/p/2')]));
    expect(page.links.find((l) => l.url === 'http://elsewhere.invalid/from/0')).toEqual({
      url: 'http://elsewhere.invalid/from/0',
      anchor: 'external',
      kind: 'a',
      inScope: false,
    });
    expect(robots).toMatchObject({ kind: 'robots', statusCode: 200, body: 'User-agent: *\nDisallow: /private\n', error: null });

    // A job that takes a while shows its step in a batched report; a fast one needs none before its result.
    w.send({ t: 'job', job: { kind: 'page', jobId: 5, threadId: 6, url: site.url('/hang'), depth: 0 } });
    const report = await w.next((m): m is Extract<WorkerToParent, { t: 'steps' }> => m.t === 'steps' && m.steps.some((r) => r.jobId === 5));
    expect(report.steps.find((r) => r.jobId === 5)).toEqual({ threadId: 6, jobId: 5, step: 'fetching', processor: 'fetch-http', bytes: 0 });
    const stepsForFastJob = w.messages.filter((m) => m.t === 'steps' && m.steps.some((r) => r.jobId === 1));
    expect(stepsForFastJob.length).toBeLessThanOrEqual(1);

    w.send({ t: 'shutdown' });
    // A requested shutdown ends by SIGTERM's default action (see parent-port.ts), not by a crash.
    expect(await withTimeout(w.exited, 10_000, 'exit after shutdown')).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('turns a job it cannot run into an error result instead of crashing', async () => {
    const w = startWorker();
    // A job before init: the worker has no settings yet.
    w.send({ t: 'job', job: { kind: 'page', jobId: 9, threadId: 1, url: site.url('/p/0'), depth: 0 } });
    const early = (await w.next(resultFor(9))).result;
    expect(early.error).toBe('worker not initialised');

    init(w);
    await w.next(isReady);
    // A URL no fetch can use: still a result, and the worker keeps serving.
    w.send({ t: 'job', job: { kind: 'page', jobId: 10, threadId: 1, url: 'nonsense', depth: 0 } });
    expect((await w.next(resultFor(10))).result.error).toMatch(/^network error: /);
    w.send({ t: 'job', job: { kind: 'page', jobId: 11, threadId: 1, url: site.url('/plain'), depth: 0 } });
    expect((await w.next(resultFor(11))).result.statusCode).toBe(200);
    expect(w.child.exitCode).toBeNull();
  });

  it('exits on its own when the parent link goes away', async () => {
    const w = startWorker();
    init(w);
    await w.next(isReady);
    w.send({ t: 'job', job: { kind: 'page', jobId: 1, threadId: 1, url: site.url('/hang'), depth: 0 } });
    await w.next((m): m is Extract<WorkerToParent, { t: 'steps' }> => m.t === 'steps');
    w.child.disconnect();
    const exit = await withTimeout(w.exited, 10_000, 'exit after disconnect');
    expect(exit.signal).toBeNull();
    expect(exit.code).toBe(0);
  });

  it('does not outlive a parent that is killed outright', async () => {
    // A middle process forks the worker, prints its pid, and is then SIGKILLed: no goodbye, only a closed pipe.
    const middle = spawn(
      process.execPath,
      [
        '-e',
        `const { fork } = require('node:child_process');
         const w = fork(${JSON.stringify(WORKER)}, [], { cwd: ${JSON.stringify(root)}, execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: 'ignore' });
         w.on('message', (batch) => (Array.isArray(batch) ? batch : [batch]).forEach((m) => {
           if (m.t === 'ready') w.send({ t: 'job', job: { kind: 'page', jobId: 1, threadId: 1, url: ${JSON.stringify(site.url('/hang'))}, depth: 0 } });
           if (m.t === 'steps') console.log(String(w.pid));
         }));
         w.send({ t: 'init', workerName: 'orphan-test', settings: ${JSON.stringify(parseSettings({ seeds: [site.origin] }))} });`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    started.push(middle);
    const workerPid = await withTimeout(
      new Promise<number>((resolve) => middle.stdout!.on('data', (d) => resolve(Number(String(d).trim())))),
      20_000,
      'worker ready',
    );
    expect(isAlive(workerPid)).toBe(true);
    middle.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (isAlive(workerPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const alive = isAlive(workerPid);
    if (alive) process.kill(workerPid, 'SIGKILL');
    expect(alive).toBe(false);
  });
});

/** True while the pid runs (a zombie awaiting its reaper counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) STATE ..."; Z = exited, not yet reaped (common under a container's pid 1).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}
