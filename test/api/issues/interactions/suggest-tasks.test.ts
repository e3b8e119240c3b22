import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, count, expectError, insertIssue, post, startWorld, suggestTasks, wakes, type World } from './helpers.js';
import { allActivity } from '../../agents/helpers.js';
import { createAgent } from '../../../helpers/core.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const issueRow = (id: string): any => w.t.core.database.sqlite.prepare('SELECT * FROM issues WHERE id = ?').get(id);
const counter = (): number => (w.t.core.database.sqlite.prepare('SELECT issue_counter AS n FROM companies WHERE id = ?').get(w.companyId) as { n: number }).n;

const tasks = () => [
  { clientKey: 'copy', title: 'Write the copy', description: 'Landing page', priority: 'high', assigneeAgentId: w.agentId },
  { clientKey: 'design', title: 'Design the page' },
  { clientKey: 'qa', title: 'Test it', priority: 'low' },
];

describe('suggest_tasks', () => {
  it('accept creates every task as a child issue with fresh identifiers', async () => {
    const { t, companyId } = w;
    const parent = insertIssue(t, companyId, { projectId: null });
    expect(parent.identifier).toBe('ACME-2');
    const proposal = await post(t, parent.id, suggestTasks(tasks()), w.agentKey);
    const res = await act(t, parent.identifier, proposal.id, 'accept');
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('accepted');
    const { createdIssueIds, selectedClientKeys } = res.body.resolution;
    expect(selectedClientKeys).toEqual(['copy', 'design', 'qa']);
    expect(createdIssueIds).toHaveLength(3);
    const rows = createdIssueIds.map(issueRow);
    expect(rows.map((r: any) => [r.identifier, r.number, r.title, r.priority, r.priority_rank, r.status, r.parent_id])).toEqual([
      ['ACME-3', 3, 'Write the copy', 'high', 1, 'todo', parent.id],
      ['ACME-4', 4, 'Design the page', 'medium', 2, 'todo', parent.id],
      ['ACME-5', 5, 'Test it', 'low', 3, 'todo', parent.id],
    ]);
    expect(rows[0]).toMatchObject({ description: 'Landing page', assignee_agent_id: w.agentId, created_by_type: 'board', company_id: companyId });
    expect(rows[1]).toMatchObject({ description: '', assignee_agent_id: null });
    expect(counter()).toBe(5);
    // The assignee is woken for its new task, as a normal assignment would.
    expect(wakes(t, w.agentId).map((x) => [x.reason, x.issue_id])).toEqual([['assignment', createdIssueIds[0]]]);
    const created = (await allActivity(t, companyId)).filter((a) => a.action === 'issue.created');
    expect(created.map((a) => a.entityId).sort()).toEqual([...createdIssueIds].sort());
    expect((await allActivity(t, companyId)).filter((a) => a.action === 'issue.interaction_accepted')[0]?.details).toMatchObject({ createdIssueIds });
  });

  it('accept with selectedClientKeys creates only those, in proposal order; children inherit project and goal', async () => {
    const { t, companyId } = w;
    const project = (await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Launch' } })).body.id;
    const goal = (await t.api('POST', `/api/companies/${companyId}/goals`, { body: { title: 'Ship' } })).body.id;
    const parent = insertIssue(t, companyId, { projectId: project, goalId: goal });
    const proposal = await post(t, parent.id, suggestTasks(tasks()));
    const res = await act(t, parent.id, proposal.id, 'accept', { selectedClientKeys: ['qa', 'design'] });
    expect(res.body.resolution.selectedClientKeys).toEqual(['design', 'qa']);
    const rows = res.body.resolution.createdIssueIds.map(issueRow);
    expect(rows.map((r: any) => [r.title, r.project_id, r.goal_id])).toEqual([
      ['Design the page', project, goal],
      ['Test it', project, goal],
    ]);
    expect(count(t, 'issues', 'parent_id = ?', parent.id)).toBe(2);
  });

  it('refuses a bad selection, and reject creates nothing', async () => {
    const { t, companyId } = w;
    const parent = insertIssue(t, companyId);
    const proposal = await post(t, parent.id, suggestTasks(tasks()));
    const before = t.snapshot();
    expectError(await act(t, parent.id, proposal.id, 'accept', { selectedClientKeys: ['copy', 'nope'] }), 400, 'validation_error', 'body.selectedClientKeys.1');
    expectError(await act(t, parent.id, proposal.id, 'accept', { selectedClientKeys: ['qa', 'qa'] }), 400, 'validation_error', 'body.selectedClientKeys.1');
    expectError(await act(t, parent.id, proposal.id, 'accept', { selectedClientKeys: [] }), 400, 'validation_error', 'body.selectedClientKeys');
    expect(t.snapshot()).toEqual(before);
    const rejected = await act(t, parent.id, proposal.id, 'reject', { reason: 'Too many' });
    expect(rejected.body).toMatchObject({ status: 'rejected', resolution: { reason: 'Too many' } });
    expect(count(t, 'issues', 'parent_id = ?', parent.id)).toBe(0);
    expectError(await act(t, parent.id, proposal.id, 'accept'), 409, 'interaction_not_pending');
  });

  it('creates the children once when the board accepts twice at the same time', async () => {
    const { t, companyId } = w;
    const parent = insertIssue(t, companyId);
    const proposal = await post(t, parent.id, suggestTasks(tasks()));
    const results = await Promise.all(Array.from({ length: 5 }, () => act(t, parent.id, proposal.id, 'accept')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'interaction_not_pending')).toBe(true);
    expect(count(t, 'issues', 'parent_id = ?', parent.id)).toBe(3);
  });

  it('refuses to accept when a proposed assignee has been terminated since, creating nothing', async () => {
    const { t, companyId } = w;
    const bob = await createAgent(t, companyId, { name: 'Bob' });
    const parent = insertIssue(t, companyId);
    const proposal = await post(t, parent.id, suggestTasks([{ clientKey: 'a', title: 'A' }, { clientKey: 'b', title: 'B', assigneeAgentId: bob.id }]));
    expect((await t.api('POST', `/api/agents/${bob.id}/terminate`)).status).toBe(200);
    const before = t.snapshot();
    const res = await act(t, parent.id, proposal.id, 'accept');
    expectError(res, 409, 'invalid_assignee');
    expect(res.body.details).toEqual({ clientKey: 'b', assigneeAgentId: bob.id });
    expect(t.snapshot()).toEqual(before);
    // Leaving that task out works.
    expect((await act(t, parent.id, proposal.id, 'accept', { selectedClientKeys: ['a'] })).body.resolution.createdIssueIds).toHaveLength(1);
  });

  it('numbers children after issues created through the issues API too', async () => {
    const { t, companyId } = w;
    const made = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Made by the API' } });
    expect(made.status, made.text).toBe(201);
    const proposal = await post(t, made.body.id, suggestTasks([{ clientKey: 'a', title: 'A' }]));
    const child = (await act(t, made.body.id, proposal.id, 'accept')).body.resolution.createdIssueIds[0];
    expect(issueRow(child).identifier).toBe(`ACME-${made.body.number + 1}`);
    const detail = await t.api('GET', `/api/issues/${child}`);
    expect(detail.body).toMatchObject({ parentId: made.body.id, status: 'todo' });
  });
});
