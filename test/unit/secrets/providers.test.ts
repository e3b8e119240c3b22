import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultKeyProvider,
  fileKeyProvider,
  keychainAccount,
  keychainAvailable,
  keychainKeyProvider,
  memoryKeyProvider,
  type KeychainEntry,
  type MasterKeyProvider,
} from '../../../main/core/secrets/master-key.js';
import { tempHome } from '../../helpers/core.js';

const homes: string[] = [];
const newHome = () => {
  const h = tempHome('headcount-keys-');
  homes.push(h);
  return h;
};
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** The contract every store keeps: current and pending keys, independent of each other. */
async function exerciseProvider(p: MasterKeyProvider, startsEmpty: boolean) {
  if (startsEmpty) expect(await p.readKey()).toBeNull();
  const key = await p.getOrCreateKey();
  expect(key).toHaveLength(32);
  expect((await p.getOrCreateKey()).equals(key)).toBe(true);
  expect((await p.readKey())!.equals(key)).toBe(true);
  expect(await p.getPendingKey()).toBeNull();
  const next = randomBytes(32);
  await p.setPendingKey(next);
  expect((await p.getPendingKey())!.equals(next)).toBe(true);
  expect((await p.readKey())!.equals(key)).toBe(true);
  await p.replaceKey(next);
  expect((await p.readKey())!.equals(next)).toBe(true);
  await p.clearPendingKey();
  await p.clearPendingKey(); // clearing twice is harmless
  expect(await p.getPendingKey()).toBeNull();
  expect((await p.getOrCreateKey()).equals(next)).toBe(true);
  await expect(p.setPendingKey(Buffer.alloc(16))).rejects.toThrow(/32 bytes/);
}

describe('file key provider', () => {
  it('writes the key and the pending key with mode 0600 and carries a loud warning', async () => {
    const home = newHome();
    const p = fileKeyProvider(home);
    expect(p.kind).toBe('file');
    expect(p.warning).toMatch(/No OS keychain.*master-key.*0600/);
    await exerciseProvider(p, true);
    const file = path.join(home, 'master-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await p.setPendingKey(randomBytes(32));
    expect(statSync(`${file}.pending`).mode & 0o777).toBe(0o600);
    await p.clearPendingKey();
    expect(existsSync(`${file}.pending`)).toBe(false);
    expect(existsSync(`${file}.tmp`)).toBe(false);
    // A second provider on the same home reads the same key (it survives a restart).
    expect((await fileKeyProvider(home).readKey())!.equals((await p.readKey())!)).toBe(true);
  });

  it('tightens a pending file that already existed with loose permissions', async () => {
    const home = newHome();
    writeFileSync(path.join(home, 'master-key.pending'), 'old', { mode: 0o644 });
    await fileKeyProvider(home).setPendingKey(randomBytes(32));
    expect(statSync(path.join(home, 'master-key.pending')).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    const home = newHome();
    writeFileSync(path.join(home, 'master-key'), 'c2hvcnQ=\n', { mode: 0o600 });
    await expect(fileKeyProvider(home).getOrCreateKey()).rejects.toThrow(/not 32 bytes/);
    expect(readFileSync(path.join(home, 'master-key'), 'utf8')).toBe('c2hvcnQ=\n');
  });
});

describe('memory key provider', () => {
  it('keeps the same contract', async () => {
    await exerciseProvider(memoryKeyProvider(), false);
  });
});

/** An in-memory stand-in for the OS keychain, keyed by account. */
function fakeKeychain(options: { failWrites?: boolean } = {}) {
  const store = new Map<string, string>();
  const open = (account: string): KeychainEntry => ({
    getPassword: () => store.get(account) ?? null,
    setPassword: (v) => {
      if (options.failWrites) throw new Error('Secret Service: no result found');
      store.set(account, v);
    },
    deletePassword: () => store.delete(account),
  });
  return { store, open };
}

describe('keychain key provider (entries injected)', () => {
  it('keeps the current and pending keys under two accounts of this home', async () => {
    const home = newHome();
    const kc = fakeKeychain();
    const p = keychainKeyProvider(home, kc.open);
    expect(p.warning).toBeNull();
    await exerciseProvider(p, true);
    expect([...kc.store.keys()]).toEqual([keychainAccount(home)]);
    await p.setPendingKey(randomBytes(32));
    expect([...kc.store.keys()].sort()).toEqual([keychainAccount(home), `${keychainAccount(home)}:pending`].sort());
    expect(keychainAccount(home)).not.toBe(keychainAccount(newHome()));
  });

  it('is reported unavailable when the store answers reads but refuses writes', async () => {
    const home = newHome();
    expect(await keychainAvailable(home, fakeKeychain().open)).toEqual({ ok: true });
    const broken = await keychainAvailable(home, fakeKeychain({ failWrites: true }).open);
    expect(broken).toEqual({ ok: false, reason: 'Secret Service: no result found' });
    // The probe leaves nothing behind.
    const kc = fakeKeychain();
    await keychainAvailable(home, kc.open);
    expect(kc.store.size).toBe(0);
  });

  it('is the default when it works, but a home whose key is in the file keeps the file', async () => {
    const home = newHome();
    expect((await defaultKeyProvider(home, fakeKeychain().open)).kind).toBe('os-keychain');
    expect((await defaultKeyProvider(home, fakeKeychain({ failWrites: true }).open)).kind).toBe('file');
    await fileKeyProvider(home).getOrCreateKey();
    expect((await defaultKeyProvider(home, fakeKeychain().open)).kind).toBe('file');
  });
});
