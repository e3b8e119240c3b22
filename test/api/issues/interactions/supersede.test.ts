import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, confirmation, docBody, expectError, post, putDoc, questions, startWorld, type World } from './helpers.js';
import { allActivity } from '../../agents/helpers.js';
import { inTransaction } from '../../../../main/core/context.js';
import { supersedeForBoardComment, supersedeForDocumentRevision } from '../../../../main/core/issues/interactions/supersede.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const get = async (issueId: string, id: string) =>
  ((await w.t.api('GET', `/api/issues/${issueId}/interactions`)).body as any[]).find((i) => i.id === id);

const revise = (issueId: string, doc: any, body: string, key = 'plan') =>
  w.t.api('PUT', `/api/issues/${issueId}/documents/${key}`, { body: docBody({ body, baseRevisionId: doc.revisionId }) });

describe('superseding confirmations', () => {
  it('a new revision of the target document supersedes pending confirmations about older ones', async () => {
    const { t, issue, agentKey } = w;
    const plan = await putDoc(t, issue.id);
    const design = await putDoc(t, issue.id, 'design');
    const aboutPlan = await post(t, issue.id, confirmation(issue, plan), agentKey);
    const aboutDesign = await post(t, issue.id, confirmation(issue, design), agentKey);
    const untargeted = await post(t, issue.id, { kind: 'request_confirmation', idempotencyKey: 'free', title: 'Go?', payload: { version: 1, prompt: 'Go?' } });
    const accepted = await post(t, issue.id, confirmation(issue, plan));
    await act(t, issue.id, accepted.id, 'accept');

    // An identical save is not a new revision and supersedes nothing.
    await revise(issue.id, plan, plan.body);
    expect((await get(issue.id, aboutPlan.id)).status).toBe('pending');

    const v2 = await revise(issue.id, plan, 'v2', 'plan');
    expect(v2.status).toBe(200);
    const superseded = await get(issue.id, aboutPlan.id);
    expect(superseded).toMatchObject({
      status: 'superseded',
      resolvedByType: 'system',
      resolvedById: null,
      resolution: { reason: 'document_revised', documentId: plan.id, revisionId: v2.body.revisionId },
    });
    expect(typeof superseded.resolvedAt).toBe('string');
    expect((await get(issue.id, aboutDesign.id)).status).toBe('pending');
    expect((await get(issue.id, untargeted.id)).status).toBe('pending');
    expect((await get(issue.id, accepted.id)).status).toBe('accepted');

    const before = t.snapshot();
    expectError(await act(t, issue.id, aboutPlan.id, 'accept'), 409, 'interaction_not_pending');
    expect(t.snapshot()).toEqual(before);
    // The agent asks again about the current revision.
    const again = await post(t, issue.id, confirmation(issue, v2.body), agentKey);
    expect(again.status).toBe('pending');

    const [a] = (await allActivity(t, w.companyId)).filter((x) => x.action === 'issue.interaction_superseded');
    expect(a).toMatchObject({ actorType: 'system', entityType: 'issue', entityId: issue.id, details: { interactionId: aboutPlan.id, reason: 'document_revised' } });
  });

  it('deleting the target document supersedes its pending confirmations', async () => {
    const { t, issue } = w;
    const plan = await putDoc(t, issue.id);
    const pending = await post(t, issue.id, confirmation(issue, plan));
    expect((await t.api('DELETE', `/api/issues/${issue.id}/documents/plan`)).status).toBe(200);
    expect(await get(issue.id, pending.id)).toMatchObject({ status: 'superseded', resolution: { reason: 'document_deleted', documentId: plan.id } });
  });

  it('a board comment supersedes only pending confirmations that ask for it', async () => {
    const { t, issue, agentKey } = w;
    const plan = await putDoc(t, issue.id);
    const onComment = await post(t, issue.id, confirmation(issue, plan, {}, { supersedeOnUserComment: true }));
    const stays = await post(t, issue.id, confirmation(issue, plan));
    const ask = await post(t, issue.id, questions([{ id: 'q', prompt: 'Why?', kind: 'text' }]));

    // An agent's comment is not a user comment.
    expect((await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: 'agent note' }, token: agentKey })).status).toBe(201);
    expect((await get(issue.id, onComment.id)).status).toBe('pending');

    const comment = await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: 'Please add a budget section' } });
    expect(comment.status, comment.text).toBe(201);
    expect(await get(issue.id, onComment.id)).toMatchObject({ status: 'superseded', resolution: { reason: 'board_comment', commentId: comment.body.id } });
    expect((await get(issue.id, stays.id)).status).toBe('pending');
    expect((await get(issue.id, ask.id)).status).toBe('pending');
  });

  it('the exported functions work inside a caller transaction and report what they superseded', async () => {
    const { t, issue } = w;
    const { ctx } = t.core.services;
    const plan = await putDoc(t, issue.id);
    const flagged = await post(t, issue.id, confirmation(issue, plan, {}, { supersedeOnUserComment: true }));
    const other = await post(t, issue.id, confirmation(issue, plan));
    const at = new Date().toISOString();
    // The current revision supersedes nothing.
    expect(inTransaction(ctx, (tx) => supersedeForDocumentRevision(tx, at, issue.id, plan.id, plan.revisionId))).toEqual([]);
    expect(inTransaction(ctx, (tx) => supersedeForBoardComment(tx, at, issue.id, 'c-1'))).toEqual([flagged.id]);
    expect(inTransaction(ctx, (tx) => supersedeForBoardComment(tx, at, issue.id, 'c-2'))).toEqual([]);
    expect(inTransaction(ctx, (tx) => supersedeForDocumentRevision(tx, at, w.foreignIssue.id, plan.id, null))).toEqual([]);
    expect(inTransaction(ctx, (tx) => supersedeForDocumentRevision(tx, at, issue.id, plan.id, null))).toEqual([other.id]);
  });
});
