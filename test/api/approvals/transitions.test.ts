import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MISSING_ID, act, expectError, getApproval, requestHire, requestStrategy, rows, startWorld, steps, strategy, wakes, type Operation, type World } from './helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

type Status = 'pending' | 'approved' | 'rejected' | 'revision_requested';

/** A strategy approval brought to `status` by the board. */
async function approvalIn(status: Status): Promise<any> {
  const approval = await requestStrategy(w);
  const op = { pending: null, approved: 'approve', rejected: 'reject', revision_requested: 'request-revision' }[status];
  if (op) expect((await act(w, approval.id, op as Operation)).status).toBe(200);
  return approval;
}

const TARGET: Record<Operation, string> = { approve: 'approved', reject: 'rejected', 'request-revision': 'revision_requested', resubmit: 'resubmitted' };
const bodyFor = (op: Operation) => (op === 'resubmit' ? { payload: strategy({ title: 'Revised' }) } : { decisionNote: 'why' });

const LEGAL: [Status, Operation, Status][] = [
  ['pending', 'approve', 'approved'],
  ['pending', 'reject', 'rejected'],
  ['pending', 'request-revision', 'revision_requested'],
  ['revision_requested', 'resubmit', 'pending'],
];
const OPERATIONS: Operation[] = ['approve', 'reject', 'request-revision', 'resubmit'];
const ILLEGAL: [Status, Operation][] = (['pending', 'approved', 'rejected', 'revision_requested'] as Status[]).flatMap((from) =>
  OPERATIONS.filter((op) => !LEGAL.some(([f, o]) => f === from && o === op)).map((op): [Status, Operation] => [from, op]),
);

describe('the approval state machine (spec 3.3)', () => {
  it.each(LEGAL)('%s --%s--> %s', async (from, op, to) => {
    const approval = await approvalIn(from);
    const res = await act(w, approval.id, op, bodyFor(op));
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe(to);
    expect(await getApproval(w, approval.id)).toEqual(res.body);
  });

  it('lists twelve illegal transitions', () => {
    expect(ILLEGAL).toHaveLength(12);
  });

  it.each(ILLEGAL)('%s --%s--> 409 invalid_transition, nothing written', async (from, op) => {
    const approval = await approvalIn(from);
    const before = w.t.snapshot();
    const res = await act(w, approval.id, op, bodyFor(op));
    expectError(res, 409, 'invalid_transition');
    expect(res.body.details).toEqual({ from, to: TARGET[op] });
    expect(res.body.error).toContain(`from ${from} to ${TARGET[op]}`);
    expect(w.t.snapshot()).toEqual(before);
    expect((await getApproval(w, approval.id)).status).toBe(from);
  });

  it('two decisions at once: exactly one wins, the other is 409', async () => {
    const approval = await requestStrategy(w);
    const results = await Promise.all([act(w, approval.id, 'approve'), act(w, approval.id, 'reject'), act(w, approval.id, 'request-revision')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.status === 200)!.body;
    expect((await getApproval(w, approval.id)).history).toHaveLength(2);
    expect(wakes(w.t, w.ceo.id)).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.details).toMatchObject({ from: winner.status });
  });

  it('keeps the decision note and the time of the decision, and records each step in the history', async () => {
    const approval = await requestStrategy(w);
    expect(approval).toMatchObject({ status: 'pending', decisionNote: null, decidedAt: null, requestedByAgentId: w.ceo.id, hireAgentId: null });
    expect(approval.history).toEqual([{ fromStatus: null, toStatus: 'pending', note: null, actorType: 'agent', actorId: w.ceo.id, createdAt: approval.createdAt }]);
    const note = 'Looks good. '.repeat(800).slice(0, 10_000);
    const res = await act(w, approval.id, 'approve', { decisionNote: note });
    expect(res.body).toMatchObject({ status: 'approved', decisionNote: note });
    expect(res.body.decidedAt).toBe(res.body.updatedAt);
    expect(res.body.history[1]).toMatchObject({ fromStatus: 'pending', toStatus: 'approved', note, actorType: 'board', actorId: null });
  });

  it('takes no body, an empty body, or a blank note (stored as none); a note over 10,000 characters is 400', async () => {
    const a = await requestStrategy(w);
    const before = w.t.snapshot();
    const long = await act(w, a.id, 'reject', { decisionNote: 'x'.repeat(10_001) });
    expectError(long, 400, 'validation_error', 'body.decisionNote');
    expectError(await act(w, a.id, 'reject', { note: 'typo' }), 400, 'validation_error', 'body.note');
    expect(w.t.snapshot()).toEqual(before);
    expect((await act(w, a.id, 'reject')).body).toMatchObject({ status: 'rejected', decisionNote: null });
    const b = await requestStrategy(w);
    expect((await act(w, b.id, 'approve', {})).body.decisionNote).toBeNull();
    const c = await requestStrategy(w);
    expect((await act(w, c.id, 'request-revision', { decisionNote: '   ' })).body.decisionNote).toBeNull();
  });
});

describe('resubmission', () => {
  it('records resubmitted then pending, stores the new payload, clears the decision and keeps the note in the history', async () => {
    const approval = await requestStrategy(w);
    await act(w, approval.id, 'request-revision', { decisionNote: 'Add pricing' });
    const revised = strategy({ title: 'Win the SMB market, with pricing', horizon: '2 quarters' });
    const res = await act(w, approval.id, 'resubmit', { payload: revised }, w.ceoKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', payload: revised, decisionNote: null, decidedAt: null });
    expect(steps(res.body)).toEqual([
      [null, 'pending'],
      ['pending', 'revision_requested'],
      ['revision_requested', 'resubmitted'],
      ['resubmitted', 'pending'],
    ]);
    expect(res.body.history[1]).toMatchObject({ note: 'Add pricing', actorType: 'board' });
    expect(res.body.history.slice(2).map((h: any) => [h.actorType, h.actorId])).toEqual([
      ['agent', w.ceo.id],
      ['agent', w.ceo.id],
    ]);
    // Each submitted version is kept in the history table.
    const versions = rows(w.t, 'SELECT payload FROM approval_events WHERE approval_id = ? AND payload IS NOT NULL ORDER BY rowid', approval.id);
    expect(versions.map((v) => JSON.parse(v.payload).title)).toEqual(['Win the SMB market', 'Win the SMB market, with pricing']);
    // The cycle can repeat, and the board may resubmit too.
    await act(w, approval.id, 'request-revision');
    const again = await act(w, approval.id, 'resubmit', { payload: strategy({ title: 'Third take' }) });
    expect(again.body.status).toBe('pending');
    expect(again.body.history).toHaveLength(7);
    expect((await act(w, approval.id, 'approve')).body.status).toBe('approved');
  });

  it('takes any object as a resubmitted strategy payload', async () => {
    const approval = await approvalIn('revision_requested');
    const res = await act(w, approval.id, 'resubmit', { payload: { plan: 'Second take', milestones: ['a', 'b'] } }, w.ceoKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', payload: { plan: 'Second take', milestones: ['a', 'b'] } });
  });

  it('is refused to other agents (403; foreign agents 404) and validates the payload for its type', async () => {
    const approval = await approvalIn('revision_requested');
    const before = w.t.snapshot();
    expectError(await act(w, approval.id, 'resubmit', { payload: strategy() }, w.engineerKey), 403, 'not_requester');
    expectError(await act(w, approval.id, 'resubmit', { payload: strategy() }, w.foreignKey), 404, 'not_found');
    expectError(await act(w, approval.id, 'resubmit', { payload: ['not', 'an', 'object'] }, w.ceoKey), 400, 'validation_error', 'body.payload');
    expectError(await act(w, approval.id, 'resubmit', {}, w.ceoKey), 400, 'validation_error', 'body.payload');
    expect(w.t.snapshot()).toEqual(before);
  });
});

describe('decisions are the board’s', () => {
  it.each(['approve', 'reject', 'request-revision'] as const)('%s by any agent credential is 403 board_only and writes nothing', async (op) => {
    const approval = await requestStrategy(w);
    const before = w.t.snapshot();
    for (const key of [w.ceoKey, w.engineerKey, w.foreignKey]) {
      expectError(await act(w, approval.id, op, { decisionNote: 'me' }, key), 403, 'board_only');
    }
    expect(w.t.snapshot()).toEqual(before);
    expect((await getApproval(w, approval.id)).status).toBe('pending');
  });

  it('answers 404 alike for a missing approval and another company’s', async () => {
    const approval = await requestStrategy(w);
    const missing = await w.t.api('GET', `/api/approvals/${MISSING_ID}`, { token: w.foreignKey });
    const foreign = await w.t.api('GET', `/api/approvals/${approval.id}`, { token: w.foreignKey });
    expectError(foreign, 404, 'not_found');
    expect(foreign.body).toEqual(missing.body);
    expectError(await act(w, MISSING_ID, 'approve'), 404, 'not_found');
    expectError(await w.t.api('GET', '/api/approvals/not-a-uuid'), 400, 'validation_error', 'params.approvalId');
  });
});

describe('wake requests', () => {
  it('every decision wakes the requesting agent with reason approval_decision', async () => {
    const decided: string[] = [];
    for (const op of ['approve', 'reject', 'request-revision'] as const) {
      const approval = await requestStrategy(w);
      await act(w, approval.id, op);
      decided.push(approval.id);
    }
    const requests = wakes(w.t, w.ceo.id);
    expect(requests.map((r) => [r.reason, r.approval_id, r.status, r.company_id])).toEqual(
      decided.map((id) => ['approval_decision', id, 'pending', w.company]),
    );
    // Filing and resubmitting wake nobody; the board is not an agent.
    const approval = await requestStrategy(w);
    await act(w, approval.id, 'request-revision');
    await act(w, approval.id, 'resubmit', { payload: strategy() }, w.ceoKey);
    expect(wakes(w.t, w.ceo.id)).toHaveLength(4);
  });

  it('wakes the agent the board filed for, and nobody once that agent is terminated or when there is none', async () => {
    const onBehalf = await requestStrategy(w, { requestedByAgentId: w.engineer.id }, w.t.boardToken);
    await act(w, onBehalf.id, 'approve');
    expect(wakes(w.t, w.engineer.id).map((r) => r.approval_id)).toEqual([onBehalf.id]);
    const later = await requestStrategy(w, { requestedByAgentId: w.engineer.id }, w.t.boardToken);
    expect((await w.t.api('POST', `/api/agents/${w.engineer.id}/terminate`)).status).toBe(200);
    expect((await act(w, later.id, 'reject')).status).toBe(200);
    expect(wakes(w.t, w.engineer.id)).toHaveLength(1);
    const { approval: boardHire } = await requestHire(w, { name: 'Nobody asked' }, w.t.boardToken);
    expect(boardHire.requestedByAgentId).toBeNull();
    const count = rows(w.t, 'SELECT count(*) AS n FROM wake_requests')[0].n;
    await act(w, boardHire.id, 'approve');
    expect(rows(w.t, 'SELECT count(*) AS n FROM wake_requests')[0].n).toBe(count);
  });
});
