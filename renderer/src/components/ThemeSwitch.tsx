// System / Light / Dark, at the right end of the view tabs; the choice is kept in localStorage (theme.ts). No visible
// label, for room: the select is named for screen readers and explained in its tooltip (strings: live.theme).
import { THEME_CHOICES, setThemeChoice, useThemeChoice } from '../theme.ts';
import { useTranslation } from '../i18n/i18n.ts';
import type { ThemeChoice } from '../theme.ts';

export function ThemeSwitch() {
  const choice = useThemeChoice();
  const { t } = useTranslation('live');
  return (
    <select
      className="theme-switch"
      data-testid="theme-switch"
      aria-label={t('theme.label')}
      title={t('theme.title')}
      value={choice}
      onChange={(e) => setThemeChoice(e.currentTarget.value as ThemeChoice)}
    >
      {THEME_CHOICES.map((c) => (
        <option key={c} value={c}>
          {t(`theme.${c}`)}
        </option>
      ))}
    </select>
  );
}
