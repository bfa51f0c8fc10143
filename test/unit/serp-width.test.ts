// The width of a title or description in a search result (shared/serp-width.ts), against values worked out from
// Arial's advance widths by hand (the browser test measures the same strings in Chromium's Arial-metric font), and
// the SQL function every crawl-file connection has for the explorer's pixel filters; and the mixed-content filter
// over a crawl file written directly (an HTTPS page with HTTP resources: the loopback fixtures are plain HTTP).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { filterCounts, queryFiltered } from '../../electron/engine/analysis/result-filters.ts';
import { issuesOverview } from '../../electron/engine/analysis/issues-overview.ts';
import { descriptionPixelWidth, SERP_LIMITS, serpPixelWidth, titlePixelWidth } from '../../shared/serp-width.ts';
import { parseSettings } from '../../shared/settings.ts';
import { urlKey } from '../../shared/url/url-key.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-serp-width-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the SERP pixel width', () => {
  it('adds up Arial advance widths at the SERP font sizes', () => {
    // W is 944/1000 em, i 222, space 278: at 20 px, 18.88, 4.44 and 5.56 px.
    expect(titlePixelWidth('W')).toBe(18.9);
    expect(titlePixelWidth('i')).toBe(4.4);
    expect(titlePixelWidth('WWWWWWWWWW')).toBe(188.8);
    expect(titlePixelWidth('iiiiiiiiii')).toBe(44.4);
    // P 667 + a 556 + g 556 + e 556 + space 278 + 1 556 = 3169 units: 63.38 px at 20 px, 44.366 at 14 px.
    expect(titlePixelWidth('Page 1')).toBe(63.4);
    expect(descriptionPixelWidth('Page 1')).toBe(44.4);
    // @ is the widest ASCII character (1015), | the narrowest (260); a CJK ideograph is a full em.
    expect(serpPixelWidth('@|', 20)).toBe(25.5);
    expect(titlePixelWidth('中文')).toBe(40);
    // Runs of whitespace show as one space; leading and trailing spaces not at all.
    expect(titlePixelWidth('  a \n\t b  ')).toBe(titlePixelWidth('a b'));
    expect(titlePixelWidth('')).toBe(0);
  });

  it('tells titles of the same length apart by their letters, against the 561 px limit', () => {
    expect(titlePixelWidth('W'.repeat(30))).toBeGreaterThan(SERP_LIMITS.title.maxPx);
    // 30 W's (30 characters, within the limit of 60) are 566 px; 40 i's (40 characters) only 178 px.
    expect(titlePixelWidth('i'.repeat(40))).toBeLessThan(SERP_LIMITS.title.minPx);
  });

  it('is a SQL function of every crawl-file connection, null for no text', () => {
    const db = createCrawlFile(path.join(dir, 'f.trawl'), parseSettings({ seeds: ['https://a.test/'] }));
    expect(db.prepare("SELECT serp_px('Page 1', 20) AS t, serp_px('Page 1', 14) AS d, serp_px(NULL, 20) AS n").get()).toEqual({
      t: 63.4,
      d: 44.4,
      n: null,
    });
    db.close();
    const ro = openCrawlFile(path.join(dir, 'f.trawl'), { readonly: true });
    expect(ro.prepare("SELECT serp_px('W', 20) AS w").get()).toEqual({ w: 18.9 });
    ro.close();
  });
});

describe('mixed content', () => {
  it('lists HTTPS pages with an image, script or stylesheet over HTTP, not other links or HTTP pages', () => {
    const file = path.join(dir, 'mixed.trawl');
    const db = createCrawlFile(file, parseSettings({ seeds: ['https://a.test/'] }));
    db.prepare("INSERT INTO hosts (id, origin) VALUES (1, 'https://a.test'), (2, 'http://a.test'), (3, 'http://cdn.test')").run();
    const urls: [number, string, number, string][] = [
      [1, 'https://a.test/', 1, 'page'],
      [2, 'https://a.test/b', 1, 'page'],
      [3, 'http://a.test/plain', 2, 'page'],
      [4, 'http://cdn.test/logo.png', 3, 'image'],
      [5, 'http://cdn.test/app.js', 3, 'script'],
      [6, 'https://a.test/c', 1, 'page'],
    ];
    const addUrl = db.prepare(
      'INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at, kind) VALUES (?, ?, ?, ?, 1, ?, 0, ?)',
    );
    const addResult = db.prepare(`INSERT INTO results (seq, url_id, status_code, content_type, crawl_depth, h1_count, fetched_at)
      VALUES (?, ?, 200, 'text/html', 1, 1, 0)`);
    for (const [id, url, host, kind] of urls) {
      addUrl.run(id, url, urlKey(url), host, UrlState.done, kind);
      if (kind === 'page') addResult.run(id, id);
    }
    const addLink = db.prepare('INSERT INTO links (from_id, to_id, kind) VALUES (?, ?, ?)');
    // The home page loads an HTTP image and script; /b only links to an HTTP page; the HTTP page loads the image;
    // /c loads the script.
    for (const [from, to, kind] of [
      [1, 4, 'image'],
      [1, 5, 'script'],
      [2, 3, 'a'],
      [3, 4, 'image'],
      [6, 5, 'script'],
    ] as const)
      addLink.run(from, to, kind);
    db.close();
    const ro = openCrawlFile(file, { readonly: true });
    expect(filterCounts(ro, ['mixed-content'])['mixed-content']).toBe(2);
    expect(
      queryFiltered(ro, { filter: 'mixed-content', sort: 'url', descending: false, offset: 0, limit: 10 }).rows.map((r) => r.url),
    ).toEqual(['https://a.test/', 'https://a.test/c']);
    expect(issuesOverview(ro).issues.find((i) => i.id === 'mixed-content')!.count).toBe(2);
    ro.close();
  });
});
