// The languages of the interface. English is the language the strings are written in; Simplified Chinese is the
// language of the crawler4j and Heritrix write-ups this design comes from. Declared once: the switch, the
// detection and the resources (i18n.ts) all read this list.

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

/** Where the user's own choice is kept (otherwise the system's language decides). */
export const LANGUAGE_KEY = 'trawl.language';

/**
 * The language to show: the user's stored choice when it is one of ours, else the first of the system's
 * preferred languages (navigator.languages) that we have, by language and script ("zh", "zh-CN", "zh-Hans-CN",
 * "zh-SG" read as Simplified Chinese; "zh-TW" and "zh-Hant" do not), else English.
 */
export function pickLanguage(preferred: readonly string[], stored: string | null): LanguageCode {
  const ours = LANGUAGES.find((l) => l.code === stored);
  if (ours) return ours.code;
  for (const tag of preferred) {
    const parts = tag.toLowerCase().split(/[-_]/);
    if (parts[0] === 'en') return 'en';
    if (parts[0] === 'zh') {
      const traditional = parts.includes('hant') || parts.includes('tw') || parts.includes('hk') || parts.includes('mo');
      if (!traditional) return 'zh-CN';
    }
  }
  return DEFAULT_LANGUAGE;
}
