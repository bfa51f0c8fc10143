// Runs a command and turns a failure into a notice, so no button ever fails silently.
import { useCallback, useState } from 'react';
import { errorMessage } from '../api/connection.ts';
import { notify } from '../store/crawl-store.ts';
import { useCrawlStore } from '../store/context.tsx';
import { i18next } from '../i18n/i18n.ts';
import { hostText } from '../i18n/host-messages.ts';

export function useCommand(): <T>(what: string, run: () => Promise<T>) => Promise<T | undefined> {
  const store = useCrawlStore();
  return useCallback(
    async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (err) {
        notify(store, 'error', i18next.t('notices.failed', { ns: 'live', what, error: hostText(errorMessage(err)) }));
        return undefined;
      }
    },
    [store],
  );
}

/** The same, with a busy flag for the button that started it. */
export function useBusyCommand(): [boolean, <T>(what: string, run: () => Promise<T>) => Promise<T | undefined>] {
  const command = useCommand();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(what: string, fn: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      try {
        return await command(what, fn);
      } finally {
        setBusy(false);
      }
    },
    [command],
  );
  return [busy, run];
}
