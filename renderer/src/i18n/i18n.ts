// The interface's language, through i18next (react-i18next for the components): every string a person reads goes
// through t(), from the resources of en/ and zh-CN/. The language follows the system's (navigator.languages)
// unless the user chose one in the app (kept in localStorage). Initialised synchronously on import, so the first
// render is already in the right language.
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './en/index.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_KEY, type LanguageCode, LANGUAGES, pickLanguage } from './languages.ts';
import { zhCN } from './zh-CN/index.ts';

export const RESOURCES = { en, 'zh-CN': zhCN } satisfies Record<LanguageCode, unknown>;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    // English's strings type every t() call: a key that does not exist is a type error.
    resources: typeof en;
  }
}

function storedLanguage(): string | null {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function systemLanguages(): readonly string[] {
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;
  return nav?.languages ?? (nav?.language ? [nav.language] : []);
}

void i18next.use(initReactI18next).init({
  resources: RESOURCES,
  lng: pickLanguage(systemLanguages(), storedLanguage()),
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: 'common',
  ns: Object.keys(en),
  // React escapes what it renders; crawled text never goes through a translation.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
setDocumentLanguage(i18next.language);
i18next.on('languageChanged', setDocumentLanguage);

function setDocumentLanguage(code: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = code;
}

/** Switches the interface to `code` and remembers the choice. */
export function chooseLanguage(code: LanguageCode): void {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, code);
  } catch {
    // storage disabled: the choice lasts for this page
  }
  void i18next.changeLanguage(code);
}

/** The language shown now. */
export function currentLanguage(): LanguageCode {
  return LANGUAGES.find((l) => l.code === i18next.language)?.code ?? DEFAULT_LANGUAGE;
}

export { i18next, useTranslation };
