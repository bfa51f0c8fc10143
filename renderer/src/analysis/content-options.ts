// Duplicate content (issue 18.1): the near-duplicate threshold of the crawl in view, changed after the crawl without
// crawling again (the host's contentOptions command). Each change bumps `generation`: the explorer's counts and rows
// and the open URL detail read again, so they follow it.
import { createStore } from 'zustand/vanilla';
import type { CrawlerApi } from '../../../shared/crawler-api.ts';

export const contentOptionsStore = createStore<{ generation: number }>(() => ({ generation: 0 }));

/** Threshold percent from a number input's text: a whole number from 50 to 100, or null. */
export function thresholdPercent(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(n) && n >= 50 && n <= 100 ? n : null;
}

/** Sets the crawl in view's threshold (percent); the views follow. Answers the threshold the host took (percent). */
export async function setNearThreshold(api: Pick<CrawlerApi, 'contentOptions'>, percent: number): Promise<number> {
  const o = await api.contentOptions({ threshold: percent / 100 });
  contentOptionsStore.setState((s) => ({ generation: s.generation + 1 }));
  return Math.round(o.threshold * 100);
}
