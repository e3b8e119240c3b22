import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KEY_BYTES, type MasterKeyProvider } from './master-key.js';

/**
 * The part of Electron's `safeStorage` this provider needs. The Electron shell passes the real
 * module; the core never imports electron (DESIGN.md).
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a hard-coded password, no better than a plain file. */
  getSelectedStorageBackend?(): string;
}

function readSealed(storage: SafeStorageLike, file: string): Buffer | null {
  if (!existsSync(file)) return null;
  const key = Buffer.from(storage.decryptString(readFileSync(file)).trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`The master key sealed in ${file} is not ${KEY_BYTES} bytes`);
  return key;
}

function writeSealed(storage: SafeStorageLike, file: string, key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`A master key must be ${KEY_BYTES} bytes`);
  const temp = `${file}.tmp`;
  writeFileSync(temp, storage.encryptString(key.toString('base64')), { mode: 0o600 });
  renameSync(temp, file);
}

/**
 * Inside the desktop app, when the OS keychain library cannot be used, the master key is sealed
 * with Electron's safeStorage (Keychain on macOS, DPAPI on Windows, the Secret Service or KWallet
 * on Linux) and kept as `master-key.safe` in the home. On Linux without a secret store Electron
 * falls back to a fixed password; that is reported as a warning, never hidden.
 */
export function safeStorageKeyProvider(home: string, storage: SafeStorageLike): MasterKeyProvider {
  if (!storage.isEncryptionAvailable()) throw new Error('Electron safeStorage cannot encrypt on this system');
  const file = path.join(home, 'master-key.safe');
  const pendingFile = `${file}.pending`;
  const backend = storage.getSelectedStorageBackend?.();
  const weak = backend === 'basic_text';
  return {
    kind: 'safe-storage',
    warning: weak
      ? `No secret store is available to Electron (backend "${backend}"): the master key in ${file} is sealed with a fixed password. Install a Secret Service (gnome-keyring or KWallet) to protect it.`
      : null,
    describe: () => `Electron safeStorage${backend ? ` (${backend})` : ''}, sealed key in ${file}`,
    async getOrCreateKey() {
      const stored = readSealed(storage, file);
      if (stored) return stored;
      const key = randomBytes(KEY_BYTES);
      writeSealed(storage, file, key);
      return key;
    },
    readKey: async () => readSealed(storage, file),
    replaceKey: async (key) => writeSealed(storage, file, key),
    getPendingKey: async () => readSealed(storage, pendingFile),
    setPendingKey: async (key) => writeSealed(storage, pendingFile, key),
    clearPendingKey: async () => rmSync(pendingFile, { force: true }),
  };
}
