// The Simplified Chinese strings: the same namespaces and keys as English (typed by en/index.ts).
import type { Messages } from '../en/index.ts';
import { common } from './common.ts';
import { live } from './live.ts';
import { schedules } from './schedules.ts';
import { shortcuts } from './shortcuts.ts';
import { start } from './start.ts';
import { analysis } from './analysis.ts';
import { results } from './results.ts';
import { overview } from './overview.ts';
import { messages } from './messages.ts';

export const zhCN: Messages = {
  common,
  live,
  schedules,
  shortcuts,
  start,
  analysis,
  results,
  overview,
  messages,
};
