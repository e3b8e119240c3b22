import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createSecret, ref } from './helpers.js';

let t: TestCore;
let companyId: string;
let secret: any;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
  secret = await createSecret(t, companyId, 'OPENAI_API_KEY', 'sk-test');
  await t.api('PATCH', `/api/secrets/${secret.id}`, { body: { value: 'sk-test-2' } });
});
afterEach(async () => {
  await t.close();
});

const processConfig = (env: Record<string, unknown>) => ({ command: 'echo', env });
const missing = '00000000-0000-4000-8000-000000000000';

async function expectRefRejected(res: any, path: string, message: RegExp) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('invalid_secret_ref');
  expect(res.body.error).toMatch(new RegExp(`^${path.replace(/\./g, '\\.')}: `));
  expect(res.body.details.problems).toContainEqual({ location: 'body', path, message: expect.stringMatching(message) });
}

describe('secret_ref validation on agent save', () => {
  it('accepts latest and existing version numbers, and stores the reference (never a value)', async () => {
    const agent = await createAgent(t, companyId, {
      adapterConfig: processConfig({ A: ref(secret.id), B: ref(secret.id, 1), C: ref(secret.id, 2), PLAIN: 'x' }),
    });
    expect(agent.adapterConfig.env).toEqual({ A: ref(secret.id), B: ref(secret.id, 1), C: ref(secret.id, 2), PLAIN: 'x' });
    // `version` defaults to latest when omitted.
    const b = await createAgent(t, companyId, { name: 'Bo', adapterConfig: processConfig({ K: { type: 'secret_ref', secretId: secret.id } }) });
    expect(b.adapterConfig.env.K).toEqual(ref(secret.id));
  });

  it('refuses unknown, foreign, deleted and missing-version references on create, naming the field', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = await createSecret(t, other, 'FOREIGN', 'f');
    const gone = await createSecret(t, companyId, 'GONE', 'g');
    await t.api('DELETE', `/api/secrets/${gone.id}`);
    const before = t.snapshot();
    const cases: [unknown, RegExp][] = [
      [ref(missing), /does not exist in this company/],
      [ref(foreign.id), /does not exist in this company/],
      [ref(gone.id), /does not exist in this company/],
      [ref(secret.id, 3), /has no version 3 \(latest is 2\)/],
    ];
    for (const [value, message] of cases) {
      const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
        body: { name: 'Eve', role: 'cto', adapterType: 'process', adapterConfig: processConfig({ FOO: value }) },
      });
      await expectRefRejected(res, 'body.adapterConfig.env.FOO', message);
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('lists every bad reference, in env values and http headers', async () => {
    const before = t.snapshot();
    const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
      body: {
        name: 'Hook',
        role: 'cto',
        adapterType: 'http',
        adapterConfig: { url: 'https://example.test/hook', headers: { Authorization: ref(missing), 'X-Ok': ref(secret.id), 'X-Old': ref(secret.id, 9) } },
      },
    });
    await expectRefRejected(res, 'body.adapterConfig.headers.Authorization', /does not exist/);
    expect(res.body.details.problems.map((p: any) => p.path)).toEqual(['body.adapterConfig.headers.Authorization', 'body.adapterConfig.headers.X-Old']);
    expect(t.snapshot()).toEqual(before);
  });

  it('checks references on patch and on rollback', async () => {
    const agent = await createAgent(t, companyId, { adapterConfig: processConfig({ KEY: ref(secret.id) }) });
    const before = t.snapshot();
    const bad = await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: processConfig({ KEY: ref(missing) }) } });
    await expectRefRejected(bad, 'body.adapterConfig.env.KEY', /does not exist/);
    expect(t.snapshot()).toEqual(before);

    // A revision that referenced a since-deleted secret cannot be rolled back to.
    const temp = await createSecret(t, companyId, 'TEMP', 't');
    expect((await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: processConfig({ KEY: ref(temp.id) }) } })).status).toBe(200);
    const revisions = (await t.api('GET', `/api/agents/${agent.id}/config-revisions`)).body;
    const withTemp = revisions.find((r: any) => r.adapterConfig.env?.KEY?.secretId === temp.id);
    expect((await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: processConfig({ KEY: ref(secret.id) }) } })).status).toBe(200);
    expect((await t.api('DELETE', `/api/secrets/${temp.id}`)).status).toBe(204);
    const snap = t.snapshot();
    const rollback = await t.api('POST', `/api/agents/${agent.id}/config-revisions/${withTemp.id}/rollback`, { body: {} });
    expect(rollback.status).toBe(400);
    expect(rollback.body.code).toBe('invalid_secret_ref');
    expect(t.snapshot()).toEqual(snap);
  });
});

describe('deleting a secret in use', () => {
  it('is refused with 409 secret_in_use listing the living agents that reference it', async () => {
    const a = await createAgent(t, companyId, { name: 'Ann', adapterConfig: processConfig({ K: ref(secret.id, 1) }) });
    const b = await createAgent(t, companyId, {
      name: 'Bob',
      adapterType: 'http',
      adapterConfig: { url: 'https://example.test/', headers: { Authorization: ref(secret.id) } },
    });
    await createAgent(t, companyId, { name: 'Cy', adapterConfig: processConfig({ K: 'not a ref: ' + secret.id }) });
    const before = t.snapshot();
    const res = await t.api('DELETE', `/api/secrets/${secret.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('secret_in_use');
    expect(res.body.details.agentIds.sort()).toEqual([a.id, b.id].sort());
    expect(t.snapshot()).toEqual(before);

    // Terminated agents do not hold a secret; once the others let go it can be deleted.
    expect((await t.api('POST', `/api/agents/${a.id}/terminate`, { body: {} })).status).toBe(200);
    expect((await t.api('PATCH', `/api/agents/${b.id}`, { body: { adapterConfig: { url: 'https://example.test/' } } })).status).toBe(200);
    expect((await t.api('DELETE', `/api/secrets/${secret.id}`)).status).toBe(204);
  });
});
