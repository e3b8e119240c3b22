import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent, createAgentKey, createCompany, tempHome, type TestCore } from '../../helpers/core.js';
import type { Logger } from '../../../main/core/kernel/logger.js';
import { chatAnswer, createSecret, fakeApi, piece, sha256, startCrmCore } from './helpers.js';

const hooksFile = (home: string, body: unknown) => writeFileSync(path.join(home, 'post-issue-hooks.json'), typeof body === 'string' ? body : JSON.stringify(body));

function recordingLogger() {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { info: () => {}, warn: () => {}, error: (message, fields) => errors.push({ message, ...(fields ? { fields } : {}) }) };
  return { logger, errors };
}

describe('post-issue hooks: registry and reload', () => {
  let t: TestCore | undefined;
  let home: string;
  beforeEach(() => {
    home = tempHome();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    rmSync(home, { recursive: true, force: true });
  });

  it('reload is for instance administrators only (agent key 403); a bad file is refused with reasons and the old hooks stay', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'hc-content-'));
    hooksFile(home, { version: 1, hooks: [{ id: 'coverage', type: 'brand-voice-coverage', event: 'issue.done', config: { contentRoot: root } }] });
    t = await startCrmCore({ home });
    const companyId = await createCompany(t);
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);

    const denied = await t.api('POST', '/api/admin/post-issue-hooks/reload', { token: key });
    expect(denied.status).toBe(403);
    expect((await t.api('GET', '/api/admin/post-issue-hooks', { token: key })).status).toBe(403);

    const status = await t.api('GET', '/api/admin/post-issue-hooks');
    expect(status.body).toMatchObject({ source: 'file', enabledCount: 1, lastError: null, hooks: [{ id: 'coverage', type: 'brand-voice-coverage', enabled: true, event: 'issue.done' }] });

    hooksFile(home, {
      version: 1,
      hooks: [
        { id: 'coverage', type: 'brand-voice-coverage', event: 'issue.done', config: { contentRoot: 'relative/dir' } },
        { id: 'coverage', type: 'brand-voice-coverage', event: 'issue.done', config: { contentRoot: root } },
        { id: 'x', type: 'webhook', event: 'issue.done', config: {} },
      ],
    });
    const refused = await t.api('POST', '/api/admin/post-issue-hooks/reload');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid_hooks_file');
    const paths = refused.body.details.problems.map((p: { path: string }) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['hooks.0.config.contentRoot', 'hooks.2.type']));
    const after = await t.api('GET', '/api/admin/post-issue-hooks');
    expect(after.body.hooks.map((h: { id: string }) => h.id)).toEqual(['coverage']);
    expect(after.body.hooks[0].config.contentRoot).toBe(root);
    expect(after.body.lastError.problems.length).toBeGreaterThan(0);

    hooksFile(home, '{ not json');
    const notJson = await t.api('POST', '/api/admin/post-issue-hooks/reload');
    expect(notJson.status).toBe(422);
    expect(notJson.body.details.problems[0].path).toBe('$');

    hooksFile(home, { version: 1, hooks: [{ id: 'coverage', type: 'brand-voice-coverage', enabled: false, event: 'issue.done', config: { contentRoot: root } }] });
    const ok = await t.api('POST', '/api/admin/post-issue-hooks/reload', { body: {} });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ source: 'file', enabledCount: 0, lastError: null });

    rmSync(path.join(home, 'post-issue-hooks.json'));
    const none = await t.api('POST', '/api/admin/post-issue-hooks/reload');
    expect(none.body).toMatchObject({ source: 'missing', hooks: [] });
    rmSync(root, { recursive: true, force: true });
  });

  it('an invalid file at start means no hooks, a loud log and the reason in the status', async () => {
    hooksFile(home, { version: 2, hooks: [] });
    const { logger, errors } = recordingLogger();
    t = await startCrmCore({ home, logger });
    expect(errors.some((e) => e.message.includes('post-issue hooks file is invalid'))).toBe(true);
    const status = await t.api('GET', '/api/admin/post-issue-hooks');
    expect(status.body).toMatchObject({ source: 'invalid_at_start', hooks: [], lastError: { problems: [{ path: 'version' }] } });
  });
});

describe('brand-voice-coverage hook', () => {
  let t: TestCore;
  let home: string;
  let root: string;
  let outside: string;
  let companyId: string;
  let model: Awaited<ReturnType<typeof fakeApi>>;
  let log: ReturnType<typeof recordingLogger>;

  beforeEach(async () => {
    home = tempHome();
    root = mkdtempSync(path.join(os.tmpdir(), 'hc-content-'));
    outside = mkdtempSync(path.join(os.tmpdir(), 'hc-outside-'));
    hooksFile(home, { version: 1, hooks: [{ id: 'bv-coverage', type: 'brand-voice-coverage', event: 'issue.done', match: {}, config: { contentRoot: root } }] });
    model = await fakeApi((req) => {
      const draft: string = req.body.messages[1].content;
      return { body: chatAnswer(draft.includes('HYPE') ? { verdict: 'fail', score: 12, summary: 'Shouting.', findings: [] } : { verdict: 'pass', score: 95, summary: 'On brand.', findings: [] }) };
    });
    log = recordingLogger();
    t = await startCrmCore({ home, logger: log.logger });
    companyId = await createCompany(t);
    const apiKeyRef = await createSecret(t, companyId, 'BV_KEY', 'sk-test');
    await t.api('PUT', `/api/companies/${companyId}/crm/brand-voice/settings`, { body: { endpointUrl: `${model.url}/v1/chat/completions`, model: 'judge-1', apiKeyRef, guidelines: 'Calm.' } });
  });
  afterEach(async () => {
    await t.close();
    await model.close();
    for (const d of [home, root, outside]) rmSync(d, { recursive: true, force: true });
  });

  const newIssue = async (title = 'Launch post') => (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title, status: 'todo' } })).body;
  const setStatus = (issueId: string, status: string) => t.api('PATCH', `/api/issues/${issueId}`, { body: { status } });
  const comments = async (issueId: string) => (await t.api('GET', `/api/issues/${issueId}/comments`)).body as { authorType: string; body: string }[];

  async function linkedPieces(issueId: string) {
    mkdirSync(path.join(root, 'posts'));
    const calm = 'A calm launch note.\n';
    const loud = 'HYPE HYPE HYPE\n';
    writeFileSync(path.join(root, 'posts', 'calm.md'), calm);
    writeFileSync(path.join(root, 'posts', 'loud.md'), loud);
    writeFileSync(path.join(root, 'posts', 'tampered.md'), 'edited after registration\n');
    writeFileSync(path.join(outside, 'secret.md'), 'outside the root\n');
    symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'posts', 'escape.md'));
    await piece(t, companyId, { title: 'Calm note', sourcePath: 'posts/calm.md', sourceSha256: sha256(calm), issueId });
    await piece(t, companyId, { title: 'Loud note', sourcePath: 'posts/loud.md', sourceSha256: sha256(loud), issueId });
    await piece(t, companyId, { title: 'Tampered note', sourcePath: 'posts/tampered.md', sourceSha256: sha256('original text\n'), issueId });
    await piece(t, companyId, { title: 'Escaping link', sourcePath: 'posts/escape.md', sourceSha256: sha256('outside the root\n'), issueId });
    return { calm, loud };
  }

  it('comments the coverage exactly once when the issue goes done, with cache hits, the tampered source and the escaping link reported', async () => {
    const issue = await newIssue();
    const { calm } = await linkedPieces(issue.id);
    // The agent's own self-check earlier: the hook finds it in the cache.
    await t.api('POST', `/api/companies/${companyId}/crm/brand-voice/check`, { body: { contentSha256: sha256(calm), draft: calm } });
    expect(model.calls).toHaveLength(1);

    const done = await setStatus(issue.id, 'done');
    expect(done.status).toBe(200);
    await t.core.services.crmHooks.idle();

    const list = await comments(issue.id);
    expect(list).toHaveLength(1);
    const body = list[0]!.body;
    expect(list[0]!.authorType).toBe('system');
    expect(body).toContain('2 of 4 content piece(s) checked, 1 passed');
    expect(body).toMatch(/Calm note .*pass \(95\/100\)/);
    expect(body).toMatch(/Loud note .*fail \(12\/100\)/);
    expect(body).toMatch(/Tampered note.*sha256_mismatch/);
    expect(body).toContain('source changed since it was registered');
    expect(body).toMatch(/Escaping link.*outside_content_root/);
    expect(body).not.toContain('outside the root');
    // calm was a hit; only loud needed a model call.
    expect(model.calls).toHaveLength(2);
    expect(model.calls.some((c) => JSON.stringify(c.body).includes('outside the root'))).toBe(false);

    // Reopened and done again: no second comment.
    expect((await setStatus(issue.id, 'todo')).status).toBe(200);
    expect((await setStatus(issue.id, 'done')).status).toBe(200);
    await t.core.services.crmHooks.idle();
    expect(await comments(issue.id)).toHaveLength(1);
    expect(model.calls).toHaveLength(2);

    // An issue without linked pieces gets no comment.
    const bare = await newIssue('Nothing linked');
    await setStatus(bare.id, 'done');
    await t.core.services.crmHooks.idle();
    expect(await comments(bare.id)).toHaveLength(0);
  });

  it('the issue request succeeds when the hook throws (and when another status listener throws)', async () => {
    const issue = await newIssue();
    await linkedPieces(issue.id);
    const spy = vi.spyOn(t.core.services.crmBrandVoice, 'checkContent').mockRejectedValue(new Error('checker exploded'));
    const unsubscribe = t.core.services.issues.onStatusChanged(() => {
      throw new Error('listener exploded');
    });
    const done = await setStatus(issue.id, 'done');
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('done');
    await t.core.services.crmHooks.idle();
    expect(spy).toHaveBeenCalled();
    expect(await comments(issue.id)).toHaveLength(0);
    expect(log.errors.map((e) => e.message)).toEqual(expect.arrayContaining(['post-issue hook failed (the issue change stands)', 'issue status listener failed']));
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body.status).toBe('done');
    unsubscribe();
    spy.mockRestore();

    // Nothing was delivered, so the next done (after a reopen) covers it.
    await setStatus(issue.id, 'todo');
    await setStatus(issue.id, 'done');
    await t.core.services.crmHooks.idle();
    expect(await comments(issue.id)).toHaveLength(1);
  });
});
