// Keyboard shortcuts for the main actions: one table, read by the key handler and by the help overlay ("?"), so the
// overlay lists exactly what the keys do. Each action works on what is on screen (the buttons and tables of the
// view shown), through the same controls a click would use: a disabled button stays disabled to its key too. None
// fires while the user types in a field, nor with Ctrl, Alt or Meta held (those are the browser's and the system's).

export type ShortcutAction = 'start' | 'pauseResume' | 'stop' | 'filter' | 'next' | 'previous' | 'detail' | 'help';

export interface Shortcut {
  action: ShortcutAction;
  /** KeyboardEvent.key values that trigger it. */
  keys: readonly string[];
  /** As the overlay shows them (what the action does is the string shortcuts:actions.<action>). */
  label: readonly string[];
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'start', keys: ['s'], label: ['S'] },
  { action: 'pauseResume', keys: ['p'], label: ['P'] },
  { action: 'stop', keys: ['x'], label: ['X'] },
  { action: 'filter', keys: ['/', 'f'], label: ['/', 'F'] },
  { action: 'next', keys: ['j', 'ArrowDown'], label: ['J', '↓'] },
  { action: 'previous', keys: ['k', 'ArrowUp'], label: ['K', '↑'] },
  { action: 'detail', keys: ['Enter', 'o'], label: ['Enter', 'O'] },
  { action: 'help', keys: ['?'], label: ['?'] },
];

/** True when keys typed at `target` are text: an input (but buttons, checkboxes...), a text area, a select, an editable. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'file', 'color', 'image'].includes(target.type);
  }
  return false;
}

/** The action a key press asks for, or null (typing, a modifier held, or no shortcut of that key). */
export function shortcutFor(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey' | 'target'>): ShortcutAction | null {
  if (e.ctrlKey || e.altKey || e.metaKey || isTypingTarget(e.target)) return null;
  // Arrow keys and Enter keep their own meaning on controls that use them (buttons, tables, lists, links).
  if (['ArrowDown', 'ArrowUp', 'Enter'].includes(e.key) && e.target instanceof HTMLElement && e.target !== document.body) {
    if (e.target.closest('button, a, summary, [role="table"], [role="tab"], [role="dialog"], tr[tabindex]')) return null;
  }
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return SHORTCUTS.find((s) => s.keys.includes(key) || s.keys.includes(e.key))?.action ?? null;
}

const FILTER_FIELDS = [
  'main [data-testid="results-filter"]',
  'main [data-testid="explorer-search"]',
  'main input[type="search"]',
  'main input[type="text"]',
];

const enabled = (selector: string): HTMLButtonElement | null => {
  const el = document.querySelector<HTMLButtonElement>(selector);
  return el && !el.disabled ? el : null;
};

/** Runs an action on what is on screen; false when there was nothing to do (no such control, or disabled). */
export function runShortcut(action: Exclude<ShortcutAction, 'help'>): boolean {
  switch (action) {
    case 'start':
      return click(enabled('[data-testid="start"]'));
    case 'pauseResume':
      return click(enabled('[data-testid="pause"]') ?? enabled('[data-testid="resume"]'));
    case 'stop':
      return click(enabled('[data-testid="stop"]'));
    case 'filter': {
      // The view's own filter first, else its first search or text field that can be typed in.
      const field = FILTER_FIELDS.map((selector) =>
        [...document.querySelectorAll<HTMLInputElement>(selector)].find((el) => !el.disabled && el.offsetParent !== null),
      ).find((el) => el !== undefined);
      if (!field) return false;
      field.focus();
      field.select();
      return true;
    }
    case 'next':
    case 'previous':
      return step(action === 'next' ? 1 : -1);
    case 'detail':
      return openDetail();
  }
}

function click(button: HTMLButtonElement | null): boolean {
  if (!button) return false;
  button.click();
  return true;
}

/** The rows of the view shown that can be chosen, in order, and the one chosen. */
function rows(): { all: HTMLElement[]; current: number } {
  const all = [...document.querySelectorAll<HTMLElement>('main [role="row"][aria-selected], main tr[aria-selected]')];
  return { all, current: all.findIndex((r) => r.getAttribute('aria-selected') === 'true') };
}

function step(by: 1 | -1): boolean {
  // The live results table is virtual (only the rows in view exist): it moves its selection itself, by its keys.
  const table = document.querySelector<HTMLElement>('main .results-scroll[role="table"]');
  if (table) {
    table.focus({ preventScroll: true });
    table.dispatchEvent(new KeyboardEvent('keydown', { key: by === 1 ? 'ArrowDown' : 'ArrowUp', bubbles: true, cancelable: true }));
    return true;
  }
  const { all, current } = rows();
  if (all.length === 0) return false;
  const next = all[current < 0 ? (by === 1 ? 0 : all.length - 1) : Math.max(0, Math.min(all.length - 1, current + by))]!;
  next.click();
  next.scrollIntoView({ block: 'nearest' });
  return true;
}

function openDetail(): boolean {
  const { all, current } = rows();
  if (current < 0) {
    if (all.length === 0) return false;
    all[0]!.click();
    all[0]!.scrollIntoView({ block: 'nearest' });
    return true;
  }
  // The chosen URL's details are shown beside the table: take the focus there, to read and act on them.
  const pane = document.querySelector<HTMLElement>('main .row-details');
  if (!pane) {
    all[current]!.click();
    return true;
  }
  if (!pane.hasAttribute('tabindex')) pane.setAttribute('tabindex', '-1');
  pane.focus();
  return true;
}
