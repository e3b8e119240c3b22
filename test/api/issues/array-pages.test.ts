import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type ApiResponse, type TestCore } from '../../helpers/core.js';
import { allArrayPages } from '../../helpers/array-pages.js';

// Lists that grow with history answer one page at a time (issue 17): the body stays the plain
// array the spec shows, the next page's cursor comes in X-Next-Cursor (and Link), as for comments.

let t: TestCore;
let company: string;
let ms = Date.UTC(2026, 4, 1);
beforeEach(async () => {
  // Every record a distinct, increasing time, except where a test makes them equal.
  t = await startCore({ clock: { now: () => new Date(ms++) } });
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});


describe('history lists page with a cursor', () => {
  it('document revisions: newest first across pages, none twice, none lost', async () => {
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'Doc' } })).body;
    let base: string | null = null;
    for (let i = 1; i <= 7; i++) {
      const res: ApiResponse<any> = await t.api('PUT', `/api/issues/${issue.id}/documents/plan`, { body: { title: 'Plan', format: 'markdown', body: `v${i}`, ...(base ? { baseRevisionId: base } : {}) } });
      expect(res.status, res.text).toBeLessThan(300);
      base = res.body.revisionId;
    }
    const whole = await t.api('GET', `/api/issues/${issue.id}/documents/plan/revisions`);
    expect(whole.body).toHaveLength(7);
    expect(whole.headers.get('x-next-cursor')).toBeNull();
    const { pages, items } = await allArrayPages(t, `/api/issues/${issue.id}/documents/plan/revisions`, 3);
    expect(pages).toHaveLength(3);
    expect(items).toEqual(whole.body);
  });

  it('config revisions and approvals with their comments', async () => {
    const agent = await createAgent(t, company, { name: 'Ada' });
    for (let i = 0; i < 4; i++) {
      const res = await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'echo', args: [`v${i}`] } } });
      expect(res.status, res.text).toBe(200);
    }
    const revisions = (await t.api('GET', `/api/agents/${agent.id}/config-revisions`)).body;
    expect(revisions.length).toBeGreaterThanOrEqual(4);
    expect((await allArrayPages(t, `/api/agents/${agent.id}/config-revisions`, 2)).items).toEqual(revisions);

    const approvalIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.api('POST', `/api/companies/${company}/approvals`, { body: { type: 'approve_ceo_strategy', requestedByAgentId: agent.id, payload: { plan: `p${i}` } } });
      expect(res.status, res.text).toBe(201);
      approvalIds.push(res.body.id);
    }
    const approvals = await allArrayPages(t, `/api/companies/${company}/approvals?status=pending`, 2);
    expect(approvals.items.map((a) => a.id)).toEqual([...approvalIds].reverse());

    for (let i = 0; i < 5; i++) expect((await t.api('POST', `/api/approvals/${approvalIds[0]}/comments`, { body: { body: `c${i}` } })).status).toBe(201);
    const comments = await allArrayPages(t, `/api/approvals/${approvalIds[0]}/comments`, 2);
    expect(comments.items.map((c) => c.body)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
  });

  it('rows with the same time are neither skipped nor repeated (rowid breaks the tie)', async () => {
    const agent = await createAgent(t, company, { name: 'Ada' });
    const approval = (await t.api('POST', `/api/companies/${company}/approvals`, { body: { type: 'approve_ceo_strategy', requestedByAgentId: agent.id, payload: {} } })).body;
    const frozen = ms;
    for (let i = 0; i < 5; i++) {
      ms = frozen;
      expect((await t.api('POST', `/api/approvals/${approval.id}/comments`, { body: { body: `same-${i}` } })).status).toBe(201);
    }
    const { items } = await allArrayPages(t, `/api/approvals/${approval.id}/comments`, 2);
    expect(items.map((c) => c.body)).toEqual(['same-0', 'same-1', 'same-2', 'same-3', 'same-4']);
  });

  it('a cursor that is not from the list is a 400, and limits are bounded', async () => {
    const issue = (await t.api('POST', `/api/companies/${company}/issues`, { body: { title: 'I' } })).body;
    for (const after of ['nonsense', Buffer.from('["x"]').toString('base64url'), Buffer.from('[1, 1.5]').toString('base64url')]) {
      const res = await t.api('GET', `/api/issues/${issue.id}/interactions?after=${after}`);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    expect((await t.api('GET', `/api/issues/${issue.id}/interactions?limit=501`)).status).toBe(400);
    expect((await t.api('GET', `/api/issues/${issue.id}/interactions?limit=0`)).status).toBe(400);
    const empty = await t.api('GET', `/api/issues/${issue.id}/interactions`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });
});
