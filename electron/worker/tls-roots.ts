// The certificate authorities a worker trusts: Node's own, plus the ones the user named in NODE_EXTRA_CA_CERTS,
// which the engine hands over as WORKER_EXTRA_CA_ENV so this process did not parse them at start-up
// (shared/protocol.ts says why). They are read at the first https connection, once, as Node would have read
// them; an unreadable file is reported once and ignored, as Node does.
// node:tls too is loaded then, as undici loads it at its first https connection: at a worker's start it cost 10-13 ms
// (tls, crypto and a secure context's bindings) before the first fetch of every crawl, most of which fetch no https.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { buildConnector } from 'undici';
// @ts-expect-error: a file of undici without a declaration of its own (typed by buildConnectorFn below)
import buildConnectorModule from 'undici/lib/core/connect.js';
import { WORKER_EXTRA_CA_ENV } from '../../shared/protocol.ts';

const buildConnectorFn = buildConnectorModule as (options?: buildConnector.BuildOptions) => buildConnector.connector;

/** node:tls, loaded when first needed (see above). */
const tlsModule = () => createRequire(import.meta.url)('node:tls') as typeof import('node:tls');

/** Node's roots and the extra file's certificates, or null when there is no extra file (Node's defaults apply). */
export function extraCaRoots(file: string | undefined): string[] | null {
  if (!file) return null;
  try {
    return [...tlsModule().rootCertificates, fs.readFileSync(file, 'utf8')];
  } catch (err) {
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

/**
 * undici's connector with the connect timeout; https connections also trust the extra certificates of
 * WORKER_EXTRA_CA_ENV, read at the first of them into one secure context that every connection shares. (Given as
 * `ca`, they were parsed into a context of its own by each connection: on a site whose hosts do not resolve, where
 * every attempt is a new connection, the worker spent all its CPU on it and grew past 800 MB in a minute.)
 */
export function workerConnector(timeout: number, env: NodeJS.ProcessEnv = process.env): buildConnector.connector | { timeout: number } {
  const file = env[WORKER_EXTRA_CA_ENV];
  if (!file) return { timeout };
  const plain = buildConnectorFn({ timeout });
  let secure: buildConnector.connector | undefined;
  return (options, callback) => {
    if (options.protocol !== 'https:') return plain(options, callback);
    if (secure === undefined) {
      const ca = extraCaRoots(file);
      secure = ca === null ? plain : buildConnectorFn({ timeout, secureContext: tlsModule().createSecureContext({ ca }) });
    }
    return secure(options, callback);
  };
}
