// The desktop app's SecretStore: a crawl's credentials encrypted with Electron's safeStorage (the key is in the OS
// keychain: Keychain on macOS, DPAPI on Windows, the Secret Service or KWallet on Linux). Only a type comes from
// electron, so the decision below runs in plain Node tests with a stand-in for safeStorage.
import type { SafeStorage } from 'electron';
import { plainSecretStore, type SecretStore } from '../engine/secrets/secret-store.ts';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> & {
  getSelectedStorageBackend?: () => string;
};

/**
 * The store the app uses: safeStorage when it can encrypt with a real keychain; otherwise (no keychain, or Linux's
 * "basic_text" backend, whose key is a constant in Chromium: no protection) the plain store, in a 0600 crawl file,
 * as the CLI keeps them. Call after app.whenReady (safeStorage is not usable before on Linux).
 */
export function desktopSecretStore(safeStorage: SafeStorageLike, platform: NodeJS.Platform = process.platform): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) return plainSecretStore;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return plainSecretStore;
  return {
    kind: 'safeStorage',
    seal: (secrets) => safeStorage.encryptString(JSON.stringify(secrets)).toString('base64'),
    open: (sealed) => JSON.parse(safeStorage.decryptString(Buffer.from(sealed, 'base64'))),
  };
}
