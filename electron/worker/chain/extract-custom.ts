// Custom extraction (settings.extraction): the analyst's own columns, read from each HTML page the crawl reads.
// A CSS rule runs over cheerio's DOM of the page (built only when the crawl has CSS rules: the streaming pass
// cannot answer selectors), a regex rule over the HTML source, in the linear-time engine of shared/pattern.ts (a
// site writes the page). Values are data: inner HTML is kept as text.
import { load, type CheerioAPI } from 'cheerio/slim';
import { EXTRACTED_VALUE_MAX, MAX_EXTRACTED_VALUES } from '../../../shared/protocol.ts';
import { mustCompile, type UserPattern } from '../../../shared/pattern.ts';
import type { ExtractionRule } from '../../../shared/settings.ts';
import type { Processor } from './processor.ts';

export function extractCustom(rules: readonly ExtractionRule[]): Processor {
  const hasCss = rules.some((r) => r.type === 'css');
  // Compiled once per crawl.
  const patterns = new Map(rules.filter((r) => r.type === 'regex').map((r) => [r.name, compileRule(r)]));
  return {
    name: 'extract-custom',
    step: 'processing',
    run(uri, ctx) {
      if (uri.html === null) return 'next';
      ctx.report('processing', 'extract-custom', uri.result.sizeBytes);
      const $ = hasCss ? load(uri.html) : null;
      // fromEntries defines own properties, so a rule may be named anything (even "__proto__").
      uri.result.extracted = Object.fromEntries(
        rules.map((rule) => [
          rule.name,
          rule.type === 'css' ? cssValues($!, rule) : regexValues(uri.html!, patterns.get(rule.name)!, rule.all),
        ]),
      );
      return 'next';
    },
  };
}

/** Applies rules to a page's HTML outside a crawl (the rule tester runs the same code through a worker). */
export function extractWithRules(html: string, rules: readonly ExtractionRule[]): Record<string, string[]> {
  const $ = rules.some((r) => r.type === 'css') ? load(html) : null;
  return Object.fromEntries(
    rules.map((rule) => [rule.name, rule.type === 'css' ? cssValues($!, rule) : regexValues(html, compileRule(rule), rule.all)]),
  );
}

function cut(value: string): string {
  return value.length > EXTRACTED_VALUE_MAX ? value.slice(0, EXTRACTED_VALUE_MAX) : value;
}

function cssValues($: CheerioAPI, rule: ExtractionRule): string[] {
  const values: string[] = [];
  const max = rule.all ? MAX_EXTRACTED_VALUES : 1;
  for (const el of $(rule.expression).toArray()) {
    const node = $(el);
    let value: string | undefined;
    if (rule.output === 'attribute') value = node.attr(rule.attribute!);
    else if (rule.output === 'html') value = node.html() ?? '';
    else value = node.text().replace(/\s+/g, ' ').trim();
    if (value === undefined) continue; // an element without the attribute is not a match
    values.push(cut(value));
    if (values.length >= max) break;
  }
  return values;
}

function compileRule(rule: ExtractionRule): UserPattern {
  return mustCompile(rule.expression, `regular expression of extraction rule "${rule.name}"`);
}

function regexValues(html: string, pattern: UserPattern, all: boolean): string[] {
  const values: string[] = [];
  const max = all ? MAX_EXTRACTED_VALUES : 1;
  // The yes/no test runs on the engine's DFA, many times faster than the search for groups on a page that
  // has no match.
  if (!pattern.test(html)) return values;
  for (const m of pattern.matchAll(html)) {
    // The first capture group when the rule has one, else the whole match.
    values.push(cut((m.length > 1 ? m[1] : m[0]) ?? ''));
    if (values.length >= max) break;
  }
  return values;
}
