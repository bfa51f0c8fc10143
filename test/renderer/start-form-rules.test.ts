// The start form's rules that are not its fields: it starts from the last crawl's settings, kept in storage across
// reloads without credentials (last-settings.ts), says so above the form, and when Start crawl is refused it says
// beside the button how many fields are invalid.
import { formatWhen } from '../../renderer/src/format.ts';
import { describe, expect, it } from 'vitest';
import { formFromDefaults, formFromSettings } from '../../renderer/src/start/start-form-model.ts';
import type { StartForm } from '../../renderer/src/start/start-form-model.ts';
import {
  LAST_SETTINGS_KEY,
  MAX_KEPT_SEEDS_CHARS,
  forgetLastSettings,
  formWithLast,
  loadLastSettings,
  saveLastSettings,
} from '../../renderer/src/start/last-settings.ts';
import type { SettingsStorage } from '../../renderer/src/start/last-settings.ts';
import { invalidFieldsText, originText } from '../../renderer/src/start/StartPanel.tsx';
import { newRule } from '../../renderer/src/start/rule-form.ts';

function memoryStorage(): SettingsStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

const used = (): StartForm => ({
  ...formFromDefaults(null),
  seeds: 'https://a.test/\nhttps://b.test/',
  threads: '3',
  maxDepth: '2',
  exclude: '/private/',
  checkResources: ['images'],
  polite: true,
  extraction: [{ ...newRule([]), name: 'price', expression: '.price' }],
  headers: 'Authorization: Bearer secret-token',
  basicAuth: { username: 'me', password: 'hunter2' },
});

describe('start form: the last crawl settings', () => {
  it('keeps the settings of a crawl started, across a reload, but never its headers or password', () => {
    const storage = memoryStorage();
    expect(saveLastSettings(storage, used(), 1_700_000_000_000)).toBe(true);
    const text = storage.items.get(LAST_SETTINGS_KEY)!;
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('"me"');
    // A reload: a new form from the defaults, with the kept settings over them.
    const last = loadLastSettings(storage);
    expect(last).toMatchObject({ savedAt: 1_700_000_000_000, seedsKept: true });
    const form = formWithLast(formFromDefaults(null), last);
    expect(form).toEqual({ ...used(), headers: '', basicAuth: { username: '', password: '' } });
  });

  it('starts from the defaults when nothing is kept, or after Reset to defaults forgets it', () => {
    const storage = memoryStorage();
    expect(loadLastSettings(storage)).toBeNull();
    expect(formWithLast(formFromDefaults(null), null, 'https://typed.test/')).toEqual({
      ...formFromDefaults(null),
      seeds: 'https://typed.test/',
    });
    saveLastSettings(storage, used());
    forgetLastSettings(storage);
    expect(loadLastSettings(storage)).toBeNull();
  });

  it('keeps the settings but not a URL list too long to keep', () => {
    const storage = memoryStorage();
    const long = { ...used(), seeds: `https://a.test/${'x'.repeat(MAX_KEPT_SEEDS_CHARS)}` };
    saveLastSettings(storage, long);
    const last = loadLastSettings(storage)!;
    expect(last.seedsKept).toBe(false);
    expect(formWithLast(formFromDefaults(null), last, 'typed').seeds).toBe('typed');
    expect(formWithLast(formFromDefaults(null), last).threads).toBe('3');
  });

  it('takes only fields the form has, of their type, from what storage holds', () => {
    const storage = memoryStorage();
    storage.setItem(
      LAST_SETTINGS_KEY,
      JSON.stringify({
        version: 1,
        savedAt: 5,
        form: { threads: 7, maxDepth: '4', bogus: 'x', checkResources: 'images', polite: 'yes', headers: 'X: y', mode: 'list' },
      }),
    );
    expect(loadLastSettings(storage)?.form).toEqual({ maxDepth: '4', mode: 'list' });
    for (const bad of ['not json', '[]', 'null', JSON.stringify({ version: 2, savedAt: 1, form: {} })]) {
      storage.setItem(LAST_SETTINGS_KEY, bad);
      expect(loadLastSettings(storage)).toBeNull();
    }
    // A storage that refuses access (a browser's privacy setting) is as if nothing were kept.
    const refusing: SettingsStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadLastSettings(refusing)).toBeNull();
    expect(saveLastSettings(refusing, used())).toBe(false);
    expect(() => forgetLastSettings(refusing)).not.toThrow();
    expect(saveLastSettings(null, used())).toBe(false);
  });

  it('says where the settings came from, and the rule', () => {
    expect(originText({ kind: 'defaults' }, false)).toBe(
      "Default settings. Each crawl's settings are kept for the next one, after a reload too.",
    );
    const at = new Date(2026, 0, 2, 3, 4).getTime();
    expect(originText({ kind: 'last', at, seedsKept: true }, false)).toBe(
      `Settings of your last crawl (started ${formatWhen(new Date(at).toISOString())}); its headers and password are never kept`,
    );
    expect(originText({ kind: 'last', at, seedsKept: true }, true)).toContain(', changed since;');
    expect(originText({ kind: 'preset', name: 'Docs' }, false)).toBe('Settings of the preset "Docs"');
    // formFromSettings is unchanged: a preset still loads over the defaults, not over the last crawl.
    expect(formFromSettings(undefined).threads).toBe('5');
  });
});

describe('start form: a refused start', () => {
  it('says how many fields are invalid beside Start crawl', () => {
    expect(invalidFieldsText(1)).toBe('1 field is invalid: fix it to start.');
    expect(invalidFieldsText(3)).toBe('3 fields are invalid: fix them to start.');
  });
});
