// The live view in Simplified Chinese (issue 15): the thread grid's steps are said in the interface's language by
// their id (shared/steps.ts keeps the English words for the CLI and the engine), each with what it means for people
// who never read Heritrix, and so is the processor chain; the top bar, the live settings, the schedules and the
// transport's messages follow the language too.
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { STEP_LABELS, THREAD_STEPS } from '../../shared/steps.ts';
import { PROCESSOR_CHAIN } from '../../shared/processors.ts';
import { ProcessorLegend, ThreadCellView, processorTitle } from '../../renderer/src/components/ThreadGrid.tsx';
import { Counters, CrawlControls, StateBadge } from '../../renderer/src/components/TopBar.tsx';
import { droppedText, parseRate } from '../../renderer/src/components/LiveSettings.tsx';
import { ConnectionBanner } from '../../renderer/src/components/Notices.tsx';
import { changesText, timingText } from '../../renderer/src/schedules/SchedulesPanel.tsx';
import { i18next } from '../../renderer/src/i18n/i18n.ts';
import { render, thread } from './helpers.ts';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const titleOf = (html: string, cls: string) => new RegExp(`class="${cls}"[^>]* title="([^"]*)"`).exec(html)?.[1] ?? '';

describe('the live view in Simplified Chinese', () => {
  it('says a thread step in the language chosen, with what the Heritrix word means', async () => {
    const claimed = () => render(createElement(ThreadCellView, { thread: thread(1, { step: 'claimed', pagesDone: 1234 }), stuck: false }));
    const english = claimed();
    expect(english).toContain('>about to get URI<');
    expect(titleOf(english, 'cell-step')).toMatch(/^About to get URI \(Heritrix&#x27;s word; a URI is the URL here\)/);

    await i18next.changeLanguage('zh-CN');
    const html = claimed();
    expect(html).toContain('data-step="claimed"');
    expect(html).toContain('>即将获取 URI<');
    expect(html).not.toContain('about to get URI');
    expect(titleOf(html, 'cell-step')).toContain('Heritrix 的术语');
    expect(html).toContain('1,234 页');
    // English says a step as shared/steps.ts does for the CLI and the engine.
    await i18next.changeLanguage('en');
    for (const step of THREAD_STEPS) expect(i18next.t(`steps.${step}`, { ns: 'live' })).toBe(STEP_LABELS[step]);
    // Every step has a word and an explanation of its own, in both languages.
    for (const lng of ['en', 'zh-CN']) {
      await i18next.changeLanguage(lng);
      const words = THREAD_STEPS.map((s) => i18next.t(`steps.${s}`, { ns: 'live' }));
      const help = THREAD_STEPS.map((s) => i18next.t(`stepHelp.${s}`, { ns: 'live' }));
      expect(new Set(words).size, lng).toBe(THREAD_STEPS.length);
      expect(new Set(help).size, lng).toBe(THREAD_STEPS.length);
    }
  });

  it('explains the processor chain in a sentence, then each processor in order, in the language chosen', async () => {
    await i18next.changeLanguage('zh-CN');
    const html = render(createElement(ProcessorLegend));
    expect(html).toContain('>处理器链</span>');
    const title = /title="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(title).toMatch(/^处理器链（Heritrix 的术语）是每个 URL 依次经过的步骤：先检查前置条件/);
    const positions = PROCESSOR_CHAIN.map((p) => title.indexOf(`. ${p.name} (`));
    expect(positions.every((at) => at > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(processorTitle('fetch-http')).toBe(
      'fetch-http (抓取): 一次 HTTP 请求与响应，带超时、大小上限和错误分类（worker/chain/fetch-http.ts）',
    );
    // Processor names are the engine's: never translated.
    for (const p of PROCESSOR_CHAIN) expect(title).toContain(p.name);
    // English says what shared/processors.ts says (the map the CLI and the README follow): the two cannot drift.
    await i18next.changeLanguage('en');
    for (const p of PROCESSOR_CHAIN) expect(processorTitle(p.name)).toBe(`${p.name} (${p.stage}): ${p.does}`);
  });

  it('shows the top bar, the live settings and the schedules in the language chosen', async () => {
    await i18next.changeLanguage('zh-CN');
    const state = {
      state: 'finished' as const,
      reason: 'page limit' as const,
      counters: { crawled: 12_345, queued: 6, inFlight: 0, failed: 1, pagesPerSecond: 3.25, elapsedMs: 65_000 },
    };
    const badge = render(createElement(StateBadge), state);
    expect(badge).toContain('data-state="finished"');
    expect(badge).toContain('data-reason="page limit"');
    expect(badge).toContain('>已完成<');
    expect(badge).toContain('>达到页面上限<');
    const counters = render(createElement(Counters), state);
    expect(counters).toContain('<dt>已抓取</dt><dd>12,345</dd>');
    expect(counters).toContain('<dt>页面/秒</dt>');
    const controls = render(createElement(CrawlControls), { state: 'running' });
    expect(controls).toContain('aria-label="抓取控制"');
    for (const word of ['暂停', '继续', '停止']) expect(controls).toContain(word);
    expect(controls).not.toMatch(/Pause|Resume|Stop/);

    const lost = render(createElement(ConnectionBanner), {
      hasSnapshot: true,
      state: 'running',
      connection: { state: 'reconnecting', detail: 'connection dropped', since: 0 },
    });
    expect(lost).toContain('与 Trawl 主程序的连接已断开（connection dropped）；正在重新连接…');
    expect(lost).not.toContain('Connection to the Trawl host lost');
    const offline = render(createElement(StateBadge), {
      hasSnapshot: true,
      state: 'running',
      connection: { state: 'refused', detail: null },
    });
    expect(offline).toContain('>已断开<');
    expect(offline).toContain('>令牌被拒绝<');
    expect(offline).toContain('>之前为运行中<');

    expect(parseRate('20000')).toMatchObject({ ok: false, problem: '上限最多为 10,000' });
    expect(droppedText(1234)).toBe('已丢弃 1,234 个排队中的 URL');
    expect(timingText({ every: 'minutes', minutes: 360 })).toBe('每 6 小时');
    expect(changesText({ added: 1, removed: 0, changed: 2, byField: { title: 2 } })).toBe('新增 1，移除 0，变化 2（title 2）');
  });
});
