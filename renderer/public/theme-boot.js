// Puts a stored Light or Dark choice on <html> before the first paint (the app's module script runs too late for
// that, and the Content Security Policy allows no inline script). renderer/src/theme.ts owns the choice; this reads
// the same key and values (test/renderer/locale-and-theme.test.ts checks they agree).
try {
  const choice = localStorage.getItem('trawl.theme');
  if (choice === 'light' || choice === 'dark') document.documentElement.setAttribute('data-theme', choice);
} catch {
  // Storage refused: System, the stylesheet's default.
}
