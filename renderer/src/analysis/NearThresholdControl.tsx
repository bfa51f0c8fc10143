// Duplicate content (issue 18.1): the near-duplicate threshold beside the explorer's Content filters. The crawl in
// view's threshold is read from the host; a new one (a whole percent, 50 to 100) is sent when typed or stepped to,
// and the counts, rows and URL detail follow (content-options.ts). Nothing is crawled again.
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/connection.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { setNearThreshold, thresholdPercent } from './content-options.ts';

/** A typed threshold is sent this long after the last keystroke. */
const APPLY_DELAY_MS = 400;

export function NearThresholdControl() {
  const api = useApi();
  const store = useCrawlStore();
  const crawlKey = useCrawl((s) => s.crawlKey);
  const { t } = useTranslation('analysis');
  const [text, setText] = useState('');
  /** The threshold the host holds (percent), null until read. */
  const applied = useRef<number | null>(null);

  useEffect(() => {
    let gone = false;
    api.contentOptions({}).then(
      (o) => {
        if (gone) return;
        applied.current = Math.round(o.threshold * 100);
        setText(String(applied.current));
      },
      () => undefined,
    );
    return () => {
      gone = true;
    };
  }, [api, crawlKey]);

  useEffect(() => {
    const percent = thresholdPercent(text);
    if (percent === null || applied.current === null || percent === applied.current) return;
    const timer = setTimeout(() => {
      applied.current = percent;
      setNearThreshold(api, percent).catch((err: unknown) =>
        notify(store, 'error', t('explorer.nearThresholdFailed', { error: errorMessage(err) })),
      );
    }, APPLY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, api]);

  const invalid = text !== '' && thresholdPercent(text) === null;
  return (
    <label className="near-threshold" title={t('explorer.nearThresholdHint')}>
      <span className="near-threshold-label">{t('explorer.nearThreshold')}</span>
      <input
        type="number"
        min={50}
        max={100}
        step={1}
        inputMode="numeric"
        className="near-threshold-input"
        aria-label={t('explorer.nearThresholdLabel')}
        aria-invalid={invalid || undefined}
        data-testid="near-threshold"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <span aria-hidden="true">%</span>
    </label>
  );
}
