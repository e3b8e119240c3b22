import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, waitForRunId } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

const invoke = (agentId: string, body: Record<string, unknown> = {}) => t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body });

describe('POST /api/agents/{id}/heartbeat/invoke answers with the run to follow', () => {
  it('returns the queued run it started, whose reasons hold the wake request', async () => {
    const agent = await createFakeAgent(t, companyId, 'Followed', { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '10' });
    const res = await invoke(agent.id);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ wakeRequestId: expect.any(String), runId: expect.any(String), coalesced: false });
    const run = (await t.api('GET', `/api/heartbeat-runs/${res.body.runId}`)).body;
    expect(run).toMatchObject({ agentId: agent.id, trigger: 'manual' });
    expect(run.reasons).toContainEqual({ reason: 'manual', wakeRequestId: res.body.wakeRequestId, issueId: null });
    expect(await waitForRunId(t, res.body.runId)).toMatchObject({ status: 'succeeded' });
  });

  it('during a running run: a follow-up queued run, which later invokes coalesce into; it starts only when the first ends', async () => {
    const agent = await createFakeAgent(t, companyId, 'Busy', { FAKE_MODE: 'hang' });
    const first = (await invoke(agent.id)).body;
    await waitForRunId(t, first.runId, (r) => r.status === 'running');

    const second = (await invoke(agent.id)).body;
    expect(second).toMatchObject({ coalesced: false, runId: expect.any(String) });
    expect(second.runId).not.toBe(first.runId);
    const third = (await invoke(agent.id)).body;
    expect(third).toEqual({ wakeRequestId: expect.any(String), runId: second.runId, coalesced: true });

    const followUp = (await t.api('GET', `/api/heartbeat-runs/${second.runId}`)).body;
    expect(followUp.status).toBe('queued');
    expect(followUp.reasons.map((r: { wakeRequestId: string }) => r.wakeRequestId)).toEqual([second.wakeRequestId, third.wakeRequestId]);
    expect((await t.api('GET', `/api/heartbeat-runs/${first.runId}`)).body.status).toBe('running');

    expect((await t.api('POST', `/api/heartbeat-runs/${first.runId}/cancel`, { body: {} })).status).toBe(200);
    await waitForRunId(t, second.runId, (r) => r.status === 'running');
    expect((await t.api('POST', `/api/heartbeat-runs/${second.runId}/cancel`, { body: {} })).status).toBe(200);
    await waitForRunId(t, second.runId);
    const runs = (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items;
    expect(runs.map((r: { id: string }) => r.id).sort()).toEqual([first.runId, second.runId].sort());
  });
});
