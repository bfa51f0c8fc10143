// Which crawl the schedule editor is about to schedule (set by the crawls list's Schedule button), and a counter that
// tells the schedules panel to reload (a crawl listed, deleted or finished may have changed a schedule).
import { createStore } from 'zustand/vanilla';

export interface ScheduleDraft {
  /** The crawl, as the crawls list names it. */
  file: string;
  title: string;
}

export const scheduleDraft = createStore<{ draft: ScheduleDraft | null }>(() => ({ draft: null }));

export const scheduleCrawl = (draft: ScheduleDraft) => scheduleDraft.setState({ draft });
