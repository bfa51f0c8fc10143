// What the Reports and Compare views decide before drawing: time-axis ticks whose labels do not run together,
// bar labels thinned to fit, a bar of one URL drawn high enough to see, the throughput legend when nothing is
// hovered, the live chart without its bucket still filling; and the list a comparison opens on.
import { describe, expect, it } from 'vitest';
import type { ComparisonSummary, OverTime } from '../../shared/analysis.ts';
import {
  AXIS_CHAR_PX,
  MIN_BAR_SHARE,
  categoryStride,
  drawnChartData,
  labelSpacePx,
  overTimeLegend,
  timeAxisRightPx,
  timeRange,
  timeSplits,
  visibleBarValues,
} from '../../renderer/src/analysis/chart-layout.ts';
import { comparisonSentence, firstKindWithChanges } from '../../renderer/src/analysis/CompareView.tsx';

const LABEL = '12:03:04 PM';

describe('reports: the time axis', () => {
  it('puts ticks far enough apart for their labels, whatever the span and width', () => {
    const space = labelSpacePx(LABEL);
    expect(space).toBeGreaterThanOrEqual(LABEL.length * AXIS_CHAR_PX);
    for (const [span, width] of [
      [60, 400],
      [300, 460],
      [30, 900],
      [3600, 500],
      [7, 300],
    ] as const) {
      const min = 1_800_000_000;
      const ticks = timeSplits(min, min + span, width, space);
      expect(ticks.length).toBeGreaterThan(0);
      const pxApart = ((ticks[1] ?? ticks[0]! + span) - ticks[0]!) * (width / span);
      // Labels are centred on ticks: two never overlap when the ticks are a label's width and a gap apart.
      expect(pxApart).toBeGreaterThanOrEqual(LABEL.length * AXIS_CHAR_PX);
      for (const t of ticks) expect(t).toBeGreaterThanOrEqual(min);
      for (const t of ticks) expect(t).toBeLessThanOrEqual(min + span);
    }
    // uPlot's range for a single time is a thousand days: still a few ticks, not a thousand run together.
    expect(timeSplits(1_800_000_000, 1_800_000_000 + 86_400_000, 430, labelSpacePx(LABEL)).length).toBeLessThanOrEqual(5);
    // And the range drawn for a single time is a second either side of it.
    expect(timeRange([1_800_000_000], 1_800_000_000, 1_800_000_000 + 86_400_000)).toEqual([1_799_999_999, 1_800_000_001]);
    expect(timeRange([5, 9], 5, 9)).toEqual([5, 9]);
    expect(timeRange([], 1, 2)).toEqual([1, 2]);
    // The 1-second ticks the axis allowed before (a label per second over a minute in 400 px) are not taken.
    expect(timeSplits(1_800_000_000, 1_800_000_060, 400, labelSpacePx(LABEL)).length).toBeLessThanOrEqual(5);
  });

  it('leaves room right of the plot for the last label, centred on a tick at the right edge', () => {
    // uPlot's own room there is half its y axis (25 px): "12:03:04 PM" needs more than that.
    expect((LABEL.length * AXIS_CHAR_PX) / 2).toBeGreaterThan(25);
    for (const label of [LABEL, '12:03:04', '下午12:03:04']) {
      const room = timeAxisRightPx(label);
      for (const [span, width] of [
        [3, 500],
        [60, 400],
        [3600, 900],
      ] as const) {
        const min = 1_800_000_000;
        const ticks = timeSplits(min, min + span, width, labelSpacePx(label));
        // A tick's label ends half its width right of the tick: within the plot and the room right of it.
        for (const t of ticks) expect(((t - min) * width) / span + (label.length * AXIS_CHAR_PX) / 2).toBeLessThanOrEqual(width + room);
      }
    }
  });

  it('writes every bar label when they fit, else every second or third', () => {
    expect(categoryStride(5, 460, 3)).toBe(1);
    const stride = categoryStride(9, 300, 9);
    expect(stride).toBeGreaterThan(1);
    expect((300 / 9) * stride).toBeGreaterThanOrEqual(9 * AXIS_CHAR_PX);
  });
});

describe('reports: bars and legend', () => {
  it('draws a bar of one URL beside thousands at least a share of the chart high; zero stays zero', () => {
    expect(visibleBarValues([10_000, 1, 0, 500])).toEqual([10_000, 10_000 * MIN_BAR_SHARE, 0, 500]);
    expect(visibleBarValues([1, 2])).toEqual([1, 2]);
    expect(visibleBarValues([])).toEqual([]);
  });

  const data: OverTime = {
    kind: 'over-time',
    bucket_ms: 1000,
    rows: [
      { at: 1000, pages: 8, errors: 1, pages_per_second: 8 },
      { at: 2000, pages: 6, errors: 0, pages_per_second: 6 },
      { at: 3000, pages: 1, errors: 0, pages_per_second: 1 },
    ],
    open_bucket: true,
    last_seq: 15,
  };
  const time = (ms: number) => `t${ms / 1000}`;

  it('names the latest bucket when nothing is hovered, the hovered one when one is, and never shows "--"', () => {
    expect(overTimeLegend(data, null, time)).toBe('Latest second: t3 · 1 pages/s · 0 errors');
    expect(overTimeLegend(data, 0, time)).toBe('t1 · 8 pages/s · 1 error');
    expect(overTimeLegend({ ...data, bucket_ms: 5000 }, null, time)).toMatch(/^Latest 5 s: /);
    expect(overTimeLegend(null, null, time)).toBe('No pages fetched yet');
    expect(overTimeLegend({ ...data, rows: [] }, null, time)).not.toContain('--');
  });

  it('leaves the bucket still filling out of the live chart, and draws a finished crawl whole', () => {
    const live = drawnChartData(data, true) as OverTime;
    expect(live.rows.map((r) => r.pages)).toEqual([8, 6]);
    // The legend then names the last whole second, not the partial one that would read as a dip.
    expect(overTimeLegend(live, null, time)).toBe('Latest second: t2 · 6 pages/s · 0 errors');
    expect(drawnChartData(data, false)).toBe(data);
    expect(drawnChartData({ ...data, open_bucket: false }, true)?.kind).toBe('over-time');
    expect((drawnChartData({ ...data, open_bucket: false }, true) as OverTime).rows).toHaveLength(3);
  });
});

describe('compare: the list it opens on', () => {
  const summary = (added: number, removed: number, changed: number): ComparisonSummary => ({
    old_file: 'a.trawl',
    new_file: 'b.trawl',
    old_urls: 10,
    new_urls: 10 + added - removed,
    added,
    removed,
    changed,
    by_field: { status_code: 0, title: changed, meta_description: 0, canonical: 0, indexability: 0, word_count: 0 },
    old_seeds: [],
    new_seeds: [],
  });

  it('opens on the first list shown that has URLs, and on none (a summary) when nothing changed', () => {
    expect(firstKindWithChanges(summary(0, 0, 0))).toBeNull();
    expect(firstKindWithChanges(summary(0, 2, 0))).toBe('removed');
    expect(firstKindWithChanges(summary(1, 2, 0))).toBe('added');
    expect(firstKindWithChanges(summary(1, 2, 3))).toBe('changed');
    expect(comparisonSentence(summary(0, 0, 0))).toBe('No differences: the same 10 URLs, none added, removed or changed.');
    expect(comparisonSentence(summary(1, 2, 3))).toBe('1 added, 2 removed, 3 changed (of 10 URLs before, 9 after).');
  });
});
