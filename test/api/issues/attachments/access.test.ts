import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { assets } from '../../../../main/core/assets/schema.js';
import { createAgent, createAgentKey, createCompany } from '../../../helpers/core.js';
import { IMAGES } from '../../../fixtures/images.js';
import { attachmentsDir, content, form, insertIssue, startWorld, storedFiles, upload, type World } from './helpers.js';

let w: World;
let ada: string;
let bob: string;
let otherCompany: string;
let otherIssue: string;
let outsider: string;
beforeEach(async () => {
  w = await startWorld();
  ada = await createAgentKey(w.t, (await createAgent(w.t, w.companyId, { name: 'Ada' })).id);
  bob = await createAgentKey(w.t, (await createAgent(w.t, w.companyId, { name: 'Bob', role: 'engineer' })).id);
  otherCompany = await createCompany(w.t, 'Globex');
  otherIssue = insertIssue(w.t, otherCompany, 'GLOB-1');
  outsider = await createAgentKey(w.t, (await createAgent(w.t, otherCompany, { name: 'Eve' })).id);
});
afterEach(async () => {
  await w.t.close();
});

const txt = (s: string, name = 'n.txt') => form(Buffer.from(s), 'text/plain', name);

describe('who may reach attachments', () => {
  it('lets the company agents upload and read, as themselves', async () => {
    const res = await upload(w, txt('from ada'), { token: ada });
    expect(res.status).toBe(201);
    expect(res.body.createdByType).toBe('agent');
    expect(res.body.createdById).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await w.t.api('GET', `/api/issues/${w.issueId}/attachments`, { token: bob });
    expect(listed.body.map((a: any) => a.id)).toEqual([res.body.id]);
    const got = await content(w.t, res.body.id, bob);
    expect(await got.text()).toBe('from ada');
  });

  it('answers 404 to a foreign agent everywhere, and writes nothing', async () => {
    const mine = (await upload(w, txt('acme only'))).body.id;
    const before = w.t.snapshot();
    const files = storedFiles(w.t);
    // Acme's issue under Acme's path, and under the outsider's own company path.
    for (const companyId of [w.companyId, otherCompany]) {
      const res = await upload(w, txt('x'), { token: outsider, companyId });
      expect(res.status, companyId).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await w.t.api('GET', `/api/issues/${w.issueId}/attachments`, { token: outsider })).status).toBe(404);
    expect((await w.t.api('GET', '/api/issues/ACME-1/attachments', { token: outsider })).status).toBe(404);
    expect((await content(w.t, mine, outsider)).status).toBe(404);
    expect((await w.t.api('DELETE', `/api/attachments/${mine}`, { token: outsider })).status).toBe(404);
    expect(w.t.snapshot()).toEqual(before);
    expect(storedFiles(w.t)).toEqual(files);
    // The same key works on its own company's issue.
    expect((await upload(w, txt('x'), { token: outsider, companyId: otherCompany, issueId: otherIssue })).status).toBe(201);
  });

  it('refuses an issue that is not in the path company, even for the board', async () => {
    const before = w.t.snapshot();
    const res = await upload(w, txt('x'), { companyId: w.companyId, issueId: otherIssue });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const missing = await upload(w, txt('x'), { issueId: 'ACME-99' });
    expect(missing.status).toBe(404);
    expect(w.t.snapshot()).toEqual(before);
    expect(storedFiles(w.t)).toEqual([]);
  });

  it('needs a bearer token for content', async () => {
    const id = (await upload(w, txt('x'))).body.id;
    expect((await w.t.api('GET', `/api/attachments/${id}/content`, { token: null })).status).toBe(401);
    expect((await upload(w, txt('x'), { token: 'hck_wrong' })).status).toBe(401);
  });

  it('does not serve attachments through the logo route, nor logos as attachments', async () => {
    const id = (await upload(w, form(IMAGES.png, 'image/png', 'a.png'))).body.id;
    expect((await w.t.api('GET', `/api/assets/${id}/content`)).status).toBe(404);
    const logo = new FormData();
    logo.append('file', new Blob([new Uint8Array(IMAGES.png)], { type: 'image/png' }), 'logo.png');
    const logoId = (await w.t.api('POST', `/api/companies/${w.companyId}/logo`, { raw: logo })).body.assetId;
    expect((await content(w.t, logoId)).status).toBe(404);
    expect((await w.t.api('DELETE', `/api/attachments/${logoId}`)).status).toBe(404);
  });
});

describe('deleting attachments', () => {
  it('lets the uploader delete, refuses another agent, and removes the bytes', async () => {
    const res = await upload(w, txt('draft', 'draft.txt'), { token: ada });
    const id = res.body.id;
    const before = w.t.snapshot();
    const byBob = await w.t.api('DELETE', `/api/attachments/${id}`, { token: bob });
    expect(byBob.status).toBe(403);
    expect(byBob.body.code).toBe('not_uploader');
    expect(w.t.snapshot()).toEqual(before);
    expect(storedFiles(w.t)).toEqual([id]);

    const byAda = await w.t.api('DELETE', `/api/attachments/${id}`, { token: ada });
    expect(byAda.status).toBe(204);
    expect(byAda.text).toBe('');
    expect(storedFiles(w.t)).toEqual([]);
    expect(existsSync(path.join(attachmentsDir(w.t, w.companyId), id))).toBe(false);
    const row = w.t.core.services.ctx.db.select().from(assets).where(eq(assets.id, id)).get();
    expect(row?.deletedAt).toBeTruthy();

    expect((await content(w.t, id)).status).toBe(404);
    expect((await w.t.api('GET', `/api/issues/${w.issueId}/attachments`)).body).toEqual([]);
    const again = await w.t.api('DELETE', `/api/attachments/${id}`, { token: ada });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');

    const log = await w.t.api('GET', `/api/companies/${w.companyId}/activity?action=issue.attachment_deleted`);
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]).toMatchObject({ actorType: 'agent', entityType: 'issue', entityId: w.issueId });
    expect(log.body.items[0].summary).toContain('"draft.txt"');
  });

  it("lets the board delete an agent's attachment, but not the board's own to agents", async () => {
    const agents = (await upload(w, txt('a'), { token: ada })).body.id;
    expect((await w.t.api('DELETE', `/api/attachments/${agents}`)).status).toBe(204);
    const boards = (await upload(w, txt('b'))).body.id;
    const res = await w.t.api('DELETE', `/api/attachments/${boards}`, { token: ada });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('not_uploader');
    expect((await w.t.api('DELETE', `/api/attachments/${boards}`)).status).toBe(204);
    expect(storedFiles(w.t)).toEqual([]);
  });
});

describe("a company's folder", () => {
  it("is never a link: a company folder swapped for a link to another company's folder reads and deletes nothing", async () => {
    const mine = (await upload(w, txt('mine'))).body.id as string;
    const theirs = (await upload(w, txt('theirs'), { companyId: otherCompany, issueId: otherIssue })).body.id as string;
    const folder = attachmentsDir(w.t, w.companyId);
    renameSync(folder, `${folder}.away`);
    symlinkSync(attachmentsDir(w.t, otherCompany), folder);
    w.t.core.services.ctx.db.update(assets).set({ storageName: theirs }).where(eq(assets.id, mine)).run();
    expect((await content(w.t, mine)).status).toBe(404);
    expect((await w.t.api('DELETE', `/api/attachments/${mine}`)).status).toBe(204);
    expect(readFileSync(path.join(attachmentsDir(w.t, otherCompany), theirs), 'utf8')).toBe('theirs');
    expect(await (await content(w.t, theirs)).text()).toBe('theirs');
  });
});
