import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the 256-bit master key that encrypts secret versions lives (DESIGN.md). The core never
 * picks a store silently: the chosen kind is reported by `doctor`, and the file store carries a
 * warning that the UI and API show.
 */
export interface MasterKeyProvider {
  readonly kind: 'os-keychain' | 'safe-storage' | 'file' | 'memory';
  /** Human description for `doctor`. */
  describe(): string;
  /** Set when the store is weaker than the OS keychain. */
  readonly warning: string | null;
  /** The key, created on first use. */
  getOrCreateKey(): Promise<Buffer>;
  /** Replaces the stored key (master-key rotation). */
  replaceKey(key: Buffer): Promise<void>;
}

const KEY_BYTES = 32;
export const KEYCHAIN_SERVICE = 'headcount';

/** One keychain entry per data home, so two homes on one laptop never share a key. */
export const keychainAccount = (home: string): string =>
  'master-key:' + createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 16);

function decodeKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`The master key in ${where} is not ${KEY_BYTES} bytes`);
  return key;
}

export function memoryKeyProvider(initial: Buffer = randomBytes(KEY_BYTES)): MasterKeyProvider {
  let key = initial;
  return {
    kind: 'memory',
    warning: 'The master key is held in memory only; secrets will not survive a restart.',
    describe: () => 'memory (tests only)',
    getOrCreateKey: async () => key,
    replaceKey: async (next) => {
      key = next;
    },
  };
}

export interface KeychainEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
}

/** The canonical store: macOS Keychain, Windows Credential Manager, Secret Service on Linux. */
export function keychainKeyProvider(home: string, entry?: KeychainEntry): MasterKeyProvider {
  const account = keychainAccount(home);
  const open = async (): Promise<KeychainEntry> => {
    if (entry) return entry;
    const { Entry } = await import('@napi-rs/keyring');
    return new Entry(KEYCHAIN_SERVICE, account);
  };
  return {
    kind: 'os-keychain',
    warning: null,
    describe: () => `OS keychain (service "${KEYCHAIN_SERVICE}", account "${account}")`,
    async getOrCreateKey() {
      const e = await open();
      const stored = e.getPassword();
      if (stored) return decodeKey(stored, 'the OS keychain');
      const key = randomBytes(KEY_BYTES);
      e.setPassword(key.toString('base64'));
      return key;
    },
    async replaceKey(key) {
      (await open()).setPassword(key.toString('base64'));
    },
  };
}

/** Headless fallback without a keychain: a 0600 file beside the database, with a loud warning. */
export function fileKeyProvider(home: string): MasterKeyProvider {
  const file = path.join(home, 'master-key');
  return {
    kind: 'file',
    warning: `No OS keychain is available: the master key is stored in ${file} (mode 0600). Anyone who can read that file and the database can read your secrets.`,
    describe: () => `key file ${file} (0600)`,
    async getOrCreateKey() {
      if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8'), file);
      const key = randomBytes(KEY_BYTES);
      writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      return key;
    },
    async replaceKey(key) {
      const temp = `${file}.new`;
      writeFileSync(temp, key.toString('base64') + '\n', { mode: 0o600 });
      if (process.platform !== 'win32') chmodSync(temp, 0o600);
      renameSync(temp, file);
    },
  };
}

/** Probes the OS keychain by reading this home's entry; any failure means it is unavailable. */
export async function keychainAvailable(home: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const { Entry } = await import('@napi-rs/keyring');
    new Entry(KEYCHAIN_SERVICE, keychainAccount(home)).getPassword();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Headless choice: the keychain when it answers, else the key file (with its warning). */
export async function defaultKeyProvider(home: string): Promise<MasterKeyProvider> {
  const probe = await keychainAvailable(home);
  return probe.ok ? keychainKeyProvider(home) : fileKeyProvider(home);
}
