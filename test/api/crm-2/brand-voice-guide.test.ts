import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { sha256, startCrmCore } from './helpers.js';

const FAKE_CLI = path.resolve(import.meta.dirname, '../../fixtures/brand-voice-cli.mjs');

describe('brand voice out of the box: the guide, its rules, and a model check through an adapter', () => {
  let t: TestCore;
  let companyId: string;
  let log: string;

  beforeEach(async () => {
    t = await startCrmCore();
    companyId = await createCompany(t);
    log = path.join(mkdtempSync(path.join(os.tmpdir(), 'bv-cli-')), 'calls.jsonl');
  });
  afterEach(async () => {
    await t.close();
  });

  const base = () => `/api/companies/${companyId}/crm/brand-voice`;
  const check = (draft: string, token?: string) => t.api('POST', `${base()}/check`, { body: { contentSha256: sha256(draft), draft }, ...(token ? { token } : {}) });
  const putGuide = (body: Record<string, unknown>, token?: string) => t.api('PUT', `${base()}/guide`, { body, ...(token ? { token } : {}) });
  const cliCalls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { prompt: string }) : []);
  const viaCli = (extra: Record<string, unknown> = {}, env: Record<string, string> = {}) => ({
    adapterType: 'vendor_a_local',
    adapterConfig: { command: FAKE_CLI, pty: false, allowedTools: [], maxTurns: 1, env: { BRAND_VOICE_CLI_LOG: log, ...env }, ...extra },
  });

  it('the empty guide: every draft passes the rules, and the cache counts hits', async () => {
    const guide = await t.api('GET', `${base()}/guide`);
    expect(guide.body).toEqual({ toneNotes: '', bannedPhrases: [], requiredClaims: [], minLength: null, maxLength: null, modelCheck: null, updatedAt: null });
    const first = await check('Anything at all.');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ verdict: 'pass', score: 100, model: 'headcount-rules', cached: false, hitCount: 0 });
    expect((await check('Anything at all.')).body).toMatchObject({ cached: true, hitCount: 1 });
    expect((await check('Anything at all.')).body).toMatchObject({ cached: true, hitCount: 2 });
  });

  it('applies banned phrases (case-insensitive, whole words), required claims and length bounds', async () => {
    const saved = await putGuide({
      toneNotes: 'Calm, plain, no hype.',
      bannedPhrases: ['game changer', 'free'],
      requiredClaims: ['SOC 2 certified'],
      minLength: 20,
      maxLength: 120,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ bannedPhrases: ['game changer', 'free'], requiredClaims: ['SOC 2 certified'], minLength: 20, maxLength: 120, modelCheck: null });

    const ok = await check('Our backups run hourly and we are soc 2   certified. Freedom to restore.');
    expect(ok.body).toMatchObject({ verdict: 'pass', score: 100, findings: [] });

    const banned = await check('A real GAME\nChanger for backups, and we are SOC 2 certified.');
    expect(banned.body).toMatchObject({ verdict: 'needs_revision', score: 70, model: 'headcount-rules' });
    expect(banned.body.findings).toEqual([{ severity: 'major', message: 'Uses the banned phrase "game changer"; remove or reword it', excerpt: 'GAME\nChanger' }]);

    const missing = await check('Backups that run every hour, quietly.');
    expect(missing.body.findings.map((f: { message: string }) => f.message)).toEqual(['Does not state the required claim "SOC 2 certified"']);

    const short = await check('Free game changer');
    expect(short.body).toMatchObject({ verdict: 'fail', score: 0 });
    expect(short.body.findings.map((f: { message: string }) => f.message)).toEqual([
      'Uses the banned phrase "game changer"; remove or reword it',
      'Uses the banned phrase "free"; remove or reword it',
      'Does not state the required claim "SOC 2 certified"',
      'Is 17 characters; the guide asks for at least 20',
    ]);
    const long = await check(`SOC 2 certified. ${'x'.repeat(150)}`);
    expect(long.body.findings.map((f: { message: string }) => f.message)).toEqual(['Is 167 characters; the guide allows at most 120']);
  });

  it('the guide is board-only to write, readable by agents, validated, and a change clears the cache', async () => {
    const agent = await createAgent(t, companyId);
    const key = await createAgentKey(t, agent.id);
    expect((await putGuide({ bannedPhrases: ['x'] }, key)).status).toBe(403);
    expect((await t.api('GET', `${base()}/guide`, { token: key })).status).toBe(200);
    const other = await createCompany(t, 'Other');
    expect((await t.api('GET', `/api/companies/${other}/crm/brand-voice/guide`, { token: key })).status).toBe(404);

    for (const [body, field] of [
      [{ minLength: 50, maxLength: 10 }, 'body.maxLength'],
      [{ bannedPhrases: ['  '] }, 'body.bannedPhrases.0'],
      [{ modelCheck: { adapterType: 'nope' } }, 'body.modelCheck.adapterType'],
      [{ modelCheck: viaCli({ timeoutSec: 'soon' }) }, 'body.modelCheck.adapterConfig.timeoutSec'],
    ] as const) {
      const res = await putGuide(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(field);
    }

    expect((await check('Cached once.')).body.cached).toBe(false);
    expect((await check('Cached once.')).body.cached).toBe(true);
    await putGuide({ bannedPhrases: ['once'] });
    const again = await check('Cached once.');
    expect(again.body).toMatchObject({ cached: false, verdict: 'needs_revision' });
    // Saving the same guide again keeps the verdicts.
    await putGuide({ bannedPhrases: ['once'] });
    expect((await check('Cached once.')).body.cached).toBe(true);
  });

  it('a model check through the board-chosen adapter runs the CLI once per new text, merged with the rules', async () => {
    const saved = await putGuide({ toneNotes: 'Calm, plain.', bannedPhrases: ['synergy'], modelCheck: viaCli() });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.modelCheck).toMatchObject({ adapterType: 'vendor_a_local', adapterConfig: { command: FAKE_CLI, pty: false } });

    const first = await check('Pure hype about our product.');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ verdict: 'needs_revision', score: 55, summary: 'Sounds like hype.', model: 'fake-judge-1', cached: false });
    expect(cliCalls()).toHaveLength(1);
    expect(cliCalls()[0]!.prompt).toContain('Calm, plain.');
    expect(cliCalls()[0]!.prompt).toContain('Never use: "synergy"');
    expect(cliCalls()[0]!.prompt).toContain('Pure hype about our product.');

    const hit = await check('Pure hype about our product.');
    expect(hit.body).toMatchObject({ cached: true, hitCount: 1, verdict: 'needs_revision' });
    expect(cliCalls()).toHaveLength(1);

    const both = await check('Synergy, and calm otherwise.');
    expect(both.body).toMatchObject({ verdict: 'needs_revision', score: 70, model: 'fake-judge-1' });
    expect(both.body.findings).toHaveLength(1);
    expect(both.body.summary).toBe('Breaks 1 brand-voice guide rule. Calm and plain.');
    expect(cliCalls()).toHaveLength(2);
  });

  it('a configured CLI that is missing is 503 brand_voice_unavailable; a malformed answer is 502; neither is cached', async () => {
    await check('Checked before.');
    await putGuide({ modelCheck: viaCli({ command: path.join(os.tmpdir(), 'no-such-cli-here') }) });
    const missing = await check('Never checked.');
    expect(missing.status).toBe(503);
    expect(missing.body.code).toBe('brand_voice_unavailable');

    await putGuide({ modelCheck: viaCli({}, { BRAND_VOICE_CLI_ANSWER: 'Looks fine to me' }) });
    const malformed = await check('Never checked.');
    expect(malformed.status).toBe(502);
    expect(malformed.body.code).toBe('brand_voice_malformed_answer');
    await putGuide({ modelCheck: viaCli() });
    expect((await check('Never checked.')).body).toMatchObject({ cached: false, verdict: 'pass', model: 'fake-judge-1' });
  });
});
