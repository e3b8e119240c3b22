import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('projects', () => {
  it('creates, lists, gets and patches', async () => {
    const created = await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Launch' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Launch', description: '', status: 'active', companyId });
    const patched = await t.api('PATCH', `/api/projects/${created.body.id}`, { body: { status: 'completed', description: 'done' } });
    expect(patched.body).toMatchObject({ status: 'completed', description: 'done' });
    expect((await t.api('GET', `/api/projects/${created.body.id}`)).body).toEqual(patched.body);
    expect((await t.api('GET', `/api/companies/${companyId}/projects`)).body).toEqual([patched.body]);
  });

  it('lets the company agents work with projects, and hides them from other companies', async () => {
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    const created = await t.api('POST', `/api/companies/${companyId}/projects`, { token: key, body: { name: 'Agent plan' } });
    expect(created.status).toBe(201);
    const other = await createCompany(t, 'Other');
    const foreign = (await t.api('POST', `/api/companies/${other}/projects`, { body: { name: 'Secret' } })).body.id;
    const before = t.snapshot();
    expect((await t.api('GET', `/api/projects/${foreign}`, { token: key })).status).toBe(404);
    expect((await t.api('PATCH', `/api/projects/${foreign}`, { token: key, body: { name: 'x' } })).status).toBe(404);
    expect((await t.api('POST', `/api/companies/${other}/projects`, { token: key, body: { name: 'x' } })).status).toBe(404);
    expect(t.snapshot()).toEqual(before);
  });

  it('validates input', async () => {
    const before = t.snapshot();
    for (const body of [{}, { name: '' }, { name: 'x', status: 'paused' }, { name: 'x', owner: 'me' }]) {
      const res = await t.api('POST', `/api/companies/${companyId}/projects`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    expect(t.snapshot()).toEqual(before);
  });
});

describe('goals', () => {
  it('creates goals linked to a project of the same company only', async () => {
    const project = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'P' } })).body.id;
    const goal = await t.api('POST', `/api/companies/${companyId}/goals`, { body: { title: 'Ship v1', projectId: project } });
    expect(goal.status).toBe(201);
    expect(goal.body).toMatchObject({ title: 'Ship v1', projectId: project, status: 'active' });
    const other = await createCompany(t, 'Other');
    const foreignProject = (await t.api('POST', `/api/companies/${other}/projects`, { body: { name: 'Q' } })).body.id;
    const before = t.snapshot();
    const bad = await t.api('PATCH', `/api/goals/${goal.body.id}`, { body: { projectId: foreignProject } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_project');
    expect(t.snapshot()).toEqual(before);
    const achieved = await t.api('PATCH', `/api/goals/${goal.body.id}`, { body: { status: 'achieved', projectId: null } });
    expect(achieved.body).toMatchObject({ status: 'achieved', projectId: null });
    expect((await t.api('GET', `/api/companies/${companyId}/goals`)).body).toEqual([achieved.body]);
  });
});

