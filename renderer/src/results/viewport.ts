// Which rows of the virtualised results table to render for a scroll position: rows are a fixed height, only
// those in view (and a few either side) are in the DOM, and past a height browsers refuse the scrollbar is scaled.

/** Must match .rrow's height (--row-h in styles/base.css). */
export const ROW_HEIGHT = 24;
/** Must match .rhead's height (--head-h in styles/base.css). */
export const HEADER_HEIGHT = 28;
/** Past this the scrollbar is scaled, staying under every browser's limit on an element's height. */
export const MAX_SCROLL_HEIGHT = 8_000_000;
/** Rows rendered beyond each edge of the view. */
export const OVERSCAN = 6;

export interface Viewport {
  /** First and last row index to render (inclusive; last < first when there are none). */
  first: number;
  last: number;
  /** Where row `first` starts, in the body's coordinates. */
  offsetY: number;
  /** Height of the body's spacer. */
  height: number;
}

/** Which rows to render for a scroll position, scaling the scrollbar past MAX_SCROLL_HEIGHT. */
export function computeViewport(
  total: number,
  scrollTop: number,
  viewHeight: number,
  rowHeight = ROW_HEIGHT,
  maxHeight = MAX_SCROLL_HEIGHT,
): Viewport {
  const realHeight = total * rowHeight;
  const height = Math.min(realHeight, maxHeight);
  const maxScroll = Math.max(0, height - viewHeight);
  const top = Math.max(0, Math.min(scrollTop, maxScroll));
  const realTop = realHeight > height && maxScroll > 0 ? (top * (realHeight - viewHeight)) / maxScroll : top;
  const firstVisible = Math.floor(realTop / rowHeight);
  const first = Math.max(0, firstVisible - OVERSCAN);
  const last = Math.min(total - 1, Math.ceil((realTop + viewHeight) / rowHeight) + OVERSCAN);
  const offsetY = top - (realTop - first * rowHeight);
  return { first, last, offsetY, height };
}
