import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createIssue, rows } from './helpers.js';
import { findMentions } from '../../../main/core/issues/mentions.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('mention parsing', () => {
  const people = [
    { id: 'ada', name: 'Ada', urlKey: 'ada' },
    { id: 'adal', name: 'Ada Lovelace', urlKey: 'ada-lovelace' },
    { id: 'bob', name: 'Bob', urlKey: 'bob-2' },
  ];
  it('matches names and shortnames, case-insensitively, longest first', () => {
    expect(findMentions('Hi @ada lovelace and @BOB', people).sort()).toEqual(['adal', 'bob']);
    expect(findMentions('ping @ada.', people)).toEqual(['ada']);
    expect(findMentions('ping @bob-2', people)).toEqual(['bob']);
  });
  it('ignores e-mail addresses, partial words and code', () => {
    expect(findMentions('mail ada@ada.dev or @adam', people)).toEqual([]);
    expect(findMentions('run `@bob` or\n```\n@ada\n```', people)).toEqual([]);
  });
});

describe('comments', () => {
  it('moves the issue to the top of recent activity; a PATCH with a comment answers the issue as stored', async () => {
    const issue = await createIssue(t, companyId);
    const before = (await t.api('GET', `/api/issues/${issue.id}`)).body;
    // Timestamps have millisecond precision: a later one must be strictly later.
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    await tick();
    const posted = await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: 'A first look' } });
    expect(posted.status).toBe(201);
    const touched = (await t.api('GET', `/api/issues/${issue.id}`)).body;
    expect(posted.body.createdAt).toEqual(expect.any(String));
    expect(touched.lastActivityAt).toBe(posted.body.createdAt);
    expect(touched.lastActivityAt > before.lastActivityAt).toBe(true);
    // Nothing else of the issue changed.
    expect({ ...touched, lastActivityAt: null }).toEqual({ ...before, lastActivityAt: null });

    await tick();
    const patched = await t.api('PATCH', `/api/issues/${issue.id}`, { body: { priority: 'high', comment: 'Raised' } });
    expect(patched.status).toBe(200);
    const stored = (await t.api('GET', `/api/issues/${issue.id}`)).body;
    expect(patched.body.lastActivityAt).toBe(stored.lastActivityAt);
    expect(patched.body.lastActivityAt > touched.lastActivityAt).toBe(true);
    expect(patched.body).toMatchObject({ priority: 'high', updatedAt: stored.updatedAt });
  });

  it('records mentions and wakes each mentioned agent, never the author', async () => {
    const ada = await createAgent(t, companyId, { name: 'Ada' });
    const bob = await createAgent(t, companyId, { name: 'Bob' });
    const adaKey = await createAgentKey(t, ada.id);
    const issue = await createIssue(t, companyId);
    const posted = await t.api('POST', `/api/issues/${issue.id}/comments`, { token: adaKey, body: { body: '@Ada and @bob, please look' } });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ authorType: 'agent', authorAgentId: ada.id, mentionedAgentIds: [bob.id] });
    expect(rows(t, 'SELECT agent_id, reason, comment_id FROM wake_requests')).toEqual([{ agent_id: bob.id, reason: 'mention', comment_id: posted.body.id }]);
    const list = await t.api('GET', `/api/issues/${issue.identifier}/comments`);
    expect(list.body).toEqual([posted.body]);
  });

  it('does not mention terminated agents or agents of other companies', async () => {
    const gone = await createAgent(t, companyId, { name: 'Gone' });
    await t.api('POST', `/api/agents/${gone.id}/terminate`);
    const other = await createCompany(t, 'Other');
    await createAgent(t, other, { name: 'Stranger' });
    const issue = await createIssue(t, companyId);
    const posted = await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: '@Gone @Stranger' } });
    expect(posted.body.mentionedAgentIds).toEqual([]);
    expect(rows(t, 'SELECT count(*) AS n FROM wake_requests')[0].n).toBe(0);
  });

  it('bumps the issue to the top of its priority and refuses empty bodies', async () => {
    const issue = await createIssue(t, companyId);
    const before = t.snapshot();
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 'x', extra: 1 }]) {
      const res = await t.api('POST', `/api/issues/${issue.id}/comments`, { body });
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    // Past the size cap is 413 (test/api/limits/comments.test.ts has the boundary).
    expect((await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: 'x'.repeat(65_537) } })).status).toBe(413);
    expect(t.snapshot()).toEqual(before);
  });
});
