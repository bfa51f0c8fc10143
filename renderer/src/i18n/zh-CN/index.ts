// The Simplified Chinese strings: the same namespaces and keys as English (typed by en/index.ts).
import type { Messages } from '../en/index.ts';
import { common } from './common.ts';
import { start } from './start.ts';
import { analysis } from './analysis.ts';
import { results } from './results.ts';

export const zhCN: Messages = { common, start, analysis, results };
