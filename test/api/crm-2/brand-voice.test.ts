import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { chatAnswer, createSecret, fakeApi, sha256, startCrmCore } from './helpers.js';

const verdict = { verdict: 'needs_revision', score: 64, summary: 'Too many exclamation marks.', findings: [{ severity: 'minor', message: 'Drop the second "!"', excerpt: 'Great!!' }] };

describe('brand voice: cache, single flight, pluggable checker', () => {
  let t: TestCore;
  let companyId: string;
  let model: Awaited<ReturnType<typeof fakeApi>>;
  let answer: (n: number) => { status?: number; body: unknown; delayMs?: number };

  beforeEach(async () => {
    t = await startCrmCore();
    companyId = await createCompany(t);
    answer = () => ({ body: chatAnswer(verdict) });
    model = await fakeApi((_req, n) => answer(n));
  });
  afterEach(async () => {
    await t.close();
    await model.close();
  });

  const configure = async (extra: Record<string, unknown> = {}) => {
    const apiKeyRef = await createSecret(t, companyId, `BV_KEY_${Math.random().toString(36).slice(2, 8).toUpperCase()}`, 'sk-local-test-key');
    const res = await t.api('PUT', `/api/companies/${companyId}/crm/brand-voice/settings`, {
      body: { endpointUrl: `${model.url}/v1/chat/completions`, model: 'judge-1', apiKeyRef, guidelines: 'Calm, plain, no hype.', ...extra },
    });
    expect(res.status).toBe(200);
    return res.body;
  };
  const check = (draft: string, token?: string) =>
    t.api('POST', `/api/companies/${companyId}/crm/brand-voice/check`, { body: { contentSha256: sha256(draft), draft }, ...(token ? { token } : {}) });

  it('a miss calls the endpoint once with the resolved key; a hit makes no call and counts itself', async () => {
    await configure();
    const first = await check('Great!! Buy now.');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ verdict: 'needs_revision', score: 64, model: 'judge-1', cached: false, hitCount: 0 });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.headers.authorization).toBe('Bearer sk-local-test-key');
    expect(model.calls[0]!.body).toMatchObject({ model: 'judge-1', response_format: { type: 'json_object' } });
    expect(JSON.stringify(model.calls[0]!.body.messages)).toContain('Calm, plain, no hype.');

    const second = await check('Great!! Buy now.');
    expect(second.body).toMatchObject({ verdict: 'needs_revision', cached: true, hitCount: 1 });
    const third = await check('Great!! Buy now.');
    expect(third.body.hitCount).toBe(2);
    expect(model.calls).toHaveLength(1);
  });

  it('concurrent misses for one hash make ONE model call and all get its verdict', async () => {
    await configure();
    answer = () => ({ body: chatAnswer({ ...verdict, verdict: 'pass', score: 91 }), delayMs: 300 });
    const results = await Promise.all(Array.from({ length: 6 }, () => check('One calm sentence.')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.verdict))).toEqual(new Set(['pass']));
    expect(model.calls).toHaveLength(1);
    // A different text is a different hash: its own call.
    await check('Another calm sentence.');
    expect(model.calls).toHaveLength(2);
  });

  it('a malformed model answer is a 502 with a clear code and caches nothing', async () => {
    await configure();
    answer = (n) => (n === 1 ? { body: chatAnswer('I think it is fine') } : n === 2 ? { body: chatAnswer({ verdict: 'great', score: 140 }) } : { body: chatAnswer(verdict) });
    const notJson = await check('Hello there.');
    expect(notJson.status).toBe(502);
    expect(notJson.body.code).toBe('brand_voice_malformed_answer');
    const badShape = await check('Hello there.');
    expect(badShape.status).toBe(502);
    expect(badShape.body.code).toBe('brand_voice_malformed_answer');
    expect(badShape.body.details.problems.map((p: { path: string }) => p.path)).toEqual(expect.arrayContaining(['answer.verdict', 'answer.score']));
    const good = await check('Hello there.');
    expect(good.body).toMatchObject({ cached: false, verdict: 'needs_revision' });
    expect(model.calls).toHaveLength(3);

    answer = () => ({ status: 500, body: { error: 'overloaded sk-local-test-key' } });
    const upstream = await check('Fresh text.');
    expect(upstream.status).toBe(502);
    expect(upstream.body.code).toBe('brand_voice_upstream_error');
    expect(upstream.text).not.toContain('sk-local-test-key');
  });

  it('no model checker configured: the built-in rules answer (no 503), and removing the endpoint falls back to them', async () => {
    const builtIn = await check('Calm words.');
    expect(builtIn.status, builtIn.text).toBe(200);
    expect(builtIn.body).toMatchObject({ verdict: 'pass', score: 100, model: 'headcount-rules', cached: false, findings: [] });

    await configure();
    expect((await check('Other calm words.')).body).toMatchObject({ cached: false, model: 'judge-1' });
    const removed = await t.api('DELETE', `/api/companies/${companyId}/crm/brand-voice/settings`);
    expect(removed.status).toBe(204);

    const hit = await check('Other calm words.');
    expect(hit.status).toBe(200);
    expect(hit.body).toMatchObject({ cached: true, verdict: 'needs_revision' });
    const miss = await check('Words never checked.');
    expect(miss.status).toBe(200);
    expect(miss.body).toMatchObject({ cached: false, model: 'headcount-rules' });
    expect(model.calls).toHaveLength(1);
  });

  it('the hash must be the draft’s; agents check in their own company only; settings are board-only', async () => {
    await configure();
    const wrong = await t.api('POST', `/api/companies/${companyId}/crm/brand-voice/check`, { body: { contentSha256: sha256('other text'), draft: 'this text' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('content_sha256_mismatch');
    const badHex = await t.api('POST', `/api/companies/${companyId}/crm/brand-voice/check`, { body: { contentSha256: 'xyz', draft: 'this text' } });
    expect(badHex.status).toBe(400);
    expect(badHex.body.error).toContain('body.contentSha256');

    const agent = await createAgent(t, companyId);
    const key = await createAgentKey(t, agent.id);
    expect((await check('Agent draft.', key)).status).toBe(200);
    const settings = await t.api('PUT', `/api/companies/${companyId}/crm/brand-voice/settings`, { token: key, body: { endpointUrl: model.url, model: 'x', guidelines: 'y' } });
    expect(settings.status).toBe(403);
    expect((await t.api('GET', `/api/companies/${companyId}/crm/brand-voice/settings`, { token: key })).status).toBe(403);

    const other = await createCompany(t, 'Other');
    const foreign = await t.api('POST', `/api/companies/${other}/crm/brand-voice/check`, { token: key, body: { contentSha256: sha256('x'), draft: 'x' } });
    expect(foreign.status).toBe(404);

    const unknownSecret = await t.api('PUT', `/api/companies/${companyId}/crm/brand-voice/settings`, {
      body: { endpointUrl: model.url, model: 'x', guidelines: 'y', apiKeyRef: 'secret://00000000-0000-4000-8000-000000000000:latest' },
    });
    expect(unknownSecret.status).toBe(400);
    expect(unknownSecret.body.error).toContain('body.apiKeyRef');
  });

  it('a new guide clears the company cache, so old verdicts do not answer for it', async () => {
    await configure();
    await check('Stable text.');
    expect((await check('Stable text.')).body.cached).toBe(true);
    const updated = await configure({ guidelines: 'Now: playful, emoji welcome.' });
    expect(updated.cachedVerdicts).toBe(0);
    expect((await check('Stable text.')).body.cached).toBe(false);
    expect(model.calls).toHaveLength(2);
  });

  it('an embedder may plug in its own checker for every company (no settings needed)', async () => {
    const seen: string[] = [];
    const local = await startCrmCore({
      brandVoiceChecker: {
        check: async ({ draft }) => {
          seen.push(draft);
          return { verdict: 'pass', score: 80, summary: 'Fine.', findings: [], model: 'local-model' };
        },
      },
    });
    try {
      const id = await createCompany(local);
      const body = { contentSha256: sha256('Plugged in.'), draft: 'Plugged in.' };
      const first = await local.api('POST', `/api/companies/${id}/crm/brand-voice/check`, { body });
      expect(first.body).toMatchObject({ verdict: 'pass', model: 'local-model', cached: false });
      expect((await local.api('POST', `/api/companies/${id}/crm/brand-voice/check`, { body })).body.cached).toBe(true);
      expect(seen).toEqual(['Plugged in.']);
      expect((await local.api('GET', `/api/companies/${id}/crm/brand-voice/settings`)).body.configured).toBe(true);
    } finally {
      await local.close();
    }
  });

  it('serves the brand-voice self-check skill as markdown', async () => {
    const res = await t.api('GET', '/api/skills/brand-voice');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    expect(res.text).toContain('/crm/brand-voice/check');
    expect(res.text).toContain('brand_voice_unavailable');
  });
});
