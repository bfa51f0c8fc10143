// The CLI's other ways in: settings from a JSON file, list mode from a file of URLs, and the one command line
// that runs a given set of settings (the UI's "copy as CLI command"), checked by parsing it back.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parseCli, UsageError } from '../../electron/cli/args.ts';
import { CLI_OPTION_OF, cliCommandFor, shellWord } from '../../shared/cli-command.ts';
import { parseSettings, type CrawlSettings } from '../../shared/settings.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';

/** Splits a command line the way a POSIX shell splits our words (bare, or in single quotes). */
function shellSplit(line: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

const files = (map: Record<string, string>) => (p: string) => {
  if (!(p in map)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return map[p]!;
};

describe('copy as CLI command', () => {
  it('gives a command line that parses back to the same settings, for every setting', () => {
    const seeds = ['https://example.com/', "https://example.com/it's here?q=a b"];
    const defaults = parseSettings({ seeds });
    const every: CrawlSettings = parseSettings({
      seeds,
      mode: 'list',
      threads: 9,
      processes: 2,
      maxDepth: 4,
      maxPages: 500,
      scope: 'hosts',
      allowedHosts: ['cdn.example.com', 'b.test:8080'],
      include: ['^https://example\\.com/'],
      exclude: ['/tag/', "it's not"],
      maxUrlLength: 300,
      stripQueryParams: ['utm_*', 'ref'],
      userAgent: 'Analyst Bot/2.0 (+mailto:me@example.com)',
      checkResources: ['images', 'stylesheets'],
      checkExternal: true,
      followNofollow: true,
      robots: 'report',
      delayMs: 250,
      maxPerHost: 2,
      polite: true,
      maxUrlsPerSecond: 2.5,
      connectTimeoutMs: 3000,
      firstByteTimeoutMs: 4000,
      responseTimeoutMs: 9000,
      processingBudgetMs: 2500,
      maxBodyBytes: 2048,
      maxAttempts: 5,
      retryDelayMs: 50,
      maxRetryAfterMs: 7000,
      render: true,
      renderWaitMs: 2000,
      viewport: '800x600',
      renderPages: 3,
      renderBlock: ['google-analytics\\.com', "it's an ad"],
      crawlLinkedSitemaps: false,
      crawlSitemapUrls: false,
      contentInclude: ['main', '.article'],
      contentExclude: ['#comments'],
      sitemaps: ['https://example.com/sitemap-news.xml.gz'],
      headers: { Cookie: 'session=a b; x=1', 'X-Api-Key': "it's" },
      basicAuth: { username: 'ana', password: 'p:ss word' },
      extraction: [
        { name: 'Price', type: 'css', expression: "span.price, [data-x='a b']", output: 'attribute', attribute: 'content', all: true },
        { name: 'sku', type: 'regex', expression: "SKU: '(\\d+)'" },
      ],
    });
    // Every setting differs from its default, so every option is exercised.
    for (const key of Object.keys(CLI_OPTION_OF) as (keyof typeof CLI_OPTION_OF)[]) expect(every[key], key).not.toEqual(defaults[key]);
    const line = cliCommandFor(every, defaults, { secrets: 'reveal' });
    const words = shellSplit(line);
    expect(words.slice(0, 4)).toEqual(['npm', 'run', 'crawl', '--']);
    const parsed = parseCli(words.slice(4));
    expect(parsed.settings).toEqual(every);
  });

  it('prints placeholders for the password and header values, never the secrets themselves', () => {
    const s = parseSettings({
      seeds: ['https://example.com/'],
      headers: { Cookie: 'session=abc123', 'X-Api-Key': 'k-987' },
      basicAuth: { username: 'ana', password: 'hunter2' },
    });
    const line = cliCommandFor(s, parseSettings({ seeds: s.seeds }));
    expect(line).not.toMatch(/abc123|k-987|hunter2/);
    expect(line).toBe("npm run crawl -- https://example.com/ --header 'Cookie: ***' --header 'X-Api-Key: ***' --auth 'ana:***'");
  });

  it('lists only what differs from the defaults', () => {
    const s = parseSettings({ seeds: ['https://example.com/'], threads: 8 });
    expect(cliCommandFor(s, parseSettings({ seeds: s.seeds }))).toBe('npm run crawl -- https://example.com/ --threads 8');
  });

  it('quotes for the shell only what needs it', () => {
    expect(shellWord('https://a.test/x?y=1')).toBe("'https://a.test/x?y=1'");
    expect(shellWord('plain-word_1.2')).toBe('plain-word_1.2');
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});

describe('--config', () => {
  it('reads settings from a JSON file; the command line wins; seeds may come from either', () => {
    const read = files({ 'c.json': JSON.stringify({ seeds: ['https://a.test/'], threads: 3, exclude: ['/tag/'] }) });
    const fromFile = parseCli(['--config', 'c.json'], read);
    expect(fromFile.settings).toMatchObject({ seeds: ['https://a.test/'], threads: 3, exclude: ['/tag/'] });
    const overridden = parseCli(['https://b.test/', '--config', 'c.json', '--threads', '7'], read);
    expect(overridden.settings).toMatchObject({ seeds: ['https://b.test/'], threads: 7, exclude: ['/tag/'] });
  });

  it('names what is wrong with the file', () => {
    const read = files({
      'bad.json': '{"threads": 3,',
      'list.json': '[1]',
      'odd.json': '{"seeds": ["https://a.test/"], "thread": 3, "threads": 0}',
    });
    expect(() => parseCli(['--config', 'bad.json'], read)).toThrow(/--config bad.json: not valid JSON/);
    expect(() => parseCli(['--config', 'list.json'], read)).toThrow('--config list.json: must hold one JSON object of settings');
    expect(() => parseCli(['--config', 'missing.json'], read)).toThrow('--config missing.json: cannot be read (ENOENT)');
    let error: unknown;
    try {
      parseCli(['--config', 'odd.json'], read);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/thread: unknown setting/);
    expect((error as Error).message).toMatch(/--threads: must be at least 1/);
  });
});

describe('--list', () => {
  it('crawls exactly the listed URLs, naming a bad line by its number', () => {
    const read = files({
      'urls.txt': '# my pages\nhttps://a.test/one\n\n  https://a.test/two  \n',
      'bad.txt': 'https://a.test/\nnot a url\n',
    });
    expect(parseCli(['--list', 'urls.txt'], read).settings).toMatchObject({
      mode: 'list',
      seeds: ['https://a.test/one', 'https://a.test/two'],
    });
    expect(() => parseCli(['--list', 'bad.txt'], read)).toThrow(/--list bad.txt line 2: "not a url" is not a valid URL/);
    expect(() => parseCli(['--list', 'empty.txt'], files({ 'empty.txt': '\n# nothing\n' }))).toThrow('--list empty.txt: holds no URLs');
  });
});

describe('a list-mode crawl', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  it('fetches the listed URLs and their redirects, records their links, follows none', async () => {
    const log: string[] = [];
    const server = http.createServer((req, res) => {
      log.push(req.url!);
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/moved') return void res.writeHead(301, { location: '/landing' }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title><a href="/linked${req.url}">x</a>`);
    });
    const { origin, close } = await listenOnLoopback(server);
    closers.push(close);
    const dir = tempDir();
    const { controller, dbPath } = newCrawl({ seeds: [`${origin}/a`, `${origin}/b`, `${origin}/moved`], mode: 'list', threads: 2 }, dir);
    controller.start();
    expect((await controller.done).reason).toBe('completed');
    expect(log.sort()).toEqual(['/a', '/b', '/landing', '/moved', '/robots.txt']);
    const db = new Database(dbPath, { readonly: true });
    const tooDeep = db.prepare('SELECT count(*) AS n FROM urls WHERE state = 5').get() as { n: number };
    db.close();
    expect(tooDeep.n).toBe(3); // /linked/a, /linked/b, /linked/landing: in the link graph
    fs.rmSync(path.join(dir), { recursive: true, force: true });
  });
});
