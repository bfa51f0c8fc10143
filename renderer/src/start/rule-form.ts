// One custom extraction rule as the start form edits it, and the name a new rule gets. No React here: the form's
// model (start-form-model.ts) turns these into settings.
import type { ExtractionRule } from '../../../shared/settings.ts';

/** One custom extraction rule as the form edits it. */
export interface RuleForm {
  name: string;
  type: ExtractionRule['type'];
  expression: string;
  output: ExtractionRule['output'];
  attribute: string;
  all: boolean;
}

/** A new rule with a name no other rule has ("rule 1", "rule 2"...). */
export function newRule(existing: readonly RuleForm[]): RuleForm {
  const taken = new Set(existing.map((r) => r.name.trim().toLowerCase()));
  let n = existing.length + 1;
  while (taken.has(`rule ${n}`)) n++;
  return { name: `rule ${n}`, type: 'css', expression: '', output: 'text', attribute: '', all: false };
}
