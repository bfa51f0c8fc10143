// Security and hreflang (issue 18.5) over a real crawl by the CLI of two loopback sites of our own: an HTTPS one
// (a certificate made here, signed by a CA named with NODE_EXTRA_CA_CERTS) planted with missing headers, mixed content,
// target=_blank links with and without noopener and hreflang mistakes, and a plain HTTP one. Each filter lists exactly
// the pages planted, and --export-tabs writes the same rows.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlForAnalysis, queryFiltered } from '../../electron/engine/analysis/index.ts';
import { urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import type { FilterId } from '../../shared/analysis.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { startSecuritySite, type SecuritySite } from '../helpers/security-site.ts';

let dir: string;
let site: SecuritySite;
let S: string;
let P: string;

beforeAll(async () => {
  dir = tempDir();
  site = await startSecuritySite(dir);
  ({ S, P } = site);
}, 60_000);

afterAll(async () => site?.close());

/** What each filter lists, by URL (sorted). */
const expected = (): Partial<Record<FilterId, string[]>> => ({
  'security-http': [`${P}/`],
  'mixed-content': [`${S}/mixed`],
  'security-no-hsts': [`${S}/bare`],
  'security-no-csp': [`${P}/`, `${S}/bare`, `${S}/xfo`],
  'security-no-nosniff': [`${P}/`, `${S}/bare`],
  'security-no-frame-options': [`${P}/`, `${S}/bare`],
  'security-unsafe-links': [`${S}/blank`],
  'hreflang-pages': [`${S}/`, `${S}/de`, `${S}/fr`, `${S}/it`, `${S}/noself`],
  // /fr and /noself name home, /it names the noindex /ni: none names them back.
  'hreflang-missing-return': [`${S}/fr`, `${S}/it`, `${S}/noself`],
  'hreflang-non-200': [`${S}/it`],
  'hreflang-invalid': [`${S}/fr`],
  'hreflang-no-x-default': [`${S}/fr`],
  'hreflang-no-self': [`${S}/noself`],
  'hreflang-non-indexable': [`${S}/it`],
});

describe('security and hreflang filters of a real crawl', () => {
  it('list exactly the pages planted, and --export-tabs writes them', async () => {
    const db = path.join(dir, 'site.trawl');
    const out = path.join(dir, 'tabs');
    const tabs = Object.keys(expected());
    const run = await runCli(
      [
        `${S}/`,
        `${P}/`,
        '--db',
        db,
        '--threads',
        '2',
        '--max-attempts',
        '1',
        '--quiet',
        '--export-tabs',
        tabs.join(','),
        '--bulk-export',
        'hreflang-alternates',
        '--output-folder',
        out,
      ],
      site.env,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const conn = openCrawlForAnalysis(db);
    try {
      for (const [filter, urls] of Object.entries(expected())) {
        const rows = queryFiltered(conn, {
          filter: filter as FilterId,
          text: '',
          sort: 'url',
          descending: false,
          offset: 0,
          limit: 100,
        }).rows;
        expect({ filter, urls: rows.map((r) => r.url) }).toEqual({ filter, urls });
        const [header, ...csv] = parse(fs.readFileSync(path.join(out, `${filter}.csv`), 'utf8'), { bom: true }) as string[][];
        expect({ filter, csv: csv.map((r) => r[header!.indexOf('url')]).sort() }).toEqual({ filter, csv: urls });
      }
      // What the worker recorded: the headers as sent, the plain-HTTP resources and the unsafe link (only the one).
      const sec = (p: string) => conn.prepare('SELECT * FROM security WHERE url_id = (SELECT id FROM urls WHERE url = ?)').get(`${S}${p}`);
      expect(sec('/xfo')).toMatchObject({ x_frame_options: 'DENY', csp: null, hsts: 'max-age=600' });
      expect(JSON.parse((sec('/mixed') as { http_resources: string }).http_resources)).toEqual([
        { url: `${P}/pic.png`, kind: 'image' },
        { url: 'http://cdn.example/x.js', kind: 'script' },
      ]);
      expect(JSON.parse((sec('/blank') as { unsafe_links: string }).unsafe_links)).toEqual(['https://other.example/a']);
      // The detail pane's sections: /fr's alternates each with its problems, /bare's headers and problems.
      const fr = urlDetail(conn, { url: `${S}/fr` })!;
      expect(fr.hreflang).toEqual({
        alternates: [
          { lang: 'en', target_url: `${S}/`, crawled: true, status_code: 200, problems: ['no return link'], target_id: expect.any(Number) },
          {
            lang: 'en-UK',
            target_url: `${S}/de`,
            crawled: true,
            status_code: 200,
            problems: ['invalid code', 'no return link'],
            target_id: expect.any(Number),
          },
          { lang: 'fr', target_url: `${S}/fr`, crawled: true, status_code: 200, problems: [], target_id: fr.url_id },
        ],
        missing_x_default: true,
        missing_self: false,
      });
      const it2 = urlDetail(conn, { url: `${S}/it` })!;
      expect(it2.hreflang!.alternates.map((a) => [a.lang, a.problems])).toEqual([
        ['es', ['not 200']],
        ['it', []],
        ['pt', ['non-indexable', 'no return link']],
        ['x-default', []],
      ]);
      expect(urlDetail(conn, { url: `${S}/bare` })!.security).toEqual({
        problems: ['noHsts', 'noCsp', 'noNosniff', 'noFrameOptions'],
        headers: {
          'strict-transport-security': null,
          'content-security-policy': null,
          'x-content-type-options': null,
          'x-frame-options': null,
        },
        http_resources: [],
        unsafe_links: [],
      });
      expect(urlDetail(conn, { url: `${S}/bare` })!.hreflang).toBeNull();
      // The bulk report: every alternate of every page, judged as the detail pane judges it (here /fr's and /it's).
      const [header, ...report] = parse(fs.readFileSync(path.join(out, 'hreflang-alternates.csv'), 'utf8'), { bom: true }) as string[][];
      expect(header).toEqual(['page', 'lang', 'target', 'crawled', 'status_code', 'problems', 'set_missing_x_default', 'set_missing_self']);
      expect(report.filter((r) => r[0] === `${S}/fr`)).toEqual([
        [`${S}/fr`, 'en', `${S}/`, 'yes', '200', 'no return link', 'yes', 'no'],
        [`${S}/fr`, 'en-UK', `${S}/de`, 'yes', '200', 'invalid code; no return link', 'yes', 'no'],
        [`${S}/fr`, 'fr', `${S}/fr`, 'yes', '200', '', 'yes', 'no'],
      ]);
      expect(report.filter((r) => r[0] === `${S}/it`).map((r) => [r[1], r[5]])).toEqual([
        ['es', 'not 200'],
        ['it', ''],
        ['pt', 'non-indexable; no return link'],
        ['x-default', ''],
      ]);
      // One row per alternate the crawl recorded.
      expect(report).toHaveLength((conn.prepare('SELECT count(*) AS n FROM hreflang').get() as { n: number }).n);
    } finally {
      conn.close();
    }
  }, 120_000);
});
