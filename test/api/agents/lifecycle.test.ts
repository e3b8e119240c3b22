import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, createDraftAgent, expectError, startAgentsCore, useKeyAndSettle } from './helpers.js';

let t: TestCore;
let company: string;
beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

const action = (agentId: string, verb: 'pause' | 'resume' | 'terminate', token?: string) =>
  t.api('POST', `/api/agents/${agentId}/${verb}`, { token });
const getAgent = async (agentId: string) => (await t.api('GET', `/api/agents/${agentId}`)).body;

describe('pause and resume', () => {
  it('moves idle -> paused (manual) -> idle', async () => {
    const agent = await createAgent(t, company);
    expect(agent.status).toBe('idle');
    const paused = await action(agent.id, 'pause');
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: agent.id, status: 'paused', pauseReason: 'manual', terminatedAt: null });
    expect(await getAgent(agent.id)).toEqual(paused.body);
    const resumed = await action(agent.id, 'resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'idle', pauseReason: null });
    expect(await getAgent(agent.id)).toEqual(resumed.body);
  });

  it('is idempotent: pausing a paused agent or resuming an idle one writes nothing', async () => {
    const agent = await createAgent(t, company);
    let before = t.snapshot();
    const resumedIdle = await action(agent.id, 'resume');
    expect(resumedIdle.status).toBe(200);
    expect(resumedIdle.body).toEqual(agent);
    expect(t.snapshot()).toEqual(before);

    const paused = (await action(agent.id, 'pause')).body;
    before = t.snapshot();
    const again = await action(agent.id, 'pause');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paused);
    expect(t.snapshot()).toEqual(before);
  });

  it('keeps a budget pause reason when the board pauses again, and clears it on resume', async () => {
    const agent = await createAgent(t, company);
    t.core.database.sqlite.prepare("UPDATE agents SET status = 'paused', pause_reason = 'budget' WHERE id = ?").run(agent.id);
    const again = await action(agent.id, 'pause');
    expect(again.body).toMatchObject({ status: 'paused', pauseReason: 'budget' });
    const resumed = await action(agent.id, 'resume');
    expect(resumed.body).toMatchObject({ status: 'idle', pauseReason: null });
  });

  it('pauses an agent that is running or in error', async () => {
    for (const status of ['running', 'error'] as const) {
      const agent = await createAgent(t, company, { name: `Agent ${status}` });
      t.core.database.sqlite.prepare('UPDATE agents SET status = ? WHERE id = ?').run(status, agent.id);
      const before = t.snapshot();
      // Resuming an agent that is not paused changes nothing.
      expect((await action(agent.id, 'resume')).body.status).toBe(status);
      expect(t.snapshot()).toEqual(before);
      expect((await action(agent.id, 'pause')).body).toMatchObject({ status: 'paused', pauseReason: 'manual' });
    }
  });

  it('refuses to pause or resume a draft', async () => {
    const draft = createDraftAgent(t, company, 'Hire');
    const before = t.snapshot();
    expectError(await action(draft.id, 'pause'), 409, 'agent_draft');
    expectError(await action(draft.id, 'resume'), 409, 'agent_draft');
    expect(t.snapshot()).toEqual(before);
    expect((await getAgent(draft.id)).status).toBe('draft');
  });

  it('rejects a body and bad ids, writing nothing', async () => {
    const agent = await createAgent(t, company);
    const before = t.snapshot();
    for (const verb of ['pause', 'resume', 'terminate'] as const) {
      expectError(await t.api('POST', `/api/agents/${agent.id}/${verb}`, { body: { reason: 'x' } }), 400, 'validation_error', 'body.reason');
      expectError(await action(MISSING_ID, verb), 404, 'not_found');
      expectError(await action('nope', verb), 400, 'validation_error', 'params.agentId');
    }
    expect(t.snapshot()).toEqual(before);
    // An empty JSON object is fine.
    expect((await t.api('POST', `/api/agents/${agent.id}/pause`, { body: {} })).status).toBe(200);
  });
});

describe('terminate', () => {
  it('terminates permanently and idempotently', async () => {
    const agent = await createAgent(t, company);
    await action(agent.id, 'pause');
    const res = await action(agent.id, 'terminate');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'terminated', pauseReason: null });
    expect(typeof res.body.terminatedAt).toBe('string');
    expect(res.body.terminatedAt).toBe(res.body.updatedAt);

    const before = t.snapshot();
    const again = await action(agent.id, 'terminate');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(t.snapshot()).toEqual(before);

    expectError(await action(agent.id, 'resume'), 409, 'agent_terminated');
    expectError(await action(agent.id, 'pause'), 409, 'agent_terminated');
    expect(t.snapshot()).toEqual(before);
    expect(await getAgent(agent.id)).toEqual(res.body);
  });

  it('terminates a draft', async () => {
    const draft = createDraftAgent(t, company, 'Hire');
    const res = await action(draft.id, 'terminate');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('terminated');
  });

  it('revokes every key of the agent, so they stop working', async () => {
    const agent = await createAgent(t, company);
    const other = await createAgent(t, company, { name: 'Other' });
    const k1 = await createAgentKey(t, agent.id);
    const k2 = await createAgentKey(t, agent.id);
    const kOther = await createAgentKey(t, other.id);
    await useKeyAndSettle(t, k1);
    await useKeyAndSettle(t, k2);
    expect((await action(agent.id, 'terminate')).status).toBe(200);

    for (const key of [k1, k2]) {
      expectError(await t.api('GET', '/api/agents/me', { token: key }), 401, 'unauthorized');
      expectError(await t.api('GET', `/api/companies/${company}/agents`, { token: key }), 401, 'unauthorized');
    }
    const keys = (await t.api('GET', `/api/agents/${agent.id}/keys`)).body as any[];
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(typeof k.revokedAt).toBe('string');
    // Other agents' keys are untouched.
    expect((await t.api('GET', '/api/agents/me', { token: kOther })).body.id).toBe(other.id);
    expect(((await t.api('GET', `/api/agents/${other.id}/keys`)).body as any[])[0].revokedAt).toBeNull();
  });

  it('moves direct reports up to the terminated agent\u2019s manager', async () => {
    const ceo = await createAgent(t, company, { name: 'Ceo' });
    const cto = await createAgent(t, company, { name: 'Cto', role: 'cto', reportsTo: ceo.id });
    const dev1 = await createAgent(t, company, { name: 'Dev1', role: 'engineer', reportsTo: cto.id });
    const dev2 = await createAgent(t, company, { name: 'Dev2', role: 'engineer', reportsTo: cto.id });
    const intern = await createAgent(t, company, { name: 'Intern', role: 'intern', reportsTo: dev1.id });
    expect((await action(cto.id, 'terminate')).status).toBe(200);

    for (const dev of [dev1, dev2]) {
      const got = await getAgent(dev.id);
      expect(got.reportsTo).toBe(ceo.id);
      expect(got.chainOfCommand).toEqual([{ id: ceo.id, name: 'Ceo', role: 'ceo' }]);
    }
    // Grand-reports keep their direct manager.
    const internNow = await getAgent(intern.id);
    expect(internNow.reportsTo).toBe(dev1.id);
    expect(internNow.chainOfCommand.map((l: any) => l.id)).toEqual([dev1.id, ceo.id]);
    // The terminated agent keeps its own manager on record.
    expect((await getAgent(cto.id)).reportsTo).toBe(ceo.id);

    // Terminating a root makes its reports roots.
    expect((await action(ceo.id, 'terminate')).status).toBe(200);
    expect((await getAgent(dev1.id)).reportsTo).toBeNull();
    expect((await getAgent(dev2.id)).chainOfCommand).toEqual([]);
  });

  it('frees the name but not the shortname', async () => {
    const ada = await createAgent(t, company, { name: 'Ada' });
    await action(ada.id, 'terminate');
    const again = await createAgent(t, company, { name: 'Ada' });
    expect(again.urlKey).toBe('ada-2');
    // The terminated Ada's name cannot be reclaimed by renaming her: she cannot be changed at all.
    expectError(await t.api('PATCH', `/api/agents/${ada.id}`, { body: { name: 'Ada Old' } }), 409, 'agent_terminated');
  });
});

describe('lifecycle permissions', () => {
  it('keeps pause, resume and terminate to the board', async () => {
    const agent = await createAgent(t, company);
    const peer = await createAgent(t, company, { name: 'Peer' });
    const key = await createAgentKey(t, agent.id);
    await useKeyAndSettle(t, key);
    const before = t.snapshot();
    for (const verb of ['pause', 'resume', 'terminate'] as const) {
      expectError(await action(agent.id, verb, key), 403, 'board_only');
      expectError(await action(peer.id, verb, key), 403, 'board_only');
    }
    expect(t.snapshot()).toEqual(before);
    expect((await getAgent(agent.id)).status).toBe('idle');
    expect((await getAgent(peer.id)).status).toBe('idle');
  });
});
