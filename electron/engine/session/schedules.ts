// Scheduled recrawls: a crawl's settings run again on a schedule while the session runs (the desktop app or the web
// console), each run compared with the one before. The schedules are one JSON file in the crawls folder, written
// 0600 whole to a temporary file and renamed over the old one (as the presets are); they name crawls by file name.
// A run is started through the session as any crawl (it comes into view); one that falls due while another crawl
// runs waits for it. Its settings are read from the schedule's latest crawl file (its credentials too, sealed
// there), so a schedule file holds no credentials. Plain Node.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CrawlSchedule, ScheduleChange, ScheduleRun, ScheduleTiming } from '../../../shared/schedules.ts';
import { DAILY_TIME, SCHEDULE_LIMITS, nextRunAfter } from '../../../shared/schedules.ts';
import type { Message } from '../../../shared/messages.ts';
import { CrawlComparison } from '../analysis/compare.ts';
import { readCrawlFileInfo } from './crawl-files.ts';
import { writePrivateJsonFile } from './private-json-file.ts';

export const SCHEDULES_FILE = 'trawl-schedules.json';
const FILE_VERSION = 1;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** How often due schedules are looked for. */
export const SCHEDULE_POLL_MS = 15_000;
/** The comparison's word-count threshold, as the Compare view's default. */
const WORD_THRESHOLD_PERCENT = 10;

/** What the scheduler needs of the session. */
export interface ScheduleHost {
  /** Why a run cannot start now (a crawl running, a cluster crawl in view), or null. */
  busy(): Message | null;
  /** Starts a crawl of `file`'s settings in a new file of the crawls folder; `finished` resolves when it has finished. */
  startFrom(file: string): Promise<{ file: string; finished: Promise<void> }>;
}

export interface SchedulerOptions {
  /** The clock (tests move it on). */
  now?: () => number;
  /** How often due schedules are looked for; 0: never by itself (tests call tick). */
  pollMs?: number;
}

export class Scheduler {
  readonly file: string;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  /** The run in progress (one at a time), and the tick that may be starting one. */
  private running: Promise<void> | null = null;
  private ticking = false;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly host: ScheduleHost,
    options: SchedulerOptions = {},
  ) {
    this.file = path.join(dir, SCHEDULES_FILE);
    this.now = options.now ?? Date.now;
    const pollMs = options.pollMs ?? SCHEDULE_POLL_MS;
    if (pollMs > 0) {
      this.timer = setInterval(() => void this.tick().catch(() => undefined), pollMs);
      this.timer.unref();
    }
  }

  list(): CrawlSchedule[] {
    return this.read().sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  }

  /** Schedules the settings of `file` (a crawl of the crawls folder) to run again on `timing`. */
  add(file: string, timing: ScheduleTiming): CrawlSchedule[] {
    checkTiming(timing);
    const abs = path.resolve(file);
    if (path.dirname(abs) !== path.resolve(this.dir)) throw new Error('only crawls of the crawls folder can be scheduled');
    const info = readCrawlFileInfo(abs);
    const schedules = this.read();
    if (schedules.length >= SCHEDULE_LIMITS.schedules)
      throw new Error(`there are ${SCHEDULE_LIMITS.schedules} schedules already; remove one first`);
    const now = new Date(this.now());
    schedules.push({
      id: crypto.randomBytes(6).toString('hex'),
      crawl: path.basename(abs),
      seeds: info.seeds,
      name: info.name,
      timing,
      enabled: true,
      createdAt: now.toISOString(),
      nextRunAt: nextRunAfter(timing, now).toISOString(),
      waiting: null,
      runs: [],
    });
    this.write(schedules);
    return this.list();
  }

  /** Changes a schedule's timing or pauses it; the next run is counted from now. */
  update(id: string, change: ScheduleChange): CrawlSchedule[] {
    checkTiming(change.timing);
    this.change(id, (s) => {
      s.timing = change.timing;
      s.enabled = change.enabled;
      s.nextRunAt = change.enabled ? nextRunAfter(change.timing, new Date(this.now())).toISOString() : null;
      if (!change.enabled) setWaiting(s, null);
    });
    return this.list();
  }

  remove(id: string): CrawlSchedule[] {
    const schedules = this.read();
    const kept = schedules.filter((s) => s.id !== id);
    if (kept.length === schedules.length) throw new Error('there is no such schedule (removed meanwhile?)');
    this.write(kept);
    return this.list();
  }

  /**
   * Starts the first schedule that is due, when none of its runs is in progress and the session is free (else it
   * says why it waits). Resolves once the run has started (not finished: see whenIdle).
   */
  async tick(): Promise<void> {
    if (this.closed || this.ticking || this.running) return;
    this.ticking = true;
    try {
      const now = this.now();
      const due = this.read().find((s) => s.enabled && s.nextRunAt !== null && Date.parse(s.nextRunAt) <= now);
      if (!due) return;
      const busy = this.host.busy();
      if (busy) {
        if (due.waiting !== busy.text) this.change(due.id, (s) => setWaiting(s, busy));
        return;
      }
      await this.startRun(due, now);
    } finally {
      this.ticking = false;
    }
  }

  /** Resolves when no run is in progress (its comparison recorded). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async startRun(schedule: CrawlSchedule, now: number): Promise<void> {
    const startedAt = new Date(now);
    const previous = path.join(this.dir, schedule.crawl);
    const next = nextRunAfter(schedule.timing, startedAt).toISOString();
    let started: { file: string; finished: Promise<void> };
    try {
      if (!fs.existsSync(previous)) throw new Error(`the crawl ${schedule.crawl} whose settings it re-runs is gone`);
      started = await this.host.startFrom(previous);
    } catch (err) {
      this.change(schedule.id, (s) => {
        s.nextRunAt = next;
        setWaiting(s, null);
        addRun(s, { ...emptyRun('', startedAt), error: `could not start: ${(err as Error).message}` });
      });
      return;
    }
    const name = path.basename(started.file);
    this.change(schedule.id, (s) => {
      s.nextRunAt = next;
      setWaiting(s, null);
      addRun(s, { ...emptyRun(name, startedAt), previous: schedule.crawl });
    });
    this.running = started.finished
      .then(() => this.recordFinish(schedule.id, previous, started.file))
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
      });
  }

  /**
   * The run has finished: its outcome, and the comparison with the crawl before it, which it replaces as the
   * schedule's crawl when it ran to its end.
   */
  private recordFinish(id: string, previous: string, file: string): void {
    if (this.closed) return;
    let info: ReturnType<typeof readCrawlFileInfo> | null = null;
    let changes: ScheduleRun['changes'] = null;
    let error: string | null = null;
    try {
      info = readCrawlFileInfo(file);
      const comparison = CrawlComparison.open(previous, file, { wordThreshold: { percent: WORD_THRESHOLD_PERCENT } });
      try {
        const s = comparison.summary();
        const byField = Object.fromEntries(Object.entries(s.by_field).filter(([, n]) => n > 0));
        changes = { added: s.added, removed: s.removed, changed: s.changed, byField };
      } finally {
        comparison.close();
      }
    } catch (err) {
      error = `not compared: ${(err as Error).message.split(`${this.dir}${path.sep}`).join('')}`;
    }
    const name = path.basename(file);
    this.change(id, (s) => {
      const run = s.runs.find((r) => r.file === name);
      if (run) {
        run.finishedAt = new Date(this.now()).toISOString();
        run.outcome = info?.finishReason ?? info?.state ?? null;
        run.crawled = info?.crawled ?? null;
        run.changes = changes;
        run.error = error;
      }
      // A run stopped or failed part way is no baseline: the next run is compared with the last whole one.
      if (info?.finishReason === 'completed' || info?.finishReason === 'page limit') s.crawl = name;
    });
  }

  /** Reads, changes one schedule (a schedule removed meanwhile is left alone) and writes. */
  private change(id: string, edit: (s: CrawlSchedule) => void): void {
    const schedules = this.read();
    const s = schedules.find((x) => x.id === id);
    if (!s) throw new Error('there is no such schedule (removed meanwhile?)');
    edit(s);
    this.write(schedules);
  }

  private read(): CrawlSchedule[] {
    let text: string;
    try {
      const stat = fs.statSync(this.file);
      if (stat.size > MAX_FILE_BYTES) throw new Error(`${this.file} is too large to be a schedules file; move it away`);
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`the schedules file ${this.file} is not valid JSON (${(err as Error).message}); fix it or move it away`);
    }
    const { version, schedules } = (data ?? {}) as { version?: unknown; schedules?: unknown };
    if (version !== FILE_VERSION || !Array.isArray(schedules)) {
      throw new Error(`the schedules file ${this.file} is damaged (version ${JSON.stringify(version)}); fix it or move it away`);
    }
    return schedules as CrawlSchedule[];
  }

  private write(schedules: CrawlSchedule[]): void {
    writePrivateJsonFile(this.file, { version: FILE_VERSION, schedules });
  }
}

/** Why a schedule waits: in English (the file keeps it, a log says it), and as the catalogue's message for the renderer. */
function setWaiting(s: CrawlSchedule, reason: Message | null): void {
  s.waiting = reason?.text ?? null;
  s.waitingReason = reason;
}

function emptyRun(file: string, startedAt: Date): ScheduleRun {
  return {
    file,
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    outcome: null,
    crawled: null,
    previous: null,
    changes: null,
    error: null,
  };
}

function addRun(s: CrawlSchedule, run: ScheduleRun): void {
  s.runs = [run, ...s.runs].slice(0, SCHEDULE_LIMITS.runsKept);
}

function checkTiming(timing: ScheduleTiming): void {
  if (timing.every === 'day') {
    if (!DAILY_TIME.test(timing.at)) throw new Error('a daily time is HH:MM, 00:00 to 23:59');
  } else if (
    !Number.isInteger(timing.minutes) ||
    timing.minutes < SCHEDULE_LIMITS.minutes.min ||
    timing.minutes > SCHEDULE_LIMITS.minutes.max
  ) {
    throw new Error(`every ${SCHEDULE_LIMITS.minutes.min} to ${SCHEDULE_LIMITS.minutes.max} minutes`);
  }
}
