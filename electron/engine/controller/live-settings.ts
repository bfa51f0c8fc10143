// The settings a running crawl can change (its threads, its URLs/s cap, its exclude patterns), the checks of a
// new value, and the settings as they are now, which the controller writes back so a resumed crawl keeps them.
import type { CrawlSettings } from '../../../shared/settings.ts';
import { LIMITS } from '../../../shared/settings.ts';
import { compilePattern } from '../../../shared/pattern.ts';
import { TokenBucket } from './rate-meter.ts';

export class LiveSettings {
  private readonly live: Pick<CrawlSettings, 'threads' | 'maxUrlsPerSecond' | 'exclude'>;
  /** The URLs/s cap's token bucket; null without a cap. */
  bucket: TokenBucket | null;

  constructor(private readonly settings: CrawlSettings) {
    this.live = { threads: settings.threads, maxUrlsPerSecond: settings.maxUrlsPerSecond, exclude: [...settings.exclude] };
    this.bucket = settings.maxUrlsPerSecond ? new TokenBucket(settings.maxUrlsPerSecond) : null;
  }

  get maxUrlsPerSecond(): number | null {
    return this.live.maxUrlsPerSecond;
  }

  /** Exclude patterns added while the crawl ran. */
  addedExcludes(): string[] {
    return this.live.exclude.slice(this.settings.exclude.length);
  }

  setThreads(threads: number): void {
    this.live.threads = threads;
  }

  setMaxRate(perSecond: number | null): void {
    this.bucket = perSecond ? new TokenBucket(perSecond) : null;
    this.live.maxUrlsPerSecond = perSecond;
  }

  addExclude(pattern: string): void {
    if (!this.live.exclude.includes(pattern)) this.live.exclude.push(pattern);
  }

  /** The settings as they are now, for the crawl file (or store). */
  current(): CrawlSettings {
    return { ...this.settings, ...this.live };
  }
}

/** Throws a RangeError unless `perSecond` is a URLs/s cap in range, or null (no cap). */
export function checkMaxRate(perSecond: number | null): void {
  if (perSecond !== null && !(typeof perSecond === 'number' && perSecond > 0 && perSecond <= LIMITS.maxUrlsPerSecond)) {
    throw new RangeError(`the URLs/s cap must be more than 0 and at most ${LIMITS.maxUrlsPerSecond}, or none (got ${perSecond})`);
  }
}

/** Throws a RangeError unless `pattern` is a regular expression the linear-time engine takes (shared/pattern.ts); `what` names it in the message ("exclude pattern"). */
export function checkPattern(pattern: string, what: string): void {
  const compiled = typeof pattern === 'string' && pattern !== '' ? compilePattern(pattern) : { ok: false as const, error: 'empty' };
  if (!compiled.ok) throw new RangeError(`invalid ${what} "${String(pattern)}": ${compiled.error}`);
}
