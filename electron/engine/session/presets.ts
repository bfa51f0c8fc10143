// Named configuration presets: every setting but the seeds and the credentials, saved under a name and loaded into
// the start form again. One JSON file in the crawls folder (0700), written 0600 whole to a temporary file and renamed
// over the old one, so a crash mid-write leaves the previous version. A file that cannot be read is reported, never
// replaced: the analyst's presets are not silently dropped. A preset never keeps the custom headers or the basic
// authentication (shared/credentials.ts): a presets file is not sealed as a crawl file's credentials are, and is
// copied between machines and shown around; those stay in the form when a preset is loaded. A file of an older
// version holding some has them taken out the first time it is read. Plain Node.
import fs from 'node:fs';
import path from 'node:path';
import type { CrawlPreset, SavePresetResult } from '../../../shared/crawler-api.ts';
import { presetNameProblem } from '../../../shared/crawler-api.ts';
import { validateSettings } from '../../../shared/settings.ts';
import { writePrivateJsonFile } from './private-json-file.ts';
import type { CrawlSettings, SettingsProblem } from '../../../shared/settings.ts';

export const PRESETS_FILE = 'trawl-presets.json';
export const MAX_PRESETS = 200;
/** A presets file larger than this is refused as not ours (200 presets are far smaller). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const FILE_VERSION = 1;
/** Stands in for the seeds while a preset's settings are checked; problems about it are not the preset's. */
const PLACEHOLDER_SEED = 'https://preset.invalid/';

/** Thrown when the presets file exists but cannot be used; its message says which file and why. */
export class PresetsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PresetsFileError';
  }
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export class PresetStore {
  readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, PRESETS_FILE);
  }

  /** Every preset, by name (case-insensitively). Throws a PresetsFileError when the file cannot be read. */
  list(): CrawlPreset[] {
    return this.read().sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
  }

  /** Checks the settings (not the seeds), then saves them under `name`, replacing a preset of that name. */
  save(name: string, input: unknown): SavePresetResult {
    const nameProblem = presetNameProblem(name);
    if (nameProblem) return { ok: false, problems: [{ field: 'name', message: nameProblem }] };
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { ok: false, problems: [{ field: '(settings)', message: 'must be an object of settings' }] };
    }
    if (Object.hasOwn(input, 'seeds'))
      return { ok: false, problems: [{ field: 'seeds', message: 'a preset holds settings, not seed URLs' }] };
    const checked = checkPresetSettings(input);
    if (!checked.ok) return checked;
    const presets = this.read();
    const kept = presets.filter((p) => !sameName(p.name, name));
    if (kept.length >= MAX_PRESETS)
      return { ok: false, problems: [{ field: 'name', message: `there are ${MAX_PRESETS} presets already; delete one first` }] };
    kept.push({ name, savedAt: new Date().toISOString(), settings: withoutCredentials(checked.settings) });
    this.write(kept);
    return { ok: true, presets: this.list() };
  }

  /** Deletes the preset of that name (case-insensitively); answers with those left. */
  delete(name: string): CrawlPreset[] {
    const presets = this.read();
    const kept = presets.filter((p) => !sameName(p.name, name));
    if (kept.length === presets.length) throw new Error(`there is no preset named "${name}"`);
    this.write(kept);
    return this.list();
  }

  private read(): CrawlPreset[] {
    let text: string;
    try {
      const stat = fs.statSync(this.file);
      if (!stat.isFile()) throw new PresetsFileError(`${this.file} is not a file; move it away to save presets`);
      if (stat.size > MAX_FILE_BYTES)
        throw new PresetsFileError(`${this.file} is too large to be a presets file (${stat.size} bytes); move it away to save presets`);
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      if (err instanceof PresetsFileError) throw err;
      throw new PresetsFileError(`cannot read the presets file ${this.file}: ${(err as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new PresetsFileError(
        `the presets file ${this.file} is not valid JSON (${(err as Error).message}); fix it or move it away, nothing was changed`,
      );
    }
    const presets = parsePresetsFile(data, this.file);
    // An older version kept credentials in presets: they are taken out of the file now, whatever is done next.
    if (presets.some((p) => hasCredentials(p.settings))) {
      const cleaned = presets.map((p) => ({ ...p, settings: withoutCredentials(p.settings) }));
      this.write(cleaned);
      return cleaned;
    }
    return presets;
  }

  private write(presets: CrawlPreset[]): void {
    writePrivateJsonFile(this.file, { version: FILE_VERSION, presets });
  }
}

const hasCredentials = (settings: CrawlPreset['settings']) => settings.basicAuth !== null || Object.keys(settings.headers).length > 0;

/** The settings without the credentials a preset never keeps: no custom headers, no basic authentication. */
export function withoutCredentials(settings: CrawlPreset['settings']): CrawlPreset['settings'] {
  return { ...settings, headers: {}, basicAuth: null };
}

/**
 * A preset's settings checked as a crawl's would be, but for the seeds, and filled with the defaults (so a
 * setting newer than the preset takes its default).
 */
export function checkPresetSettings(
  input: object,
): { ok: true; settings: CrawlPreset['settings'] } | { ok: false; problems: SettingsProblem[] } {
  const checked = validateSettings({ ...input, seeds: [PLACEHOLDER_SEED] });
  let settings: CrawlSettings;
  if (checked.ok) settings = checked.settings;
  else {
    const problems = checked.problems.filter((p) => p.field !== 'seeds' && !p.field.startsWith('seeds.'));
    if (problems.length) return { ok: false, problems };
    // Valid but for the placeholder seed failing the include/exclude patterns (which are valid themselves, or
    // they would have been named): parse without them, then put them back.
    const record = input as Record<string, unknown>;
    const again = validateSettings({ ...input, seeds: [PLACEHOLDER_SEED], include: [], exclude: [] });
    if (!again.ok) return { ok: false, problems: again.problems };
    settings = {
      ...again.settings,
      include: (record['include'] as string[] | undefined) ?? [],
      exclude: (record['exclude'] as string[] | undefined) ?? [],
    };
  }
  const { seeds: _seeds, ...rest } = settings;
  return { ok: true, settings: rest };
}

/** The presets of a parsed file, each one's settings checked, or a PresetsFileError naming the first thing wrong. */
export function parsePresetsFile(data: unknown, file: string): CrawlPreset[] {
  const bad = (why: string) =>
    new PresetsFileError(`the presets file ${file} is damaged (${why}); fix it or move it away, nothing was changed`);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw bad('not a JSON object');
  const { version, presets } = data as { version?: unknown; presets?: unknown };
  if (version !== FILE_VERSION) throw bad(`version ${JSON.stringify(version)}, expected ${FILE_VERSION}`);
  if (!Array.isArray(presets)) throw bad('"presets" is not a list');
  return presets.map((p: unknown, i) => {
    if (typeof p !== 'object' || p === null) throw bad(`preset ${i + 1} is not an object`);
    const { name, savedAt, settings } = p as Record<string, unknown>;
    if (presetNameProblem(name) !== null) throw bad(`preset ${i + 1} has no valid name`);
    if (typeof savedAt !== 'string') throw bad(`preset "${String(name)}" has no savedAt time`);
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      throw bad(`preset "${String(name)}" has no settings object`);
    if (Object.hasOwn(settings, 'seeds')) throw bad(`preset "${String(name)}" holds seeds`);
    const checked = checkPresetSettings(settings);
    if (!checked.ok)
      throw bad(`preset "${String(name)}" has invalid settings: ${checked.problems.map((q) => `${q.field}: ${q.message}`).join('; ')}`);
    return { name: name as string, savedAt, settings: checked.settings };
  });
}
