import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore;
beforeEach(async () => {
  t = await startCore();
});
afterEach(async () => {
  await t.close();
});

describe('companies', () => {
  it('creates, gets, patches and lists a company', async () => {
    const created = await t.api('POST', '/api/companies', { body: { name: '  Acme  ', description: 'We build', budgetMonthlyCents: 5000 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Acme', description: 'We build', status: 'active', budgetMonthlyCents: 5000, logoUrl: null });
    const id = created.body.id;
    const got = await t.api('GET', `/api/companies/${id}`);
    expect(got.body).toEqual(created.body);
    const patched = await t.api('PATCH', `/api/companies/${id}`, { body: { name: 'Acme Inc', budgetMonthlyCents: 0 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Acme Inc', budgetMonthlyCents: 0 });
    const list = await t.api('GET', '/api/companies');
    expect(list.body.map((c: any) => c.id)).toEqual([id]);
  });

  it('hides archived companies unless asked, and unarchives', async () => {
    const a = await createCompany(t, 'A');
    const b = await createCompany(t, 'B');
    const archived = await t.api('POST', `/api/companies/${b}/archive`);
    expect(archived.body.status).toBe('archived');
    expect((await t.api('GET', '/api/companies')).body.map((c: any) => c.id)).toEqual([a]);
    expect((await t.api('GET', '/api/companies?includeArchived=true')).body.map((c: any) => c.id)).toEqual([a, b]);
    expect((await t.api('POST', `/api/companies/${b}/pause`)).status).toBe(409);
    expect((await t.api('POST', `/api/companies/${b}/unarchive`)).body.status).toBe('active');
  });

  it('pauses and resumes', async () => {
    const id = await createCompany(t);
    expect((await t.api('POST', `/api/companies/${id}/pause`)).body.status).toBe('paused');
    expect((await t.api('POST', `/api/companies/${id}/pause`)).body.status).toBe('paused');
    expect((await t.api('POST', `/api/companies/${id}/resume`)).body.status).toBe('active');
    const activity = await t.api('GET', `/api/companies/${id}/activity`);
    expect(activity.body.items.map((a: any) => a.action)).toEqual(['company.resumed', 'company.paused', 'company.created']);
  });

  it('rejects bad input with a named field and writes nothing', async () => {
    const id = await createCompany(t);
    const before = t.snapshot();
    const cases: [string, string, unknown, number, string, string?][] = [
      ['POST', '/api/companies', {}, 400, 'validation_error', 'body.name'],
      ['POST', '/api/companies', { name: 42 }, 400, 'validation_error', 'body.name'],
      ['POST', '/api/companies', { name: '   ' }, 400, 'validation_error', 'body.name'],
      ['POST', '/api/companies', { name: 'x', extra: 1 }, 400, 'validation_error', 'body.extra'],
      ['POST', '/api/companies', { name: 'x', budgetMonthlyCents: -1 }, 400, 'validation_error', 'body.budgetMonthlyCents'],
      ['POST', '/api/companies', { name: 'x', budgetMonthlyCents: 1.5 }, 400, 'validation_error', 'body.budgetMonthlyCents'],
      ['PATCH', `/api/companies/${id}`, { logoAssetId: 'nope' }, 400, 'validation_error', 'body.logoAssetId'],
      ['PATCH', `/api/companies/${id}`, { logoAssetId: '00000000-0000-4000-8000-000000000000' }, 400, 'invalid_logo_asset', 'body.logoAssetId'],
      ['PATCH', '/api/companies/not-a-uuid', { name: 'x' }, 400, 'validation_error', 'params.companyId'],
      ['PATCH', '/api/companies/00000000-0000-4000-8000-000000000000', { name: 'x' }, 404, 'not_found'],
    ];
    for (const [method, url, body, status, code, field] of cases) {
      const res = await t.api(method, url, { body });
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.code).toBe(code);
      expect(typeof res.body.error).toBe('string');
      if (field) expect(res.body.error.startsWith(field)).toBe(true);
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('keeps company administration to the board', async () => {
    const id = await createCompany(t);
    const agent = await createAgent(t, id);
    const key = await createAgentKey(t, agent.id);
    const before = t.snapshot();
    expect((await t.api('POST', '/api/companies', { token: key, body: { name: 'Mine' } })).status).toBe(403);
    expect((await t.api('PATCH', `/api/companies/${id}`, { token: key, body: { budgetMonthlyCents: 1 } })).body.code).toBe('board_only');
    expect((await t.api('POST', `/api/companies/${id}/archive`, { token: key })).status).toBe(403);
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', `/api/companies/${id}`, { token: key })).status).toBe(200);
  });

  it('shows an agent only its own company, and the same 404 for foreign and missing ids', async () => {
    const mine = await createCompany(t, 'Mine');
    const other = await createCompany(t, 'Other');
    const key = await createAgentKey(t, (await createAgent(t, mine)).id);
    const list = await t.api('GET', '/api/companies', { token: key });
    expect(list.body.map((c: any) => c.id)).toEqual([mine]);
    const foreign = await t.api('GET', `/api/companies/${other}`, { token: key });
    const missing = await t.api('GET', '/api/companies/00000000-0000-4000-8000-000000000000', { token: key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await t.api('GET', `/api/companies/${other}/agents`, { token: key })).status).toBe(404);
    expect((await t.api('GET', `/api/companies/${other}/activity`, { token: key })).status).toBe(404);
  });
});
