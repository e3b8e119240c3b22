import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  fileKeyProvider,
  keychainAvailable,
  keychainKeyProvider,
  type KeychainOpener,
  type MasterKeyProvider,
} from '../core/secrets/master-key.js';
import { safeStorageKeyProvider, type SafeStorageLike } from '../core/secrets/safe-storage-key.js';

export interface KeyChoiceDeps {
  safeStorage: SafeStorageLike;
  /** The OS keychain opener; the core's @napi-rs/keyring opener by default. */
  openKeychain?: KeychainOpener;
}

/**
 * The master-key store inside the desktop app (DESIGN.md): the OS keychain first, Electron's
 * safeStorage as the fallback, and the 0600 key file (with its warning) only when neither works.
 * A home whose key already lives in one store keeps that store: switching would lock its
 * secrets out (the core refuses to start rather than lose them). Call after `app` is ready:
 * safeStorage cannot encrypt before.
 */
export async function desktopKeyProvider(home: string, deps: KeyChoiceDeps): Promise<MasterKeyProvider> {
  if (existsSync(path.join(home, 'master-key'))) return fileKeyProvider(home);
  if (existsSync(path.join(home, 'master-key.safe'))) return safeStorageKeyProvider(home, deps.safeStorage);
  const probe = deps.openKeychain ? await keychainAvailable(home, deps.openKeychain) : await keychainAvailable(home);
  if (probe.ok) return deps.openKeychain ? keychainKeyProvider(home, deps.openKeychain) : keychainKeyProvider(home);
  if (deps.safeStorage.isEncryptionAvailable()) return safeStorageKeyProvider(home, deps.safeStorage);
  return fileKeyProvider(home);
}
