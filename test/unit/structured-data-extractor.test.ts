// Structured data and social tags read from a page (issue 18.4): JSON-LD (parsed, its types through nesting and
// @graph, its errors with the parser's position), microdata, RDFa, Open Graph and Twitter tags, and hostile pages
// (huge blocks, deep nesting, many blocks and tags) kept within their bounds.
import { describe, expect, it } from 'vitest';
import { STRUCTURED_DATA_LIMITS } from '../../shared/protocol.ts';
import { BASE_EXTRACTORS } from '../../electron/worker/html/crawl-extractors.ts';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';
import { readHtml } from '../../electron/worker/html/read-html.ts';
import { jsonLdTypes, structuredDataExtractor } from '../../electron/worker/html/structured-data.ts';

const read = (html: string) => readHtml(html, [structuredDataExtractor]);
const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

describe('structured data extractor', () => {
  it('reads JSON-LD types through @graph, nested objects and type arrays, schema.org names shortened', () => {
    const graph = ld(`{"@context":"https://schema.org","@graph":[
      {"@type":"Organization","name":"Acme","logo":{"@type":"ImageObject","url":"x"}},
      {"@type":["Product","https://schema.org/IndividualProduct"],"offers":[{"@type":"Offer"},{"@type":"schema:Offer"}]}]}`);
    const single = `<script type=" Application/LD+JSON; charset=utf-8 ">{"@type":"http://schema.org/Article"}</script>`;
    const page = read(`<html><head>${graph}${single}<script>var typeofX = 1;</script></head><body></body></html>`);
    expect(page.structuredData).toEqual([
      { format: 'json-ld', types: ['Organization', 'ImageObject', 'Product', 'IndividualProduct', 'Offer'], error: null },
      { format: 'json-ld', types: ['Article'], error: null },
    ]);
    expect(page.socialTags).toBeUndefined();
  });

  it('records a broken block with the JSON parser\u2019s message and position, and an empty one', () => {
    const page = read(`<body>${ld('{"@type": "Product", "name": "x",}')}${ld('  ')}${ld('{"@type":"Event"}')}</body>`);
    expect(page.structuredData).toHaveLength(3);
    expect(page.structuredData![0]).toMatchObject({ format: 'json-ld', types: [] });
    expect(page.structuredData![0]!.error).toMatch(/position 33/);
    expect(page.structuredData![1]!.error).toMatch(/end of JSON input/);
    expect(page.structuredData![2]).toEqual({ format: 'json-ld', types: ['Event'], error: null });
  });

  it('reads microdata item types and RDFa types with vocab and prefixes', () => {
    const html = `<html><body>
      <div itemscope itemtype="https://schema.org/Recipe"><span itemprop="author" itemscope itemtype="http://schema.org/Person">A</span>
      <div ItemScope ItemType="https://schema.org/Recipe"></div><div itemscope></div></div>
      <div vocab="https://schema.org/" typeof="BreadcrumbList"><span property="itemListElement" typeof="ListItem">x</span></div>
      <div prefix="foaf: http://xmlns.com/foaf/0.1/" typeof="foaf:Person schema:Person"></div></body></html>`;
    expect(read(html).structuredData).toEqual([
      { format: 'microdata', types: ['Recipe', 'Person'], error: null },
      { format: 'rdfa', types: ['BreadcrumbList', 'ListItem', 'http://xmlns.com/foaf/0.1/Person', 'Person'], error: null },
    ]);
  });

  it('reads Open Graph and Twitter card tags, in order, names lower-cased', () => {
    const html = `<head><meta property="og:title" content=" Hello "><meta property="OG:Image" content="/a.png">
      <meta property="og:image" content="/b.png"><meta name="twitter:card" content="summary_large_image">
      <meta name="twitter:title" content="Hi &amp; bye"><meta name="description" content="not social"><meta property="article:tag" content="x"></head>`;
    expect(read(html).socialTags).toEqual([
      { property: 'og:title', content: 'Hello' },
      { property: 'og:image', content: '/a.png' },
      { property: 'og:image', content: '/b.png' },
      { property: 'twitter:card', content: 'summary_large_image' },
      { property: 'twitter:title', content: 'Hi & bye' },
    ]);
  });

  it('leaves a page without any of it alone, and the crawl runs the extractor', () => {
    const html = '<html><head><title>t</title><script>if (typeof x === "undefined") {}</script></head><body><p>hi</p></body></html>';
    expect(read(html).structuredData).toBeUndefined();
    expect(BASE_EXTRACTORS).toContain(structuredDataExtractor);
    const page = extractHtml(
      `<head>${ld('{"@type":"WebPage"}')}<meta property="og:title" content="T"></head>`,
      'http://e.com/',
      () => true,
    );
    expect(page.structuredData).toEqual([{ format: 'json-ld', types: ['WebPage'], error: null }]);
    expect(page.socialTags).toEqual([{ property: 'og:title', content: 'T' }]);
    expect('structuredData' in extractHtml(html, 'http://e.com/', () => true)).toBe(false);
  });

  it('bounds a hostile page: a huge block, deep nesting, many blocks, types and tags', () => {
    const L = STRUCTURED_DATA_LIMITS;
    const huge = read(ld(`{"@type":"Thing","x":"${'a'.repeat(L.jsonLdChars + 10)}"}`)).structuredData!;
    expect(huge).toEqual([{ format: 'json-ld', types: [], error: 'larger than 256 KB: not read' }]);
    // Nested far deeper than the walk follows: parsed (no stack overflow), the shallow type found, the deep one not.
    const deep = `{"@type":"Top","a":${'['.repeat(100_000)}${']'.repeat(100_000)},"b":${'{"c":'.repeat(200)}{"@type":"Deep"}${'}'.repeat(200)}}`;
    const nested = read(ld(deep)).structuredData!;
    expect(nested).toEqual([{ format: 'json-ld', types: ['Top'], error: null }]);
    const many = read(Array.from({ length: 500 }, (_, i) => ld(`{"@type":"T${i}"}`)).join('')).structuredData!;
    expect(many).toHaveLength(L.jsonLdBlocks);
    const manyTypes = jsonLdTypes({ '@graph': Array.from({ length: 1000 }, (_, i) => ({ '@type': `T${i}`.repeat(100) })) });
    expect(manyTypes).toHaveLength(L.types);
    expect(manyTypes.every((t) => t.length <= L.typeChars)).toBe(true);
    const tags = read(Array.from({ length: 1000 }, () => `<meta property="og:${'p'.repeat(500)}" content="${'c'.repeat(5000)}">`).join(''));
    expect(tags.socialTags).toHaveLength(L.socialTags);
    expect(tags.socialTags![0]!.property).toHaveLength(L.socialPropertyChars);
    expect(tags.socialTags![0]!.content).toHaveLength(L.socialContentChars);
    const micro = read(Array.from({ length: 5000 }, (_, i) => `<div itemscope itemtype="https://schema.org/T${i}">`).join(''));
    expect(micro.structuredData![0]!.types).toHaveLength(L.types);
    // An unterminated block at the end of the page is still read.
    expect(read(`<body>${'<script type="application/ld+json">{"@type":"Open"}'}`).structuredData).toEqual([
      { format: 'json-ld', types: ['Open'], error: null },
    ]);
  });
});
