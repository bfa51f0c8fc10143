// Scheduled recrawls: a crawl's settings run again every N hours or minutes, or every day at a time, while the app
// (or the web console) runs; each run is compared with the one before, and what changed is said here. The list,
// the editor (for a crawl chosen with the crawls list's Schedule button, or a schedule's Edit) and the removal.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { CrawlSchedule, ScheduleRun, ScheduleTiming } from '../../../shared/schedules.ts';
import { DAILY_TIME, SCHEDULE_LIMITS, describeChanges, describeTiming } from '../../../shared/schedules.ts';
import { fileName, formatInt, formatWhen, hostOf } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useCommand } from '../components/use-command.ts';
import { scheduleDraft } from './schedule-draft.ts';

const POLL_MS = 10_000;
const RUNS_SHOWN = 3;

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

  const refresh = useCallback(async () => {
    const list = await command('List schedules', () => api.listSchedules());
    if (list) setSchedules(list);
  }, [api, command]);

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
    const list = await command('Schedule the crawl', () => api.addSchedule(draft.file, timing));
    if (!list) return;
    setSchedules(list);
    scheduleDraft.setState({ draft: null });
    notify(store, 'info', `Scheduled ${draft.title} ${describeTiming(timing)}`);
  };

  const update = async (s: CrawlSchedule, timing: ScheduleTiming, enabled: boolean) => {
    const list = await command('Change the schedule', () => api.updateSchedule(s.id, { timing, enabled }));
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
    const list = await command('Remove the schedule', () => api.deleteSchedule(s.id));
    if (list) setSchedules(list);
  };

  // The editor opens below the crawls list: bring it into view.
  const editor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (draft) editor.current?.scrollIntoView({ block: 'nearest' });
  }, [draft]);

  if (!draft && !any) return null;
  return (
    <section className="panel schedules" aria-label="scheduled recrawls" data-testid="schedules">
      <div className="panel-bar">
        <h2 className="panel-title">Scheduled recrawls</h2>
      </div>
      {draft && (
        <div className="schedule-item" data-testid="schedule-new" ref={editor}>
          <div className="schedule-title">Schedule {draft.title}</div>
          <div className="schedule-note">Its settings run again as a new crawl, compared with the one before.</div>
          <TimingEditor
            initial={{ every: 'minutes', minutes: 24 * 60 }}
            enabled={true}
            showEnabled={false}
            saveLabel="Schedule"
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
                saveLabel="Save"
                onSave={(timing, enabled) => void update(s, timing, enabled)}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
                <div className="schedule-when" data-testid="schedule-when">
                  {describeTiming(s.timing)}
                  {s.enabled ? (
                    s.nextRunAt && <span> · next {formatWhen(s.nextRunAt)}</span>
                  ) : (
                    <span className="schedule-paused"> · paused</span>
                  )}
                </div>
                {s.waiting && <div className="schedule-waiting">{s.waiting}</div>}
                <ol className="schedule-runs" aria-label="latest runs">
                  {s.runs.slice(0, RUNS_SHOWN).map((r) => (
                    <RunLine key={`${r.startedAt}${r.file}`} run={r} />
                  ))}
                  {s.runs.length === 0 && <li className="schedule-run-none">No run yet.</li>}
                </ol>
                <div className="crawl-item-more-actions">
                  <button type="button" className="btn-link" data-testid="schedule-edit" onClick={() => setEditing(s.id)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn-link"
                    data-testid="schedule-toggle"
                    onClick={() => void update(s, s.timing, !s.enabled)}
                  >
                    {s.enabled ? 'Pause' : 'Resume'}
                  </button>
                  <button
                    type="button"
                    className={armed === s.id ? 'btn-link btn-link-danger' : 'btn-link'}
                    data-testid="schedule-remove"
                    title={armed === s.id ? 'Press again to remove this schedule (its crawls stay)' : 'Remove this schedule'}
                    onClick={() => void remove(s)}
                  >
                    {armed === s.id ? 'Remove?' : 'Remove'}
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
  const what = run.error
    ? run.error
    : run.finishedAt === null
      ? 'running…'
      : run.changes
        ? describeChanges(run.changes)
        : (run.outcome ?? '');
  return (
    <li className="schedule-run" data-testid="schedule-run" data-error={run.error ? true : undefined} title={run.file || undefined}>
      <span className="schedule-run-when">{formatWhen(run.startedAt)}</span>
      {run.crawled !== null && <span className="schedule-run-count">{formatInt(run.crawled)} crawled</span>}
      {run.outcome && run.outcome !== 'completed' && <span className="schedule-run-outcome">{run.outcome}</span>}
      <span className="schedule-run-changes" data-testid="schedule-run-changes">
        {what}
      </span>
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
  const n = Number(count);
  const minutes = kind === 'hours' ? n * 60 : n;
  const problem =
    kind === 'day'
      ? DAILY_TIME.test(at)
        ? null
        : 'a time of day, HH:MM'
      : Number.isInteger(n) && minutes >= SCHEDULE_LIMITS.minutes.min && minutes <= SCHEDULE_LIMITS.minutes.max
        ? null
        : `a whole number, from 1 minute to ${SCHEDULE_LIMITS.minutes.max / 60 / 24} days`;
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
          <span className="offscreen">How often</span>
          <select value={kind} data-testid="timing-kind" onChange={(e) => setKind(e.target.value as Kind)}>
            <option value="hours">Every … hours</option>
            <option value="minutes">Every … minutes</option>
            <option value="day">Every day at</option>
          </select>
        </label>
        {kind === 'day' ? (
          <label>
            <span className="offscreen">Time of day</span>
            <input type="time" data-testid="timing-at" value={at} onChange={(e) => setAt(e.target.value)} aria-invalid={problem !== null} />
          </label>
        ) : (
          <label>
            <span className="offscreen">{kind === 'hours' ? 'Hours' : 'Minutes'}</span>
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
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Runs (untick to pause it)
        </label>
      )}
      {problem ? (
        <div className="schedule-problem" role="alert">
          {problem}
        </div>
      ) : (
        <div className="schedule-note">Runs {describeTiming(timing)} while Trawl is open.</div>
      )}
      <div className="label-editor-actions">
        <button type="submit" className="btn btn-small btn-primary" data-testid="timing-save" disabled={problem !== null}>
          {saveLabel}
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
