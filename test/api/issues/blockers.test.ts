import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { checkout, createIssue, rows } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore({ heartbeats: false, routines: false, sequences: false });
  companyId = await createCompany(t);
});
afterEach(() => t.close());

const block = (issue: string, blocker: string) => t.api('POST', `/api/issues/${issue}/blockers`, { body: { blockerIssueId: blocker } });

describe('issue dependencies', () => {
  it('shows both directions in the issue payload, in lists and on GET', async () => {
    const a = await createIssue(t, companyId, { title: 'A' });
    const b = await createIssue(t, companyId, { title: 'B' });
    const res = await block(b.identifier, a.identifier);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ blockedBy: [a.id], blocks: [], openBlockerIds: [a.id] });
    expect((await t.api('GET', `/api/issues/${b.id}`)).body).toMatchObject({ blockedBy: [a.id], blocks: [], openBlockerIds: [a.id] });
    expect((await t.api('GET', `/api/issues/${a.id}`)).body).toMatchObject({ blockedBy: [], blocks: [b.id] });
    const list = (await t.api('GET', `/api/companies/${companyId}/issues`)).body.items;
    expect(list.find((i: any) => i.id === b.id)).toMatchObject({ blockedBy: [a.id], openBlockerIds: [a.id] });
    // One issue's links (read in one statement) equal its links in a page (read for many ids), with
    // several blockers, one of them done, and a label: the two readers must never drift apart.
    const c = await createIssue(t, companyId, { title: 'C' });
    expect((await block(b.id, c.id)).status).toBe(200);
    expect((await block(c.id, a.id)).status).toBe(200);
    expect((await t.api('PATCH', `/api/issues/${c.id}`, { body: { status: 'done' } })).status).toBe(200);
    const page = (await t.api('GET', `/api/companies/${companyId}/issues?status=todo,backlog,in_progress,done&limit=50`)).body.items;
    for (const issue of [a, b, c]) {
      const one = (await t.api('GET', `/api/issues/${issue.id}`)).body;
      const inPage = page.find((i: any) => i.id === issue.id);
      for (const key of ['labelIds', 'blockedBy', 'blocks', 'openBlockerIds']) expect([...one[key]].sort(), `${issue.title} ${key}`).toEqual([...inPage[key]].sort());
    }
    const bNow = (await t.api('GET', `/api/issues/${b.id}`)).body;
    expect(bNow.blockedBy.sort()).toEqual([a.id, c.id].sort());
    expect(bNow.openBlockerIds).toEqual([a.id]);
    expect((await t.api('GET', `/api/issues/${a.id}`)).body.blocks.sort()).toEqual([b.id, c.id].sort());
    // Adding it again changes nothing.
    expect((await block(b.id, a.id)).status).toBe(200);
    expect(rows(t, 'SELECT count(*) AS n FROM issue_blockers')[0].n).toBe(3);
  });

  it('refuses a cycle (direct and through others) with 409 dependency_cycle, writing nothing', async () => {
    const [a, b, c] = [await createIssue(t, companyId, { title: 'A' }), await createIssue(t, companyId, { title: 'B' }), await createIssue(t, companyId, { title: 'C' })];
    await block(b.id, a.id);
    await block(c.id, b.id);
    const before = t.snapshot();
    for (const [issue, blocker] of [[a.id, c.id], [a.id, b.id], [a.id, a.id]] as const) {
      const res = await block(issue, blocker);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('dependency_cycle');
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('only issues of the same company can block', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = await createIssue(t, other, { title: 'Foreign' });
    const mine = await createIssue(t, companyId);
    const res = await block(mine.id, foreign.id);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_blocker');
  });

  it('checkout answers 409 issue_blocked with the open blockers\' ids until they are done', async () => {
    const agent = await createAgent(t, companyId);
    const key = await createAgentKey(t, agent.id);
    const a = await createIssue(t, companyId, { title: 'A' });
    const a2 = await createIssue(t, companyId, { title: 'A2' });
    const b = await createIssue(t, companyId, { title: 'B', status: 'todo' });
    await block(b.id, a.id);
    await block(b.id, a2.id);
    await t.api('PATCH', `/api/issues/${a2.id}`, { body: { status: 'done' } });
    const refused = await checkout(t, b.id, key, { expectedStatuses: ['todo'] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('issue_blocked');
    expect(refused.body.details.blockerIds).toEqual([a.id]);
    await t.api('PATCH', `/api/issues/${a.id}`, { body: { status: 'done' } });
    expect((await checkout(t, b.id, key, { expectedStatuses: ['todo'] })).status).toBe(200);
  });

  it('no wake while blocked; the last blocker done wakes the assignee once, and the activity log says why', async () => {
    const agent = await createAgent(t, companyId);
    const a = await createIssue(t, companyId, { title: 'A' });
    const a2 = await createIssue(t, companyId, { title: 'A2' });
    const b = await createIssue(t, companyId, { title: 'B', status: 'todo' });
    await block(b.id, a.id);
    await block(b.id, a2.id);
    await t.api('PATCH', `/api/issues/${b.id}`, { body: { assigneeAgentId: agent.id } });
    const wakesOfB = () => rows(t, "SELECT reason, status FROM wake_requests WHERE issue_id = ? AND status <> 'skipped'", b.id);
    expect(wakesOfB()).toEqual([]);
    await t.api('PATCH', `/api/issues/${a.id}`, { body: { status: 'done' } });
    expect(wakesOfB()).toEqual([]);
    await t.api('PATCH', `/api/issues/${a2.id}`, { body: { status: 'done' } });
    expect(wakesOfB()).toEqual([{ reason: 'assignment', status: 'pending' }]);
    const unblocked = (await t.api('GET', `/api/companies/${companyId}/activity?limit=50`)).body.items.filter((x: any) => x.action === 'issue.unblocked');
    expect(unblocked).toHaveLength(1);
    expect(unblocked[0].summary).toBe(`${b.identifier} is unblocked: ${a2.identifier} is done; its assignee is woken`);
  });

  it('a pending assignment wake is skipped when a blocker is added', async () => {
    const agent = await createAgent(t, companyId);
    const a = await createIssue(t, companyId, { title: 'A' });
    const b = await createIssue(t, companyId, { title: 'B', assigneeAgentId: agent.id });
    await block(b.id, a.id);
    expect(rows(t, 'SELECT status, skip_reason FROM wake_requests WHERE issue_id = ?', b.id)).toEqual([{ status: 'skipped', skip_reason: `the issue waits for ${a.identifier}` }]);
  });

  it('removing the last open blocker unblocks and wakes; removing an unknown one is 404', async () => {
    const agent = await createAgent(t, companyId);
    const a = await createIssue(t, companyId, { title: 'A' });
    const b = await createIssue(t, companyId, { title: 'B' });
    await block(b.id, a.id);
    await t.api('PATCH', `/api/issues/${b.id}`, { body: { assigneeAgentId: agent.id } });
    const res = await t.api('DELETE', `/api/issues/${b.id}/blockers/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body.blockedBy).toEqual([]);
    expect(rows(t, "SELECT count(*) AS n FROM wake_requests WHERE issue_id = ? AND status = 'pending'", b.id)[0].n).toBe(1);
    expect((await t.api('DELETE', `/api/issues/${b.id}/blockers/${a.id}`)).status).toBe(404);
  });
});
