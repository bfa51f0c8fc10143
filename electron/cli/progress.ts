// The CLI's live progress line and closing summary.
import type { CrawlSnapshot } from '../../shared/snapshot.ts';

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}

export function progressLine(s: CrawlSnapshot): string {
  const c = s.counters;
  const state = s.state === 'running' ? '' : ` [${s.state}]`;
  return (
    `crawled ${c.crawled} · queued ${c.queued} · in flight ${c.inFlight} · ${c.pagesPerSecond} pages/s · ` +
    `errors ${c.failed} · threads ${s.threads.filter((t) => t.step !== 'retiring').length} · ${formatDuration(c.elapsedMs)}${state}`
  );
}

/** `doneBefore`: URLs already crawled or failed when this run started (a resumed crawl), left out of the rate. */
export function summaryLine(s: CrawlSnapshot, doneBefore = 0): string {
  const c = s.counters;
  const rate = c.elapsedMs > 0 ? ((c.crawled + c.failed - doneBefore) / (c.elapsedMs / 1000)).toFixed(1) : '0';
  const why = s.reason === 'failed' && s.error ? `failed: ${s.error}` : s.reason;
  return `Finished (${why}): ${c.crawled} crawled, ${c.failed} failed, ${c.queued} still queued in ${formatDuration(c.elapsedMs)} (${rate} URLs/s)`;
}
