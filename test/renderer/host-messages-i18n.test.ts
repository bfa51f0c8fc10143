// The messages the host builds (shared/messages.ts) in the interface's language: a crawl's settings summary, the
// settings' problems under the start form's fields, a schedule's wait and the session's common refusals are Chinese
// in zh-CN and stay the host's English text in English; a text that is none of the catalogue's is shown as it came.
// Every problem the settings' schema names is one of the catalogue's, so none is left in English.
import { afterEach, describe, expect, it } from 'vitest';
import { labelProblems, settingsSummary, settingsSummaryParts } from '../../shared/crawl-label.ts';
import { englishText, MESSAGES, message, MessageError, messageFromText } from '../../shared/messages.ts';
import { parseSettings, validateSettings } from '../../shared/settings.ts';
import { crawlSummaryText, hostText, messageText, problemText } from '../../renderer/src/i18n/host-messages.ts';
import { i18next, RESOURCES } from '../../renderer/src/i18n/i18n.ts';
import { problemsByField } from '../../renderer/src/start/start-form-model.ts';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const problemsOf = (input: unknown) => {
  const result = validateSettings(input);
  return result.ok ? [] : result.problems;
};

describe('the messages built by the host', () => {
  it("are English's strings themselves: the catalogue is the messages namespace", () => {
    expect(RESOURCES.en.messages).toBe(MESSAGES);
    expect(Object.keys(RESOURCES['zh-CN'].messages).sort()).toEqual(Object.keys(MESSAGES).sort());
  });

  it("say a crawl's settings in the language chosen, the host's English line unchanged", async () => {
    const settings = parseSettings({ seeds: ['https://a.test/'], threads: 3, maxDepth: 4, exclude: ['/x/'], extraction: [] });
    const info = { summary: settingsSummary(settings), summaryParts: settingsSummaryParts(settings) };
    expect(info.summary).toBe('spider · same host · 3 threads · depth ≤ 4 · 1 exclude');
    expect(crawlSummaryText(info)).toBe(info.summary);
    await i18next.changeLanguage('zh-CN');
    expect(crawlSummaryText(info)).toBe('爬虫 · 同一主机 · 3 个线程 · 深度 ≤ 4 · 1 条排除规则');
    const list = parseSettings({ seeds: ['https://a.test/'], mode: 'list', polite: true, robots: 'ignore' });
    expect(crawlSummaryText({ summary: '', summaryParts: settingsSummaryParts(list) })).toBe(
      '列表 · 5 个线程 · 忽略 robots.txt · 礼貌模式',
    );
    // A host that sends the English line only (an older web console): shown as it came.
    expect(crawlSummaryText({ summary: 'spider · 5 threads' })).toBe('spider · 5 threads');
  });

  it("put the settings' problems under the start form's fields in the language chosen", async () => {
    const problems = problemsOf({ seeds: ['https://a.test/', 'nope'], threads: 0, exclude: ['('] });
    expect(problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        '"nope" is not a valid URL (expected something like https://example.com/)',
        'must be at least 1',
        expect.stringMatching(/^invalid regular expression: .* in "\("$/),
      ]),
    );
    const lines = { seeds: [1, 2], exclude: [1] };
    await i18next.changeLanguage('zh-CN');
    const byField = problemsByField(problems, lines);
    expect(byField.get('seeds')).toEqual(['第 2 行：“nope”不是有效的 URL（应类似 https://example.com/）']);
    expect(byField.get('threads')).toEqual(['不能小于 1']);
    expect(byField.get('exclude')?.[0]).toMatch(/^第 1 行：“\(”中的正则表达式无效：/);
  });

  it("name a code for every problem the settings' schema finds, so none stays English", async () => {
    const inputs: unknown[] = [
      {},
      { seeds: 'x' },
      { seeds: [] },
      { seeds: ['ftp://a.test/'], mode: 'both', scope: 'planet', threads: 1.5, processes: 99, maxUrlsPerSecond: 0 },
      { seeds: ['https://a.test/'], scope: 'hosts', allowedHosts: ['http://x/'], include: [''], stripQueryParams: ['a&b'] },
      { seeds: ['https://a.test/'], allowedHosts: 'x', include: 'x', exclude: 7, stripQueryParams: {}, checkResources: ['fonts'] },
      { seeds: ['https://a.test/'], userAgent: '', robots: 'maybe', headers: { 'Bad Name': 'v', Host: 'x', 'User-Agent': 'y' } },
      { seeds: ['https://a.test/'], headers: { authorization: 'x\n' }, basicAuth: { username: 'a:b', password: '\u0001' } },
      { seeds: ['https://a.test/'], basicAuth: 'me', headers: [] },
      { seeds: ['https://a.test/'], extraction: 'x' },
      {
        seeds: ['https://a.test/'],
        extraction: [
          { name: 'A', type: 'xpath', expression: '' },
          { name: 'a', type: 'css', expression: 'h1[[', output: 'attribute' },
          { name: '<b>', type: 'regex', expression: '(', output: 'page' },
        ],
      },
      { seeds: ['https://a.test/x/'], exclude: ['/x/'] },
      { seeds: ['https://a.test/'], include: ['/y/'], bogus: 1 },
      { seeds: [`https://a.test/${'a'.repeat(3000)}`] },
    ];
    const problems = inputs.flatMap(problemsOf);
    // Most of the catalogue's settings messages, each at least once.
    expect(new Set(problems.map((p) => p.code)).size).toBeGreaterThanOrEqual(30);
    expect(problems.filter((p) => p.code === undefined)).toEqual([]);
    await i18next.changeLanguage('zh-CN');
    // Said in Chinese: no problem's text is its English.
    expect(problems.filter((p) => problemText(p) === p.message)).toEqual([]);
  });

  it('say why a schedule waits in the language chosen, the state too', async () => {
    const waiting = message('waitingForCrawl', { state: 'running' });
    expect(waiting.text).toBe('waiting for the crawl in progress (running) to finish');
    expect(messageText(waiting)).toBe(waiting.text);
    await i18next.changeLanguage('zh-CN');
    expect(messageText(waiting)).toBe('正在等待进行中的抓取（运行中）结束');
    expect(messageText(message('waitingForCluster'))).toBe('等待中：正在查看集群抓取');
  });

  it("say a label's problems in the language chosen", async () => {
    const problems = labelProblems({ name: 'a\u0001b', description: '', tags: ['x'.repeat(50)] });
    expect(problems.map((p) => p.message)).toEqual(['must be one line of text', '"xxxxxxxxxxxxxxxxxxxx…" is longer than 40 characters']);
    await i18next.changeLanguage('zh-CN');
    expect(problems.map(problemText)).toEqual(['必须是一行文本', '“xxxxxxxxxxxxxxxxxxxx…”超过 40 个字符']);
  });

  it("recognise a command's error by its English text, and show any other text as it came", async () => {
    const refused = new MessageError('refuseStart', { state: 'paused' });
    expect(refused.message).toBe('cannot start a new crawl: a crawl is already running (paused); stop it first');
    expect(messageFromText(refused.message)).toEqual(refused.detail);
    const notCrawl = englishText('notCrawlFileWhy', { file: 'x.trawl', error: 'file is not a database' });
    await i18next.changeLanguage('zh-CN');
    expect(hostText(refused.message)).toBe('无法开始新的抓取：已有抓取在运行（已暂停）；请先停止它');
    expect(hostText(notCrawl)).toBe('x.trawl 不是 Trawl 抓取文件（file is not a database）');
    expect(hostText('export cancelled')).toBe('导出已取消');
    expect(hostText('EACCES: permission denied')).toBe('EACCES: permission denied');
    // Read back only as a whole message, never a summary's part.
    expect(hostText('cannot export: 5 threads')).toBe('cannot export: 5 threads');
  });
});
