// The interface in English and Simplified Chinese (renderer/src/i18n/). Every language must have every string:
// a key missing from one (or left empty, or with other {{placeholders}} than English's) fails here, as it fails
// the type check. The language follows the system's unless the user chose one. And every text a person reads in
// a component goes through t(): JSX text and the titles, labels and placeholders written as literals are listed
// by a scan of the sources, so a new untranslated string fails the test.
import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { ViewTabs } from '../../renderer/src/components/ViewTabs.tsx';
import { i18next, RESOURCES } from '../../renderer/src/i18n/i18n.ts';
import { LANGUAGES, pickLanguage } from '../../renderer/src/i18n/languages.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { render } from './helpers.ts';

/** Every leaf of a resource tree, as "namespace.key.key" -> string. */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object') for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('the interface languages', () => {
  const english = leaves(RESOURCES.en);

  it.each(LANGUAGES.map((l) => l.code))('%s has every string English has, and only those, none empty', (code) => {
    const strings = leaves(RESOURCES[code]);
    expect([...strings.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, value] of strings) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
      expect(placeholders(value as string), key).toEqual(placeholders(english.get(key) as string));
    }
  });

  it("covers the host's message catalogue (shared/messages.ts): it is English's messages namespace", () => {
    expect(RESOURCES.en.messages).toBe(MESSAGES);
    expect([...english.keys()]).toEqual(expect.arrayContaining(Object.keys(MESSAGES).map((code) => `messages.${code}`)));
  });

  it('follows the system language unless the user chose one', () => {
    expect(pickLanguage(['zh-CN', 'en'], null)).toBe('zh-CN');
    expect(pickLanguage(['zh'], null)).toBe('zh-CN');
    expect(pickLanguage(['zh-Hans-SG'], null)).toBe('zh-CN');
    expect(pickLanguage(['zh-TW', 'en-US'], null)).toBe('en');
    expect(pickLanguage(['fr-FR', 'de'], null)).toBe('en');
    expect(pickLanguage(['en-GB', 'zh-CN'], null)).toBe('en');
    expect(pickLanguage(['en-US'], 'zh-CN')).toBe('zh-CN');
    expect(pickLanguage(['zh-CN'], 'en')).toBe('en');
    expect(pickLanguage(['zh-CN'], 'klingon')).toBe('zh-CN');
  });

  it('renders a component in the language chosen', async () => {
    expect(render(createElement(ViewTabs, { view: 'live', onView: () => {} }))).toContain('Results explorer');
    await i18next.changeLanguage('zh-CN');
    const html = render(createElement(ViewTabs, { view: 'live', onView: () => {} }));
    expect(html).toContain('结果浏览');
    expect(html).not.toContain('Results explorer');
  });
});

/** Attributes whose value a person reads (or a screen reader says). */
const READ_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-description']);

/** The literal texts of a component: JSX text with a letter in it, and read attributes given as string literals. */
function literalTexts(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) found.push(node.text.trim());
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source))) {
      const init = node.initializer;
      const literal =
        init &&
        (ts.isStringLiteral(init)
          ? init
          : ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
            ? init.expression
            : null);
      if (literal && /\p{L}/u.test(literal.text)) found.push(`${node.name.getText(source)}="${literal.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('every text of a component goes through t()', () => {
  const root = path.resolve(import.meta.dirname, '../../renderer/src');
  const components = fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => f.split(path.sep).join('/'))
    .sort();

  it.each(components)('%s', (file) => {
    expect(literalTexts(path.join(root, file)), `${file} shows text that does not go through t()`).toEqual([]);
  });
});
