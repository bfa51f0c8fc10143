// Scheduled recrawls: a crawl's settings run again on a schedule while the app or the web console runs, each run
// compared with the one before. The types both sides share and the timing rules. No node:, no electron: the
// renderer imports this.
import type { ComparedField } from './comparison.ts';
import type { Message } from './messages.ts';

/** Every N minutes (the app offers minutes and hours), or every day at a local time "HH:MM". */
export type ScheduleTiming = { every: 'minutes'; minutes: number } | { every: 'day'; at: string };

export const SCHEDULE_LIMITS = { minutes: { min: 1, max: 60 * 24 * 31 }, runsKept: 20, schedules: 100 } as const;
export const DAILY_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** One run of a schedule: the crawl it made and what changed since the run before. */
export interface ScheduleRun {
  /** The run's crawl file, as the crawls list names it (its file name). */
  file: string;
  startedAt: string;
  finishedAt: string | null;
  /** How the crawl finished (completed, page limit, stopped...), null while it runs. */
  outcome: string | null;
  crawled: number | null;
  /** The crawl it was compared with (the schedule's crawl before this run). */
  previous: string | null;
  /** URLs added, removed and changed since `previous`; null when not compared (see `error`). */
  changes: { added: number; removed: number; changed: number; byField: Partial<Record<ComparedField, number>> } | null;
  /** Why the run could not start, or its comparison could not be made. */
  error: string | null;
}

export interface CrawlSchedule {
  id: string;
  /** The crawl whose settings the next run re-runs: the latest run's file, at first the crawl scheduled. */
  crawl: string;
  seeds: string[];
  /** The scheduled crawl's name when it had one (its label). */
  name: string;
  timing: ScheduleTiming;
  enabled: boolean;
  createdAt: string;
  /** When it runs next (ISO time); null when disabled. */
  nextRunAt: string | null;
  /** Why a run that is due has not started yet (another crawl running), or null. */
  waiting: string | null;
  /** The same as the catalogue's message (messages.ts), for the renderer to say in its language (absent in older files). */
  waitingReason?: Message | null;
  /** Newest first, at most SCHEDULE_LIMITS.runsKept. */
  runs: ScheduleRun[];
}

export interface ScheduleChange {
  timing: ScheduleTiming;
  enabled: boolean;
}

/** "every 6 hours", "every 90 minutes", "every day at 07:30". */
export function describeTiming(timing: ScheduleTiming): string {
  if (timing.every === 'day') return `every day at ${timing.at}`;
  const m = timing.minutes;
  if (m % 60 === 0) return m === 60 ? 'every hour' : `every ${m / 60} hours`;
  return m === 1 ? 'every minute' : `every ${m} minutes`;
}

/** The first time after `from` that `timing` falls due (local time for a daily one). */
export function nextRunAfter(timing: ScheduleTiming, from: Date): Date {
  if (timing.every === 'minutes') return new Date(from.getTime() + timing.minutes * 60_000);
  const m = DAILY_TIME.exec(timing.at);
  const [h, min] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  const next = new Date(from.getFullYear(), from.getMonth(), from.getDate(), h, min, 0, 0);
  if (next.getTime() <= from.getTime()) next.setDate(next.getDate() + 1);
  return next;
}

/** A run's changes on one line: "3 added, 1 removed, 2 changed (title 2)" or "no change". */
export function describeChanges(changes: NonNullable<ScheduleRun['changes']>): string {
  const { added, removed, changed } = changes;
  if (added + removed + changed === 0) return 'no change';
  const fields = Object.entries(changes.byField)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([f, n]) => `${f.replaceAll('_', ' ')} ${n}`)
    .join(', ');
  return `${added} added, ${removed} removed, ${changed} changed${fields ? ` (${fields})` : ''}`;
}
