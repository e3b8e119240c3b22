import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, waitForRun } from '../heartbeat/helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('budget stop end to end', () => {
  it('a run whose reported cost uses up the budget pauses the agent; raising the budget lets it run again', async () => {
    // The fake agent reports 1.25 cents per run; a 1-cent budget is used up by the first run.
    const agent = await createFakeAgent(t, companyId, 'Spender');
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { budgetMonthlyCents: 1 } });
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Spend', status: 'todo', assigneeAgentId: agent.id } })).body;
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } });
    const run = await waitForRun(t, companyId, agent.id);
    // The pause cancels the heartbeat that is still running when the cost lands.
    expect(['cancelled', 'succeeded']).toContain(run.status);
    const paused = (await t.api('GET', `/api/agents/${agent.id}`)).body;
    expect(paused).toMatchObject({ status: 'paused', pauseReason: 'budget', spentMonthlyCents: 1.25 });
    const refused = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('agent_not_runnable');
    const resumeTooEarly = await t.api('POST', `/api/agents/${agent.id}/resume`);
    expect(resumeTooEarly.body.code).toBe('budget_exceeded');
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { budgetMonthlyCents: 100 } });
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('idle');
    const again = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    expect(again.status).toBe(202);
    const second = await waitForRun(t, companyId, agent.id, (r) => r.id !== run.id && !['queued', 'running'].includes(r.status));
    expect(second.status).not.toBe('lost');
  });

  it('a company budget used up stops every agent of the company from starting', async () => {
    const agent = await createFakeAgent(t, companyId, 'Worker');
    await t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 1 } });
    await t.api('POST', `/api/companies/${companyId}/cost-events`, { body: { agentId: agent.id, provider: 'x', model: 'y', inputTokens: 1, outputTokens: 1, costCents: 2 } });
    const refused = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/budget/i);
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('idle');
    await t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 0 } });
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`)).status).toBe(202);
  });
});
