// Settings are parsed once, where they enter (the session, the CLI, a crawl file or store read back): the
// controller and the worker pool take ParsedSettings, which only parseSettings/validateSettings make, and the
// workers get exactly those settings and do not parse them again.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CrawlController } from '../../electron/engine/controller/crawl-controller.ts';
import { WorkerPool } from '../../electron/engine/pool/worker-pool.ts';
import { BaseWorkerHandle } from '../../electron/engine/pool/worker-spawner.ts';
import { failedResult } from '../../electron/worker/run-job.ts';
import type { WorkerHandle, WorkerSpawner } from '../../electron/engine/pool/worker-spawner.ts';
import type { ParentToWorker } from '../../shared/protocol.ts';
import { parseSettings, validateSettings, type CrawlSettings, type ParsedSettings } from '../../shared/settings.ts';
import { tempDir } from '../helpers/engine.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A worker that records what it is sent, answers init with ready, fails every job, and exits when asked to. */
class RecordingHandle extends BaseWorkerHandle {
  constructor(
    name: string,
    private readonly sent: ParentToWorker[],
  ) {
    super(name);
  }

  get pid(): number | undefined {
    return undefined;
  }

  protected get connected(): boolean {
    return true;
  }

  protected post(batch: ParentToWorker[]): void {
    for (const message of batch) {
      this.sent.push(message);
      if (message.t === 'init') queueMicrotask(() => this.emitMessages({ t: 'ready', pid: 0 }));
      if (message.t === 'job')
        queueMicrotask(() => this.emitMessages({ t: 'result', result: failedResult(message.job, 'not fetched (test)') }));
      if (message.t === 'shutdown') queueMicrotask(() => this.emitExit(0, null));
    }
  }

  kill(): void {
    queueMicrotask(() => this.emitExit(null, 'SIGKILL'));
  }
}

function recordingSpawner(sent: ParentToWorker[]): WorkerSpawner {
  return { spawn: (name): WorkerHandle => new RecordingHandle(name, sent) };
}

describe('parsed settings', () => {
  it('cannot be made without parsing: an unparsed object is a compile error where parsed settings are taken', () => {
    const raw = { seeds: ['https://a.test/'], threads: 2 };
    const shaped: CrawlSettings = { ...parseSettings(raw) };
    const options = { dbPath: path.join(tempDir(), 'never.trawl'), spawner: recordingSpawner([]) };
    // Never called: what matters is that each line fails to compile (npm run typecheck checks the tests).
    const wouldCompile = () => {
      // @ts-expect-error - settings must come from parseSettings or validateSettings
      CrawlController.create(raw, options);
      // @ts-expect-error - the right shape is not enough: only a parse gives the brand
      CrawlController.create(shaped, options);
      // @ts-expect-error - the pool, too, takes parsed settings only
      new WorkerPool(options.spawner, raw, 1, {} as ConstructorParameters<typeof WorkerPool>[3]);
      // @ts-expect-error - nor can one be written by hand
      const handMade: ParsedSettings = { ...shaped };
      return handMade;
    };
    expect(typeof wouldCompile).toBe('function');
    const checked = validateSettings(raw);
    if (!checked.ok) throw new Error('valid settings refused');
    // Both ways in give the same parsed settings, which the controller accepts.
    expect(checked.settings).toEqual(parseSettings(raw));
  });

  it('reach every worker process as the very object that was parsed', async () => {
    const sent: ParentToWorker[] = [];
    const settings = parseSettings({ seeds: ['http://127.0.0.1:9/'], threads: 3, processes: 2, maxPages: 1 });
    const controller = CrawlController.create(settings, {
      dbPath: path.join(tempDir(), 'c.trawl'),
      spawner: recordingSpawner(sent),
      cpuCount: 4,
    });
    expect(controller.settings).toBe(settings);
    controller.start();
    expect((await controller.done).reason).toBe('page limit');
    const inits = sent.filter((m) => m.t === 'init');
    expect(inits).toHaveLength(2);
    for (const init of inits) expect(init.settings).toBe(settings);
  });

  it('are not parsed again by the controller, the pool or the worker', () => {
    const sources = (dir: string): string[] =>
      fs
        .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(dir, f));
    for (const file of [...sources('electron/worker'), ...sources('electron/engine/pool')]) {
      expect(fs.readFileSync(path.join(ROOT, file), 'utf8'), file).not.toMatch(/\b(parseSettings|validateSettings)\b/);
    }
    // The controller's folder parses only what it reads back itself: the settings stored in a crawl file it resumes.
    const reopen = fs.readFileSync(path.join(ROOT, 'electron/engine/controller/crawl-file-store.ts'), 'utf8');
    expect(reopen.match(/\bparseSettings\(/g)).toHaveLength(1);
    // What it parses: the stored settings, with the credentials kept apart (secrets) and the resume's overrides.
    expect(reopen).toMatch(/parseSettings\(\{ \.\.\.stored, \.\.\.readSecrets\(db, secrets\), \.\.\.overrides \}\)/);
    for (const file of sources('electron/engine/controller').filter((f) => !f.endsWith('crawl-file-store.ts'))) {
      expect(fs.readFileSync(path.join(ROOT, file), 'utf8'), file).not.toMatch(/\b(parseSettings|validateSettings)\b/);
    }
  });
});
