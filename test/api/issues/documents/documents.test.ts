import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { count, docBody, expectError, insertIssue, putDoc, startWorld, type World } from './helpers.js';
import { allActivity } from '../../agents/helpers.js';
import { documentSummaries, documentsView } from '../../../../main/core/issues/documents/service.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const url = (issue: string, key = 'plan') => `/api/issues/${issue}/documents/${key}`;

describe('issue documents: create, read, update', () => {
  it('creates revision 1 without a base, then numbered revisions with the current base', async () => {
    const { t, issue } = w;
    const created = await t.api('PUT', url(issue.id), { body: docBody() });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ key: 'plan', title: 'Plan', format: 'markdown', body: '# Plan\n\nShip it.', revisionNumber: 1, bodyBytes: 16 });
    const first = created.body.revisionId;

    // The readable identifier works wherever the UUID does.
    const updated = await t.api('PUT', url(issue.identifier), { body: docBody({ body: 'v2 — café', baseRevisionId: first }) });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, revisionNumber: 2, body: 'v2 — café', bodyBytes: 12 });
    expect(updated.body.revisionId).not.toBe(first);

    expect((await t.api('GET', url(issue.id))).body).toEqual(updated.body);
    const list = await t.api('GET', `/api/issues/${issue.identifier}/documents`);
    expect(list.status).toBe(200);
    const { id: _id, body: _body, ...summary } = updated.body;
    expect(list.body).toEqual([summary]);

    const revisions = await t.api('GET', `${url(issue.id)}/revisions`);
    expect(revisions.status).toBe(200);
    expect(revisions.body.map((r: any) => [r.revisionNumber, r.id, r.body])).toEqual([
      [2, updated.body.revisionId, 'v2 — café'],
      [1, first, '# Plan\n\nShip it.'],
    ]);
    expect(revisions.body[0]).toMatchObject({ title: 'Plan', format: 'markdown', authorType: 'board', authorId: null });
  });

  it('lists several documents by key, metadata only', async () => {
    const { t, issue } = w;
    await putDoc(t, issue.id, 'notes', { format: 'text', body: 'n' });
    await putDoc(t, issue.id, 'design');
    const list = (await t.api('GET', `/api/issues/${issue.id}/documents`)).body;
    expect(list.map((d: any) => d.key)).toEqual(['design', 'notes']);
    expect(Object.keys(list[0]).sort()).toEqual(['bodyBytes', 'createdAt', 'format', 'key', 'revisionId', 'revisionNumber', 'title', 'updatedAt']);
    expect((await t.api('GET', `/api/issues/${w.foreignIssue.id}/documents`)).body).toEqual([]);
  });

  it('refuses to create a key that exists, and an update with a stale or missing base, writing nothing', async () => {
    const { t, issue } = w;
    const v1 = await putDoc(t, issue.id);
    const v2 = (await t.api('PUT', url(issue.id), { body: docBody({ body: 'two', baseRevisionId: v1.revisionId }) })).body;
    const before = t.snapshot();

    const exists = await t.api('PUT', url(issue.id), { body: docBody({ body: 'again' }) });
    expectError(exists, 409, 'document_exists');
    expect(exists.body.details).toEqual({ currentRevisionId: v2.revisionId, currentRevisionNumber: 2 });

    const stale = await t.api('PUT', url(issue.id), { body: docBody({ body: 'three', baseRevisionId: v1.revisionId }) });
    expectError(stale, 409, 'stale_revision');
    expect(stale.body.details).toEqual({ currentRevisionId: v2.revisionId, currentRevisionNumber: 2 });

    const missing = await t.api('PUT', url(issue.id, 'design'), { body: docBody({ baseRevisionId: v1.revisionId }) });
    expectError(missing, 409, 'stale_revision');
    expect(missing.body.details).toEqual({ currentRevisionId: null, currentRevisionNumber: null });
    expect(t.snapshot()).toEqual(before);
  });

  it('treats an identical PUT with the current base as a no-op, and still refuses it with a stale base', async () => {
    const { t, issue } = w;
    const v1 = await putDoc(t, issue.id);
    const v2 = (await t.api('PUT', url(issue.id), { body: docBody({ body: 'two', baseRevisionId: v1.revisionId }) })).body;
    const before = t.snapshot();
    const same = await t.api('PUT', url(issue.id), { body: docBody({ body: 'two', baseRevisionId: v2.revisionId }) });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(v2);
    expect(t.snapshot()).toEqual(before);
    expectError(await t.api('PUT', url(issue.id), { body: docBody({ body: 'two', baseRevisionId: v1.revisionId }) }), 409, 'stale_revision');
    // A change of title or format alone is a change.
    const retitled = await t.api('PUT', url(issue.id), { body: docBody({ title: 'Plan B', body: 'two', baseRevisionId: v2.revisionId }) });
    expect(retitled.body.revisionNumber).toBe(3);
  });

  it('lets exactly one of ten concurrent updates with the same base win', async () => {
    const { t, issue } = w;
    const v1 = await putDoc(t, issue.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.api('PUT', url(issue.id), { body: docBody({ body: `writer ${i}`, baseRevisionId: v1.revisionId }) })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    const winner = results.find((r) => r.status === 200)!;
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.code).toBe('stale_revision');
      expect(r.body.details).toEqual({ currentRevisionId: winner.body.revisionId, currentRevisionNumber: 2 });
    }
    expect(count(t, 'issue_document_revisions')).toBe(2);
    expect((await t.api('GET', url(issue.id))).body.body).toBe(winner.body.body);
  });

  it('lets only one of concurrent creations of the same key succeed', async () => {
    const { t, issue } = w;
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => t.api('PUT', url(issue.id), { body: docBody({ body: `c${i}` }) })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'document_exists')).toBe(true);
    expect(count(t, 'issue_documents')).toBe(1);
  });
});

describe('issue documents: validation and limits', () => {
  it('names the field of a bad key, title, format or unknown field, and writes nothing', async () => {
    const { t, issue } = w;
    const before = t.snapshot();
    for (const key of ['Plan', '1plan', 'pl an', 'plan.md', `p${'x'.repeat(64)}`]) {
      expectError(await t.api('PUT', url(issue.id, encodeURIComponent(key)), { body: docBody() }), 400, 'validation_error', 'params.key');
      expectError(await t.api('GET', url(issue.id, encodeURIComponent(key))), 400, 'validation_error', 'params.key');
    }
    expect((await t.api('PUT', url(issue.id, `p${'x'.repeat(63)}`), { body: docBody() })).status).toBe(201);
    const after = t.snapshot();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'body.title'],
      [{ title: '   ' }, 'body.title'],
      [{ title: 'x'.repeat(201) }, 'body.title'],
      [{ format: 'html' }, 'body.format'],
      [{ body: 42 }, 'body.body'],
      [{ baseRevisionId: 'r1' }, 'body.baseRevisionId'],
      [{ owner: 'me' }, 'body.owner'],
    ];
    for (const [over, field] of cases) {
      expectError(await t.api('PUT', url(issue.id, 'design'), { body: docBody(over) }), 400, 'validation_error', field);
    }
    const { format: _f, ...noFormat } = docBody();
    expectError(await t.api('PUT', url(issue.id, 'design'), { body: noFormat }), 400, 'validation_error', 'body.format');
    expect(t.snapshot()).toEqual(after);
    expect(after.issue_documents).toBe(before.issue_documents! + 1);
    expect((await t.api('PUT', url(issue.id, 'design'), { body: docBody({ title: 'x'.repeat(200) }) })).status).toBe(201);
  });

  it('accepts a body of exactly 512 KiB in UTF-8 and refuses one byte more', async () => {
    const { t, issue } = w;
    const limit = 512 * 1024;
    // Two-byte characters: the limit is bytes, not characters.
    const atLimit = 'é'.repeat(limit / 2);
    const created = await t.api('PUT', url(issue.id), { body: docBody({ body: atLimit }) });
    expect(created.status, created.text.slice(0, 200)).toBe(201);
    expect(created.body.bodyBytes).toBe(limit);
    const before = t.snapshot();
    const tooBig = await t.api('PUT', url(issue.id, 'notes'), { body: docBody({ body: `${atLimit}x` }) });
    expectError(tooBig, 400, 'document_too_large', 'body.body');
    expect(tooBig.body.details).toMatchObject({ maxBytes: limit, bodyBytes: limit + 1 });
    const tooBigUpdate = await t.api('PUT', url(issue.id), { body: docBody({ body: `é${atLimit}`, baseRevisionId: created.body.revisionId }) });
    expectError(tooBigUpdate, 400, 'document_too_large');
    expect(t.snapshot()).toEqual(before);
  });
});

describe('issue documents: access, deletion and activity', () => {
  it('lets agents of the company write documents, and hides them from other companies', async () => {
    const { t, issue, agentKey, agentId, foreignKey } = w;
    const doc = await putDoc(t, issue.id, 'plan', {}, agentKey);
    const revs = (await t.api('GET', `${url(issue.id)}/revisions`, { token: agentKey })).body;
    expect(revs[0]).toMatchObject({ authorType: 'agent', authorId: agentId });
    const before = t.snapshot();
    for (const [method, path, body] of [
      ['GET', `/api/issues/${issue.id}/documents`],
      ['GET', url(issue.id)],
      ['GET', url(issue.identifier)],
      ['GET', `${url(issue.id)}/revisions`],
      ['PUT', url(issue.id), docBody({ baseRevisionId: doc.revisionId, body: 'x' })],
      ['PUT', url(issue.id, 'other'), docBody()],
    ] as const) {
      expectError(await t.api(method, path, { token: foreignKey, ...(body ? { body } : {}) }), 404, 'not_found');
    }
    expectError(await t.api('GET', url(issue.id, 'missing')), 404, 'not_found');
    expectError(await t.api('GET', url('ACME-999')), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
  });

  it('deletes for the board only; the key is then free and the old base stale', async () => {
    const { t, issue, agentKey } = w;
    const doc = await putDoc(t, issue.id);
    const before = t.snapshot();
    expectError(await t.api('DELETE', url(issue.id), { token: agentKey }), 403, 'board_only');
    expectError(await t.api('DELETE', url(issue.id, 'missing')), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);

    const deleted = await t.api('DELETE', url(issue.identifier));
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ id: doc.id, key: 'plan', revisionId: doc.revisionId });
    expect(typeof deleted.body.deletedAt).toBe('string');
    expectError(await t.api('GET', url(issue.id)), 404, 'not_found');
    expectError(await t.api('GET', `${url(issue.id)}/revisions`), 404, 'not_found');
    expectError(await t.api('DELETE', url(issue.id)), 404, 'not_found');
    expect((await t.api('GET', `/api/issues/${issue.id}/documents`)).body).toEqual([]);
    expectError(await t.api('PUT', url(issue.id), { body: docBody({ baseRevisionId: doc.revisionId }) }), 409, 'stale_revision');

    const fresh = await t.api('PUT', url(issue.id), { body: docBody({ body: 'fresh' }) });
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(doc.id);
    expect(fresh.body.revisionNumber).toBe(1);
    expect((await t.api('GET', `${url(issue.id)}/revisions`)).body).toHaveLength(1);
    expect(count(t, 'issue_documents', 'deleted_at IS NOT NULL')).toBe(1);
  });

  it('records activity for create, update and delete without the body text', async () => {
    const { t, issue, companyId } = w;
    const secret = 'the-body-text-must-not-leak';
    const v1 = await putDoc(t, issue.id, 'plan', { body: secret });
    await t.api('PUT', url(issue.id), { body: docBody({ body: `${secret} 2`, baseRevisionId: v1.revisionId }) });
    await t.api('DELETE', url(issue.id));
    const items = (await allActivity(t, companyId)).filter((a) => a.action.startsWith('issue.document_'));
    expect(items.map((a) => a.action)).toEqual(['issue.document_deleted', 'issue.document_updated', 'issue.document_created']);
    for (const a of items) {
      expect(a).toMatchObject({ entityType: 'issue', entityId: issue.id });
      expect(a.details).toMatchObject({ documentId: v1.id, key: 'plan' });
      expect(JSON.stringify(a)).not.toContain(secret);
    }
  });

  it('reads summaries and the plan document for the issue detail in one view, equal to the summaries route', async () => {
    const { t, issue } = w;
    const { db } = t.core.services.ctx;
    expect(documentsView(db, issue.id)).toEqual({ documentSummaries: [], planDocument: null });
    await putDoc(t, issue.id, 'design');
    expect(documentsView(db, issue.id).planDocument).toBeNull();
    const plan = await putDoc(t, issue.id, 'plan', { title: 'The plan', format: 'text', body: 'ünïcode' });
    const view = documentsView(db, issue.id);
    expect(view.planDocument).toEqual({
      key: 'plan',
      title: 'The plan',
      format: 'text',
      body: 'ünïcode',
      revisionId: plan.revisionId,
      revisionNumber: 1,
      updatedAt: plan.updatedAt,
    });
    expect(view.documentSummaries.map((d) => [d.key, d.bodyBytes])).toEqual([
      ['design', 16],
      ['plan', Buffer.byteLength('ünïcode')],
    ]);
    expect(view.documentSummaries).toEqual(documentSummaries(db, issue.id, { limit: 500 }).items);
    // A deleted plan is gone from both.
    expect((await t.api('DELETE', url(issue.id))).status).toBe(200);
    expect(documentsView(db, issue.id)).toEqual({ documentSummaries: documentSummaries(db, issue.id, { limit: 500 }).items, planDocument: null });
    const other = insertIssue(t, w.companyId);
    expect(documentsView(db, other.id)).toEqual({ documentSummaries: [], planDocument: null });
  });
});
