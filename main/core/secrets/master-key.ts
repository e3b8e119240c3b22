import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the 256-bit master key that encrypts secret versions lives (DESIGN.md). The core never
 * picks a store silently: the chosen kind is reported by `doctor`, logged at start and shown at
 * `GET /api/system/status`, and every store weaker than the OS keychain carries a warning.
 *
 * Besides the current key, each store keeps at most one *pending* key: master-key rotation saves
 * the new key there before re-encrypting anything, so a rotation interrupted at any point leaves
 * every secret readable with one of the two (see rotation.ts).
 */
export interface MasterKeyProvider {
  readonly kind: 'os-keychain' | 'safe-storage' | 'file' | 'memory';
  /** Human description for `doctor`. */
  describe(): string;
  /** Set when the store is weaker than the OS keychain. */
  readonly warning: string | null;
  /** The key, created on first use. */
  getOrCreateKey(): Promise<Buffer>;
  /** The key if the store holds one; never creates (a missing key must not be papered over). */
  readKey(): Promise<Buffer | null>;
  /** Replaces the stored key (master-key rotation). */
  replaceKey(key: Buffer): Promise<void>;
  getPendingKey(): Promise<Buffer | null>;
  setPendingKey(key: Buffer): Promise<void>;
  clearPendingKey(): Promise<void>;
}

export const KEY_BYTES = 32;
export const KEYCHAIN_SERVICE = 'headcount';

/** One keychain entry per data home, so two homes on one laptop never share a key. */
export const keychainAccount = (home: string): string =>
  'master-key:' + createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 16);

function decodeKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`The master key in ${where} is not ${KEY_BYTES} bytes`);
  return key;
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`A master key must be ${KEY_BYTES} bytes`);
}

export function memoryKeyProvider(initial: Buffer = randomBytes(KEY_BYTES)): MasterKeyProvider {
  let key = initial;
  let pending: Buffer | null = null;
  return {
    kind: 'memory',
    warning: 'The master key is held in memory only; secrets will not survive a restart.',
    describe: () => 'memory (tests only)',
    getOrCreateKey: async () => key,
    readKey: async () => key,
    replaceKey: async (next) => {
      checkKey(next);
      key = next;
    },
    getPendingKey: async () => pending,
    setPendingKey: async (next) => {
      checkKey(next);
      pending = next;
    },
    clearPendingKey: async () => {
      pending = null;
    },
  };
}

/** The part of a `@napi-rs/keyring` Entry we use; injectable for tests. */
export interface KeychainEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}
export type KeychainOpener = (account: string) => KeychainEntry | Promise<KeychainEntry>;

/**
 * On Linux the library would otherwise fall back to the kernel keyring (keyutils), which is
 * emptied at reboot: the master key, and with it every secret, would be lost. Only the Secret
 * Service persists, so it is required; without it the file store is chosen, with its warning.
 */
const openSystemEntry: KeychainOpener = async (account) => {
  const { Entry } = await import('@napi-rs/keyring');
  return new Entry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });
};

/** The canonical store: macOS Keychain, Windows Credential Manager, Secret Service on Linux. */
export function keychainKeyProvider(home: string, open: KeychainOpener = openSystemEntry): MasterKeyProvider {
  const account = keychainAccount(home);
  const pendingAccount = `${account}:pending`;
  const read = async (name: string): Promise<Buffer | null> => {
    const stored = (await open(name)).getPassword();
    return stored ? decodeKey(stored, `the OS keychain (account "${name}")`) : null;
  };
  const write = async (name: string, key: Buffer): Promise<void> => {
    checkKey(key);
    (await open(name)).setPassword(key.toString('base64'));
  };
  return {
    kind: 'os-keychain',
    warning: null,
    describe: () => `OS keychain (service "${KEYCHAIN_SERVICE}", account "${account}")`,
    async getOrCreateKey() {
      const stored = await read(account);
      if (stored) return stored;
      const key = randomBytes(KEY_BYTES);
      await write(account, key);
      return key;
    },
    readKey: () => read(account),
    replaceKey: (key) => write(account, key),
    getPendingKey: () => read(pendingAccount),
    setPendingKey: (key) => write(pendingAccount, key),
    async clearPendingKey() {
      (await open(pendingAccount)).deletePassword();
    },
  };
}

/** Write-then-rename, so a crash never leaves a half-written key file. */
function writeKeyFile(file: string, key: Buffer): void {
  checkKey(key);
  const temp = `${file}.tmp`;
  writeFileSync(temp, key.toString('base64') + '\n', { mode: 0o600 });
  // The mode given to writeFileSync only applies when the file is created; make sure anyway.
  if (process.platform !== 'win32') chmodSync(temp, 0o600);
  renameSync(temp, file);
}

const readKeyFile = (file: string): Buffer | null => (existsSync(file) ? decodeKey(readFileSync(file, 'utf8'), file) : null);

/** Headless fallback without a keychain: a 0600 file beside the database, with a loud warning. */
export function fileKeyProvider(home: string): MasterKeyProvider {
  const file = path.join(home, 'master-key');
  const pendingFile = `${file}.pending`;
  return {
    kind: 'file',
    warning: `No OS keychain is available: the master key is stored in ${file} (mode 0600). Anyone who can read that file and the database can read your secrets.`,
    describe: () => `key file ${file} (0600)`,
    async getOrCreateKey() {
      const stored = readKeyFile(file);
      if (stored) return stored;
      const key = randomBytes(KEY_BYTES);
      try {
        // Exclusive create: two processes starting at once must end up with the same key.
        writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file) as Buffer;
        throw err;
      }
      return key;
    },
    readKey: async () => readKeyFile(file),
    replaceKey: async (key) => writeKeyFile(file, key),
    getPendingKey: async () => readKeyFile(pendingFile),
    setPendingKey: async (key) => writeKeyFile(pendingFile, key),
    clearPendingKey: async () => rmSync(pendingFile, { force: true }),
  };
}

/**
 * Probes the OS keychain. Reading is not enough: some stores answer reads but refuse writes (a
 * Secret Service without a default collection), so when this home has no key yet a throwaway
 * entry is written, read back and deleted.
 */
export async function keychainAvailable(
  home: string,
  open: KeychainOpener = openSystemEntry,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    if ((await open(keychainAccount(home))).getPassword()) return { ok: true };
    const probe = await open(`${keychainAccount(home)}:probe`);
    const token = randomBytes(8).toString('hex');
    probe.setPassword(token);
    const back = probe.getPassword();
    probe.deletePassword();
    return back === token ? { ok: true } : { ok: false, reason: 'the keychain did not return what was written' };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Headless choice: the keychain when it answers, else the key file (with its warning). A home
 * whose key already lives in the file keeps it: switching to a keychain that has no key for it
 * would lock its secrets out (the core refuses to start rather than lose them).
 */
export async function defaultKeyProvider(home: string, open: KeychainOpener = openSystemEntry): Promise<MasterKeyProvider> {
  if (existsSync(path.join(home, 'master-key'))) return fileKeyProvider(home);
  const probe = await keychainAvailable(home, open);
  return probe.ok ? keychainKeyProvider(home, open) : fileKeyProvider(home);
}
