import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { desktopKeyProvider } from '../../../main/electron/key-provider.js';
import type { KeychainEntry, KeychainOpener } from '../../../main/core/secrets/master-key.js';
import type { SafeStorageLike } from '../../../main/core/secrets/safe-storage-key.js';

const home = () => mkdtempSync(path.join(os.tmpdir(), 'hc-desktop-key-'));

/** An OS keychain at the edge of the machine: a map, or one that refuses every call. */
function keychain(works: boolean): KeychainOpener & { store: Map<string, string> } {
  const store = new Map<string, string>();
  const open = (account: string): KeychainEntry => {
    if (!works) throw new Error('no Secret Service on the bus');
    return {
      getPassword: () => store.get(account) ?? null,
      setPassword: (p) => void store.set(account, p),
      deletePassword: () => store.delete(account),
    };
  };
  return Object.assign(open, { store });
}

/** Electron's safeStorage stand-in: real encryption under a per-test key. */
function safeStorage(available: boolean): SafeStorageLike {
  const osKey = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    encryptString(text) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', osKey, iv);
      const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(buf) {
      const d = createDecipheriv('aes-256-gcm', osKey, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
    getSelectedStorageBackend: () => 'gnome_libsecret',
  };
}

describe('master-key store of the desktop app', () => {
  it('prefers the OS keychain', async () => {
    const h = home();
    const kc = keychain(true);
    const p = await desktopKeyProvider(h, { safeStorage: safeStorage(true), openKeychain: kc });
    expect(p.kind).toBe('os-keychain');
    await p.getOrCreateKey();
    expect([...kc.store.keys()].some((k) => k.startsWith('master-key:') && !k.endsWith(':probe'))).toBe(true);
  });

  it('falls back to safeStorage when the keychain cannot be used, sealing the key in the home', async () => {
    const h = home();
    const p = await desktopKeyProvider(h, { safeStorage: safeStorage(true), openKeychain: keychain(false) });
    expect(p.kind).toBe('safe-storage');
    expect(p.warning).toBeNull();
    const key = await p.getOrCreateKey();
    expect(key.length).toBe(32);
    expect(existsSync(path.join(h, 'master-key.safe'))).toBe(true);
  });

  it('uses the key file, with its warning, only when neither works', async () => {
    const p = await desktopKeyProvider(home(), { safeStorage: safeStorage(false), openKeychain: keychain(false) });
    expect(p.kind).toBe('file');
    expect(p.warning).toMatch(/No OS keychain/);
  });

  it('keeps the store a home already uses, even when a better one appears', async () => {
    const sealed = home();
    const storage = safeStorage(true);
    const first = await desktopKeyProvider(sealed, { safeStorage: storage, openKeychain: keychain(false) });
    const key = await first.getOrCreateKey();
    const again = await desktopKeyProvider(sealed, { safeStorage: storage, openKeychain: keychain(true) });
    expect(again.kind).toBe('safe-storage');
    expect(await again.readKey()).toEqual(key);

    const filed = home();
    writeFileSync(path.join(filed, 'master-key'), randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
    expect((await desktopKeyProvider(filed, { safeStorage: storage, openKeychain: keychain(true) })).kind).toBe('file');
  });
});
