import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, waitForRunId } from '../heartbeat/helpers.js';
import { createIssue } from './helpers.js';

/**
 * The issue page builds one timeline from existing lists narrowed to the issue: runs and approvals
 * take an `issueId` filter, and the activity of an assignee change names who it moved from and to.
 */
let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('GET …/heartbeat-runs?issueId', () => {
  it('lists only the runs focused on that issue', async () => {
    const agent = await createFakeAgent(t, companyId, 'Runner', { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '5' });
    const mine = await createIssue(t, companyId, { title: 'Mine' });
    const other = await createIssue(t, companyId, { title: 'Other' });
    const focused = (await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: mine.id } })).body;
    await waitForRunId(t, focused.runId);
    const elsewhere = (await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: other.id } })).body;
    await waitForRunId(t, elsewhere.runId);

    const res = await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?issueId=${mine.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((r: any) => r.id)).toEqual([focused.runId]);
    const all = await t.api('GET', `/api/companies/${companyId}/heartbeat-runs`);
    expect(all.body.items).toHaveLength(2);
  });

  it('refuses an issueId that is not a UUID, naming the parameter', async () => {
    const res = await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?issueId=ACME-1`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('issueId');
  });
});

describe('GET …/approvals?issueId', () => {
  it('lists only the approvals linked to that issue, with the status filter still applying', async () => {
    const ceo = await createAgent(t, companyId, { name: 'Ada', role: 'ceo' });
    const linked = await createIssue(t, companyId, { title: 'Strategy work' });
    const unlinked = await createIssue(t, companyId, { title: 'Elsewhere' });
    const file = (issueIds: string[]) =>
      t.api('POST', `/api/companies/${companyId}/approvals`, { body: { type: 'approve_ceo_strategy', requestedByAgentId: ceo.id, payload: { plan: 'x' }, issueIds } });
    const a = (await file([linked.id])).body;
    await file([unlinked.id]);
    await file([]);

    const res = await t.api('GET', `/api/companies/${companyId}/approvals?issueId=${linked.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((x: any) => x.id)).toEqual([a.id]);
    expect((await t.api('GET', `/api/companies/${companyId}/approvals?issueId=${linked.id}&status=approved`)).body).toEqual([]);
    expect((await t.api('GET', `/api/companies/${companyId}/approvals`)).body).toHaveLength(3);
    expect((await t.api('GET', `/api/companies/${companyId}/approvals?issueId=nope`)).status).toBe(400);
  });
});

describe('activity of an assignee change', () => {
  it('names the agent it moved from and to', async () => {
    const first = await createAgent(t, companyId, { name: 'First' });
    const second = await createAgent(t, companyId, { name: 'Second' });
    const issue = await createIssue(t, companyId, { title: 'Hand over', assigneeAgentId: first.id });
    expect((await t.api('PATCH', `/api/issues/${issue.id}`, { body: { assigneeAgentId: second.id } })).status).toBe(200);
    expect((await t.api('PATCH', `/api/issues/${issue.id}`, { body: { title: 'Handed over' } })).status).toBe(200);
    const res = await t.api('GET', `/api/companies/${companyId}/activity?entityType=issue&entityId=${issue.id}&limit=200`);
    const updates = res.body.items.filter((a: any) => a.action === 'issue.updated');
    expect(updates.map((a: any) => a.details)).toEqual([
      { fields: ['title'] },
      { fields: ['assigneeAgentId'], assigneeFrom: first.id, assigneeTo: second.id },
    ]);
  });
});
