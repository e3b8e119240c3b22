import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany } from '../../helpers/core.js';
import { crmWorld, type CrmWorld } from './helpers.js';

const sha = 'ab'.repeat(32);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('content pieces: limits in UTF-8 bytes, traversal-free paths, uniqueness, soft delete', () => {
  let w: CrmWorld;
  let n = 0;
  beforeAll(async () => {
    w = await crmWorld();
  });
  afterAll(() => w.t.close());

  const create = (body: Record<string, unknown>, token?: string) =>
    w.t.api('POST', `${w.base}/content-pieces`, { body: { title: 'T', sourcePath: `content/p${n++}.md`, sourceSha256: sha, ...body }, ...(token ? { token } : {}) });
  const expectRefused = async (body: Record<string, unknown>, field: string) => {
    const res = await create(body);
    expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    expect(res.body.error).toContain(field);
  };

  it('title: 512 bytes pass, 513 fail — with multibyte characters counted as bytes', async () => {
    expect((await create({ title: 'a'.repeat(512) })).status).toBe(201);
    await expectRefused({ title: 'a'.repeat(513) }, 'body.title');
    // 170 × "€" (3 bytes) + "ab" = 512 bytes, only 172 characters.
    const euro = '€'.repeat(170) + 'ab';
    expect(bytes(euro)).toBe(512);
    expect((await create({ title: euro })).status).toBe(201);
    await expectRefused({ title: euro + 'c' }, 'body.title');
    // 128 × "😀" (4 bytes) = 512 bytes; one more astral character is over.
    expect((await create({ title: '😀'.repeat(128) })).status).toBe(201);
    await expectRefused({ title: '😀'.repeat(128) + 'x' }, 'body.title');
  });

  it('summary: 4096 bytes pass, 4097 fail', async () => {
    expect((await create({ summary: 'é'.repeat(2048) })).status).toBe(201);
    await expectRefused({ summary: 'é'.repeat(2048) + 'x' }, 'body.summary');
    expect((await create({ summary: 's'.repeat(4096) })).status).toBe(201);
    await expectRefused({ summary: 's'.repeat(4097) }, 'body.summary');
  });

  it('frontmatter: 65536 bytes of serialized JSON pass, 65537 fail', async () => {
    // {"k":"…"} is 8 bytes of syntax around the value.
    const at = (valueBytes: number) => ({ k: 'ü'.repeat(Math.floor(valueBytes / 2)) + 'x'.repeat(valueBytes % 2) });
    expect(bytes(JSON.stringify(at(65536 - 8)))).toBe(65536);
    expect((await create({ frontmatter: at(65536 - 8) })).status).toBe(201);
    await expectRefused({ frontmatter: at(65536 - 7) }, 'body.frontmatter');
  });

  it('tags: 50 of 64 bytes pass; a 51st tag or a 65-byte tag fail', async () => {
    const tag64 = (i: number) => `${String(i).padStart(2, '0')}${'ß'.repeat(31)}`;
    expect(bytes(tag64(1))).toBe(64);
    const fifty = Array.from({ length: 50 }, (_, i) => tag64(i));
    const ok = await create({ tags: fifty });
    expect(ok.status).toBe(201);
    expect(ok.body.tags).toEqual(fifty);
    await expectRefused({ tags: [...fifty, 'extra'] }, 'body.tags');
    await expectRefused({ tags: [tag64(1) + 'x'] }, 'body.tags.0');
    await expectRefused({ tags: ['dup', 'dup'] }, 'body.tags');
  });

  it('sourceSha256 must be 64 hex characters; stored lower-case', async () => {
    const res = await create({ sourceSha256: 'AB'.repeat(32) });
    expect(res.body.sourceSha256).toBe(sha);
    await expectRefused({ sourceSha256: 'ab'.repeat(31) }, 'body.sourceSha256');
    await expectRefused({ sourceSha256: 'ab'.repeat(32) + 'a' }, 'body.sourceSha256');
    await expectRefused({ sourceSha256: 'g'.repeat(64) }, 'body.sourceSha256');
  });

  it('sourcePath: traversal, absolute, drive, UNC, backslash and encoded forms are refused', async () => {
    for (const sourcePath of [
      '../secret.md',
      'content/../../etc/passwd',
      'content/..',
      '..',
      '/etc/passwd',
      'C:/Windows/win.ini',
      'c:notes.md',
      '\\\\server\\share\\x.md',
      'content\\..\\x.md',
      'content\\x.md',
      '%2e%2e/secret.md',
      '%2E%2E%2Fsecret.md',
      'content/%2e%2e%2fsecret.md',
      '%252e%252e/secret.md',
      '%2fetc%2fpasswd',
      '%5c..%5cx.md',
      './x.md',
      'a//b.md',
      'x.md\u0000.png',
      '',
    ]) {
      await expectRefused({ sourcePath }, 'body.sourcePath');
    }
    for (const sourcePath of ['content/post.md', 'a/b/c..d.md', '...md', 'notes/2026 plan (v2).md', 'déjà/vu.md', 'x%20y.md']) {
      expect((await create({ sourcePath })).status, sourcePath).toBe(201);
    }
  });

  it('one live piece per company and sourcePath (409); a soft-deleted path can be reused; other companies are separate', async () => {
    const first = await create({ sourcePath: 'blog/launch.md' });
    expect(first.status).toBe(201);
    const dup = await create({ sourcePath: 'blog/launch.md' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'duplicate_source_path', details: { id: first.body.id } });
    const other = await create({ sourcePath: 'blog/other.md' });
    expect((await w.t.api('PATCH', `${w.base}/content-pieces/${other.body.id}`, { body: { sourcePath: 'blog/launch.md' } })).status).toBe(409);

    const del = await w.t.api('DELETE', `${w.base}/content-pieces/${first.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body.deletedAt).toBeTruthy();
    expect((await w.t.api('GET', `${w.base}/content-pieces/${first.body.id}`)).status).toBe(404);
    expect((await create({ sourcePath: 'blog/launch.md' })).status).toBe(201);

    const company2 = await createCompany(w.t, 'Second');
    const elsewhere = await w.t.api('POST', `/api/companies/${company2}/crm/content-pieces`, { body: { title: 'T', sourcePath: 'blog/launch.md', sourceSha256: sha } });
    expect(elsewhere.status).toBe(201);
  });

  it('lists by niche, channelIntent, sourcePath and issue; agents of the company write pieces, other companies see 404', async () => {
    const agent = await createAgent(w.t, w.companyId, { name: 'Writer' });
    const key = await createAgentKey(w.t, agent.id);
    const issue = await w.t.api('POST', `/api/companies/${w.companyId}/issues`, { body: { title: 'Write the launch post' } });
    expect(issue.status).toBe(201);
    const piece = await create({ sourcePath: 'launch/final.md', niche: 'saas', channelIntent: 'email', issueId: issue.body.id, tags: ['launch'] }, key);
    expect(piece.status).toBe(201);
    expect(piece.body).toMatchObject({ niche: 'saas', channelIntent: 'email', issueId: issue.body.id });
    const list = (q: string) => w.t.api('GET', `${w.base}/content-pieces?${q}`);
    expect((await list('niche=saas')).body.map((p: any) => p.id)).toEqual([piece.body.id]);
    expect((await list('channelIntent=email')).body.map((p: any) => p.id)).toEqual([piece.body.id]);
    expect((await list(`sourcePath=${encodeURIComponent('launch/final.md')}`)).body.map((p: any) => p.id)).toEqual([piece.body.id]);
    expect((await list(`issueId=${issue.body.id}`)).body.map((p: any) => p.id)).toEqual([piece.body.id]);

    const patched = await w.t.api('PATCH', `${w.base}/content-pieces/${piece.body.id}`, { body: { title: 'Ünïcödé', issueId: null }, token: key });
    expect(patched.body).toMatchObject({ title: 'Ünïcödé', issueId: null, niche: 'saas' });
    expect((await w.t.api('PATCH', `${w.base}/content-pieces/${piece.body.id}`, { body: { title: 'x'.repeat(513) } })).status).toBe(400);

    const company2 = await createCompany(w.t, 'Third');
    const foreignIssue = await w.t.api('POST', `/api/companies/${company2}/issues`, { body: { title: 'Foreign' } });
    const cross = await create({ issueId: foreignIssue.body.id });
    expect(cross.status).toBe(400);
    expect(cross.body.error).toContain('body.issueId');
    expect((await w.t.api('GET', `/api/companies/${company2}/crm/content-pieces`, { token: key })).status).toBe(404);
  });
});
