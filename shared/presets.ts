// Named configurations (presets): what listPresets, savePreset and deletePreset answer, and the rule for a
// preset's name, checked by the renderer's form and by the command's argument schema alike.
import type { CrawlSettings, SettingsProblem } from './settings.ts';

/** A named configuration to reuse: every setting but the seeds. */
export interface CrawlPreset {
  name: string;
  /** ISO time of the last save. */
  savedAt: string;
  settings: Omit<CrawlSettings, 'seeds'>;
}

export const PRESET_NAME_MAX_LENGTH = 60;

/** Why a preset name is refused, or null: 1-60 characters, letters, digits, spaces and - _ . , ( ) ' & +. */
export function presetNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'a preset name must be text';
  if (name.trim() === '') return 'give the preset a name';
  if (name !== name.trim()) return 'a preset name must not start or end with a space';
  if (name.length > PRESET_NAME_MAX_LENGTH) return `a preset name must be at most ${PRESET_NAME_MAX_LENGTH} characters`;
  if (!/^[\p{L}\p{N}][\p{L}\p{N} _.,()'&+-]*$/u.test(name))
    return "a preset name may hold letters, digits, spaces and - _ . , ( ) ' & + only, starting with a letter or digit";
  return null;
}

/** Saving a preset: the presets afterwards, or the settings' problems field by field. */
export type SavePresetResult = { ok: true; presets: CrawlPreset[] } | { ok: false; problems: SettingsProblem[] };
