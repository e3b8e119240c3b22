import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, readLog, waitForRun } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('a heartbeat end to end', () => {
  it.each([false, true])('runs the fake agent CLI (pty: %s): checkout, comment, done, cost, transcript', async (pty) => {
    const agent = await createFakeAgent(t, companyId, 'Worker', {}, { pty });
    // Unassigned: an assignment would wake the agent at once and start a run of its own before the invoke.
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Ship it', status: 'todo' } })).body;
    const invoked = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } });
    expect(invoked.status).toBe(202);
    const run = await waitForRun(t, companyId, agent.id);
    expect(run).toMatchObject({ status: 'succeeded', exitCode: 0, trigger: 'manual', taskIssueId: issue.id });
    const after = (await t.api('GET', `/api/issues/${issue.id}`)).body;
    expect(after).toMatchObject({ status: 'done', completed_at: expect.any(String) });
    const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
    expect(comments.map((c: any) => [c.authorAgentId, c.body])).toEqual([
      [agent.id, 'Working on it from the fake agent.'],
      [agent.id, 'Done.'],
    ]);
    const text = (await readLog(t, run.id)).map((r) => r.data).join('');
    for (const step of ['"type":"me"', '"type":"checkout","status":200', '"type":"done","status":200', '"type":"result","ok":true']) expect(text).toContain(step);
    const costs = (await t.api('GET', `/api/companies/${companyId}/costs/by-agent`)).body;
    expect(costs.find((c: any) => c.agentId === agent.id).spentCents).toBe(1.25);
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('idle');
  });
});
