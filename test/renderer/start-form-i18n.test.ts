// The start form in Simplified Chinese: its labels, hints, groups and the lines it builds itself (what a closed
// group is set to, where the settings came from, how many fields are invalid, problems it finds in header lines)
// follow the language chosen; what the analyst typed and what the host says stay as they are.
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '../../renderer/src/i18n/i18n.ts';
import { patternVerdicts } from '../../renderer/src/start/PatternTester.tsx';
import { newRule } from '../../renderer/src/start/rule-form.ts';
import { StartPanel, invalidFieldsText, originText } from '../../renderer/src/start/StartPanel.tsx';
import { formFromDefaults, groupSummary, parseHeaderLines, problemsByField } from '../../renderer/src/start/start-form-model.ts';
import { LIMITS, parseSettings } from '../../shared/settings.ts';
import { render } from './helpers.ts';

const defaults = {
  settings: parseSettings({ seeds: ['https://default.test/'] }),
  limits: { threads: { min: LIMITS.threads.min, max: LIMITS.threads.max } },
};

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('the start form in Simplified Chinese', () => {
  it('renders its fields, hints, groups and buttons in Chinese, and in English again when switched back', async () => {
    await i18next.changeLanguage('zh-CN');
    const html = render(createElement(StartPanel), { defaults });
    for (const text of [
      '新建抓取',
      '种子 URL，每行一个',
      '线程数',
      '最大深度',
      '跟随链接',
      '抓取范围',
      '礼貌延迟与重试',
      '开始抓取',
      '复制为命令行',
      '默认设置。',
      '默认 2,048，64–8,192',
      '无：只抓取页面',
      '无延迟 · 最多尝试 3 次',
      '请求头和凭据只发送到',
    ])
      expect(html, text).toContain(text);
    for (const text of ['New crawl', 'Seed URLs', 'Threads', 'Max depth', 'Start crawl', 'Politeness', 'Default settings', 'no delay'])
      expect(html, text).not.toContain(text);
    // Technical names and values stay as they are.
    expect(html).toContain('robots.txt');
    expect(html).toContain('<option value="same-host"');

    await i18next.changeLanguage('en');
    const english = render(createElement(StartPanel), { defaults });
    expect(english).toContain('New crawl');
    expect(english).not.toContain('新建抓取');
  });

  it('builds its own lines in Chinese: group summaries, the origin, the invalid count, header problems, tester verdicts', async () => {
    await i18next.changeLanguage('zh-CN');
    const form = { ...formFromDefaults(defaults), seeds: 'https://www.a.test/', headers: 'X-A: 1\nX-B: 2', exclude: '/private' };
    expect(groupSummary('request', form)).toBe('2 个请求头');
    expect(groupSummary('scope', form)).toBe('同一主机 · 1 条排除规则');
    expect(invalidFieldsText(1234)).toBe('1,234 个字段无效：修正后才能开始。');
    expect(originText({ kind: 'preset', name: 'docs' }, true)).toBe('预设“docs”的设置，之后已修改');
    expect(parseHeaderLines('no colon').problems).toEqual([{ field: 'headers', message: '第 1 行：请写成“名称: 值”' }]);
    // The host's message is shown as it came; the line it names is said in Chinese.
    const byField = problemsByField([{ field: 'include.0', message: 'Invalid regular expression' }], { include: [3] });
    expect(byField.get('include')).toEqual(['第 3 行：Invalid regular expression']);
    const verdicts = patternVerdicts(form, 'https://www.a.test/private/x\nhttps://other.test/');
    expect(verdicts.ok && verdicts.verdicts.map((v) => v.why)).toEqual([
      '匹配排除规则 /private',
      '主机 other.test 不在抓取范围内（same-host）',
    ]);
    // A new rule's name is its column's name, in the language shown; it still avoids names taken.
    expect(newRule([{ ...newRule([]), name: '规则 1' }]).name).toBe('规则 2');

    await i18next.changeLanguage('en');
    expect(groupSummary('request', form)).toBe('2 headers');
    expect(invalidFieldsText(1)).toBe('1 field is invalid: fix it to start.');
  });
});
