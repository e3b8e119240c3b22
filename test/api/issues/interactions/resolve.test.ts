import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, confirmation, count, expectError, insertIssue, post, putDoc, questions, startWorld, suggestTasks, wakes, type World } from './helpers.js';
import { allActivity } from '../../agents/helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

/** An issue assigned to the world's agent, with a plan document. */
async function assignedIssueWithPlan() {
  const issue = insertIssue(w.t, w.companyId, { assigneeAgentId: w.agentId });
  return { issue, doc: await putDoc(w.t, issue.id) };
}

describe('resolving confirmations', () => {
  it('accepts: wakes the assignee once with wake_assignee, records who resolved it', async () => {
    const { t } = w;
    const { issue, doc } = await assignedIssueWithPlan();
    const created = await post(t, issue.id, confirmation(issue, doc, { continuationPolicy: 'wake_assignee' }), w.agentKey);
    expect(wakes(t, w.agentId)).toHaveLength(0);
    const res = await act(t, issue.identifier, created.id, 'accept');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'accepted', resolvedByType: 'board', resolvedById: null });
    expect(typeof res.body.resolvedAt).toBe('string');
    const [wake, ...rest] = wakes(t, w.agentId);
    expect(rest).toEqual([]);
    expect(wake).toMatchObject({ reason: 'interaction_accepted', issue_id: issue.id, interaction_id: created.id, status: 'pending', company_id: w.companyId });
    expect(res.body.resolution).toEqual({ wakeRequestId: wake.id });

    const before = t.snapshot();
    expectError(await act(t, issue.id, created.id, 'accept'), 409, 'interaction_not_pending');
    const rejectLate = await act(t, issue.id, created.id, 'reject', { reason: 'changed my mind' });
    expectError(rejectLate, 409, 'interaction_not_pending');
    expect(rejectLate.body.details).toEqual({ status: 'accepted' });
    expect(t.snapshot()).toEqual(before);
  });

  it('does not wake without wake_assignee, without an assignee, or on rejection', async () => {
    const { t } = w;
    const { issue, doc } = await assignedIssueWithPlan();
    const plain = await post(t, issue.id, confirmation(issue, doc));
    expect((await act(t, issue.id, plain.id, 'accept')).body.resolution).toEqual({});
    const rejected = await post(t, issue.id, confirmation(issue, doc, { continuationPolicy: 'wake_assignee' }));
    const res = await act(t, issue.id, rejected.id, 'reject', { reason: '  Too vague  ' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', resolution: { reason: 'Too vague' } });
    const unassigned = w.issue;
    const udoc = await putDoc(t, unassigned.id);
    const noAssignee = await post(t, unassigned.id, confirmation(unassigned, udoc, { continuationPolicy: 'wake_assignee' }));
    expect((await act(t, unassigned.id, noAssignee.id, 'accept')).body).toMatchObject({ status: 'accepted', resolution: {} });
    expect(count(t, 'wake_requests')).toBe(0);
  });

  it('requires a non-blank reason when the payload says so', async () => {
    const { t, issue } = w;
    const doc = await putDoc(t, issue.id);
    const created = await post(t, issue.id, confirmation(issue, doc, {}, { rejectRequiresReason: true }));
    const before = t.snapshot();
    for (const body of [undefined, {}, { reason: '' }, { reason: '   ' }, { reason: null }]) {
      expectError(await act(t, issue.id, created.id, 'reject', body), 400, 'reason_required', 'body.reason');
    }
    expectError(await act(t, issue.id, created.id, 'reject', { why: 'x' }), 400, 'validation_error', 'body.why');
    expect(t.snapshot()).toEqual(before);
    expect((await act(t, issue.id, created.id, 'reject', { reason: 'Needs numbers' })).body.resolution).toEqual({ reason: 'Needs numbers' });
    // Without the flag a reason is optional.
    const optional = await post(t, issue.id, confirmation(issue, doc));
    expect((await act(t, issue.id, optional.id, 'reject')).body).toMatchObject({ status: 'rejected', resolution: { reason: null } });
  });

  it('lets only the board resolve, and refuses the wrong operation for the kind', async () => {
    const { t, issue, agentKey, foreignKey } = w;
    const doc = await putDoc(t, issue.id);
    const conf = await post(t, issue.id, confirmation(issue, doc), agentKey);
    const ask = await post(t, issue.id, questions([{ id: 'q', prompt: 'Why?', kind: 'text' }]), agentKey);
    const tasks = await post(t, issue.id, suggestTasks([{ clientKey: 'a', title: 'A' }]), agentKey);
    const other = insertIssue(t, w.companyId);
    const before = t.snapshot();
    for (const [id, op, body] of [
      [conf.id, 'accept'],
      [conf.id, 'reject', { reason: 'no' }],
      [ask.id, 'respond', { answers: { q: 'because' } }],
      [tasks.id, 'accept'],
      [tasks.id, 'reject'],
    ] as const) {
      expectError(await act(t, issue.id, id, op, body, agentKey), 403, 'board_only');
      expectError(await act(t, issue.id, id, op, body, foreignKey), 403, 'board_only');
    }
    const wrong = await act(t, issue.id, conf.id, 'respond', { answers: {} });
    expectError(wrong, 400, 'operation_not_supported');
    expect(wrong.body.details).toEqual({ kind: 'request_confirmation', supported: ['accept', 'reject'] });
    expectError(await act(t, issue.id, tasks.id, 'respond', { answers: {} }), 400, 'operation_not_supported');
    expectError(await act(t, issue.id, ask.id, 'accept'), 400, 'operation_not_supported');
    expectError(await act(t, issue.id, ask.id, 'reject'), 400, 'operation_not_supported');
    expectError(await act(t, issue.id, conf.id, 'accept', { selectedClientKeys: ['a'] }), 400, 'validation_error', 'body.selectedClientKeys');
    // The interaction must belong to the issue in the path.
    expectError(await act(t, other.id, conf.id, 'accept'), 404, 'not_found');
    expectError(await act(t, issue.id, '00000000-0000-4000-8000-000000000000', 'accept'), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
  });

  it('records activity for accept and reject without the reason text', async () => {
    const { t, issue, companyId } = w;
    const doc = await putDoc(t, issue.id);
    const a = await post(t, issue.id, confirmation(issue, doc));
    const b = await post(t, issue.id, confirmation(issue, doc));
    await act(t, issue.id, a.id, 'accept');
    await act(t, issue.id, b.id, 'reject', { reason: 'secret-reason-text' });
    const items = (await allActivity(t, companyId)).filter((x) => /interaction_(accepted|rejected)/.test(x.action));
    expect(items.map((x) => [x.action, x.details?.interactionId])).toEqual([
      ['issue.interaction_rejected', b.id],
      ['issue.interaction_accepted', a.id],
    ]);
    expect(JSON.stringify(items)).not.toContain('secret-reason-text');
  });
});

describe('answering questions', () => {
  const qs = [
    { id: 'colour', prompt: 'Colour?', kind: 'single', options: [{ id: 'red', label: 'Red' }, { id: 'blue', label: 'Blue' }] },
    { id: 'days', prompt: 'Which days?', kind: 'multi', options: [{ id: 'mon', label: 'Mon' }, { id: 'tue', label: 'Tue' }] },
    { id: 'why', prompt: 'Why?', kind: 'text' },
  ];

  it('stores valid answers and wakes the assignee with wake_assignee', async () => {
    const { t } = w;
    const issue = insertIssue(t, w.companyId, { assigneeAgentId: w.agentId });
    const ask = await post(t, issue.id, questions(qs, { continuationPolicy: 'wake_assignee' }), w.agentKey);
    const answers = { colour: 'blue', days: ['tue', 'mon'], why: 'It is calm' };
    const res = await act(t, issue.id, ask.id, 'respond', { answers });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'answered', resolution: { answers }, resolvedByType: 'board' });
    expect(wakes(t, w.agentId).map((x) => [x.reason, x.interaction_id])).toEqual([['interaction_accepted', ask.id]]);
    expectError(await act(t, issue.id, ask.id, 'respond', { answers }), 409, 'interaction_not_pending');
    const [a] = (await allActivity(t, w.companyId)).filter((x) => x.action === 'issue.interaction_answered');
    expect(a?.details).toMatchObject({ interactionId: ask.id });
    expect(JSON.stringify(a)).not.toContain('It is calm');
  });

  it('accepts an empty selection for a multi question', async () => {
    const { t, issue } = w;
    const ask = await post(t, issue.id, questions(qs));
    const res = await act(t, issue.id, ask.id, 'respond', { answers: { colour: 'red', days: [], why: 'x' } });
    expect(res.body.status).toBe('answered');
  });

  it('checks answers against the questions, naming the question, and writes nothing', async () => {
    const { t, issue } = w;
    const ask = await post(t, issue.id, questions(qs));
    const good = { colour: 'red', days: ['mon'], why: 'because' };
    const cases: [unknown, string, number][] = [
      [{ ...good, colour: 'green' }, 'body.answers.colour', 400],
      [{ ...good, colour: ['red'] }, 'body.answers.colour', 400],
      [{ ...good, days: 'mon' }, 'body.answers.days', 400],
      [{ ...good, days: ['mon', 'mon'] }, 'body.answers.days', 400],
      [{ ...good, days: ['wed'] }, 'body.answers.days', 400],
      [{ ...good, why: '  ' }, 'body.answers.why', 400],
      [{ ...good, why: ['x'] }, 'body.answers.why', 400],
      [{ ...good, why: 'x'.repeat(10_001) }, 'body.answers.why', 400],
      [{ colour: 'red', days: ['mon'] }, 'body.answers.why', 400],
      [{ ...good, extra: 'x' }, 'body.answers.extra', 400],
      [{ ...good, colour: 3 }, 'body.answers.colour', 400],
    ];
    const before = t.snapshot();
    for (const [answers, field] of cases) {
      expectError(await act(t, issue.id, ask.id, 'respond', { answers }), 400, 'validation_error', field);
    }
    expectError(await act(t, issue.id, ask.id, 'respond', {}), 400, 'validation_error', 'body.answers');
    expect(t.snapshot()).toEqual(before);
  });
});
