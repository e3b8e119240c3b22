import { describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCompany, startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { IMAGES } from '../../fixtures/images.js';
import { assets } from '../../../main/core/assets/schema.js';
import { insertIssue } from '../issues/attachments/helpers.js';

describe('stored files at start', () => {
  it("removes files no live record of the folder's company owns and keeps the rest", async () => {
    const home = tempHome();
    const t = await startCore({ home });
    const companyId = await createCompany(t);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(IMAGES.png)], { type: 'image/png' }), 'logo.png');
    const logo = (await t.api('POST', `/api/companies/${companyId}/logo`, { raw: form })).body.assetId;
    await t.close();
    const folder = path.join(home, 'attachments', companyId);
    expect(readdirSync(folder)).toEqual([logo]);
    // What a crash could leave: a half-written upload and a file whose row was never committed.
    writeFileSync(path.join(folder, 'deadbeef.partial'), 'x');
    writeFileSync(path.join(folder, '00000000-0000-4000-8000-000000000000'), 'x');
    // Another company's folder holding this company's file name is not this company's file.
    const other = path.join(home, 'attachments', randomUUID());
    mkdirSync(other);
    writeFileSync(path.join(other, logo), 'x');
    // Nothing flat outside the company folders; a folder that is no company's is left alone.
    writeFileSync(path.join(home, 'attachments', 'stray.partial'), 'x');
    mkdirSync(path.join(home, 'attachments', 'planted'));
    writeFileSync(path.join(home, 'attachments', 'planted', 'keep'), 'x');
    const again = await startCore({ home });
    expect(readdirSync(folder)).toEqual([logo]);
    expect(readdirSync(other)).toEqual([]);
    expect(existsSync(path.join(home, 'attachments', 'stray.partial'))).toBe(false);
    expect(readdirSync(path.join(home, 'attachments', 'planted'))).toEqual(['keep']);
    const content = await again.api('GET', `/api/assets/${logo}/content`);
    expect(content.status).toBe(200);
    await again.close();
  });
});

/** An asset row as a data home from before per-company folders recorded it. */
function insertAsset(t: TestCore, companyId: string, issueId: string, storageName: string, bytes: Buffer): string {
  const id = randomUUID();
  t.core.services.ctx.db
    .insert(assets)
    .values({
      id,
      companyId,
      kind: 'attachment',
      contentType: 'text/plain',
      byteSize: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      originalName: 'old.txt',
      storageName,
      createdByType: 'board',
      createdAt: new Date().toISOString(),
      issueId,
    })
    .run();
  return id;
}

const get = (t: TestCore, id: string) => fetch(`${t.url}/api/attachments/${id}/content`, { headers: { authorization: `Bearer ${t.boardToken}` } });

describe('a data home with the flat layout (attachments/<storageName>)', () => {
  it("moves each file into the folder of the company that recorded it first, keeps serving it, and does it once", async () => {
    const home = tempHome();
    const t = await startCore({ home });
    const first = await createCompany(t, 'First');
    const second = await createCompany(t, 'Second');
    const name = randomUUID();
    const bytes = Buffer.from('written before per-company folders');
    const owned = insertAsset(t, first, insertIssue(t, first, 'FIR-1'), name, bytes);
    // A forged row of another company naming the same file: the first-recorded owner keeps it.
    const forged = insertAsset(t, second, insertIssue(t, second, 'SEC-1'), name, bytes);
    await t.close();
    const root = path.join(home, 'attachments');
    writeFileSync(path.join(root, name), bytes, { mode: 0o600 });
    writeFileSync(path.join(root, randomUUID()), 'no row owns this');

    for (const start of [1, 2, 3]) {
      const again = await startCore({ home });
      expect(readdirSync(root).sort(), `start ${start}`).toEqual([first]);
      expect(readdirSync(path.join(root, first))).toEqual([name]);
      const res = await get(again, owned);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
      expect((await get(again, forged)).status).toBe(404);
      await again.close();
    }
  });
});
