import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createSecret } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

const META_KEYS = ['companyId', 'createdAt', 'description', 'id', 'latestVersion', 'name', 'updatedAt', 'versions'];

describe('secrets CRUD', () => {
  it('creates, lists, gets, versions and deletes, returning metadata only', async () => {
    const created = await t.api('POST', `/api/companies/${companyId}/secrets`, {
      body: { name: 'OPENAI_API_KEY', value: 'sk-one', description: 'for the CEO' },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(META_KEYS);
    expect(created.body).toMatchObject({ companyId, name: 'OPENAI_API_KEY', description: 'for the CEO', latestVersion: 1 });
    expect(created.body.versions).toEqual([{ version: 1, createdAt: created.body.createdAt }]);
    const id = created.body.id;

    const patched = await t.api('PATCH', `/api/secrets/${id}`, { body: { value: 'sk-two' } });
    expect(patched.status).toBe(200);
    expect(patched.body.latestVersion).toBe(2);
    expect(patched.body.versions.map((v: any) => v.version)).toEqual([1, 2]);
    expect(patched.body.description).toBe('for the CEO');

    const both = await t.api('PATCH', `/api/secrets/${id}`, { body: { value: 'sk-three', description: 'rotated' } });
    expect(both.body).toMatchObject({ latestVersion: 3, description: 'rotated' });
    const descOnly = await t.api('PATCH', `/api/secrets/${id}`, { body: { description: 'only text' } });
    expect(descOnly.body).toMatchObject({ latestVersion: 3, description: 'only text' });

    expect((await t.api('GET', `/api/secrets/${id}`)).body).toEqual(descOnly.body);
    const list = await t.api('GET', `/api/companies/${companyId}/secrets`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([descOnly.body]);

    const del = await t.api('DELETE', `/api/secrets/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.api('GET', `/api/secrets/${id}`)).status).toBe(404);
    expect((await t.api('PATCH', `/api/secrets/${id}`, { body: { value: 'x' } })).status).toBe(404);
    expect((await t.api('DELETE', `/api/secrets/${id}`)).body.code).toBe('not_found');
    expect((await t.api('GET', `/api/companies/${companyId}/secrets`)).body).toEqual([]);
    // The name is free again once the secret is deleted.
    expect((await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'OPENAI_API_KEY', value: 'new' } })).status).toBe(201);
  });

  it('records activity naming the secret and version', async () => {
    const s = await createSecret(t, companyId, 'GH_TOKEN', 'ghp_value');
    await t.api('PATCH', `/api/secrets/${s.id}`, { body: { value: 'ghp_value2' } });
    await t.api('DELETE', `/api/secrets/${s.id}`);
    const activity = await t.api('GET', `/api/companies/${companyId}/activity?entityType=secret`);
    expect(activity.body.items.map((a: any) => [a.action, a.summary])).toEqual([
      ['secret.deleted', 'Secret "GH_TOKEN" deleted'],
      ['secret.updated', 'Secret "GH_TOKEN" updated: new version 2'],
      ['secret.created', 'Secret "GH_TOKEN" created (version 1)'],
    ]);
  });

  it('keeps names unique per company among live secrets', async () => {
    const first = await createSecret(t, companyId, 'SMTP_PASSWORD', 'a');
    const before = t.snapshot();
    const dup = await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'SMTP_PASSWORD', value: 'b' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'secret_name_taken', details: { secretId: first.id } });
    expect(t.snapshot()).toEqual(before);
    // Another company may use the same name.
    const other = await createCompany(t, 'Other');
    expect((await t.api('POST', `/api/companies/${other}/secrets`, { body: { name: 'SMTP_PASSWORD', value: 'c' } })).status).toBe(201);
  });

  it('validates names, values and bodies, writing nothing', async () => {
    await createSecret(t, companyId, 'EXISTING', 'v'); // so the master key state exists either way
    const before = t.snapshot();
    const bad: [unknown, string][] = [
      [{}, 'body.name'],
      [{ name: 'X' }, 'body.value'],
      [{ name: '1ABC', value: 'v' }, 'body.name'],
      [{ name: 'has space', value: 'v' }, 'body.name'],
      [{ name: 'a/b', value: 'v' }, 'body.name'],
      [{ name: 'A'.repeat(129), value: 'v' }, 'body.name'],
      [{ name: 'X', value: '' }, 'body.value'],
      [{ name: 'X', value: 'é'.repeat(32 * 1024 + 1) }, 'body.value'], // 65538 bytes of UTF-8
      [{ name: 'X', value: 'a\ud800b' }, 'body.value'],
      [{ name: 'X', value: 42 }, 'body.value'],
      [{ name: 'X', value: 'v', extra: 1 }, 'body.extra'],
      [{ name: 'X', value: 'v', description: 'd'.repeat(1001) }, 'body.description'],
    ];
    for (const [body, path] of bad) {
      const res = await t.api('POST', `/api/companies/${companyId}/secrets`, { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.details.problems.map((p: any) => p.path)).toContain(path);
    }
    const patch = await t.api('PATCH', `/api/secrets/${(await t.api('GET', `/api/companies/${companyId}/secrets`)).body[0].id}`, { body: { value: '' } });
    expect(patch.status).toBe(400);
    expect((await t.api('PATCH', '/api/secrets/not-a-uuid', { body: { value: 'x' } })).body.details.problems[0].path).toBe('params.secretId');
    expect(t.snapshot()).toEqual(before);
  });

  it('accepts the boundaries: 128-character names, 64 KiB values, dotted and dashed names', async () => {
    const exact = 'x'.repeat(64 * 1024);
    expect((await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'A'.repeat(128), value: exact } })).status).toBe(201);
    expect((await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name: '_smtp.pass-word', value: '🔑' } })).status).toBe(201);
  });

  it('is board only: agents get 403 board_only on every route and nothing is written', async () => {
    const s = await createSecret(t, companyId, 'K', 'v');
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    const before = t.snapshot();
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/companies/${companyId}/secrets`],
      ['POST', `/api/companies/${companyId}/secrets`, { name: 'A', value: 'b' }],
      ['GET', `/api/secrets/${s.id}`],
      ['PATCH', `/api/secrets/${s.id}`, { value: 'c' }],
      ['DELETE', `/api/secrets/${s.id}`],
      ['GET', '/api/system/status'],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.api(method, path, { token: key, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('board_only');
    }
    expect((await t.api('GET', `/api/companies/${companyId}/secrets`, { token: null })).status).toBe(401);
    expect(t.snapshot()).toEqual(before);
  });

  it('answers 404 for unknown companies and secrets, writing nothing (not even a master key)', async () => {
    const before = t.snapshot();
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.api('POST', `/api/companies/${missing}/secrets`, { body: { name: 'A', value: 'b' } })).status).toBe(404);
    expect((await t.api('GET', `/api/companies/${missing}/secrets`)).status).toBe(404);
    for (const method of ['GET', 'DELETE']) expect((await t.api(method, `/api/secrets/${missing}`)).status).toBe(404);
    expect((await t.api('PATCH', `/api/secrets/${missing}`, { body: { value: 'x' } })).status).toBe(404);
    expect(t.snapshot()).toEqual(before);
    expect(before.master_key_state).toBe(0);
  });

  it('treats an empty or unchanged PATCH as a no-op', async () => {
    const s = await createSecret(t, companyId, 'K', 'v', { description: 'd' });
    const before = t.snapshot();
    expect((await t.api('PATCH', `/api/secrets/${s.id}`, { body: {} })).body).toEqual(s);
    expect((await t.api('PATCH', `/api/secrets/${s.id}`, { body: { description: 'd' } })).body).toEqual(s);
    expect(t.snapshot()).toEqual(before);
  });

  it('lists secrets by name with their versions, and never another company’s', async () => {
    const b = await createSecret(t, companyId, 'B', '1');
    await createSecret(t, companyId, 'A', '1');
    await t.api('PATCH', `/api/secrets/${b.id}`, { body: { value: '2' } });
    const other = await createCompany(t, 'Other');
    await createSecret(t, other, 'C', '1');
    const list = (await t.api('GET', `/api/companies/${companyId}/secrets`)).body;
    expect(list.map((s: any) => [s.name, s.versions.length])).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
  });

  it('reports the key store at the board-only system status', async () => {
    const res = await t.api('GET', '/api/system/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keyProvider: { kind: 'memory', description: 'memory (tests only)', warning: expect.stringMatching(/memory/) } });
  });
});
