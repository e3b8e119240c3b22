import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createSecret, ref } from './helpers.js';
import { formatSecretUri } from '../../../main/core/secrets/refs.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

const secretsService = () => t.core.services.secrets;

describe('resolution service', () => {
  it('resolves latest to the newest version at that moment, and pinned versions by number', async () => {
    const s = await createSecret(t, companyId, 'API_KEY', 'value-one');
    const r1 = await secretsService().resolveSecretRef(companyId, ref(s.id));
    expect(r1).toEqual({ secretId: s.id, name: 'API_KEY', version: 1, value: 'value-one' });
    await t.api('PATCH', `/api/secrets/${s.id}`, { body: { value: 'value-two ✓ 🔑' } });
    expect((await secretsService().resolveSecretRef(companyId, ref(s.id))).value).toBe('value-two ✓ 🔑');
    expect((await secretsService().resolveSecretRef(companyId, ref(s.id))).version).toBe(2);
    // Old versions stay readable by number.
    expect((await secretsService().resolveSecretRef(companyId, ref(s.id, 1))).value).toBe('value-one');
    // The CRM string form resolves the same way.
    expect((await secretsService().resolveSecretRef(companyId, `secret://${s.id}:latest`)).value).toBe('value-two ✓ 🔑');
    expect((await secretsService().resolveSecretRef(companyId, formatSecretUri({ secretId: s.id, version: 1 }))).value).toBe('value-one');
  });

  it('resolves an env map into plain values plus the list of values to redact', async () => {
    const a = await createSecret(t, companyId, 'A', 'alpha-secret');
    const b = await createSecret(t, companyId, 'B', 'beta-1');
    await t.api('PATCH', `/api/secrets/${b.id}`, { body: { value: 'beta-2' } });
    const out = await secretsService().resolveEnv(companyId, { PLAIN: 'hello', A1: ref(a.id), A2: ref(a.id), B_OLD: ref(b.id, 1), B: ref(b.id) });
    expect(out.env).toEqual({ PLAIN: 'hello', A1: 'alpha-secret', A2: 'alpha-secret', B_OLD: 'beta-1', B: 'beta-2' });
    expect(out.secretValues).toEqual(['alpha-secret', 'beta-1', 'beta-2']);
    expect(out.refs).toEqual([
      { key: 'A1', secretId: a.id, name: 'A', version: 1 },
      { key: 'A2', secretId: a.id, name: 'A', version: 1 },
      { key: 'B_OLD', secretId: b.id, name: 'B', version: 1 },
      { key: 'B', secretId: b.id, name: 'B', version: 2 },
    ]);
    expect(await secretsService().resolveEnv(companyId, undefined)).toEqual({ env: {}, secretValues: [], refs: [] });
  });

  it('refuses references of another company, deleted secrets and missing versions, naming the env key', async () => {
    const s = await createSecret(t, companyId, 'S', 'v');
    const other = await createCompany(t, 'Other');
    const err = (p: Promise<unknown>) => p.then(() => null, (e: any) => ({ code: e.code, status: e.status, message: e.message }));
    expect(await err(secretsService().resolveSecretRef(other, ref(s.id)))).toMatchObject({ code: 'invalid_secret_ref', message: expect.stringMatching(/does not exist in this company/) });
    expect(await err(secretsService().resolveEnv(companyId, { FOO: ref(s.id, 4) }))).toMatchObject({
      code: 'invalid_secret_ref',
      message: 'env.FOO: secret "S" has no version 4 (latest is 1)',
    });
    expect(await err(secretsService().resolveSecretRef(companyId, 'secret://nope'))).toMatchObject({ code: 'invalid_secret_ref' });
    await t.api('DELETE', `/api/secrets/${s.id}`);
    expect(await err(secretsService().resolveSecretRef(companyId, ref(s.id, 1)))).toMatchObject({ code: 'invalid_secret_ref' });
  });
});

describe('AES-256-GCM with the row identity as authenticated data', () => {
  const swap = (t: TestCore, a: { secretId: string; version: number }, b: { secretId: string; version: number }) => {
    const sqlite = t.core.database.sqlite;
    const get = sqlite.prepare('SELECT iv, ciphertext, auth_tag FROM secret_versions WHERE secret_id = ? AND version = ?');
    const set = sqlite.prepare('UPDATE secret_versions SET iv = ?, ciphertext = ?, auth_tag = ? WHERE secret_id = ? AND version = ?');
    const ra = get.get(a.secretId, a.version) as any;
    const rb = get.get(b.secretId, b.version) as any;
    set.run(rb.iv, rb.ciphertext, rb.auth_tag, a.secretId, a.version);
    set.run(ra.iv, ra.ciphertext, ra.auth_tag, b.secretId, b.version);
  };

  it('a ciphertext moved to another secret or another version does not decrypt', async () => {
    const a = await createSecret(t, companyId, 'A', 'value-of-a');
    const b = await createSecret(t, companyId, 'B', 'value-of-b');
    await t.api('PATCH', `/api/secrets/${a.id}`, { body: { value: 'value-of-a-2' } });
    const failure = (r: ReturnType<typeof ref>) =>
      secretsService()
        .resolveSecretRef(companyId, r)
        .then(
          (x) => x.value,
          (e: any) => e.code,
        );

    swap(t, { secretId: a.id, version: 1 }, { secretId: b.id, version: 1 });
    expect(await failure(ref(a.id, 1))).toBe('secret_undecryptable');
    expect(await failure(ref(b.id, 1))).toBe('secret_undecryptable');
    swap(t, { secretId: a.id, version: 1 }, { secretId: b.id, version: 1 }); // put back
    expect(await failure(ref(a.id, 1))).toBe('value-of-a');
    expect(await failure(ref(b.id, 1))).toBe('value-of-b');

    swap(t, { secretId: a.id, version: 1 }, { secretId: a.id, version: 2 });
    expect(await failure(ref(a.id, 1))).toBe('secret_undecryptable');
    expect(await failure(ref(a.id))).toBe('secret_undecryptable');
  });

  it('every version gets a fresh random 12-byte IV and a 16-byte tag', async () => {
    const s = await createSecret(t, companyId, 'S', 'same');
    await t.api('PATCH', `/api/secrets/${s.id}`, { body: { value: 'same' } });
    const rows = t.core.database.sqlite.prepare('SELECT iv, ciphertext, auth_tag, key_generation FROM secret_versions').all() as any[];
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.iv.length)).toEqual([12, 12]);
    expect(rows.map((r) => r.auth_tag.length)).toEqual([16, 16]);
    expect(rows.map((r) => r.key_generation)).toEqual([1, 1]);
    expect(rows[0].iv.equals(rows[1].iv)).toBe(false);
    expect(rows[0].ciphertext.equals(rows[1].ciphertext)).toBe(false);
  });
});
