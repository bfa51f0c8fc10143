// Where a crawl file keeps its credentials (basic authentication and custom headers, shared/credentials.ts). They
// never sit in the stored settings (meta 'settings'): they are sealed by a SecretStore into meta 'secrets', as
// {"store": kind, "sealed": text}. Two stores:
//   plain        the CLI and the web console: the secrets as JSON, in clear, in a crawl file only its owner can read
//                (0600, in a 0700 folder); a resumed crawl reads them back.
//   safeStorage  the desktop app (electron/main/safe-storage-secrets.ts): encrypted with Electron's safeStorage, whose
//                key the OS keychain holds, so the crawl file alone (copied, backed up, attached) does not give them.
// A file sealed by the app's keychain cannot be resumed by the CLI: opening its secrets says so.
import type { CrawlSecrets } from '../../../shared/credentials.ts';

export interface SecretStore {
  /** Names the store in the crawl file, so a file is opened by the store that sealed it. */
  readonly kind: string;
  /** The secrets as the crawl file keeps them. */
  seal(secrets: CrawlSecrets): string;
  /** The secrets back from what seal wrote; throws when they cannot be read. */
  open(sealed: string): CrawlSecrets;
}

export const plainSecretStore: SecretStore = {
  kind: 'plain',
  seal: (secrets) => JSON.stringify(secrets),
  open: (sealed) => JSON.parse(sealed) as CrawlSecrets,
};

/** The value of meta 'secrets' for `secrets`. */
export function sealSecrets(store: SecretStore, secrets: CrawlSecrets): string {
  return JSON.stringify({ store: store.kind, sealed: store.seal(secrets) });
}

/** The secrets of a meta 'secrets' value, opened with `store` (a plain value opens with any store). */
export function openSecrets(store: SecretStore, value: string): CrawlSecrets {
  const record = JSON.parse(value) as { store?: unknown; sealed?: unknown };
  if (typeof record.sealed !== 'string') throw new Error('the crawl file holds unreadable credentials');
  if (record.store === plainSecretStore.kind) return plainSecretStore.open(record.sealed);
  if (record.store !== store.kind) {
    throw new Error(
      `this crawl's credentials are encrypted with the ${String(record.store)} store (the desktop app's keychain), which is not available here: continue it in the app, or start a new crawl`,
    );
  }
  return store.open(record.sealed);
}
