import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { checkout, createIssue } from './helpers.js';
import type { RunLookup } from '../../../main/core/heartbeat/run-lookup.js';

// Issue #14.6: a checked-out issue cannot be taken from its run by another agent's PATCH.
let t: TestCore;
let companyId: string;
const activeRuns = new Set<string>();
const runAgents = new Map<string, string>();
const runs: RunLookup = {
  isActive: (id) => activeRuns.has(id),
  activeRunAgent: (id) => runAgents.get(id) ?? null,
  cancelRunsOf: () => {},
};

async function hire(name: string) {
  const agent = await createAgent(t, companyId, { name });
  return { id: agent.id as string, key: await createAgentKey(t, agent.id) };
}

/** An issue checked out by `owner` under a live run. */
async function heldIssue(owner: { id: string; key: string }, runId: string) {
  const issue = await createIssue(t, companyId, { status: 'todo' });
  activeRuns.add(runId);
  runAgents.set(runId, owner.id);
  const claimed = await checkout(t, issue.id, owner.key, { expectedStatuses: ['todo'] }, runId);
  expect(claimed.status).toBe(200);
  return issue.id as string;
}

beforeAll(async () => {
  t = await startCore({ runs });
  companyId = await createCompany(t);
});
afterAll(async () => {
  await t.close();
});

describe('a checked-out issue belongs to its run', () => {
  it('refuses another agent reassigning it, with the owner in the details, and changes nothing', async () => {
    const owner = await hire('Owner One');
    const thief = await hire('Thief One');
    const issueId = await heldIssue(owner, 'run-own-1');
    const before = t.snapshot();
    for (const assigneeAgentId of [thief.id, null]) {
      const res = await t.api('PATCH', `/api/issues/${issueId}`, { token: thief.key, body: { assigneeAgentId } });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'checked_out_by_another', details: { ownerAgentId: owner.id, ownerRunId: 'run-own-1', retry: false } });
    }
    expect(t.snapshot()).toEqual(before);
    const after = await t.api('GET', `/api/issues/${issueId}`);
    expect(after.body).toMatchObject({ status: 'in_progress', assigneeAgentId: owner.id, checkoutAgentId: owner.id, checkoutRunId: 'run-own-1' });
  });

  it('refuses another agent changing its status, naming the owner', async () => {
    const owner = await hire('Owner Two');
    const other = await hire('Other Two');
    const issueId = await heldIssue(owner, 'run-own-2');
    for (const status of ['todo', 'blocked', 'in_review', 'done', 'cancelled', 'backlog'] as const) {
      const res = await t.api('PATCH', `/api/issues/${issueId}`, { token: other.key, body: { status } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('checked_out_by_another');
      expect(res.body.details.ownerAgentId).toBe(owner.id);
    }
    // Fields other than assignee and status stay open to colleagues (a comment, a better title).
    const retitled = await t.api('PATCH', `/api/issues/${issueId}`, { token: other.key, body: { title: 'Sharper title', comment: 'tightened the title' } });
    expect(retitled.status).toBe(200);
    expect(retitled.body).toMatchObject({ checkoutAgentId: owner.id, status: 'in_progress' });
  });

  it('lets the owner and the board reassign it', async () => {
    const owner = await hire('Owner Three');
    const next = await hire('Next Three');
    const first = await heldIssue(owner, 'run-own-3');
    const handedOn = await t.api('PATCH', `/api/issues/${first}`, { token: owner.key, body: { assigneeAgentId: next.id } });
    expect(handedOn.status).toBe(200);
    expect(handedOn.body).toMatchObject({ assigneeAgentId: next.id, checkoutAgentId: null, status: 'todo' });
    const second = await heldIssue(owner, 'run-own-4');
    const byBoard = await t.api('PATCH', `/api/issues/${second}`, { body: { assigneeAgentId: next.id } });
    expect(byBoard.status).toBe(200);
    expect(byBoard.body).toMatchObject({ assigneeAgentId: next.id, checkoutAgentId: null });
  });

  it('lets any colleague reassign an issue nobody holds', async () => {
    const a = await hire('Free Four');
    const b = await hire('Taker Four');
    const issue = await createIssue(t, companyId, { status: 'todo', assigneeAgentId: a.id });
    const res = await t.api('PATCH', `/api/issues/${issue.id}`, { token: b.key, body: { assigneeAgentId: b.id } });
    expect(res.status).toBe(200);
    expect(res.body.assigneeAgentId).toBe(b.id);
  });
});
