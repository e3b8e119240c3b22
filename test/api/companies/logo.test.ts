import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { IMAGES } from '../../fixtures/images.js';
import { MAX_UPLOAD_BYTES } from '../../../main/core/assets/service.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

function form(bytes: Buffer, type: string, name = 'logo'): FormData {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return f;
}

const upload = (bytes: Buffer, type: string, opts: { token?: string; company?: string; name?: string } = {}) =>
  t.api('POST', `/api/companies/${opts.company ?? companyId}/logo`, { raw: form(bytes, type, opts.name), ...(opts.token ? { token: opts.token } : {}) });

describe('company logo', () => {
  it.each([
    ['png', 'image/png', 'image/png'],
    ['jpeg', 'image/jpeg', 'image/jpeg'],
    ['jpeg', 'image/jpg', 'image/jpeg'],
    ['webp', 'image/webp', 'image/webp'],
    ['gif', 'image/gif', 'image/gif'],
    ['svg', 'image/svg+xml', 'image/svg+xml'],
  ] as const)('uploads a %s declared as %s, patches it in and serves it', async (kind, declared, stored) => {
    const res = await upload(IMAGES[kind], declared, { name: `logo.${kind}` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ contentType: stored, byteSize: IMAGES[kind].length });
    const patched = await t.api('PATCH', `/api/companies/${companyId}`, { body: { logoAssetId: res.body.assetId } });
    expect(patched.body.logoAssetId).toBe(res.body.assetId);
    expect(patched.body.logoUrl).toBe(`/api/assets/${res.body.assetId}/content`);
    const content = await fetch(t.url + patched.body.logoUrl, { headers: { authorization: `Bearer ${t.boardToken}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe(stored);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toContain('sandbox');
    expect(content.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Buffer.from(await content.arrayBuffer()).equals(IMAGES[kind])).toBe(true);
  });

  it('refuses bytes that do not match the declared type, and disallowed types', async () => {
    const before = t.snapshot();
    for (const [bytes, type] of [
      [IMAGES.png, 'image/gif'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'image/svg+xml'],
      [Buffer.from('GIF89a but not really'), 'image/png'],
      [IMAGES.gif, 'image/bmp'],
      [IMAGES.png, 'application/octet-stream'],
    ] as const) {
      const res = await upload(bytes, type);
      expect(res.status, type).toBe(415);
      expect(res.body.code).toBe('unsupported_image');
    }
    expect(t.snapshot()).toEqual(before);
    expect(readdirSync(path.join(t.home, 'attachments'))).toEqual([]);
  });

  it('refuses a file over the upload limit with 413 and keeps nothing', async () => {
    const big = Buffer.concat([IMAGES.png, Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const before = t.snapshot();
    const res = await upload(big, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(t.snapshot()).toEqual(before);
    expect(readdirSync(path.join(t.home, 'attachments'))).toEqual([]);
  });

  it('refuses a non-multipart body, an empty form and an empty file', async () => {
    const json = await t.api('POST', `/api/companies/${companyId}/logo`, { body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('unsupported_media_type');
    const noFile = new FormData();
    noFile.append('note', 'hello');
    const empty = await t.api('POST', `/api/companies/${companyId}/logo`, { raw: noFile });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('missing_file');
    const zero = await upload(Buffer.alloc(0), 'image/png');
    expect(zero.status).toBe(400);
    expect(zero.body.code).toBe('empty_file');
  });

  it('keeps logos to the board and to the asset owner company', async () => {
    const other = await createCompany(t, 'Other');
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    expect((await upload(IMAGES.png, 'image/png', { token: key })).status).toBe(403);
    const foreignAsset = (await upload(IMAGES.png, 'image/png', { company: other })).body.assetId;
    const res = await t.api('PATCH', `/api/companies/${companyId}`, { body: { logoAssetId: foreignAsset } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_logo_asset');
    const asAgent = await t.api('GET', `/api/assets/${foreignAsset}/content`, { token: key });
    expect(asAgent.status).toBe(404);
    expect((await t.api('GET', `/api/assets/${foreignAsset}/content`, { token: null })).status).toBe(401);
  });

  it('clears the logo with null', async () => {
    const id = (await upload(IMAGES.png, 'image/png')).body.assetId;
    await t.api('PATCH', `/api/companies/${companyId}`, { body: { logoAssetId: id } });
    const cleared = await t.api('PATCH', `/api/companies/${companyId}`, { body: { logoAssetId: null } });
    expect(cleared.body).toMatchObject({ logoAssetId: null, logoUrl: null });
  });
});
