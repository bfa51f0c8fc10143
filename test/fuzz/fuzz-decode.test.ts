// Property-based test (fast-check) of the worker's charset decision: decodeHtml settles the common case (one
// <meta> naming UTF-8) without encoding-sniffer's prescan, and on any page head, however its metas, comments,
// quotes and BOMs are arranged, it must decode exactly as the sniffer's answer would. Seeded.
import { decodeBuffer, getEncoding } from 'encoding-sniffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHtml } from '../../electron/worker/fetch-url.ts';

const RUNS = 10_000;
const SEED = 0xdec0de;

/** decodeHtml as it was: the sniffer decides every page. */
function sniffed(body: Buffer): string {
  const encoding = getEncoding(body);
  if (encoding === 'UTF-8') return body.toString('utf8', body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0);
  return decodeBuffer(body, { transportLayerEncodingLabel: encoding });
}

const charset = fc.constantFrom(
  'utf-8',
  'UTF-8',
  'utf8',
  'Utf-8',
  'iso-8859-1',
  'windows-1251',
  'shift_jis',
  'utf-16le',
  'bogus',
  '"utf-8"',
  "'utf-8'",
  ' utf-8',
);
const fragment = fc.oneof(
  charset.map((c) => `<meta charset=${c}>`),
  charset.map((c) => `<meta charset="${c}" />`),
  charset.map((c) => `<meta http-equiv="Content-Type" content="text/html; charset=${c}">`),
  charset.map((c) => `<meta http-equiv=content-type content='text/html;charset=${c}'>`),
  charset.map((c) => `<meta name="description" content="charset=${c}">`),
  charset.map((c) => `<!-- <meta charset=${c}> -->`),
  charset.map((c) => `<meta content="x > y" charset=${c}>`),
  charset.map((c) => `<?xml version="1.0" encoding="${c}"?>`),
  charset.map((c) => `<p>charset=${c}</p>`),
  fc.constantFrom(
    '<html>',
    '<html lang="en" class=\'x\'>',
    '<div title="a>b">',
    '<p a=b"c>',
    '<head>',
    '<title>Café</title>',
    '<!--',
    '-->',
    '<meta',
    '>',
    '"',
    "'",
    ' ',
    'é',
    '日本',
  ),
  fc.string({ maxLength: 40 }),
);
const bom = fc.constantFrom('', '\ufeff', '\xfe\xff', '\xff\xfe');

describe('decodeHtml (fuzzed)', () => {
  it('decodes any page head exactly as the sniffer would have', () => {
    fc.assert(
      fc.property(bom, fc.array(fragment, { maxLength: 12 }), fc.integer({ min: 0, max: 1100 }), (mark, parts, pad) => {
        // Padding moves the declarations across the prescan's 1,024-byte window.
        const text = `${' '.repeat(pad % 3 === 0 ? pad : 0)}${parts.join('')}<p>Crème brûlée — 日本語</p>`;
        const body = Buffer.concat([Buffer.from(mark, 'latin1'), Buffer.from(text, 'utf8')]);
        expect(decodeHtml(body, 'text/html')).toBe(sniffed(body));
        expect(decodeHtml(body, null)).toBe(sniffed(body));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
