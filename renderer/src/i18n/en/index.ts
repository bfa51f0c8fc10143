// The English strings, one namespace per part of the interface. A namespace is a file of its own, so that
// several parts can be translated at once.
import { common } from './common.ts';
import { live } from './live.ts';
import { schedules } from './schedules.ts';
import { shortcuts } from './shortcuts.ts';
import { start } from './start.ts';
import { analysis } from './analysis.ts';
import { results } from './results.ts';
import { overview } from './overview.ts';
// The messages built outside the renderer: their English is the shared catalogue itself.
import { MESSAGES as messages } from '../../../../shared/messages.ts';

export const en = {
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

/** The shape every language's strings have: English's keys, each a string. */
export type Messages = StringsOf<typeof en>;
type StringsOf<T> = { [K in keyof T]: T[K] extends string ? string : StringsOf<T[K]> };
