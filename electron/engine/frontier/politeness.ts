// Politeness, decided the same way by both stores: how many fetches a host takes at once, how many of its URLs one
// claim takes, whether the host is then held until a fetch returns, and when it may be fetched again after a fetch.
import { isSerialPerHost, politenessDelayMs, type CrawlSettings } from '../../../shared/settings.ts';
import { HELD } from './model.ts';

type PolitenessSettings = Pick<CrawlSettings, 'delayMs' | 'polite' | 'maxPerHost'>;

/** Fetches of one host at once: one for a host with any delay (ours or its Crawl-delay), otherwise maxPerHost. */
export function hostCap(settings: PolitenessSettings, crawlDelayMs: number): number {
  return isSerialPerHost(settings, crawlDelayMs) ? 1 : (settings.maxPerHost ?? Infinity);
}

/**
 * How many URLs to take from a host now: a fair share of the `wanted` claims left among the `hostsLeft` hosts ready
 * now (this one included), within the host's `room` (its cap less its fetches in flight). 0 or less: none.
 */
export function hostShare(room: number, wanted: number, hostsLeft: number): number {
  return Math.min(room, Math.max(1, Math.ceil(wanted / hostsLeft)));
}

/** hosts.next_fetch_at after a claim took `taken` URLs: a host at its cap is held until one of its fetches returns. */
export function nextFetchAfterClaim(taken: number, room: number, now: number): number {
  return taken > 0 && taken >= room ? HELD : now;
}

/**
 * When some queued host may next be fetched, from the earliest hosts.next_fetch_at of hosts with queued URLs: null
 * when nothing is queued or every such host is held for a fetch in flight.
 */
export function nextReadyFrom(earliest: number | null): number | null {
  return earliest === null || earliest >= HELD ? null : earliest;
}

/** When a host may be fetched again after a fetch that took `fetchMs`: our delay, or its Crawl-delay if longer. */
export function nextFetchAfter(
  settings: Pick<CrawlSettings, 'delayMs' | 'polite'>,
  fetchMs: number,
  crawlDelayMs: number,
  now: number,
): number {
  return now + Math.max(politenessDelayMs(settings, fetchMs), crawlDelayMs);
}
