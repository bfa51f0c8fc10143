// The schema of each setting that needs more than a type and a range: request headers, credentials, seed URLs,
// hosts, URL patterns, query parameter names and extraction rules. settings.ts assembles them into the crawl's
// settings; kept apart so that the settings' shape reads on one screen.
import { z } from 'zod';
import { parse as parseCssSelector } from 'css-what';
import { compilePattern } from './pattern.ts';
import { hostKey } from './scope.ts';

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
  .record(z.string(), z.string({ error: 'must be a text value' }), { error: 'must be an object of header names and values' })
  .default({})
  .superRefine((headers, ctx) => {
    const entries = Object.entries(headers);
    if (entries.length > MAX_CUSTOM_HEADERS) ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_CUSTOM_HEADERS} headers` });
    const seen = new Set<string>();
    for (const [name, value] of entries) {
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid header name` });
      else if (RESERVED_HEADERS.has(lower))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: lower === 'user-agent' ? 'set the user agent with userAgent' : `"${name}" is set by Trawl itself`,
        });
      else if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is given twice` });
      if (!HEADER_VALUE.test(value) || value.length > 8192)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'must be a valid HTTP header value (no line breaks or control characters, at most 8192 characters)',
        });
      seen.add(lower);
    }
  });

export const basicAuth = z
  .object(
    {
      username: z
        .string({ error: 'must be text' })
        .min(1, 'must not be empty')
        .max(256, 'must be at most 256 characters')
        .regex(/^[^:\x00-\x1f\x7f]*$/, 'must not contain ":" or control characters'),
      password: z
        .string({ error: 'must be text' })
        .max(1024, 'must be at most 1024 characters')
        .regex(/^[^\x00-\x1f\x7f]*$/, 'must not contain control characters'),
    },
    { error: 'must be {"username": ..., "password": ...} or null' },
  )
  .strict()
  .nullable()
  .default(null);

export const seedUrl = z.string().superRefine((value, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid URL (expected something like https://example.com/)` });
    return;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not an http or https URL` });
  }
});

/** A host name, IP address or [IPv6] address, with an optional :port; lower-cased. */
export const allowedHost = z
  .string({ error: 'must be a host name' })
  .trim()
  .toLowerCase()
  .superRefine((value, ctx) => {
    if (hostKey(value) === null) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not a valid host name (expected a host such as example.com or example.com:8080, without http:// or a path)`,
      });
    }
  });

/**
 * A regular expression (RE2 syntax: JavaScript's without backreferences or lookaround; see pattern.ts), matched
 * against the URL in its normal form.
 */
export const urlPattern = z.string({ error: 'must be a regular expression' }).superRefine((value, ctx) => {
  if (value === '') return void ctx.addIssue({ code: 'custom', message: 'must not be empty' });
  const compiled = compilePattern(value);
  if (!compiled.ok) ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${compiled.error} in "${value}"` });
});

/** A query parameter name, or a prefix with a trailing * (utm_*). */
export const paramName = z.string({ error: 'must be a query parameter name' }).superRefine((value, ctx) => {
  if (value === '') return void ctx.addIssue({ code: 'custom', message: 'must not be empty' });
  if (/[&=#]/.test(value) || value.slice(0, -1).includes('*')) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a query parameter name (no &, = or #; a * only at the end, as in utm_*)` });
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
      .string({ error: 'must be a column name' })
      .trim()
      .min(1, 'must not be empty')
      .max(60, 'must be at most 60 characters')
      .regex(/^[\p{L}\p{N} _.-]+$/u, 'may hold letters, digits, spaces and - _ . only'),
    /** css: a CSS selector over the page; regex: a regular expression over the HTML source. */
    type: z.enum(EXTRACTION_TYPES, { error: 'must be css or regex' }),
    /** The CSS selector (type css) or the regular expression (type regex: the first group if it has one). */
    expression: z
      .string({ error: 'must be a CSS selector or a regular expression' })
      .min(1, 'must not be empty')
      .max(1000, 'must be at most 1000 characters'),
    /** For css: the element's text, an attribute's value, or its inner HTML (as text, never rendered). */
    output: z.enum(EXTRACTION_OUTPUTS, { error: 'must be text, attribute or html' }).default('text'),
    /** The attribute read when output is "attribute". */
    attribute: z.string().trim().max(100, 'must be at most 100 characters').optional(),
    /** Every match (up to MAX_EXTRACTED_VALUES) instead of the first. */
    all: z.boolean().default(false),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.type === 'regex') {
      const compiled = compilePattern(rule.expression);
      if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['expression'], message: `invalid regular expression: ${compiled.error}` });
    } else {
      const problem = cssSelectorProblem(rule.expression);
      if (problem) ctx.addIssue({ code: 'custom', path: ['expression'], message: `invalid CSS selector: ${problem}` });
    }
    if (rule.type === 'css' && rule.output === 'attribute' && !rule.attribute) {
      ctx.addIssue({ code: 'custom', path: ['attribute'], message: 'name the attribute to read (e.g. href) when output is "attribute"' });
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
