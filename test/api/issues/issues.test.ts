import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createIssue, rows } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

describe('issues', () => {
  it('numbers issues per company with a readable identifier that GET accepts', async () => {
    const a = await createIssue(t, companyId);
    const b = await createIssue(t, companyId, { title: 'Second' });
    expect(a).toMatchObject({ identifier: 'ACME-1', number: 1, status: 'backlog', priority: 'medium', started_at: null, completed_at: null });
    expect(b.identifier).toBe('ACME-2');
    const other = await createCompany(t, 'Acme');
    expect((await createIssue(t, other)).identifier).toBe('ACME2-1');
    const byIdentifier = await t.api('GET', '/api/issues/acme-2');
    expect(byIdentifier.body.id).toBe(b.id);
    expect((await t.api('GET', `/api/issues/${b.id}`)).body.identifier).toBe('ACME-2');
    expect((await t.api('GET', '/api/issues/ACME-99')).status).toBe(404);
    expect((await t.api('GET', '/api/issues/not an id')).status).toBe(400);
  });

  it('assigns by id or shortname and wakes the assignee', async () => {
    const ada = await createAgent(t, companyId, { name: 'Ada Lovelace' });
    const issue = await createIssue(t, companyId, { assigneeAgentId: 'ada-lovelace', status: 'todo' });
    expect(issue.assigneeAgentId).toBe(ada.id);
    expect(rows(t, 'SELECT reason, agent_id, issue_id FROM wake_requests')).toEqual([{ reason: 'assignment', agent_id: ada.id, issue_id: issue.id }]);
    const bad = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'x', assigneeAgentId: 'nobody' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_assignee');
  });

  it('lists sorted by priority then recent activity, with filters and cursor pages', async () => {
    const ada = await createAgent(t, companyId);
    const low = await createIssue(t, companyId, { title: 'low', priority: 'low' });
    const crit = await createIssue(t, companyId, { title: 'crit', priority: 'critical', assigneeAgentId: ada.id, status: 'todo' });
    const med1 = await createIssue(t, companyId, { title: 'med1' });
    const med2 = await createIssue(t, companyId, { title: 'med2' });
    await t.api('POST', `/api/issues/${med1.id}/comments`, { body: { body: 'bump' } });
    const all = await t.api('GET', `/api/companies/${companyId}/issues`);
    expect(all.body.items.map((i: any) => i.title)).toEqual(['crit', 'med1', 'med2', 'low']);
    const page1 = await t.api('GET', `/api/companies/${companyId}/issues?limit=3`);
    expect(page1.body.items).toHaveLength(3);
    const page2 = await t.api('GET', `/api/companies/${companyId}/issues?limit=3&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toEqual({ items: [expect.objectContaining({ id: low.id })], nextCursor: null });
    const byStatus = await t.api('GET', `/api/companies/${companyId}/issues?status=todo,done`);
    expect(byStatus.body.items.map((i: any) => i.id)).toEqual([crit.id]);
    const byAssignee = await t.api('GET', `/api/companies/${companyId}/issues?assigneeAgentId=${ada.urlKey}`);
    expect(byAssignee.body.items.map((i: any) => i.id)).toEqual([crit.id]);
    expect(med2.id).toBeTruthy();
    for (const q of ['status=doing', 'status=todo,nope', 'priority=high', 'limit=0', 'cursor=zzz']) {
      const res = await t.api('GET', `/api/companies/${companyId}/issues?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('returns project, goal, ancestors and plan blocks with one issue', async () => {
    const project = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Launch' } })).body;
    const goal = (await t.api('POST', `/api/companies/${companyId}/goals`, { body: { title: 'Ship' } })).body;
    const root = await createIssue(t, companyId, { title: 'root', projectId: project.id, goalId: goal.id });
    const mid = await createIssue(t, companyId, { title: 'mid', parentId: root.id });
    const leaf = await createIssue(t, companyId, { title: 'leaf', parentId: mid.id, description: 'Intro\n<plan>\n1. do it\n</plan>' });
    const got = await t.api('GET', `/api/issues/${leaf.identifier}`);
    expect(got.body.ancestors.map((a: any) => a.title)).toEqual(['mid', 'root']);
    expect(got.body.ancestors[1]).toMatchObject({ project: { id: project.id, name: 'Launch' }, goal: { id: goal.id, title: 'Ship' } });
    expect(got.body.legacyPlanDocument).toEqual({ body: '1. do it', source: 'description' });
    expect(got.body.planDocument).toBeNull();
    expect(got.body.documentSummaries).toEqual([]);
    const withPlan = await t.api('PUT', `/api/issues/${leaf.id}/documents/plan`, { body: { title: 'Plan', format: 'markdown', body: '# Plan' } });
    expect(withPlan.status).toBe(201);
    const again = await t.api('GET', `/api/issues/${leaf.id}`);
    expect(again.body.planDocument).toMatchObject({ key: 'plan', body: '# Plan', revisionNumber: 1 });
    expect(again.body.documentSummaries.map((d: any) => d.key)).toEqual(['plan']);
  });

  it('refuses foreign or cyclic parents, foreign projects and bad fields, writing nothing', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = await createIssue(t, other);
    const a = await createIssue(t, companyId, { title: 'a' });
    const b = await createIssue(t, companyId, { title: 'b', parentId: a.id });
    const foreignProject = (await t.api('POST', `/api/companies/${other}/projects`, { body: { name: 'P' } })).body.id;
    const before = t.snapshot();
    const cases: [string, string, unknown, number, string][] = [
      ['POST', `/api/companies/${companyId}/issues`, { title: 'x', parentId: foreign.id }, 400, 'invalid_parent'],
      ['PATCH', `/api/issues/${a.id}`, { parentId: b.id }, 400, 'parent_cycle'],
      ['PATCH', `/api/issues/${a.id}`, { parentId: a.id }, 400, 'parent_cycle'],
      ['POST', `/api/companies/${companyId}/issues`, { title: 'x', projectId: foreignProject }, 400, 'invalid_project'],
      ['POST', `/api/companies/${companyId}/issues`, { title: 'x', status: 'doing' }, 400, 'validation_error'],
      ['POST', `/api/companies/${companyId}/issues`, { title: 'x', priority: 'urgent' }, 400, 'validation_error'],
      ['POST', `/api/companies/${companyId}/issues`, { title: '' }, 400, 'validation_error'],
      ['POST', `/api/companies/${companyId}/issues`, { title: 'x', status: 'in_progress' }, 409, 'checkout_required'],
      ['PATCH', `/api/issues/${a.id}`, { status: 'in_progress' }, 409, 'checkout_required'],
      ['PATCH', `/api/issues/${a.id}`, { comment: '' }, 400, 'validation_error'],
    ];
    for (const [method, url, body, status, code] of cases) {
      const res = await t.api(method, url, { body });
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.code).toBe(code);
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('sets completed_at on done, clears it on reopen, and keeps reopening to the board', async () => {
    const ada = await createAgent(t, companyId);
    const key = await createAgentKey(t, ada.id);
    const issue = await createIssue(t, companyId, { assigneeAgentId: ada.id, status: 'todo' });
    const done = await t.api('PATCH', `/api/issues/${issue.id}`, { token: key, body: { status: 'done', comment: 'Finished' } });
    expect(done.status).toBe(200);
    expect(done.body.completed_at).toEqual(expect.any(String));
    expect((await t.api('GET', `/api/issues/${issue.id}/comments`)).body.map((c: any) => c.body)).toEqual(['Finished']);
    const agentReopen = await t.api('PATCH', `/api/issues/${issue.id}`, { token: key, body: { status: 'todo' } });
    expect(agentReopen.status).toBe(403);
    const reopened = await t.api('PATCH', `/api/issues/${issue.id}`, { body: { status: 'todo' } });
    expect(reopened.body).toMatchObject({ status: 'todo', completed_at: null });
  });

  it('keeps agents inside their company', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = await createIssue(t, other);
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    const before = t.snapshot();
    for (const [method, url, body] of [
      ['GET', `/api/issues/${foreign.id}`, undefined],
      ['GET', `/api/issues/${foreign.identifier}`, undefined],
      ['PATCH', `/api/issues/${foreign.id}`, { title: 'mine' }],
      ['POST', `/api/issues/${foreign.id}/comments`, { body: 'hi' }],
      ['POST', `/api/issues/${foreign.id}/checkout`, { expectedStatuses: ['backlog'] }],
      ['GET', `/api/companies/${other}/issues`, undefined],
    ] as const) {
      const res = await t.api(method, url, { token: key, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect(t.snapshot()).toEqual(before);
  });
});
