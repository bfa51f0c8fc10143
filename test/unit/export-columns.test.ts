// The export's columns, declared once (shared/analysis.ts EXPORT_COLUMN_INFO): the labels the column chooser shows,
// the Screaming Frog preset's headers derived from the same declaration, and the values that preset writes as
// Screaming Frog does ("Indexable", "Non-Indexable", "Canonicalised"), for every reason the engine can give.
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, EXPORT_COLUMN_INFO, RENDER_EXPORT_COLUMN_INFO, exportColumnLabel } from '../../shared/analysis.ts';
import {
  CSV_COLUMNS,
  SCREAMING_FROG_HEADERS,
  SCREAMING_FROG_VALUES,
  screamingFrogValue,
  writeCsvExport,
  type CsvRowSource,
} from '../../electron/engine/export/csv-writer.ts';
import { indexabilityOf, type IndexabilityInput } from '../../electron/engine/frontier/indexability.ts';

const page = (over: Partial<IndexabilityInput>): IndexabilityInput => ({
  url: 'http://a.test/',
  kind: 'page',
  checkOnly: false,
  statusCode: 200,
  error: null,
  robotsDisallowed: false,
  metaRobots: null,
  xRobotsTag: null,
  canonical: null,
  ...over,
});

/** Every outcome indexabilityOf can give, one page each. */
const OUTCOMES = [
  page({}),
  page({ statusCode: null, error: 'connect ECONNREFUSED' }),
  page({ statusCode: null, error: 'blocked by robots.txt' }),
  page({ robotsDisallowed: true }),
  page({ error: 'body too large' }),
  page({ statusCode: 301 }),
  page({ statusCode: 404 }),
  page({ statusCode: 503 }),
  page({ statusCode: 199 }),
  page({ metaRobots: 'noindex' }),
  page({ canonical: 'http://a.test/other' }),
].map(indexabilityOf);

async function sfRecords(rows: unknown[][]): Promise<string[][]> {
  let at = 0;
  const source: CsvRowSource = {
    rules: [],
    nextPage: (limit) => rows.slice(at, (at += limit)),
    extracted: () => [],
  };
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeCsvExport(source, out, { headerPreset: 'screaming-frog', columns: ['url', 'indexability', 'indexability_reason'] });
  return parse(Buffer.concat(chunks).toString('utf8'), { bom: true }) as string[][];
}

describe('export columns', () => {
  it('gives every column a human label, none of them the internal name with underscores', () => {
    expect(EXPORT_COLUMNS).toEqual(CSV_COLUMNS);
    expect(new Set(EXPORT_COLUMNS).size).toBe(EXPORT_COLUMNS.length);
    for (const c of EXPORT_COLUMNS) {
      expect(exportColumnLabel(c)).not.toContain('_');
      expect(exportColumnLabel(c)).toMatch(/^[A-Z]/);
    }
    expect(exportColumnLabel('meta_description')).toBe('Meta description');
    expect(exportColumnLabel('indexability_reason')).toBe('Why not indexable');
    // An extraction rule keeps its own name.
    expect(exportColumnLabel('price')).toBe('price');
  });

  it('derives the Screaming Frog headers from the same declaration, and maps values only in columns that preset names', () => {
    expect(SCREAMING_FROG_HEADERS).toEqual(
      Object.fromEntries([...EXPORT_COLUMN_INFO, ...RENDER_EXPORT_COLUMN_INFO].flatMap((c) => ('sf' in c ? [[c.id, c.sf]] : []))),
    );
    expect(SCREAMING_FROG_HEADERS.indexability).toBe('Indexability');
    // A rendered page's title is its Title 1 (the results row holds the rendered value); the raw HTML's keeps Trawl's name.
    expect(SCREAMING_FROG_HEADERS.title).toBe('Title 1');
    expect(SCREAMING_FROG_HEADERS.raw_title).toBeUndefined();
    expect(SCREAMING_FROG_HEADERS.indexability_reason).toBe('Indexability Status');
    for (const column of Object.keys(SCREAMING_FROG_VALUES)) expect(SCREAMING_FROG_HEADERS).toHaveProperty(column);
  });

  it('writes every indexability and reason the engine gives as Screaming Frog writes them', () => {
    const statuses = new Set(OUTCOMES.map((o) => o.status).filter((s) => s !== null));
    expect([...statuses].map((s) => screamingFrogValue('indexability', s)).sort()).toEqual(['Indexable', 'Non-Indexable']);
    const reasons = OUTCOMES.map((o) => o.reason).filter((r): r is string => r !== null);
    expect(reasons.map((r) => screamingFrogValue('indexability_reason', r))).toEqual([
      'No Response',
      'Blocked by Robots.txt',
      'Blocked by Robots.txt',
      'Incomplete Response',
      'Redirected',
      'Client Error',
      'Server Error',
      'Status 199',
      'noindex',
      'Canonicalised',
    ]);
    // Other columns, and values outside the table, are written as they are.
    expect(screamingFrogValue('title', 'indexable')).toBe('indexable');
    expect(screamingFrogValue('indexability', null)).toBe(null);
  });

  it('writes those values in the Screaming Frog preset, and keeps Trawl values in its own', async () => {
    const row = (url: string, status: string | null, reason: string | null) => {
      const cells: unknown[] = CSV_COLUMNS.map(() => null);
      cells[CSV_COLUMNS.indexOf('url')] = url;
      cells[CSV_COLUMNS.indexOf('indexability')] = status;
      cells[CSV_COLUMNS.indexOf('indexability_reason')] = reason;
      return [...cells, 1];
    };
    const records = await sfRecords([row('http://a.test/', 'indexable', null), row('http://a.test/x', 'non-indexable', 'canonicalised')]);
    expect(records).toEqual([
      ['Address', 'Indexability', 'Indexability Status'],
      ['http://a.test/', 'Indexable', ''],
      ['http://a.test/x', 'Non-Indexable', 'Canonicalised'],
    ]);
  });
});
