import { describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safeStorageKeyProvider, type SafeStorageLike } from '../../../main/core/secrets/safe-storage-key.js';

/** Stands in for Electron's safeStorage (the OS edge): real encryption under a per-test key. */
function fakeSafeStorage(backend?: string, available = true): SafeStorageLike {
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
    ...(backend ? { getSelectedStorageBackend: () => backend } : {}),
  };
}

describe('safeStorage master-key provider', () => {
  it('creates, seals, reads back and rotates the key; nothing in clear on disk', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'safe-'));
    const storage = fakeSafeStorage('gnome_libsecret');
    const provider = safeStorageKeyProvider(home, storage);
    expect(provider.warning).toBeNull();
    expect(await provider.readKey()).toBeNull();
    const key = await provider.getOrCreateKey();
    expect(await provider.getOrCreateKey()).toEqual(key);
    const file = path.join(home, 'master-key.safe');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).includes(Buffer.from(key.toString('base64')))).toBe(false);
    const next = randomBytes(32);
    await provider.setPendingKey(next);
    expect(await provider.getPendingKey()).toEqual(next);
    await provider.replaceKey(next);
    await provider.clearPendingKey();
    expect(await provider.readKey()).toEqual(next);
    expect(await provider.getPendingKey()).toBeNull();
  });

  it('warns when Electron falls back to a fixed password, and refuses when it cannot encrypt', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'safe-'));
    expect(safeStorageKeyProvider(home, fakeSafeStorage('basic_text')).warning).toMatch(/fixed password/);
    expect(() => safeStorageKeyProvider(home, fakeSafeStorage(undefined, false))).toThrow(/cannot encrypt/);
  });
});
