// The schema of each setting that needs more than a type and a range: request headers, credentials, seed URLs,
// hosts, URL patterns, query parameter names and extraction rules. settings.ts assembles them into the crawl's
// settings; kept apart so that the settings' shape reads on one screen.
import * as z from './zod.ts';
import { parse as parseCssSelector } from 'css-what';
import { compilePattern } from './pattern.ts';
import { type Message, type MessageCode, type MessageParams, message } from './messages.ts';
import { hostKey } from './scope.ts';

// Every message of a setting is the catalogue's (messages.ts): a schema's fixed message is its English text, whose
// code is remembered here; a refinement's problem carries its code and parameters in its issue.
const CODED = new Map<string, Message>();

/** A schema's fixed message: the catalogue's English text of `code`, remembered so its problem names the code. */
export function m(code: MessageCode, params?: MessageParams): string {
  const msg = message(code, params);
  CODED.set(msg.text, msg);
  return msg.text;
}

/** Adds the catalogue's message `code` as a problem of a refinement, at `path` under the value refined. */
export function addProblem(ctx: z.RefinementCtx, path: PropertyKey[], code: MessageCode, params?: MessageParams): void {
  const msg = message(code, params);
  ctx.addIssue({ code: 'custom', message: msg.text, params: { message: msg }, ...(path.length ? { path } : {}) });
}

/** The catalogue's message an issue of these schemas says (null for zod's own messages, in English only). */
export function issueMessage(issue: { message: string; params?: Record<string, unknown> | undefined }): Message | null {
  const carried = issue.params?.['message'] as Message | undefined;
  if (carried && carried.text === issue.message) return carried;
  return CODED.get(issue.message) ?? null;
}

// RFC 9110 field-value: visible ASCII, space, tab and obs-text; no CR, LF or NUL.
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** RFC 9110 token: a header name. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Request headers the crawler owns: set by other settings, or needed for it to read responses at all. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'accept-encoding',
  'user-agent',
  'te',
  'upgrade',
  'keep-alive',
]);
export const MAX_CUSTOM_HEADERS = 30;

export const customHeaders = z
  .record(z.string(), z.string({ error: m('mustBeTextValue') }), { error: m('headersObject') })
  .default({})
  .superRefine((headers, ctx) => {
    const entries = Object.entries(headers);
    if (entries.length > MAX_CUSTOM_HEADERS) addProblem(ctx, [], 'atMostHeaders', { max: MAX_CUSTOM_HEADERS });
    const seen = new Set<string>();
    for (const [name, value] of entries) {
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name)) addProblem(ctx, [name], 'badHeaderName', { name });
      else if (RESERVED_HEADERS.has(lower))
        addProblem(ctx, [name], lower === 'user-agent' ? 'userAgentHeader' : 'headerSetByTrawl', { name });
      else if (seen.has(lower)) addProblem(ctx, [name], 'headerTwice', { name });
      if (!HEADER_VALUE.test(value) || value.length > 8192) addProblem(ctx, [name], 'badHeaderValueLong');
      seen.add(lower);
    }
  });

export const basicAuth = z
  .object(
    {
      username: z
        .string({ error: m('mustBeText') })
        .min(1, m('notEmpty'))
        .max(256, m('atMostChars', { max: 256 }))
        .regex(/^[^:\x00-\x1f\x7f]*$/, m('noColonOrControl')),
      password: z
        .string({ error: m('mustBeText') })
        .max(1024, m('atMostChars', { max: 1024 }))
        .regex(/^[^\x00-\x1f\x7f]*$/, m('noControl')),
    },
    { error: m('basicAuthShape') },
  )
  .strict()
  .nullable()
  .default(null);

export const seedUrl = z.string().superRefine((value, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    addProblem(ctx, [], 'badUrl', { value });
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    addProblem(ctx, [], 'notHttpUrl', { value });
  }
});

/** A host name, IP address or [IPv6] address, with an optional :port; lower-cased. */
export const allowedHost = z
  .string({ error: m('hostName') })
  .trim()
  .toLowerCase()
  .superRefine((value, ctx) => {
    if (hostKey(value) === null) {
      addProblem(ctx, [], 'badHostName', { value });
    }
  });

/**
 * A regular expression (RE2 syntax: JavaScript's without backreferences or lookaround; see pattern.ts), matched
 * against the URL in its normal form.
 */
export const urlPattern = z.string({ error: m('regex') }).superRefine((value, ctx) => {
  if (value === '') return addProblem(ctx, [], 'notEmpty');
  const compiled = compilePattern(value);
  if (!compiled.ok) addProblem(ctx, [], 'badRegexIn', { error: compiled.error, value });
});

/** A query parameter name, or a prefix with a trailing * (utm_*). */
export const paramName = z.string({ error: m('paramName') }).superRefine((value, ctx) => {
  if (value === '') return addProblem(ctx, [], 'notEmpty');
  if (/[&=#]/.test(value) || value.slice(0, -1).includes('*')) {
    addProblem(ctx, [], 'badParamName', { value });
  }
});

/** Custom extraction: a rule turns page content into an extra column. */
export const EXTRACTION_TYPES = ['css', 'regex'] as const;
export const EXTRACTION_OUTPUTS = ['text', 'attribute', 'html'] as const;
export const MAX_EXTRACTION_RULES = 30;

export const extractionRule = z
  .object({
    /** The column's name: letters, digits, spaces and - _ . only, up to 60 characters. */
    name: z
      .string({ error: m('columnName') })
      .trim()
      .min(1, m('notEmpty'))
      .max(60, m('atMostChars', { max: 60 }))
      .regex(/^[\p{L}\p{N} _.-]+$/u, m('columnChars')),
    /** css: a CSS selector over the page; regex: a regular expression over the HTML source. */
    type: z.enum(EXTRACTION_TYPES, { error: m('ruleType') }),
    /** The CSS selector (type css) or the regular expression (type regex: the first group if it has one). */
    expression: z
      .string({ error: m('ruleExpression') })
      .min(1, m('notEmpty'))
      .max(1000, m('atMostChars', { max: 1000 })),
    /** For css: the element's text, an attribute's value, or its inner HTML (as text, never rendered). */
    output: z.enum(EXTRACTION_OUTPUTS, { error: m('ruleOutput') }).default('text'),
    /** The attribute read when output is "attribute". */
    attribute: z
      .string()
      .trim()
      .max(100, m('atMostChars', { max: 100 }))
      .optional(),
    /** Every match (up to MAX_EXTRACTED_VALUES) instead of the first. */
    all: z.boolean().default(false),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.type === 'regex') {
      const compiled = compilePattern(rule.expression);
      if (!compiled.ok) addProblem(ctx, ['expression'], 'badRegex', { error: compiled.error });
    } else {
      const problem = cssSelectorProblem(rule.expression);
      if (problem) addProblem(ctx, ['expression'], 'badSelector', { error: problem });
    }
    if (rule.type === 'css' && rule.output === 'attribute' && !rule.attribute) {
      addProblem(ctx, ['attribute'], 'attributeNeeded');
    }
  });

export type ExtractionRule = z.output<typeof extractionRule>;

/** Why a CSS selector does not parse, or null when it does. */
function cssSelectorProblem(selector: string): string | null {
  try {
    parseCssSelector(selector);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
