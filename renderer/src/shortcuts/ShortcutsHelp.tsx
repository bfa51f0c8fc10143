// The keyboard shortcuts' key handler and their help overlay ("?", or the keyboard button): the list is the table the
// keys are read from (shortcuts.ts).
import { useEffect, useRef, useState } from 'react';
import { SHORTCUTS, runShortcut, shortcutFor } from './shortcuts.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function Shortcuts() {
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const { t } = useTranslation('shortcuts');

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if (open) {
        if (e.key === 'Escape' || (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey)) {
          e.preventDefault();
          setOpen(false);
        }
        return;
      }
      const action = shortcutFor(e);
      if (action === null) return;
      if (action === 'help') {
        e.preventDefault();
        returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setOpen(true);
        return;
      }
      if (runShortcut(action)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const close = () => setOpen(false);
  // Focus goes back where it was when the overlay closes.
  useEffect(() => {
    if (!open && returnTo.current) {
      returnTo.current.focus({ preventScroll: true });
      returnTo.current = null;
    }
  }, [open]);

  return (
    <>
      <button
        type="button"
        className="btn btn-quiet btn-small shortcuts-button"
        data-testid="shortcuts-open"
        title={t('buttonTitle')}
        aria-label={t('button')}
        aria-haspopup="dialog"
        onClick={(e) => {
          returnTo.current = e.currentTarget;
          setOpen(true);
        }}
      >
        ?
      </button>
      {open && <ShortcutsOverlay onClose={close} />}
    </>
  );
}

function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => closeButton.current?.focus(), []);
  const { t } = useTranslation('shortcuts');
  return (
    // A click outside the list closes it, as Escape does.
    <div className="shortcuts-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="shortcuts-dialog" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" data-testid="shortcuts-overlay">
        <div className="shortcuts-bar">
          <h2 id="shortcuts-title">{t('title')}</h2>
          <button type="button" ref={closeButton} className="btn btn-quiet btn-small" data-testid="shortcuts-close" onClick={onClose}>
            {t('close')}
          </button>
        </div>
        <table className="shortcuts-table">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action} data-shortcut={s.action}>
                <td className="shortcuts-keys">
                  {s.label.map((k, i) => (
                    <span key={k}>
                      {i > 0 && <span className="shortcuts-or">{t('or')}</span>}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{t(`actions.${s.action}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="shortcuts-note">{t('note')}</p>
      </div>
    </div>
  );
}
