import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, tempHome } from '../../helpers/core.js';
import { fileKeyProvider, type MasterKeyProvider } from '../../../main/core/secrets/master-key.js';
import type { RotationStep } from '../../../main/core/secrets/rotation.js';
import { rotateMasterKeyInHome } from '../../../main/cli/secrets.js';
import { silentLogger } from '../../../main/core/kernel/logger.js';
import { createSecret, ref } from './helpers.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

interface Fixture {
  home: string;
  provider: MasterKeyProvider;
  companyId: string;
  /** Every version ever written, deleted secret included, with its plain value. */
  expected: { secretId: string; version: number; value: string; deleted?: boolean }[];
}

/** A home with three secrets (two versions each, one of them deleted), then the core stopped. */
async function fixture(): Promise<Fixture> {
  const home = tempHome('headcount-rotate-');
  homes.push(home);
  const provider = fileKeyProvider(home);
  const t = await startCore({ home, keyProvider: provider });
  const companyId = await createCompany(t);
  const expected: Fixture['expected'] = [];
  for (const name of ['A', 'B', 'C']) {
    const s = await createSecret(t, companyId, name, `${name}-v1 ✓`);
    await t.api('PATCH', `/api/secrets/${s.id}`, { body: { value: `${name}-v2` } });
    expected.push({ secretId: s.id, version: 1, value: `${name}-v1 ✓` }, { secretId: s.id, version: 2, value: `${name}-v2` });
  }
  const deleted = expected[4]!.secretId;
  expect((await t.api('DELETE', `/api/secrets/${deleted}`)).status).toBe(204);
  for (const e of expected) if (e.secretId === deleted) e.deleted = true;
  await t.close();
  return { home, provider, companyId, expected };
}

function dbState(home: string) {
  const db = new Database(path.join(home, 'service.db'), { readonly: true });
  try {
    const state = db.prepare('SELECT generation, rotated_at FROM master_key_state').get() as { generation: number; rotated_at: string | null };
    const generations = (db.prepare('SELECT DISTINCT key_generation AS g FROM secret_versions').all() as { g: number }[]).map((r) => r.g);
    return { ...state, generations };
  } finally {
    db.close();
  }
}

/** Restarts the core and proves every version still decrypts, and that new versions work. */
async function expectAllReadable(f: Fixture, generation: number) {
  const t = await startCore({ home: f.home, keyProvider: f.provider });
  try {
    for (const e of f.expected.filter((x) => !x.deleted)) {
      expect((await t.core.services.secrets.resolveSecretRef(f.companyId, ref(e.secretId, e.version))).value).toBe(e.value);
    }
    const live = f.expected[0]!.secretId;
    expect((await t.api('PATCH', `/api/secrets/${live}`, { body: { value: 'after' } })).status).toBe(200);
    expect((await t.core.services.secrets.resolveSecretRef(f.companyId, ref(live))).value).toBe('after');
  } finally {
    await t.close();
  }
  // Deleted secrets' versions were re-encrypted too: every row carries the same generation.
  expect(dbState(f.home)).toMatchObject({ generation, generations: [generation] });
  expect(await f.provider.getPendingKey()).toBeNull();
}

const rotate = (f: Fixture, afterStep?: (s: RotationStep) => void) =>
  rotateMasterKeyInHome(f.home, { keyProvider: f.provider, logger: silentLogger, ...(afterStep ? { afterStep } : {}) });

describe('master-key rotation', () => {
  it('re-encrypts every version under a new key and replaces the key in the store', async () => {
    const f = await fixture();
    const before = (await f.provider.readKey())!;
    const result = await rotate(f);
    expect(result).toMatchObject({ rotated: true, fromGeneration: 1, toGeneration: 2, versions: 6 });
    expect(result.store).toMatch(/master-key/);
    const after = (await f.provider.readKey())!;
    expect(after.equals(before)).toBe(false);
    expect(existsSync(path.join(f.home, 'master-key.pending'))).toBe(false);
    expect(dbState(f.home).rotated_at).toEqual(expect.any(String));
    await expectAllReadable(f, 2);
    expect(await rotate(f)).toMatchObject({ rotated: true, toGeneration: 3 });
    await expectAllReadable(f, 3);
  });

  it('loses nothing when interrupted after any step; the next start completes or discards it', async () => {
    const cases: [RotationStep, number, 'old' | 'new'][] = [
      ['pending-saved', 1, 'old'], // the database still says the old key: the pending one is dropped
      ['reencrypted', 2, 'new'], // the database says the new key: the pending one is promoted
      ['promoted', 2, 'new'],
      ['pending-cleared', 2, 'new'],
    ];
    for (const [step, generation, which] of cases) {
      const f = await fixture();
      const oldKey = (await f.provider.readKey())!;
      await expect(rotate(f, (s) => {
        if (s === step) throw new Error(`simulated crash after ${s}`);
      })).rejects.toThrow(`simulated crash after ${step}`);
      const pending = await f.provider.getPendingKey();
      expect(pending !== null, step).toBe(step !== 'pending-cleared');
      await expectAllReadable(f, generation);
      const key = (await f.provider.readKey())!;
      expect(key.equals(oldKey), step).toBe(which === 'old');
    }
  });

  it('finishes an interrupted rotation at the start of the next one', async () => {
    const f = await fixture();
    await expect(rotate(f, (s) => {
      if (s === 'reencrypted') throw new Error('crash');
    })).rejects.toThrow('crash');
    expect(await rotate(f)).toMatchObject({ rotated: true, fromGeneration: 2, toGeneration: 3 });
    await expectAllReadable(f, 3);
  });

  it('rolls the whole re-encryption back when one version does not open', async () => {
    const f = await fixture();
    const db = new Database(path.join(f.home, 'service.db'));
    const victim = f.expected[3]!;
    db.prepare('UPDATE secret_versions SET auth_tag = zeroblob(16) WHERE secret_id = ? AND version = ?').run(victim.secretId, victim.version);
    db.close();
    await expect(rotate(f)).rejects.toThrow(`Version ${victim.version} of secret ${victim.secretId} does not open`);
    expect(dbState(f.home)).toMatchObject({ generation: 1, generations: [1], rotated_at: null });
    // The pending key written in step (a) is discarded at the next start; the rest is intact.
    f.expected.splice(3, 1);
    await expectAllReadable(f, 1);
  });

  it('refuses while a server has the home open, changing nothing', async () => {
    const f = await fixture();
    const t = await startCore({ home: f.home, keyProvider: f.provider });
    try {
      await expect(rotate(f)).rejects.toThrow(/in use by another process \(is the Headcount server running\?\)/);
    } finally {
      await t.close();
    }
    expect(await f.provider.getPendingKey()).toBeNull();
    await expectAllReadable(f, 1);
  });

  it('keeps a server from starting while the rotation runs', async () => {
    const f = await fixture();
    let refusal: unknown;
    await rotate(f, async (s) => {
      if (s === 'pending-saved') refusal = await startCore({ home: f.home, keyProvider: f.provider }).then((t) => t.close(), (e: unknown) => e);
    });
    expect(String(refusal)).toMatch(/database is locked/);
    await expectAllReadable(f, 2);
  });

  it('has nothing to do in a home that never stored a secret, and never creates a key there', async () => {
    const home = tempHome('headcount-rotate-');
    homes.push(home);
    const provider = fileKeyProvider(home);
    await (await startCore({ home, keyProvider: provider })).close();
    expect(await rotateMasterKeyInHome(home, { keyProvider: provider, logger: silentLogger })).toMatchObject({ rotated: false, reason: expect.stringMatching(/nothing to re-encrypt/) });
    expect(existsSync(path.join(home, 'master-key'))).toBe(false);
    await expect(rotateMasterKeyInHome(path.join(home, 'missing'), { keyProvider: provider })).rejects.toThrow(/No database/);
  });

  it('refuses to start with a key that cannot open the secrets, and does not write a key', async () => {
    const f = await fixture();
    const keyFile = path.join(f.home, 'master-key');
    const saved = readFileSync(keyFile);
    rmSync(keyFile);
    await expect(startCore({ home: f.home, keyProvider: f.provider })).rejects.toThrow(/sealed with master key generation 1, but key file .* holds no key/);
    expect(existsSync(keyFile)).toBe(false);
    await f.provider.replaceKey(Buffer.alloc(32, 7));
    await expect(startCore({ home: f.home, keyProvider: f.provider })).rejects.toThrow(/holds a different key.*refuses to start/);
    await f.provider.replaceKey(Buffer.from(saved.toString('utf8').trim(), 'base64'));
    await expectAllReadable(f, 1);
  });
});
