// System / Light / Dark, at the right end of the view tabs; the choice is kept in localStorage (theme.ts). No visible
// label, for room: the select is named for screen readers and explained in its tooltip.
import { THEME_CHOICES, THEME_LABEL, setThemeChoice, useThemeChoice } from '../theme.ts';
import type { ThemeChoice } from '../theme.ts';

export function ThemeSwitch() {
  const choice = useThemeChoice();
  return (
    <select
      className="theme-switch"
      data-testid="theme-switch"
      aria-label="Theme"
      title="Colour theme: System follows the system's light or dark setting"
      value={choice}
      onChange={(e) => setThemeChoice(e.currentTarget.value as ThemeChoice)}
    >
      {THEME_CHOICES.map((c) => (
        <option key={c} value={c}>
          {THEME_LABEL[c]}
        </option>
      ))}
    </select>
  );
}
