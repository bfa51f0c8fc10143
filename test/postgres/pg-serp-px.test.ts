// The explorer's pixel filters on a crawl in the PostgreSQL store measure titles and descriptions with serp_px, a
// function of the session (analysis/pg-explorer.ts) written in SQL: it must give what serpPixelWidth gives (the crawl
// file's serp_px), character for character, or the two stores would put different pages under "over 561 px".
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERP_PX_FUNCTION } from '../../electron/engine/analysis/pg-explorer.ts';
import { connect, type PgClient } from '../../electron/engine/frontier/postgres/pg-client.ts';
import { serpPixelWidth } from '../../shared/serp-width.ts';
import { pgSuite, pgTestUrl } from '../helpers/postgres.ts';

const withPg = await pgSuite();

withPg.describe('serp_px in PostgreSQL', () => {
  let client: PgClient;
  beforeAll(async () => {
    client = await connect(pgTestUrl(), { connectTimeoutMs: 5_000, applicationName: 'trawl-test' });
    await client.query(SERP_PX_FUNCTION);
  });
  afterAll(async () => {
    await client?.end();
  });

  it('measures as serpPixelWidth does: spaces, wide characters, characters outside the table, rounding', async () => {
    const texts = [
      '',
      ' ',
      'Page 1',
      '  leading and trailing  ',
      'runs\t\tof\n\n whitespace\u00a0\u3000here',
      'Ünïcödé — “quotes” and €',
      '日本語のタイトル、全角ＡＢＣ',
      '한국어 제목',
      'emoji 😀 and 𝔘nicode',
      '~{|}`@WMmw.,;:!',
      'A title far too long for a search result, which cuts it off somewhere around here and more',
      'x'.repeat(25),
      '\ufeffBOM start',
    ];
    for (const font of [20, 14]) {
      const { rows } = await client.query<{ w: number | null }>(
        'SELECT pg_temp.serp_px(t, $2) AS w FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n',
        [texts, font],
      );
      expect(
        rows.map((r) => r.w),
        `font ${font}`,
      ).toEqual(texts.map((t) => serpPixelWidth(t, font)));
    }
    const { rows } = await client.query<{ w: number | null }>('SELECT pg_temp.serp_px(NULL, 20) AS w');
    expect(rows[0]!.w).toBeNull();
  });
});
