import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, eventually, sleep, waitForRun, waitForRunId } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

const wakeRow = (id: string) => t.core.database.sqlite.prepare('SELECT status, skip_reason AS skipReason, run_id AS runId FROM wake_requests WHERE id = ?').get(id) as { status: string; skipReason: string | null; runId: string | null };
const runsOf = async (agentId: string): Promise<any[]> => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items;

describe('agents that may not run', () => {
  it.each([
    ['agent paused', (agentId: string) => `/api/agents/${agentId}/pause`, 'the agent is paused', 'paused'],
    ['agent terminated', (agentId: string) => `/api/agents/${agentId}/terminate`, 'the agent was terminated', 'terminated'],
    ['company paused', () => `/api/companies/${companyId}/pause`, 'the company is paused', 'the company is paused'],
  ])('%s: invoke is 409 agent_not_runnable, and the follow-up queued during a run never starts', async (_, route, reason, cancelReason) => {
    const agent = await createFakeAgent(t, companyId, 'Soon stopped', { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '800' });
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    const first = await eventually(async () => (await runsOf(agent.id)).find((r) => r.status === 'running'), 5000, 'the first run');
    // A wake arriving during the run queues the follow-up run behind it (the invoke answers with it)...
    const pending = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    expect(pending.status).toBe(202);
    expect(pending.body.runId).not.toBe(first.id);
    expect(wakeRow(pending.body.wakeRequestId)).toMatchObject({ status: 'consumed', runId: pending.body.runId });
    expect((await t.api('GET', `/api/heartbeat-runs/${pending.body.runId}`)).body.status).toBe('queued');
    // ...and the agent stops being runnable meanwhile: the follow-up never starts, and says why.
    expect((await t.api('POST', route(agent.id), {})).status).toBe(200);
    await waitForRunId(t, first.id);
    const followUp = await waitForRunId(t, pending.body.runId);
    expect(followUp).toMatchObject({ status: 'cancelled', startedAt: null, cancelReason });

    const before = t.snapshot();
    const refused = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'agent_not_runnable' });
    expect(refused.body.error).toContain(reason);
    expect(t.snapshot()).toEqual(before);
    await sleep(300);
    expect(await runsOf(agent.id)).toHaveLength(2);
  });

  it('a draft agent awaiting its hire cannot be invoked', async () => {
    const agent = await createFakeAgent(t, companyId, 'Draft', { FAKE_MODE: 'sleep' });
    t.core.database.sqlite.prepare("UPDATE agents SET status = 'draft' WHERE id = ?").run(agent.id);
    const before = t.snapshot();
    const refused = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'agent_not_runnable' });
    expect(refused.body.error).toContain('draft');
    expect(t.snapshot()).toEqual(before);
  });
});

describe('pausing or terminating a running agent', () => {
  it.each(['pause', 'terminate'] as const)('%s cancels the heartbeat that is running', async (action) => {
    const t2 = await startCore();
    try {
      const company = await createCompany(t2);
      const agent = await createFakeAgent(t2, company, 'Runner', { FAKE_MODE: 'hang' });
      await t2.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
      await waitForRun(t2, company, agent.id, (r) => r.status === 'running' && r.pid);
      expect((await t2.api('POST', `/api/agents/${agent.id}/${action}`)).status).toBe(200);
      const run = await waitForRun(t2, company, agent.id);
      expect(run.status).toBe('cancelled');
      expect(run.cancelReason).toBe(action === 'pause' ? 'paused' : 'terminated');
    } finally {
      await t2.close();
    }
  });
});
