// A table's column layout as the user left it: the order of its columns, the hidden ones and the widths dragged,
// kept per view (the live results, the explorer) in the browser's storage and restored on the next load. Pure: no
// React, no DOM (a Storage is passed in), tested on its own (test/renderer/column-layout.test.ts).

export interface ColumnLayout {
  /** Column ids in the user's order; columns not named here keep their default place (after the one before them). */
  order: string[];
  /** Ids of hidden columns. */
  hidden: string[];
  /** Widths dragged, in px, by id; a column without one takes its default track. */
  widths: Record<string, number>;
}

/** The layout of a view nobody has changed. */
export const DEFAULT_LAYOUT: ColumnLayout = { order: [], hidden: [], widths: {} };

export const MIN_COLUMN_PX = 40;
export const MAX_COLUMN_PX = 2000;

/** What a layout needs to know of a column. */
export interface LayoutColumn {
  id: string;
  /** The column's track when no width was dragged ("minmax(300px, 3fr)", "60px"). */
  track: string;
  /** Its narrowest width (px), for the table's minimum width. */
  minPx: number;
  /** Never hidden (the URL: what a row is). */
  required?: boolean;
}

/** The storage key of a view's layout. */
export const layoutKey = (view: string): string => `trawl.columns.${view}`;

/** All columns in the layout's order: the user's order first resolved, columns it does not name kept after their default predecessor. */
export function orderedColumns<C extends { id: string }>(columns: readonly C[], layout: ColumnLayout): C[] {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const named = layout.order.filter((id, i) => byId.has(id) && layout.order.indexOf(id) === i);
  const out: C[] = named.map((id) => byId.get(id)!);
  const placed = new Set(named);
  // A column the layout does not name (a new extraction rule, a column added since) goes after its default predecessor.
  columns.forEach((c, i) => {
    if (placed.has(c.id)) return;
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const k = out.findIndex((o) => o.id === columns[j]!.id);
      if (k >= 0) {
        at = k + 1;
        break;
      }
    }
    out.splice(at, 0, c);
    placed.add(c.id);
  });
  return out;
}

/** The columns shown, in order. */
export function visibleColumns<C extends { id: string; required?: boolean }>(columns: readonly C[], layout: ColumnLayout): C[] {
  const hidden = new Set(layout.hidden);
  return orderedColumns(columns, layout).filter((c) => c.required || !hidden.has(c.id));
}

/** The layout with column `id` moved to `to` (an index among all columns in the current order). */
export function moveColumn(columns: readonly { id: string }[], layout: ColumnLayout, id: string, to: number): ColumnLayout {
  const ids = orderedColumns(columns, layout).map((c) => c.id);
  const from = ids.indexOf(id);
  if (from < 0) return layout;
  const target = Math.max(0, Math.min(ids.length - 1, to));
  if (target === from) return layout;
  ids.splice(from, 1);
  ids.splice(target, 0, id);
  return { ...layout, order: ids };
}

/** The layout with column `id` moved one place among the visible columns (-1 left, +1 right). */
export function shiftColumn(
  columns: readonly { id: string; required?: boolean }[],
  layout: ColumnLayout,
  id: string,
  step: -1 | 1,
): ColumnLayout {
  const visible = visibleColumns(columns, layout);
  const i = visible.findIndex((c) => c.id === id);
  const neighbour = visible[i + step];
  if (i < 0 || !neighbour) return layout;
  const all = orderedColumns(columns, layout);
  return moveColumn(
    columns,
    layout,
    id,
    all.findIndex((c) => c.id === neighbour.id),
  );
}

/** The layout with column `id` hidden (or shown again); a required column stays. */
export function setHidden(
  columns: readonly { id: string; required?: boolean }[],
  layout: ColumnLayout,
  id: string,
  hide: boolean,
): ColumnLayout {
  const column = columns.find((c) => c.id === id);
  if (!column || (hide && column.required)) return layout;
  const hidden = layout.hidden.filter((h) => h !== id);
  if (hide) hidden.push(id);
  return { ...layout, hidden };
}

/** The layout with column `id` this wide (clamped). */
export function resizeColumn(layout: ColumnLayout, id: string, px: number): ColumnLayout {
  const width = Math.round(Math.max(MIN_COLUMN_PX, Math.min(MAX_COLUMN_PX, px)));
  return { ...layout, widths: { ...layout.widths, [id]: width } };
}

/** The grid's tracks and its minimum width for the visible columns: dragged widths in px, the rest their default track. */
export function gridTemplate(columns: readonly LayoutColumn[], layout: ColumnLayout): { template: string; minWidth: number } {
  let minWidth = 0;
  const tracks = columns.map((c) => {
    const w = Object.hasOwn(layout.widths, c.id) ? layout.widths[c.id] : undefined;
    minWidth += w ?? c.minPx;
    return w === undefined ? c.track : `${w}px`;
  });
  return { template: tracks.join(' '), minWidth };
}

/** A stored layout, read defensively: anything unreadable counts as no layout. */
export function parseLayout(text: string | null): ColumnLayout {
  if (!text) return DEFAULT_LAYOUT;
  try {
    const v = JSON.parse(text) as Partial<Record<keyof ColumnLayout, unknown>>;
    if (v === null || typeof v !== 'object') return DEFAULT_LAYOUT;
    const strings = (a: unknown) => (Array.isArray(a) ? a.filter((s): s is string => typeof s === 'string') : []);
    const widths: Record<string, number> = {};
    if (v.widths && typeof v.widths === 'object' && !Array.isArray(v.widths)) {
      for (const [id, w] of Object.entries(v.widths)) {
        if (typeof w === 'number' && Number.isFinite(w))
          Object.defineProperty(widths, id, {
            value: Math.max(MIN_COLUMN_PX, Math.min(MAX_COLUMN_PX, w)),
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
    }
    return { order: strings(v.order), hidden: strings(v.hidden), widths };
  } catch {
    return DEFAULT_LAYOUT;
  }
}

/** Storage as the layout uses it (window.localStorage, or a stand-in in tests). */
export type LayoutStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A view's stored layout, or `fallback` (the view's own default) when none is stored. */
export function loadLayout(storage: LayoutStorage | null, view: string, fallback: ColumnLayout = DEFAULT_LAYOUT): ColumnLayout {
  try {
    const text = storage?.getItem(layoutKey(view)) ?? null;
    return text === null ? fallback : parseLayout(text);
  } catch {
    return fallback;
  }
}

/** Saves a view's layout. */
export function saveLayout(storage: LayoutStorage | null, view: string, layout: ColumnLayout): void {
  try {
    storage?.setItem(layoutKey(view), JSON.stringify(layout));
  } catch {
    // storage full or refused: the layout lasts this session only
  }
}

/** Forgets a view's layout: it shows its default columns again. */
export function resetLayout(storage: LayoutStorage | null, view: string): void {
  try {
    storage?.removeItem(layoutKey(view));
  } catch {
    // nothing stored to forget
  }
}

/** The page's localStorage, when it has one it may use. */
export function browserStorage(): LayoutStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
