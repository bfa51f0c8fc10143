// One custom extraction rule as the start form edits it, and the name a new rule gets. No React here: the form's
// model (start-form-model.ts) turns these into settings.
import type { ExtractionRule } from '../../../shared/settings.ts';
import { i18next } from '../i18n/i18n.ts';

/** One custom extraction rule as the form edits it. */
export interface RuleForm {
  name: string;
  type: ExtractionRule['type'];
  expression: string;
  output: ExtractionRule['output'];
  attribute: string;
  all: boolean;
}

/** A new rule with a name no other rule has ("rule 1", "rule 2"..., in the language shown: it is the column's name). */
export function newRule(existing: readonly RuleForm[]): RuleForm {
  const taken = new Set(existing.map((r) => r.name.trim().toLowerCase()));
  let n = existing.length + 1;
  const name = (k: number) => i18next.t('rules.defaultName', { ns: 'start', n: k });
  while (taken.has(name(n).toLowerCase())) n++;
  return { name: name(n), type: 'css', expression: '', output: 'text', attribute: '', all: false };
}
