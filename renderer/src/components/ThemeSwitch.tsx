// System / Light / Dark, in the top bar; the choice is kept in localStorage (theme.ts).
import { THEME_CHOICES, THEME_LABEL, setThemeChoice, useThemeChoice } from '../theme.ts';
import type { ThemeChoice } from '../theme.ts';

export function ThemeSwitch() {
  const choice = useThemeChoice();
  return (
    <label className="theme-switch" title="Colour theme: System follows the system's light or dark setting">
      <span className="theme-switch-label">Theme</span>
      <select data-testid="theme-switch" value={choice} onChange={(e) => setThemeChoice(e.currentTarget.value as ThemeChoice)}>
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {THEME_LABEL[c]}
          </option>
        ))}
      </select>
    </label>
  );
}
