// Scheduled recrawls: a crawl's settings run again every N hours or minutes, or every day at a time, while the app
// (or the web console) runs; each run is compared with the one before, and what changed is said here. The list,
// the editor (for a crawl chosen with the crawls list's Schedule button, or a schedule's Edit) and the removal.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { CrawlSchedule, ScheduleRun, ScheduleTiming } from '../../../shared/schedules.ts';
import { DAILY_TIME, SCHEDULE_LIMITS } from '../../../shared/schedules.ts';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { messageText } from '../i18n/host-messages.ts';
import { fileName, formatInt, formatWhen, hostOf } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useCommand } from '../components/use-command.ts';
import { scheduleDraft } from './schedule-draft.ts';
import { requestComparison } from '../analysis/compare-request.ts';

const POLL_MS = 10_000;
const RUNS_SHOWN = 3;

// shared/schedules.ts words the timing and the changes in English for the CLI; the panel says them in the
// interface's language.

/** How often, in a phrase: "every 6 hours", "every day at 07:30". */
export function timingText(timing: ScheduleTiming): string {
  if (timing.every === 'day') return i18next.t('timing.day', { ns: 'schedules', at: timing.at });
  const m = timing.minutes;
  if (m % 60 === 0)
    return m === 60 ? i18next.t('timing.hour', { ns: 'schedules' }) : i18next.t('timing.hours', { ns: 'schedules', n: m / 60 });
  return m === 1 ? i18next.t('timing.minute', { ns: 'schedules' }) : i18next.t('timing.minutes', { ns: 'schedules', n: m });
}

/** A run's changes on one line: "3 added, 1 removed, 2 changed (title 2)" or "no change". */
export function changesText(changes: NonNullable<ScheduleRun['changes']>): string {
  const { added, removed, changed } = changes;
  if (added + removed + changed === 0) return i18next.t('changes.none', { ns: 'schedules' });
  const fields = Object.entries(changes.byField)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([f, n]) => `${f.replaceAll('_', ' ')} ${n}`)
    .join(', ');
  return i18next.t('changes.summary', {
    ns: 'schedules',
    added,
    removed,
    changed,
    fields: fields ? i18next.t('changes.fields', { ns: 'schedules', fields }) : '',
  });
}

const OUTCOME_KEYS: Record<string, 'completed' | 'pageLimit' | 'stopped' | 'failed'> = {
  completed: 'completed',
  'page limit': 'pageLimit',
  stopped: 'stopped',
  failed: 'failed',
};

/** A run's outcome in words (as the host says it when the interface does not know it). */
function outcomeText(outcome: string): string {
  const key = Object.hasOwn(OUTCOME_KEYS, outcome) ? OUTCOME_KEYS[outcome] : undefined;
  return key ? i18next.t(`outcome.${key}`, { ns: 'schedules' }) : outcome;
}

export function SchedulesPanel() {
  const api = useApi();
  const store = useCrawlStore();
  const command = useCommand();
  const connected = useCrawl((s) => s.connection.state === 'connected');
  const crawlKey = useCrawl((s) => `${s.crawlKey}:${s.state}`);
  const draft = useStore(scheduleDraft, (s) => s.draft);
  const [schedules, setSchedules] = useState<CrawlSchedule[] | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [armed, setArmed] = useState<string | null>(null);
  const { t } = useTranslation('schedules');

  const refresh = useCallback(async () => {
    const list = await command(t('listSchedules'), () => api.listSchedules());
    if (list) setSchedules(list);
  }, [api, command, t]);

  // Reload when a crawl starts or finishes (a scheduled run, maybe), when the connection comes back, and now and
  // then while there are schedules (a run that waits, the next run's time).
  useEffect(() => {
    if (connected) void refresh();
  }, [refresh, crawlKey, connected]);
  const any = (schedules?.length ?? 0) > 0;
  useEffect(() => {
    if (!connected || !any) return;
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [connected, any, refresh]);

  useEffect(() => {
    if (armed === null) return;
    const timer = setTimeout(() => setArmed(null), 4000);
    return () => clearTimeout(timer);
  }, [armed]);

  const add = async (timing: ScheduleTiming) => {
    if (!draft) return;
    const list = await command(t('scheduleCrawl'), () => api.addSchedule(draft.file, timing));
    if (!list) return;
    setSchedules(list);
    scheduleDraft.setState({ draft: null });
    notify(store, 'info', t('scheduled', { title: draft.title, timing: timingText(timing) }));
  };

  const update = async (s: CrawlSchedule, timing: ScheduleTiming, enabled: boolean) => {
    const list = await command(t('changeSchedule'), () => api.updateSchedule(s.id, { timing, enabled }));
    if (!list) return;
    setSchedules(list);
    setEditing(null);
  };

  const remove = async (s: CrawlSchedule) => {
    if (armed !== s.id) {
      setArmed(s.id);
      return;
    }
    setArmed(null);
    const list = await command(t('removeSchedule'), () => api.deleteSchedule(s.id));
    if (list) setSchedules(list);
  };

  // The editor opens below the crawls list: bring it into view.
  const editor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (draft) editor.current?.scrollIntoView({ block: 'nearest' });
  }, [draft]);

  if (!draft && !any) return null;
  return (
    <section className="panel schedules" aria-label={t('panel')} data-testid="schedules">
      <div className="panel-bar">
        <h2 className="panel-title">{t('title')}</h2>
      </div>
      {draft && (
        <div className="schedule-item" data-testid="schedule-new" ref={editor}>
          <div className="schedule-title">{t('scheduleTitle', { title: draft.title })}</div>
          <div className="schedule-note">{t('note')}</div>
          <TimingEditor
            initial={{ every: 'minutes', minutes: 24 * 60 }}
            enabled={true}
            showEnabled={false}
            saveLabel={t('schedule')}
            onSave={(timing) => void add(timing)}
            onCancel={() => scheduleDraft.setState({ draft: null })}
          />
        </div>
      )}
      <ul className="schedule-list">
        {(schedules ?? []).map((s) => (
          <li key={s.id} className="schedule-item" data-schedule-id={s.id} data-enabled={s.enabled || undefined}>
            <div className="schedule-title" title={s.seeds.join('\n')}>
              {s.name || hostOf(s.seeds[0] ?? '') || fileName(s.crawl)}
            </div>
            {editing === s.id ? (
              <TimingEditor
                initial={s.timing}
                enabled={s.enabled}
                showEnabled={true}
                saveLabel={t('save')}
                onSave={(timing, enabled) => void update(s, timing, enabled)}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
                <div className="schedule-when" data-testid="schedule-when">
                  {timingText(s.timing)}
                  {s.enabled ? (
                    s.nextRunAt && <span>{t('next', { when: formatWhen(s.nextRunAt) })}</span>
                  ) : (
                    <span className="schedule-paused">{t('paused')}</span>
                  )}
                </div>
                {s.waiting && (
                  <div className="schedule-waiting" data-testid="schedule-waiting">
                    {s.waitingReason ? messageText(s.waitingReason) : s.waiting}
                  </div>
                )}
                <ol className="schedule-runs" aria-label={t('latestRuns')}>
                  {s.runs.slice(0, RUNS_SHOWN).map((r) => (
                    <RunLine key={`${r.startedAt}${r.file}`} run={r} />
                  ))}
                  {s.runs.length === 0 && <li className="schedule-run-none">{t('noRun')}</li>}
                </ol>
                <div className="crawl-item-more-actions">
                  <button type="button" className="btn-link" data-testid="schedule-edit" onClick={() => setEditing(s.id)}>
                    {t('edit')}
                  </button>
                  <button
                    type="button"
                    className="btn-link"
                    data-testid="schedule-toggle"
                    onClick={() => void update(s, s.timing, !s.enabled)}
                  >
                    {s.enabled ? t('pause') : t('resume')}
                  </button>
                  <button
                    type="button"
                    className={armed === s.id ? 'btn-link btn-link-danger' : 'btn-link'}
                    data-testid="schedule-remove"
                    title={armed === s.id ? t('removeArmedTitle') : t('removeTitle')}
                    onClick={() => void remove(s)}
                  >
                    {armed === s.id ? t('removeArmed') : t('remove')}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RunLine({ run }: { run: ScheduleRun }) {
  const { t } = useTranslation('schedules');
  const what = run.error
    ? run.error
    : run.finishedAt === null
      ? t('running')
      : run.changes
        ? changesText(run.changes)
        : run.outcome
          ? outcomeText(run.outcome)
          : '';
  return (
    <li className="schedule-run" data-testid="schedule-run" data-error={run.error ? true : undefined} title={run.file || undefined}>
      <span className="schedule-run-when">{formatWhen(run.startedAt)}</span>
      {run.crawled !== null && <span className="schedule-run-count">{t('crawled', { n: formatInt(run.crawled) })}</span>}
      {run.outcome && run.outcome !== 'completed' && <span className="schedule-run-outcome">{outcomeText(run.outcome)}</span>}
      <span className="schedule-run-changes" data-testid="schedule-run-changes">
        {what}
      </span>
      {run.changes && run.previous && run.file && (
        <button
          type="button"
          className="btn-link"
          data-testid="schedule-run-compare"
          title={t('compareTitle', { previous: run.previous, file: run.file })}
          onClick={() => requestComparison({ oldName: run.previous!, newName: run.file })}
        >
          {t('compare')}
        </button>
      )}
    </li>
  );
}

type Kind = 'hours' | 'minutes' | 'day';

function TimingEditor({
  initial,
  enabled: initialEnabled,
  showEnabled,
  saveLabel,
  onSave,
  onCancel,
}: {
  initial: ScheduleTiming;
  enabled: boolean;
  showEnabled: boolean;
  saveLabel: string;
  onSave: (timing: ScheduleTiming, enabled: boolean) => void;
  onCancel: () => void;
}) {
  const [kind, setKind] = useState<Kind>(initial.every === 'day' ? 'day' : initial.minutes % 60 === 0 ? 'hours' : 'minutes');
  const [count, setCount] = useState(
    initial.every === 'day' ? '24' : String(initial.minutes % 60 === 0 ? initial.minutes / 60 : initial.minutes),
  );
  const [at, setAt] = useState(initial.every === 'day' ? initial.at : '07:00');
  const [enabled, setEnabled] = useState(initialEnabled);
  const { t } = useTranslation('schedules');
  const n = Number(count);
  const minutes = kind === 'hours' ? n * 60 : n;
  const problem =
    kind === 'day'
      ? DAILY_TIME.test(at)
        ? null
        : t('badTime')
      : Number.isInteger(n) && minutes >= SCHEDULE_LIMITS.minutes.min && minutes <= SCHEDULE_LIMITS.minutes.max
        ? null
        : t('badCount', { days: SCHEDULE_LIMITS.minutes.max / 60 / 24 });
  const timing: ScheduleTiming = kind === 'day' ? { every: 'day', at } : { every: 'minutes', minutes };
  return (
    <form
      className="timing-editor"
      data-testid="timing-editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) onSave(timing, enabled);
      }}
    >
      <div className="timing-row">
        <label>
          <span className="offscreen">{t('howOften')}</span>
          <select value={kind} data-testid="timing-kind" onChange={(e) => setKind(e.target.value as Kind)}>
            <option value="hours">{t('everyHours')}</option>
            <option value="minutes">{t('everyMinutes')}</option>
            <option value="day">{t('everyDayAt')}</option>
          </select>
        </label>
        {kind === 'day' ? (
          <label>
            <span className="offscreen">{t('timeOfDay')}</span>
            <input type="time" data-testid="timing-at" value={at} onChange={(e) => setAt(e.target.value)} aria-invalid={problem !== null} />
          </label>
        ) : (
          <label>
            <span className="offscreen">{kind === 'hours' ? t('hours') : t('minutes')}</span>
            <input
              type="number"
              className="timing-count"
              data-testid="timing-count"
              min={1}
              value={count}
              onChange={(e) => setCount(e.target.value)}
              aria-invalid={problem !== null}
            />
          </label>
        )}
      </div>
      {showEnabled && (
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> {t('enabled')}
        </label>
      )}
      {problem ? (
        <div className="schedule-problem" role="alert">
          {problem}
        </div>
      ) : (
        <div className="schedule-note">{t('runsWhile', { timing: timingText(timing) })}</div>
      )}
      <div className="label-editor-actions">
        <button type="submit" className="btn btn-small btn-primary" data-testid="timing-save" disabled={problem !== null}>
          {saveLabel}
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
