// scripts/bundle-shims/: what the out/node bundles get in place of a module a package loads at start-up. Each must
// give its importer exactly what the real module gives (scripts/build-node.mjs BUNDLE_SHIMS).
import assert from 'node:assert';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const http2Shim = require('../../scripts/bundle-shims/http2-for-undici.cjs') as {
  constants: Record<string, string | number>;
  connect: typeof http2.connect;
};
const labelsShim = require('../../scripts/bundle-shims/whatwg-encoding-labels.cjs') as { labelToName(label: unknown): string | null };
const assertShim = require('../../scripts/bundle-shims/assert-with-message.cjs') as typeof assert;
const whatwgEncoding = require('whatwg-encoding') as { labelToName(label: unknown): string | null };
const labels = require('whatwg-encoding/lib/labels-to-names.json') as Record<string, string>;

describe('the node:http2 undici sees', () => {
  it("has node:http2's values for every constant undici's HTTP/2 client reads", () => {
    const names = Object.keys(http2Shim.constants);
    expect(names).toHaveLength(10);
    for (const name of names) expect(http2Shim.constants[name], name).toBe((http2.constants as Record<string, unknown>)[name]);
  });

  it('connects through the real node:http2 when asked', async () => {
    const server = http2.createServer();
    server.on('stream', (stream) => stream.end('over h2'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const session = http2Shim.connect(`http://127.0.0.1:${port}`);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = session.request({ ':path': '/' });
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (d: string) => (text += d));
        req.on('end', () => resolve(text));
        req.on('error', reject);
      });
      expect(body).toBe('over h2');
    } finally {
      session.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the whatwg-encoding encoding-sniffer sees', () => {
  it("names every label's encoding as whatwg-encoding does, in any case and spacing, and null for others", () => {
    const inputs: unknown[] = [...Object.keys(labels), ' UTF-8 ', 'Latin1', '\tSHIFT_JIS\n', 'nonsense', '', 'utf-9', null, 42];
    expect(Object.keys(labels).length).toBeGreaterThan(200);
    for (const label of inputs) expect(labelsShim.labelToName(label), String(label)).toBe(whatwgEncoding.labelToName(label));
    expect(labelsShim.labelToName(' Latin1 ')).toBe('windows-1252');
  });
});

describe('the node:assert every bundled module sees', () => {
  it("fails an assertion without a message with one of its own, not one Node builds from the caller's source", () => {
    for (const fail of [() => assertShim(false), () => assertShim.ok(0), () => assertShim.strict(null), () => assertShim.strict.ok('')]) {
      expect(fail).toThrow(assert.AssertionError);
      // Node builds a message (generatedMessage: true) by reading the failing line of the file and parsing it.
      expect(fail).toThrow(
        expect.objectContaining({ code: 'ERR_ASSERTION', generatedMessage: false, message: expect.stringMatching(/^assertion failed/) }),
      );
    }
    expect(() => assertShim(false, 'its own')).toThrow('its own');
    expect(() => assertShim(true)).not.toThrow();
    expect(() => assertShim.strict.strict(1)).not.toThrow();
  });

  it("is node:assert's own in every other member", () => {
    const names = Object.keys(assert).filter((name) => name !== 'ok' && name !== 'strict');
    expect(names).toEqual(expect.arrayContaining(['strictEqual', 'deepStrictEqual', 'throws', 'AssertionError']));
    for (const name of names) expect(assertShim[name as keyof typeof assert], name).toBe(assert[name as keyof typeof assert]);
    expect(() => assertShim.strictEqual(1, 2)).toThrow(/strictly equal/);
  });
});
