// The start form's rule for where it starts: from the settings of the last crawl started here, kept in the
// browser's storage so a reload (or the next day's session) starts from them too, and said above the form ("From
// your last crawl · Reset to defaults"). Credentials are never written to storage: the request headers (often an
// Authorization or a cookie) and basic authentication stay in the form for the session only.
import type { StartForm } from './start-form-model.ts';
import { formFromSettings } from './start-form-model.ts';

/** The storage key of the last crawl's settings. */
export const LAST_SETTINGS_KEY = 'trawl.lastCrawlSettings';
/** Seeds longer than this (a list read from a file) are not kept: the settings are, the list is not. */
export const MAX_KEPT_SEEDS_CHARS = 100_000;

/** The fields never kept: secrets. */
const NOT_KEPT = ['headers', 'basicAuth'] as const satisfies readonly (keyof StartForm)[];

export interface LastSettings {
  /** The form's fields as they were when the crawl started, without credentials (and without seeds too long to keep). */
  form: Partial<StartForm>;
  /** Epoch ms of the start. */
  savedAt: number;
  /** Whether the seeds were kept. */
  seedsKept: boolean;
}

/** The part of Storage used here (window.localStorage, or a fake in tests). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's storage, or null where there is none (or it refuses access). */
export function browserStorage(): SettingsStorage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** What is kept of a form when its crawl starts. */
export function keptForm(form: StartForm): { form: Partial<StartForm>; seedsKept: boolean } {
  const kept: Partial<StartForm> = { ...form };
  for (const key of NOT_KEPT) delete kept[key];
  const seedsKept = form.seeds.length <= MAX_KEPT_SEEDS_CHARS;
  if (!seedsKept) delete kept.seeds;
  return { form: kept, seedsKept };
}

/** Keeps the form of a crawl just started; false when the storage refused it (full, or disabled). */
export function saveLastSettings(storage: SettingsStorage | null, form: StartForm, now = Date.now()): boolean {
  if (!storage) return false;
  const { form: kept, seedsKept } = keptForm(form);
  try {
    storage.setItem(LAST_SETTINGS_KEY, JSON.stringify({ version: 1, savedAt: now, seedsKept, form: kept }));
    return true;
  } catch {
    return false;
  }
}

export function forgetLastSettings(storage: SettingsStorage | null): void {
  try {
    storage?.removeItem(LAST_SETTINGS_KEY);
  } catch {
    // Nothing kept, or no storage: nothing to forget.
  }
}

/**
 * The last crawl's settings kept in storage, or null. Only fields the form has, each of the type it has there,
 * are taken: a value stored by an older version that no longer fits is left at its default.
 */
export function loadLastSettings(storage: SettingsStorage | null): LastSettings | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(LAST_SETTINGS_KEY) ?? null;
  } catch {
    return null;
  }
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { version, savedAt, seedsKept, form } = parsed as Record<string, unknown>;
  if (version !== 1 || typeof savedAt !== 'number' || typeof form !== 'object' || form === null) return null;
  const shape = formFromSettings(undefined) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form as Record<string, unknown>)) {
    if (!Object.hasOwn(shape, key) || (NOT_KEPT as readonly string[]).includes(key)) continue;
    const want = shape[key];
    const fits = Array.isArray(want) ? Array.isArray(value) : typeof value === typeof want && value !== null;
    if (fits) out[key] = value;
  }
  return { form: out as Partial<StartForm>, savedAt, seedsKept: seedsKept === true };
}

/** The form `base` (the defaults) with the last crawl's settings over it; seeds as kept, else `seeds`. */
export function formWithLast(base: StartForm, last: LastSettings | null, seeds = ''): StartForm {
  if (!last) return { ...base, seeds };
  return { ...base, ...last.form, seeds: last.form.seeds ?? seeds };
}
