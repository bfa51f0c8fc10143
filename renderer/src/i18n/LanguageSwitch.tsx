// The language switch: the languages of languages.ts, each named in its own language.
import { chooseLanguage, currentLanguage, useTranslation } from './i18n.ts';
import { LANGUAGES, type LanguageCode } from './languages.ts';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const value = LANGUAGES.find((l) => l.code === i18n.language)?.code ?? currentLanguage();
  return (
    <label className="language-switch" title={t('languageTitle')}>
      <span className="visually-hidden">{t('language')}</span>
      <select value={value} data-testid="language" onChange={(e) => chooseLanguage(e.target.value as LanguageCode)}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
