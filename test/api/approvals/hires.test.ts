import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, allActivity, expectError, getAgent, getApproval, hireBody, problemPaths, requestHire, rows, startWorld, steps, wakes, type World } from './helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const hire = (body: unknown, token?: string) => w.t.api('POST', `/api/companies/${w.company}/agent-hires`, { body, ...(token ? { token } : {}) });
const newKey = (agentId: string) => w.t.api('POST', `/api/agents/${agentId}/keys`, { body: {} });
const revisions = async (agentId: string) => (await w.t.api('GET', `/api/agents/${agentId}/config-revisions`)).body;

describe('the hire flow', () => {
  it('an agent requests a hire; the board approves; the new agent is idle and can get a key', async () => {
    const res = await hire(hireBody(w), w.ceoKey);
    expect(res.status, res.text).toBe(201);
    const { agent, approval } = res.body;
    expect(agent).toMatchObject({ name: 'Linus', urlKey: 'linus', role: 'engineer', status: 'draft', reportsTo: w.ceo.id, budgetMonthlyCents: 5000 });
    expect(agent.chainOfCommand.map((c: any) => c.id)).toEqual([w.ceo.id]);
    expect(approval).toMatchObject({ type: 'hire_agent', status: 'pending', requestedByAgentId: w.ceo.id, hireAgentId: agent.id, decisionNote: null });
    // The payload is the hire as stored: every field, adapter defaults applied.
    expect(approval.payload).toEqual({
      version: 1,
      name: 'Linus',
      role: 'engineer',
      title: '',
      reportsTo: w.ceo.id,
      capabilities: 'kernels',
      budgetMonthlyCents: 5000,
      adapterType: 'process',
      adapterConfig: { command: 'echo', timeoutSec: 300, graceMs: 10_000 },
      reason: 'We need a second engineer',
    });
    expect(approval.history).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'pending', actorType: 'agent', actorId: w.ceo.id })]);
    expectError(await newKey(agent.id), 409, 'agent_draft');
    const firstRevisions = await revisions(agent.id);
    expect(firstRevisions).toHaveLength(1);

    const approved = await act(w, approval.id, 'approve', { decisionNote: 'Welcome aboard' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', decisionNote: 'Welcome aboard' });
    expect(await getAgent(w, agent.id)).toMatchObject({ status: 'idle', adapterConfig: approval.payload.adapterConfig });
    expect(await revisions(agent.id)).toEqual(firstRevisions);
    const key = await newKey(agent.id);
    expect(key.status, key.text).toBe(201);
    expect((await w.t.api('GET', '/api/agents/me', { token: key.body.key })).body.id).toBe(agent.id);
    expect(wakes(w.t, w.ceo.id).map((r) => [r.reason, r.approval_id])).toEqual([['approval_decision', approval.id]]);

    const actions = (await allActivity(w.t, w.company)).filter((a) => a.entityId === agent.id || a.entityId === approval.id).reverse();
    expect(actions.map((a) => [a.action, a.actorType])).toEqual([
      ['agent.drafted', 'agent'],
      ['approval.created', 'agent'],
      ['agent.hired', 'board'],
      ['approval.approved', 'board'],
      ['agent_key.created', 'board'],
    ]);
    // Summaries name the hire, never the reason, capabilities or note.
    for (const a of actions) expect(a.summary).not.toMatch(/second engineer|kernels|Welcome/);
    expect(actions[1]!.summary).toBe('Approval requested: hire of "Linus"');
  });

  it('rejection terminates the draft: it never gets a key, and its name is free for a corrected request', async () => {
    const { agent, approval } = await requestHire(w, {}, w.engineerKey);
    const res = await act(w, approval.id, 'reject', { decisionNote: 'Not this quarter' });
    expect(res.body).toMatchObject({ status: 'rejected', decisionNote: 'Not this quarter' });
    const after = await getAgent(w, agent.id);
    expect(after.status).toBe('terminated');
    expect(after.terminatedAt).toBe(res.body.decidedAt);
    expectError(await newKey(agent.id), 409, 'agent_terminated');
    expect(wakes(w.t, w.engineer.id).map((r) => r.approval_id)).toEqual([approval.id]);
    const activity = (await allActivity(w.t, w.company)).find((a) => a.action === 'agent.terminated');
    expect(activity).toMatchObject({ entityId: agent.id, actorType: 'board', summary: 'Agent "Linus" terminated: its hire was rejected' });
    const again = await requestHire(w, {}, w.engineerKey);
    expect(again.agent.name).toBe('Linus');
    expect(again.agent.id).not.toBe(agent.id);
  });

  it('a revision request keeps the draft; the resubmitted hire updates it in the same transaction', async () => {
    const { agent, approval } = await requestHire(w);
    await act(w, approval.id, 'request-revision', { decisionNote: 'Cheaper, and call him Torvalds' });
    expect((await getAgent(w, agent.id)).status).toBe('draft');
    const payload = { ...approval.payload, name: 'Torvalds', budgetMonthlyCents: 2500, title: 'Kernel lead', adapterConfig: { command: 'echo', timeoutSec: 60 }, reason: 'Cheaper' };
    const res = await act(w, approval.id, 'resubmit', { payload }, w.ceoKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body.payload).toEqual({ ...payload, adapterConfig: { command: 'echo', timeoutSec: 60, graceMs: 10_000 } });
    expect(steps(res.body).slice(2)).toEqual([
      ['revision_requested', 'resubmitted'],
      ['resubmitted', 'pending'],
    ]);
    const draft = await getAgent(w, agent.id);
    expect(draft).toMatchObject({ status: 'draft', name: 'Torvalds', urlKey: 'torvalds', title: 'Kernel lead', budgetMonthlyCents: 2500 });
    expect(draft.adapterConfig).toEqual(res.body.payload.adapterConfig);
    expect((await revisions(agent.id)).map((r: any) => [r.revisionNumber, r.reason, r.actorType])).toEqual([
      [2, 'update', 'agent'],
      [1, 'create', 'agent'],
    ]);
    const updated = (await allActivity(w.t, w.company)).find((a) => a.action === 'agent.updated');
    expect(updated?.details).toEqual({ fields: ['name', 'urlKey', 'title', 'budgetMonthlyCents', 'adapterType', 'adapterConfig'], approvalId: approval.id });

    // Resubmitting the stored payload unchanged is accepted and leaves the agent alone.
    await act(w, approval.id, 'request-revision');
    const same = await act(w, approval.id, 'resubmit', { payload: res.body.payload });
    expect(same.status, same.text).toBe(200);
    expect(await getAgent(w, agent.id)).toEqual(draft);
    await act(w, approval.id, 'approve');
    expect(await getAgent(w, agent.id)).toMatchObject({ status: 'idle', name: 'Torvalds', budgetMonthlyCents: 2500 });
  });

  it('checks a resubmitted hire like a new agent, naming the fields under body.payload, and writes nothing on refusal', async () => {
    const { approval } = await requestHire(w);
    await act(w, approval.id, 'request-revision');
    const before = w.t.snapshot();
    const resubmit = (over: Record<string, unknown>) => act(w, approval.id, 'resubmit', { payload: { ...approval.payload, ...over } });
    const config = await resubmit({ adapterConfig: { command: 'echo', timeoutSec: 'soon' } });
    expectError(config, 400, 'validation_error', 'body.payload.adapterConfig.timeoutSec');
    expect(problemPaths(config)).toEqual(['body.payload.adapterConfig.timeoutSec']);
    const manager = await resubmit({ reportsTo: w.foreign.id });
    expectError(manager, 400, 'invalid_reports_to', 'body.payload.reportsTo');
    expect(problemPaths(manager)).toEqual(['body.payload.reportsTo']);
    expectError(await resubmit({ adapterType: 'nope' }), 400, 'unknown_adapter_type', 'body.payload.adapterType');
    expectError(await resubmit({ name: 'grace' }), 409, 'agent_name_taken');
    const shape = await resubmit({ budgetMonthlyCents: -1, urlKey: 'x' });
    expect(problemPaths(shape).sort()).toEqual(['body.payload.budgetMonthlyCents', 'body.payload.urlKey']);
    expect(w.t.snapshot()).toEqual(before);
    expect((await getApproval(w, approval.id)).status).toBe('revision_requested');
    // The numeric version belongs to interaction payloads: a hire resubmitted without one is accepted.
    const { version: _version, ...unversioned } = approval.payload;
    const ok = await act(w, approval.id, 'resubmit', { payload: { ...unversioned, budgetMonthlyCents: 1234 } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('pending');
  });

  it('a draft the board terminated cannot be approved (409), only rejected', async () => {
    const { agent, approval } = await requestHire(w);
    expect((await w.t.api('POST', `/api/agents/${agent.id}/terminate`)).status).toBe(200);
    const before = w.t.snapshot();
    expectError(await act(w, approval.id, 'approve'), 409, 'agent_terminated');
    expect(w.t.snapshot()).toEqual(before);
    expect((await act(w, approval.id, 'reject')).body.status).toBe('rejected');
  });
});

describe('who may request a hire, and what it must say', () => {
  it('an agent requests only as itself; the board may name an agent or nobody', async () => {
    const before = w.t.snapshot();
    expectError(await hire(hireBody(w, { requestedByAgentId: w.ceo.id }), w.engineerKey), 403, 'not_own_agent');
    expectError(await w.t.api('POST', `/api/companies/${w.other}/agent-hires`, { body: hireBody(w), token: w.ceoKey }), 404, 'not_found');
    expectError(await hire(hireBody(w, { requestedByAgentId: w.foreign.id })), 400, 'invalid_requested_by', 'body.requestedByAgentId');
    expect(w.t.snapshot()).toEqual(before);
    const own = await hire(hireBody(w, { requestedByAgentId: w.engineer.id }), w.engineerKey);
    expect(own.body.approval.requestedByAgentId).toBe(w.engineer.id);
    const { agent: draft } = await requestHire(w, { name: 'Draft' }, w.t.boardToken);
    expectError(await hire(hireBody(w, { name: 'Other', requestedByAgentId: draft.id })), 400, 'invalid_requested_by', 'body.requestedByAgentId');
    const onBehalf = await hire(hireBody(w, { name: 'Third', requestedByAgentId: w.engineer.id }));
    expect(onBehalf.body.approval).toMatchObject({ requestedByAgentId: w.engineer.id });
    expect(onBehalf.body.approval.history[0]).toMatchObject({ actorType: 'board', actorId: null });
  });

  it("requires the spec's hire fields (not the adapter) and writes nothing (draft and approval are one transaction)", async () => {
    const before = w.t.snapshot();
    const { name: _n, adapterType: _a, capabilities: _c, ...partial } = hireBody(w);
    const missing = await hire(partial);
    expectError(missing, 400, 'validation_error');
    expect(problemPaths(missing).sort()).toEqual(['body.capabilities', 'body.name']);
    expectError(await hire(hireBody(w, { adapterConfig: { command: '' } })), 400, 'validation_error', 'body.adapterConfig.command');
    expectError(await hire(hireBody(w, { reportsTo: w.foreign.id })), 400, 'invalid_reports_to', 'body.reportsTo');
    expectError(await hire(hireBody(w, { name: 'Ada' })), 409, 'agent_name_taken');
    expectError(await hire(hireBody(w, { reason: 'x'.repeat(10_001) })), 400, 'validation_error', 'body.reason');
    expect(w.t.snapshot()).toEqual(before);
    expect(rows(w.t, "SELECT count(*) AS n FROM agents WHERE status = 'draft'")[0].n).toBe(0);
  });

  it("a hire naming no adapter takes the company's default adapter (configured like a colleague using it), else its manager's", async () => {
    const specOnly = (name: string) => ({ name, role: 'engineer', reportsTo: w.engineer.id, capabilities: 'tests', budgetMonthlyCents: 1000 });
    const hire = async (name: string) => {
      const res = await w.t.api('POST', `/api/companies/${w.company}/agent-hires`, { body: specOnly(name) });
      expect(res.status, res.text).toBe(201);
      return (await w.t.api('GET', `/api/agents/${res.body.agent.id}`)).body;
    };
    const manager = (await w.t.api('GET', `/api/agents/${w.engineer.id}`)).body;
    // No default: the manager's adapter.
    expect(await hire('Like Manager')).toMatchObject({ adapterType: manager.adapterType, adapterConfig: manager.adapterConfig });
    // A default nobody uses yet, which runs without configuration: that adapter, unconfigured.
    expect((await w.t.api('PATCH', `/api/companies/${w.company}`, { body: { defaultAdapterType: 'vendor_a_local' } })).status).toBe(200);
    expect(await hire('Default Bare')).toMatchObject({ adapterType: 'vendor_a_local', adapterConfig: {} });
    // Once a colleague uses the default, a hire is configured like them (credentials never copied).
    const colleague = await w.t.api('POST', `/api/companies/${w.company}/agents`, {
      body: { name: 'Claude User', role: 'engineer', adapterType: 'vendor_a_local', adapterConfig: { model: 'claude-sonnet-4-5', env: { TOKEN: 'typed-in' } } },
    });
    expect(colleague.status, colleague.text).toBe(201);
    expect(await hire('Default Configured')).toMatchObject({ adapterType: 'vendor_a_local', adapterConfig: { model: 'claude-sonnet-4-5' } });
    expect((await hire('No Env')).adapterConfig.env).toBeUndefined();
  });

  it('a hire at the top of the org reports to nobody', async () => {
    const { agent, approval } = await requestHire(w, { reportsTo: null, name: 'Chair' }, w.t.boardToken);
    expect(agent.reportsTo).toBeNull();
    expect(approval.payload.reportsTo).toBeNull();
  });
});
