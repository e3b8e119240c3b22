import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '../../../../main/core/assets/service.js';
import { IMAGES } from '../../../fixtures/images.js';
import { ALLOWED, EXE } from './files.js';
import { createCompany } from '../../../helpers/core.js';
import { attachmentsDir, content, form, insertIssue, startWorld, storedFiles, upload, type World } from './helpers.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(async () => {
  await w.t.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('attachment upload and content', () => {
  it("stores a new upload in its company's own folder, one folder per company", async () => {
    const other = await createCompany(w.t, 'Other');
    const mine = await upload(w, form(Buffer.from('mine'), 'text/plain', 'a.txt'));
    const theirs = await upload(w, form(Buffer.from('theirs'), 'text/plain', 'b.txt'), { companyId: other, issueId: insertIssue(w.t, other, 'OTH-1') });
    expect(mine.status, mine.text).toBe(201);
    expect(theirs.status, theirs.text).toBe(201);
    expect(readdirSync(path.join(w.t.home, 'attachments')).sort()).toEqual([w.companyId, other].sort());
    expect(readdirSync(attachmentsDir(w.t, w.companyId))).toEqual([mine.body.id]);
    expect(readdirSync(attachmentsDir(w.t, other))).toEqual([theirs.body.id]);
    expect(statSync(attachmentsDir(w.t, w.companyId)).mode & 0o777).toBe(0o700);
    expect(await (await content(w.t, theirs.body.id)).text()).toBe('theirs');
  });

  it.each(ALLOWED)('stores %s (declared %s) and serves the same bytes with safe headers', async (name, declared, stored, bytes) => {
    const res = await upload(w, form(bytes, declared, name));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      companyId: w.companyId,
      issueId: w.issueId,
      fileName: name,
      contentType: stored,
      byteSize: bytes.length,
      createdByType: 'board',
      createdById: null,
      contentUrl: `/api/attachments/${res.body.id}/content`,
    });
    expect(res.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(storedFiles(w.t)).toEqual([res.body.id]);

    const got = await content(w.t, res.body.id);
    expect(got.status).toBe(200);
    const text = stored.startsWith('text/') || stored === 'application/json';
    expect(got.headers.get('content-type')).toBe(text ? `${stored}; charset=utf-8` : stored);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('content-security-policy')).toContain("default-src 'none'");
    const raster = stored.startsWith('image/') && stored !== 'image/svg+xml';
    expect(got.headers.get('content-disposition')).toBe(`${raster ? 'inline' : 'attachment'}; filename="${name}"`);
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('lists live attachments oldest first, by issue id or identifier', async () => {
    const first = await upload(w, form(Buffer.from('one'), 'text/plain', 'one.txt'));
    const second = await upload(w, form(IMAGES.png, 'image/png', 'two.png'));
    const byId = await w.t.api('GET', `/api/issues/${w.issueId}/attachments`);
    expect(byId.status).toBe(200);
    expect(byId.body.map((a: any) => a.id)).toEqual([first.body.id, second.body.id]);
    expect(byId.body[0]).toEqual(first.body);
    const byIdentifier = await w.t.api('GET', '/api/issues/ACME-1/attachments');
    expect(byIdentifier.body).toEqual(byId.body);
  });

  it('uploads by identifier and records activity with the file name, not the content', async () => {
    const res = await upload(w, form(Buffer.from('secret-ish body text'), 'text/plain', 'minutes.txt'), { issueId: 'ACME-1' });
    expect(res.status).toBe(201);
    expect(res.body.issueId).toBe(w.issueId);
    const log = await w.t.api('GET', `/api/companies/${w.companyId}/activity?entityId=${w.issueId}`);
    const entry = log.body.items.find((a: any) => a.action === 'issue.attachment_added');
    expect(entry.summary).toContain('"minutes.txt"');
    expect(JSON.stringify(entry)).not.toContain('secret-ish');
    expect(entry.details).toMatchObject({ attachmentId: res.body.id, fileName: 'minutes.txt' });
  });
});

describe('attachment refusals write nothing', () => {
  async function refused(body: FormData | { json: unknown }, status: number, code: string) {
    const before = w.t.snapshot();
    const files = storedFiles(w.t);
    const res =
      body instanceof FormData ? await upload(w, body) : await w.t.api('POST', `/api/companies/${w.companyId}/issues/${w.issueId}/attachments`, { body: body.json });
    expect(res.status, res.text).toBe(status);
    expect(res.body.code).toBe(code);
    expect(w.t.snapshot()).toEqual(before);
    expect(storedFiles(w.t)).toEqual(files);
    return res;
  }

  it.each([
    ['png bytes declared as gif', IMAGES.png, 'image/gif'],
    ['text declared as pdf', Buffer.from('not a pdf'), 'application/pdf'],
    ['invalid JSON', Buffer.from('{"ok": tru'), 'application/json'],
    ['binary declared as text', Buffer.from([0xff, 0xfe, 0x00, 0x41]), 'text/plain'],
    ['a NUL byte in CSV', Buffer.from('a,b\n1,\0\n'), 'text/csv'],
    ['text declared as zip', Buffer.from('PK but not a zip'), 'application/zip'],
    ['HTML declared as svg', Buffer.from('<html><script>alert(1)</script></html>'), 'image/svg+xml'],
    ['text/html', Buffer.from('<!doctype html><script>alert(1)</script>'), 'text/html'],
    ['image/bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'image/bmp'],
    ['application/x-msdownload', EXE, 'application/x-msdownload'],
    ['application/octet-stream', IMAGES.png, 'application/octet-stream'],
  ] as const)('refuses %s with 415', async (_label, bytes, type) => {
    const res = await refused(form(bytes, type, 'file.bin'), 415, 'unsupported_attachment_type');
    expect(res.body.details).toEqual({ declared: type });
  });

  it('refuses a form without a file part, naming the field', async () => {
    const f = new FormData();
    f.append('note', 'hello');
    const res = await refused(f, 400, 'missing_file');
    expect(res.body.error).toContain('"file"');
  });

  it('refuses a file part under another field name, naming the expected one', async () => {
    const res = await refused(form(IMAGES.png, 'image/png', 'a.png', 'upload'), 400, 'missing_file');
    expect(res.body.error).toContain('named "file"');
    expect(res.body.details).toEqual({ expectedField: 'file' });
  });

  it('refuses two file parts, an empty file, a JSON body and an oversized file', async () => {
    const two = form(IMAGES.png, 'image/png', 'a.png');
    two.append('file', new Blob([new Uint8Array(IMAGES.gif)], { type: 'image/gif' }), 'b.gif');
    await refused(two, 400, 'too_many_files');
    await refused(form(Buffer.alloc(0), 'text/plain', 'empty.txt'), 400, 'empty_file');
    await refused({ json: { file: 'x' } }, 400, 'unsupported_media_type');
    await refused(form(Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(MAX_UPLOAD_BYTES)]), 'application/pdf', 'big.pdf'), 413, 'payload_too_large');
  });

  it('accepts exactly the limit', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(MAX_UPLOAD_BYTES - 5)]);
    const res = await upload(w, form(bytes, 'application/pdf', 'limit.pdf'));
    expect(res.status).toBe(201);
    expect(res.body.byteSize).toBe(MAX_UPLOAD_BYTES);
  });
});

describe('file names', () => {
  it('keeps a traversal name only as sanitised metadata and writes nowhere else', async () => {
    const homeBefore = readdirSync(w.t.home).sort();
    const res = await upload(w, form(Buffer.from('root:x:0:0'), 'text/plain', '../../etc/passwd'));
    expect(res.status).toBe(201);
    expect(res.body.fileName).toBe('passwd');
    expect(storedFiles(w.t)).toEqual([res.body.id]);
    expect(res.body.id).toMatch(UUID);
    expect(statSync(path.join(attachmentsDir(w.t, w.companyId), res.body.id)).mode & 0o777).toBe(0o600);
    expect(readdirSync(w.t.home).sort()).toEqual(homeBefore);
    expect(existsSync(path.resolve(attachmentsDir(w.t, w.companyId), '../../etc/passwd'))).toBe(false);
    const back = await upload(w, form(Buffer.from('x'), 'text/plain', '..\\..\\evil.txt'));
    expect(back.body.fileName).toBe('evil.txt');
    // FormData percent-encodes quotes itself; the bidi override would disguise the extension.
    const tricky = await upload(w, form(Buffer.from('x'), 'text/plain', 'a;b\u202Etxt.exe'));
    expect(tricky.body.fileName).toBe('a_b_txt.exe');
    expect((await content(w.t, tricky.body.id)).headers.get('content-disposition')).toBe('attachment; filename="a_b_txt.exe"');
  });

  it('sends a non-ASCII name as an ASCII fallback plus RFC 5987 filename*', async () => {
    const res = await upload(w, form(Buffer.from('bonjour'), 'text/plain', 'résumé 報告.txt'));
    expect(res.body.fileName).toBe('résumé 報告.txt');
    const got = await content(w.t, res.body.id);
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ _.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E5%A0%B1%E5%91%8A.txt`,
    );
    const photo = await upload(w, form(IMAGES.png, 'image/png', "Foto (1)'s.png"));
    expect((await content(w.t, photo.body.id)).headers.get('content-disposition')).toBe('inline; filename="Foto (1)_s.png"');
  });
});

describe('openapi', () => {
  it('documents the attachment routes, the field name and the allowlist', async () => {
    const doc = (await w.t.api('GET', '/api/openapi.json')).body;
    for (const p of ['/api/companies/{companyId}/issues/{issueId}/attachments', '/api/issues/{issueId}/attachments', '/api/attachments/{attachmentId}/content', '/api/attachments/{attachmentId}']) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    const post = doc.paths['/api/companies/{companyId}/issues/{issueId}/attachments'].post;
    expect(post.summary).toContain('named "file"');
    expect(post.description).toContain('application/pdf');
  });
});
