import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createIssue } from './helpers.js';

/** DELETE /api/issues/{id}: a soft delete by the board, like issue documents (spec 4.7). */
let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('deleting an issue', () => {
  it('removes it from lookups, lists and search; cancels open work; records who did it', async () => {
    const agent = await createAgent(t, companyId, { name: 'Dana' });
    const gone = await createIssue(t, companyId, { title: 'Obsolete launch plan', status: 'todo', assigneeAgentId: agent.id });
    const kept = await createIssue(t, companyId, { title: 'Launch checklist' });

    const res = await t.api('DELETE', `/api/issues/${gone.identifier}`);
    expect(res.status, res.text).toBe(204);

    expect((await t.api('GET', `/api/issues/${gone.id}`)).status).toBe(404);
    expect((await t.api('GET', `/api/issues/${gone.identifier}`)).status).toBe(404);
    expect((await t.api('PATCH', `/api/issues/${gone.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await t.api('GET', `/api/issues/${gone.id}/comments`)).status).toBe(404);
    expect((await t.api('DELETE', `/api/issues/${gone.id}`)).status).toBe(404);
    const list = await t.api('GET', `/api/companies/${companyId}/issues`);
    expect(list.body.items.map((i: any) => i.id)).toEqual([kept.id]);
    const search = await t.api('GET', `/api/companies/${companyId}/search?q=launch`);
    expect(search.body.issues.map((i: any) => i.id)).toEqual([kept.id]);
    const byIdentifier = await t.api('GET', `/api/companies/${companyId}/search?q=${gone.identifier}`);
    expect(byIdentifier.body.issues).toEqual([]);

    const row = t.core.database.sqlite.prepare('SELECT status, deleted_at FROM issues WHERE id = ?').get(gone.id) as any;
    expect(row.status).toBe('cancelled');
    expect(row.deleted_at).toEqual(expect.any(String));
    const activity = await t.api('GET', `/api/companies/${companyId}/activity?entityId=${gone.id}&action=issue.deleted`);
    expect(activity.body.items).toMatchObject([{ actorType: 'board', summary: `${gone.identifier} deleted`, details: { from: 'todo' } }]);
  });

  it('is for the board only: an agent gets 403 and the issue stays', async () => {
    const agent = await createAgent(t, companyId, { name: 'Eve' });
    const key = await createAgentKey(t, agent.id);
    const issue = await createIssue(t, companyId, { title: 'Keep me' });
    const res = await t.api('DELETE', `/api/issues/${issue.id}`, { token: key });
    expect(res.status).toBe(403);
    expect((await t.api('GET', `/api/issues/${issue.id}`)).status).toBe(200);
  });
});
