// Issue 13, finding 10: the packaged app's Electron fuses (electron-builder.yml) and the page's own Content Security
// Policy (renderer/index.html), which both the app window and the web console's browser tab apply.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CSP } from '../../electron/main/window-security.ts';
import { ROOT } from '../helpers/engine.ts';

// js-yaml comes with electron-builder, which reads the same file with it.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

/** A CSP as directive name -> its sources. */
function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

function metaCsp(): string {
  const html = fs.readFileSync(path.join(ROOT, 'renderer', 'index.html'), 'utf8');
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
  expect(meta, 'renderer/index.html has a CSP meta tag').not.toBeNull();
  return meta![1]!;
}

// A scheme alone (ws:, https:...) or a wildcard lets the page reach any host.
const ANY_HOST = /^(\*|[a-z][a-z0-9+.-]*:)$/i;

describe('Electron hardening', () => {
  it('packages the app with the fuses that close Node-level entry points and bind it to its asar', () => {
    const config = yaml.load(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    expect(config['electronFuses']).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    // The asar archive the last two fuses rely on is built (electron-builder's default, not turned off).
    expect(config['asar']).not.toBe(false);
  });

  it("lets the page connect only to its own origin, in the meta CSP and the app window's header", () => {
    for (const csp of [metaCsp(), APP_CSP]) {
      const d = directives(csp);
      expect(d.get('connect-src'), csp).toEqual(["'self'"]);
      for (const [name, sources] of d) {
        if (name.endsWith('-src')) {
          for (const source of sources) if (source !== 'data:') expect(source, `${name} in ${csp}`).not.toMatch(ANY_HOST);
        }
      }
      expect(d.get('object-src')).toEqual(["'none'"]);
    }
  });
});
