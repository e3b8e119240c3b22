import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MISSING_ID, act, allActivity, expectError, problemPaths, requestHire, requestStrategy, startWorld, strategy, type World } from './helpers.js';
import { createIssue } from '../issues/helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const file = (body: Record<string, unknown>, token?: string, company = w.company) =>
  w.t.api('POST', `/api/companies/${company}/approvals`, { body: { type: 'approve_ceo_strategy', requestedByAgentId: w.ceo.id, payload: strategy(), ...body }, ...(token ? { token } : {}) });
const list = (query = '', token?: string) => w.t.api('GET', `/api/companies/${w.company}/approvals${query}`, token ? { token } : {});

describe('requesting a strategy approval', () => {
  it('creates a pending approval with the payload as given', async () => {
    const payload = strategy({ horizon: 'next 6 months' });
    const res = await file({ payload }, w.ceoKey);
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['companyId', 'createdAt', 'decidedAt', 'decisionNote', 'hireAgentId', 'history', 'id', 'payload', 'requestedByAgentId', 'status', 'type', 'updatedAt'].sort(),
    );
    expect(res.body).toMatchObject({ companyId: w.company, type: 'approve_ceo_strategy', status: 'pending', payload, requestedByAgentId: w.ceo.id, hireAgentId: null });
    const created = (await allActivity(w.t, w.company)).find((a) => a.action === 'approval.created');
    expect(created).toMatchObject({ entityType: 'approval', entityId: res.body.id, actorType: 'agent', actorId: w.ceo.id, summary: 'Approval requested: strategy "Win the SMB market"' });
  });

  it('takes any object as a strategy payload (spec 2.3: type-dependent, free-form), with no version field', async () => {
    const res = await file({ payload: { plan: 'Sell to small businesses first.' } }, w.ceoKey);
    expect(res.status, res.text).toBe(201);
    expect(res.body.payload).toEqual({ plan: 'Sell to small businesses first.' });
    expect((await w.t.api('GET', `/api/approvals/${res.body.id}`)).body.payload).toEqual({ plan: 'Sell to small businesses first.' });
    const created = (await allActivity(w.t, w.company)).find((a) => a.entityId === res.body.id && a.action === 'approval.created');
    expect(created?.summary).toBe('Approval requested: CEO strategy');
    for (const payload of [{}, { version: 7, steps: [1, 2], nested: { deep: true } }, strategy({ title: '  ', budget: 100 })]) {
      expect((await file({ payload })).status, JSON.stringify(payload)).toBe(201);
    }
  });

  it('refuses a payload that is not an object or is over 256 KiB of JSON, naming body.payload and writing nothing', async () => {
    const before = w.t.snapshot();
    for (const payload of [null, 'plan', [1, 2], 7]) expectError(await file({ payload }), 400, 'validation_error', 'body.payload');
    // 'é' is two bytes: 131,073 of them is over 256 KiB however few characters it is.
    const big = await file({ payload: strategy({ strategyMarkdown: 'é'.repeat(131_073) }) });
    expectError(big, 400, 'validation_error', 'body.payload');
    expect(problemPaths(big)).toEqual(['body.payload']);
    expect(w.t.snapshot()).toEqual(before);
    expect((await file({ payload: strategy({ strategyMarkdown: 'a'.repeat(200 * 1024) }) })).status).toBe(201);
  });

  it('refuses hire_agent here (use agent-hires) and unknown types', async () => {
    const before = w.t.snapshot();
    expectError(await file({ type: 'hire_agent', payload: {} }), 400, 'use_agent_hires', 'body.type');
    expectError(await file({ type: 'fire_agent' }), 400, 'validation_error', 'body.type');
    expect(w.t.snapshot()).toEqual(before);
  });

  it('files as the calling agent only; the board files on behalf of a living agent of the company', async () => {
    const before = w.t.snapshot();
    expectError(await file({ requestedByAgentId: w.engineer.id }, w.ceoKey), 403, 'not_own_agent');
    expectError(await file({}, w.foreignKey), 404, 'not_found');
    expectError(await file({}, undefined, MISSING_ID), 404, 'not_found');
    expectError(await file({ requestedByAgentId: w.foreign.id }), 400, 'invalid_requested_by', 'body.requestedByAgentId');
    expectError(await file({ requestedByAgentId: MISSING_ID }), 400, 'invalid_requested_by', 'body.requestedByAgentId');
    expectError(await file({ requestedByAgentId: undefined }), 400, 'validation_error', 'body.requestedByAgentId');
    expect(w.t.snapshot()).toEqual(before);
    const onBehalf = await file({ requestedByAgentId: w.engineer.id });
    expect(onBehalf.body).toMatchObject({ requestedByAgentId: w.engineer.id, history: [expect.objectContaining({ actorType: 'board', actorId: null })] });
    expect((await w.t.api('POST', `/api/agents/${w.engineer.id}/terminate`)).status).toBe(200);
    expectError(await file({ requestedByAgentId: w.engineer.id }), 400, 'invalid_requested_by', 'body.requestedByAgentId');
  });
});

describe('listing', () => {
  it('lists newest first, filters by one status or a comma list, and refuses unknown statuses', async () => {
    const a = await requestStrategy(w);
    const b = await requestStrategy(w, { payload: strategy({ title: 'B' }) });
    const c = await requestHire(w);
    const d = await requestStrategy(w, { payload: strategy({ title: 'D' }) });
    await act(w, a.id, 'approve');
    await act(w, b.id, 'request-revision');
    await act(w, d.id, 'reject');
    const ids = async (query: string) => {
      const res = await list(query, w.engineerKey);
      expect(res.status, res.text).toBe(200);
      return res.body.map((x: any) => x.id);
    };
    expect(await ids('')).toEqual([d.id, c.approval.id, b.id, a.id]);
    expect(await ids('?status=pending')).toEqual([c.approval.id]);
    expect(await ids('?status=approved,revision_requested')).toEqual([b.id, a.id]);
    expect(await ids('?status=resubmitted')).toEqual([]);
    expect((await list()).body[0]).not.toHaveProperty('history');
    expectError(await list('?status=pending,done'), 400, 'validation_error', 'query.status');
    expectError(await list('?type=hire_agent'), 400, 'validation_error', 'query.type');
    expectError(await w.t.api('GET', `/api/companies/${w.company}/approvals`, { token: w.foreignKey }), 404, 'not_found');
  });
});

describe('linked issues', () => {
  it('links issues of the company by id or identifier and returns them in the issue shape', async () => {
    const first = await createIssue(w.t, w.company, { title: 'Pricing research' });
    const second = await createIssue(w.t, w.company, { title: 'Competitor list' }, w.ceoKey);
    const res = await file({ issueIds: [second.identifier, first.id, second.id] }, w.ceoKey);
    expect(res.status, res.text).toBe(201);
    const linked = await w.t.api('GET', `/api/approvals/${res.body.id}/issues`, { token: w.engineerKey });
    expect(linked.status).toBe(200);
    // The plain issue shape: labels and dependencies come with the issue routes only.
    const plain = (i: any) => Object.fromEntries(Object.entries(i).filter(([k]) => !['labelIds', 'blockedBy', 'blocks', 'openBlockerIds'].includes(k)));
    expect(linked.body).toEqual([plain(second), plain(first)]);
    const unlinked = await requestStrategy(w);
    expect((await w.t.api('GET', `/api/approvals/${unlinked.id}/issues`)).body).toEqual([]);
    expectError(await w.t.api('GET', `/api/approvals/${unlinked.id}/issues`, { token: w.foreignKey }), 404, 'not_found');
  });

  it('refuses issues of another company or that do not exist, naming the entry', async () => {
    const own = await createIssue(w.t, w.company);
    const foreign = await createIssue(w.t, w.other);
    const before = w.t.snapshot();
    expectError(await file({ issueIds: [own.id, foreign.id] }), 400, 'invalid_issue', 'body.issueIds.1');
    expectError(await file({ issueIds: [MISSING_ID] }), 400, 'invalid_issue', 'body.issueIds.0');
    expectError(await file({ issueIds: ['nope'] }), 400, 'validation_error', 'body.issueIds.0');
    expect(w.t.snapshot()).toEqual(before);
  });
});

describe('comments', () => {
  it('the board and the company’s agents comment; comments list oldest first', async () => {
    const approval = await requestStrategy(w);
    const post = (body: unknown, token?: string) => w.t.api('POST', `/api/approvals/${approval.id}/comments`, { body, ...(token ? { token } : {}) });
    const byBoard = await post({ body: 'Can you add **pricing**?' });
    expect(byBoard.status, byBoard.text).toBe(201);
    expect(byBoard.body).toMatchObject({ approvalId: approval.id, authorType: 'board', authorAgentId: null, body: 'Can you add **pricing**?' });
    const byAgent = await post({ body: 'Yes, on it.' }, w.ceoKey);
    const byPeer = await post({ body: 'I can help.' }, w.engineerKey);
    expect(byAgent.body).toMatchObject({ authorType: 'agent', authorAgentId: w.ceo.id });
    const listed = await w.t.api('GET', `/api/approvals/${approval.id}/comments`, { token: w.engineerKey });
    expect(listed.body).toEqual([byBoard.body, byAgent.body, byPeer.body]);
    const activity = (await allActivity(w.t, w.company)).filter((a) => a.action === 'approval.commented');
    expect(activity).toHaveLength(3);
    for (const a of activity) expect(a.summary).toBe('Comment on approval: strategy "Win the SMB market"');
  });

  it('refuses blank, oversized and foreign comments, writing nothing', async () => {
    const approval = await requestStrategy(w);
    const before = w.t.snapshot();
    const post = (body: unknown, token?: string) => w.t.api('POST', `/api/approvals/${approval.id}/comments`, { body, ...(token ? { token } : {}) });
    expectError(await post({ body: '   ' }), 400, 'validation_error', 'body.body');
    expectError(await post({ body: 'x'.repeat(65_537) }), 400, 'validation_error', 'body.body');
    expectError(await post({ body: 'hi' }, w.foreignKey), 404, 'not_found');
    expectError(await w.t.api('GET', `/api/approvals/${approval.id}/comments`, { token: w.foreignKey }), 404, 'not_found');
    expectError(await w.t.api('POST', `/api/approvals/${MISSING_ID}/comments`, { body: { body: 'hi' } }), 404, 'not_found');
    expect(w.t.snapshot()).toEqual(before);
  });
});
