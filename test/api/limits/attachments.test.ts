import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentKey, type TestCore } from '../../helpers/core.js';
import { limitHits, setLimits, startLimitsWorld, type LimitsWorld } from './helpers.js';

let w: LimitsWorld | undefined;
afterEach(async () => {
  await w?.t.close();
  w = undefined;
});

const MiB = 1024 * 1024;
const file = (bytes: number) => {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(Buffer.alloc(bytes, 'a'))], { type: 'text/plain' }), 'notes.txt');
  return f;
};
const upload = (w: LimitsWorld, bytes: number, token?: string) =>
  w.t.api('POST', `/api/companies/${w.companyId}/issues/${w.issue.id}/attachments`, { raw: file(bytes), ...(token ? { token } : {}) });
const stored = (t: TestCore) => readdirSync(path.join(t.home, 'attachments'), { recursive: true }).length;

describe('the company attachment budget', () => {
  it('takes uploads up to exactly the budget and refuses one byte more with 413, keeping nothing of it', async () => {
    w = await startLimitsWorld();
    await setLimits(w.t, { attachmentCompanyBudgetBytes: 3000 });
    expect((await upload(w, 1000, w.key)).status).toBe(201);
    const second = await upload(w, 2000);
    expect(second.status).toBe(201);
    const files = stored(w.t);
    const before = w.t.snapshot();
    const over = await upload(w, 1, w.key);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'attachment_budget_exceeded', details: { limit: 'attachmentCompanyBudgetBytes', budgetBytes: 3000, usedBytes: 3000, fileBytes: 1 } });
    expect(stored(w.t)).toBe(files);
    const after = w.t.snapshot();
    expect(after.assets).toBe(before.assets);
    // The board is held to the budget too (but only agents' hits are reported).
    expect((await upload(w, 1)).status).toBe(413);
    const hits = await limitHits(w.t, w.companyId);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ actorId: w.agent.id, details: { limit: 'attachmentCompanyBudgetBytes' } });
    // Deleting frees the budget again.
    expect((await w.t.api('DELETE', `/api/attachments/${second.body.id}`)).status).toBe(204);
    expect((await upload(w, 2000, w.key)).status).toBe(201);
    // The board sees each company's use against its budget.
    const disk = await w.t.api('GET', '/api/system/disk');
    expect(disk.body.companies).toEqual([expect.objectContaining({ companyId: w.companyId, name: 'Acme', attachmentBytes: 3000, attachmentBudgetBytes: 3000 })]);
  });
});

describe('the per-agent upload rate', () => {
  it('lets an agent make exactly its uploads per minute, then answers 429 with Retry-After, for all its keys', async () => {
    w = await startLimitsWorld();
    await setLimits(w.t, { attachmentUploadsPerMinute: 3 });
    const other = await createAgentKey(w.t, w.agent.id);
    for (const token of [w.key, other, w.key]) expect((await upload(w, 10, token)).status).toBe(201);
    const files = stored(w.t);
    const refused = await upload(w, 10, other);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', details: { limit: 'attachmentUploadsPerMinute', max: 3 } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(stored(w.t)).toBe(files);
    // The board is not rate limited.
    expect((await upload(w, 10)).status).toBe(201);
    expect((await limitHits(w.t, w.companyId))[0].details.limit).toBe('attachmentUploadsPerMinute');
  });

  it('counts bytes too: exactly the bytes per minute pass, one byte more is 429', async () => {
    w = await startLimitsWorld();
    // The smallest bytes rate allowed is the per-file size (10 MiB).
    expect((await w.t.api('PATCH', '/api/settings', { body: { limits: { attachmentBytesPerMinute: 10 * MiB - 1 } } })).status).toBe(400);
    await setLimits(w.t, { attachmentBytesPerMinute: 10 * MiB });
    expect((await upload(w, 5 * MiB, w.key)).status).toBe(201);
    expect((await upload(w, 5 * MiB, w.key)).status).toBe(201);
    const refused = await upload(w, 1, w.key);
    expect(refused.status).toBe(429);
    expect(refused.body.details).toMatchObject({ limit: 'attachmentBytesPerMinute', max: 10 * MiB });
    expect(refused.headers.get('retry-after')).toBeTruthy();
  });
});

describe('limits in the settings', () => {
  it('are all visible to the board with their defaults, change with PATCH or PUT, and are hidden from agents', async () => {
    w = await startLimitsWorld();
    const settings = await w.t.api('GET', '/api/settings');
    expect(settings.body.limits).toEqual({
      transcriptMaxBytes: 50 * MiB,
      transcriptCompanyBudgetBytes: 5 * 1024 * MiB,
      attachmentCompanyBudgetBytes: 2 * 1024 * MiB,
      workspaceCompanyBudgetBytes: 20 * 1024 * MiB,
      attachmentUploadsPerMinute: 30,
      attachmentBytesPerMinute: 100 * MiB,
      commentsPerMinute: 30,
      attachmentMaxBytes: 10 * MiB,
      commentMaxBytes: 64 * 1024,
      commentPageDefault: 100,
      commentPageMax: 500,
      agentsPerCompany: 1000,
      projectsPerCompany: 1000,
    });
    const put = await w.t.api('PUT', '/api/settings', { body: { limits: { commentsPerMinute: 7 } } });
    expect(put.body.limits).toMatchObject({ commentsPerMinute: 7, attachmentUploadsPerMinute: 30 });
    expect(put.body.maxConcurrentRuns).toBe(settings.body.maxConcurrentRuns);
    const patch = await w.t.api('PATCH', '/api/settings', { body: { limits: { transcriptMaxBytes: 2 * MiB } } });
    expect(patch.body.limits).toMatchObject({ commentsPerMinute: 7, transcriptMaxBytes: 2 * MiB });
    // Fixed limits cannot be set; a cap below 1 MiB is refused; nothing is half-applied.
    expect((await w.t.api('PATCH', '/api/settings', { body: { limits: { commentMaxBytes: 1 } } })).status).toBe(400);
    expect((await w.t.api('PATCH', '/api/settings', { body: { limits: { commentsPerMinute: 9, transcriptMaxBytes: 1000 } } })).status).toBe(400);
    expect((await w.t.api('GET', '/api/settings')).body.limits.commentsPerMinute).toBe(7);
    expect((await w.t.api('GET', '/api/settings', { token: w.key })).status).toBe(403);
    expect((await w.t.api('PATCH', '/api/settings', { token: w.key, body: { limits: { commentsPerMinute: 1000 } } })).status).toBe(403);
  });
});
