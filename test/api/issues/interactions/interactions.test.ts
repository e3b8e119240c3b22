import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confirmation, count, docBody, expectError, insertIssue, post, putDoc, questions, startWorld, suggestTasks, type World } from './helpers.js';
import { allActivity } from '../../agents/helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const list = async (issueId: string, token?: string) => (await w.t.api('GET', `/api/issues/${issueId}/interactions`, token ? { token } : {})).body;

describe('creating interactions', () => {
  it('stores a confirmation with defaults filled in and lists interactions oldest first', async () => {
    const { t, issue, agentKey, agentId } = w;
    const doc = await putDoc(t, issue.id);
    const body = confirmation({ ...issue, id: issue.identifier }, doc, { summary: 'Plan v1', continuationPolicy: 'wake_assignee' });
    const res = await t.api('POST', `/api/issues/${issue.identifier}/interactions`, { body, token: agentKey });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      issueId: issue.id,
      companyId: w.companyId,
      kind: 'request_confirmation',
      status: 'pending',
      summary: 'Plan v1',
      continuationPolicy: 'wake_assignee',
      resolution: null,
      createdByType: 'agent',
      createdById: agentId,
      resolvedAt: null,
    });
    expect(res.body.payload).toEqual({
      version: 1,
      prompt: 'Does this plan look right?',
      acceptLabel: 'Accept',
      rejectLabel: 'Reject',
      rejectRequiresReason: false,
      rejectReasonLabel: 'Reason',
      detailsMarkdown: '',
      supersedeOnUserComment: false,
      // The identifier given is stored as the issue's UUID.
      target: { type: 'issue_document', issueId: issue.id, documentId: doc.id, key: 'plan', revisionId: doc.revisionId, revisionNumber: 1 },
    });
    const second = await post(t, issue.id, questions([{ id: 'q1', prompt: 'Why?', kind: 'text' }]));
    const third = await post(t, issue.id, suggestTasks([{ clientKey: 'a', title: 'A' }]));
    expect((await list(issue.id, agentKey)).map((i: any) => i.id)).toEqual([res.body.id, second.id, third.id]);
    expect(await list(insertIssue(t, w.companyId).id)).toEqual([]);
  });

  it('accepts a confirmation without a target, and every optional field given explicitly', async () => {
    const { t, issue } = w;
    const payload = {
      version: 1,
      prompt: 'Deploy on Friday?',
      acceptLabel: 'Ship it',
      rejectLabel: 'Not yet',
      rejectRequiresReason: true,
      rejectReasonLabel: 'Why not?',
      detailsMarkdown: '**risky**',
      supersedeOnUserComment: true,
    };
    const created = await post(t, issue.id, { kind: 'request_confirmation', idempotencyKey: 'deploy', title: 'Deploy', payload });
    expect(created.payload).toEqual(payload);
    expect(created.continuationPolicy).toBeNull();
  });

  it('is idempotent per issue and key: a repeat returns the first (200) and writes nothing, even with another body', async () => {
    const { t, issue, agentKey } = w;
    const body = questions([{ id: 'q1', prompt: 'Colour?', kind: 'single', options: [{ id: 'red', label: 'Red' }] }], { idempotencyKey: 'ask-1' });
    const first = await post(t, issue.id, body);
    const before = t.snapshot();
    const again = await t.api('POST', `/api/issues/${issue.id}/interactions`, { body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);
    const different = await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: suggestTasks([{ clientKey: 'x', title: 'X' }], { idempotencyKey: 'ask-1' }) });
    expect(different.status).toBe(200);
    expect(different.body).toEqual(first);
    expect(t.snapshot()).toEqual(before);
    // Concurrent repeats still make one row; the key is per issue.
    const burst = await Promise.all(Array.from({ length: 5 }, () => t.api('POST', `/api/issues/${issue.id}/interactions`, { body: { ...body, idempotencyKey: 'ask-2' }, token: agentKey })));
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(burst.map((r) => r.body.id)).size).toBe(1);
    const other = insertIssue(t, w.companyId);
    expect((await t.api('POST', `/api/issues/${other.id}/interactions`, { body })).status).toBe(201);
    expect(count(t, 'issue_interactions', 'idempotency_key = ?', 'ask-1')).toBe(2);
    expect(count(t, 'issue_interactions', 'idempotency_key = ?', 'ask-2')).toBe(1);
  });

  it('validates the envelope and each payload field by field, writing nothing', async () => {
    const { t, issue } = w;
    const doc = await putDoc(t, issue.id);
    const c = (over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => confirmation(issue, doc, over, payload);
    const target = c().payload.target;
    const task = { clientKey: 'a', title: 'A' };
    const q = { id: 'q1', prompt: 'Pick', kind: 'single', options: [{ id: 'o1', label: 'One' }] };
    const cases: [unknown, string][] = [
      [c({ kind: 'poll' }), 'body.kind'],
      [c({ idempotencyKey: '' }), 'body.idempotencyKey'],
      [c({ idempotencyKey: 'k'.repeat(201) }), 'body.idempotencyKey'],
      [c({ title: ' ' }), 'body.title'],
      [c({ title: 't'.repeat(301) }), 'body.title'],
      [c({ continuationPolicy: 'wake_everyone' }), 'body.continuationPolicy'],
      [c({ extra: 1 }), 'body.extra'],
      [c({}, { version: 2 }), 'body.payload.version'],
      [c({}, { prompt: '' }), 'body.payload.prompt'],
      [c({}, { rejectRequiresReason: 'yes' }), 'body.payload.rejectRequiresReason'],
      [c({}, { supersedeOnUserComment: 1 }), 'body.payload.supersedeOnUserComment'],
      [c({}, { colour: 'red' }), 'body.payload.colour'],
      [c({}, { target: { ...target, type: 'issue' } }), 'body.payload.target.type'],
      [c({}, { target: { ...target, revisionNumber: '1' } }), 'body.payload.target.revisionNumber'],
      [c({}, { target: { ...target, key: 'Bad Key' } }), 'body.payload.target.key'],
      [suggestTasks([]), 'body.payload.tasks'],
      [suggestTasks([task, { ...task, title: 'B' }]), 'body.payload.tasks.1.clientKey'],
      [suggestTasks([{ ...task, priority: 'urgent' }]), 'body.payload.tasks.0.priority'],
      [suggestTasks([{ ...task, assigneeAgentId: 'ada' }]), 'body.payload.tasks.0.assigneeAgentId'],
      [suggestTasks([{ ...task, clientKey: 'k'.repeat(101) }]), 'body.payload.tasks.0.clientKey'],
      [suggestTasks(Array.from({ length: 51 }, (_, i) => ({ clientKey: `t${i}`, title: 'T' }))), 'body.payload.tasks'],
      [questions([]), 'body.payload.questions'],
      [questions([q, { ...q, prompt: 'Again' }]), 'body.payload.questions.1.id'],
      [questions([{ ...q, options: undefined }]), 'body.payload.questions.0.options'],
      [questions([{ ...q, kind: 'text' }]), 'body.payload.questions.0.options'],
      [questions([{ ...q, options: [{ id: 'o1', label: 'A' }, { id: 'o1', label: 'B' }] }]), 'body.payload.questions.0.options.1.id'],
      [questions([{ ...q, kind: 'scale' }]), 'body.payload.questions.0.kind'],
      [questions(Array.from({ length: 21 }, (_, i) => ({ ...q, id: `q${i}` }))), 'body.payload.questions'],
    ];
    const before = t.snapshot();
    for (const [body, field] of cases) {
      expectError(await t.api('POST', `/api/issues/${issue.id}/interactions`, { body }), 400, 'validation_error', field);
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('checks the target against the issue document and its revisions', async () => {
    const { t, issue, foreignKey } = w;
    const doc = await putDoc(t, issue.id);
    const otherIssue = insertIssue(t, w.companyId);
    const otherDoc = await putDoc(t, otherIssue.id);
    const design = await putDoc(t, issue.id, 'design');
    const target = confirmation(issue, doc).payload.target;
    const cases: [Record<string, unknown>, string][] = [
      [{ issueId: otherIssue.id }, 'issueId'],
      [{ documentId: otherDoc.id }, 'documentId'],
      [{ documentId: '00000000-0000-4000-8000-000000000000' }, 'documentId'],
      [{ key: 'design' }, 'key'],
      [{ revisionId: design.revisionId }, 'revisionId'],
      [{ revisionNumber: 2 }, 'revisionNumber'],
    ];
    const before = t.snapshot();
    for (const [over, field] of cases) {
      const res = await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: confirmation(issue, doc, {}, { target: { ...target, ...over } }) });
      expectError(res, 400, 'invalid_target', `body.payload.target.${field}`);
    }
    expectError(await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: confirmation(issue, doc), token: foreignKey }), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
    await t.api('DELETE', `/api/issues/${issue.id}/documents/design`);
    expectError(await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: confirmation(issue, design) }), 400, 'invalid_target');
  });

  it('refuses a confirmation about a revision that is no longer current (409 stale_target)', async () => {
    const { t, issue } = w;
    const v1 = await putDoc(t, issue.id);
    const v2 = (await t.api('PUT', `/api/issues/${issue.id}/documents/plan`, { body: docBody({ body: 'v2', baseRevisionId: v1.revisionId }) })).body;
    const before = t.snapshot();
    const res = await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: confirmation(issue, v1) });
    expectError(res, 409, 'stale_target');
    expect(res.body.details).toEqual({ currentRevisionId: v2.revisionId, currentRevisionNumber: 2 });
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: confirmation(issue, v2) })).status).toBe(201);
  });

  it('refuses an assignee outside the company when tasks are proposed', async () => {
    const { t, issue } = w;
    const before = t.snapshot();
    const foreignAgent = (t.core.database.sqlite.prepare('SELECT id FROM agents WHERE company_id <> ?').get(w.companyId) as { id: string }).id;
    const res = await t.api('POST', `/api/issues/${issue.id}/interactions`, { body: suggestTasks([{ clientKey: 'a', title: 'A' }, { clientKey: 'b', title: 'B', assigneeAgentId: foreignAgent }]) });
    expectError(res, 400, 'invalid_assignee', 'body.payload.tasks.1.assigneeAgentId');
    expect(t.snapshot()).toEqual(before);
  });

  it('records activity on creation without the payload text', async () => {
    const { t, issue, companyId } = w;
    const created = await post(t, issue.id, questions([{ id: 'q1', prompt: 'private-prompt-text', kind: 'text' }]));
    const [a] = (await allActivity(t, companyId)).filter((x) => x.action === 'issue.interaction_created');
    expect(a).toMatchObject({ entityType: 'issue', entityId: issue.id, details: { interactionId: created.id, kind: 'ask_user_questions' } });
    expect(JSON.stringify(a)).not.toContain('private-prompt-text');
  });

  it('documents the document and interaction routes in the OpenAPI document', async () => {
    const doc = (await w.t.api('GET', '/api/openapi.json')).body;
    for (const p of [
      '/api/issues/{issueId}/documents',
      '/api/issues/{issueId}/documents/{key}',
      '/api/issues/{issueId}/documents/{key}/revisions',
      '/api/issues/{issueId}/interactions',
      '/api/issues/{issueId}/interactions/{interactionId}/accept',
      '/api/issues/{issueId}/interactions/{interactionId}/reject',
      '/api/issues/{issueId}/interactions/{interactionId}/respond',
    ]) expect(Object.keys(doc.paths), p).toContain(p);
    expect(JSON.stringify(doc.paths['/api/issues/{issueId}/interactions'].post.requestBody)).toContain('supersedeOnUserComment');
  });
});
