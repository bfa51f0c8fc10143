// The part of zod Trawl uses, as named exports: `import * as z from './zod.ts'` reads as zod's own `z`, and a bundler
// keeps only what is named here. zod's `z` is one object that holds all of zod (its forty locales, JSON Schema in
// both directions): 582 kB of the CLI's 2.1 MB bundle, evaluated at every start of the CLI and the web console, and
// sent to every browser of the web console. A schema that needs more of zod names it here first.
export {
  array,
  boolean,
  discriminatedUnion,
  enum,
  literal,
  number,
  object,
  record,
  string,
  tuple,
  union,
  unknown,
} from 'zod';
export type { input, output, RefinementCtx, ZodTuple, ZodType } from 'zod';
