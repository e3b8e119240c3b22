import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { allArrayPages } from '../../helpers/array-pages.js';

// No route returns an unbounded list: these lists answer one page at a time like the history
// lists (array-pages.test.ts), their first page unchanged for clients that pass no parameters.

let t: TestCore;
let company: string;
let ms = Date.UTC(2026, 4, 1);
beforeEach(async () => {
  // Every record a distinct, increasing time, so "oldest first" has one answer.
  t = await startCore({ clock: { now: () => new Date(ms++) } });
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

async function ok(method: string, url: string, body?: unknown): Promise<any> {
  const res = await t.api(method, url, body === undefined ? {} : { body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}


/**
 * The pages of `url` put together are the whole list (what the route answers without parameters):
 * same order, none twice, none lost. Foreign cursors, out-of-range limits and unknown parameters are 400.
 */
async function expectPaged(url: string, limit: number, ids: (item: any) => string = (item) => item.id): Promise<string[]> {
  const whole = await t.api('GET', url);
  expect(whole.status, whole.text).toBe(200);
  expect(whole.headers.get('x-next-cursor')).toBeNull();
  expect(whole.headers.get('link')).toBeNull();
  expect(whole.body.length).toBeGreaterThan(limit);
  const { pages, items } = await allArrayPages(t, url, limit);
  expect(pages).toHaveLength(Math.ceil(whole.body.length / limit));
  expect(items).toEqual(whole.body);
  expect(new Set(items.map(ids)).size).toBe(items.length);

  const foreign = await t.api('GET', withQuery(url, 'after=garbage'));
  expect(foreign.status, foreign.text).toBe(400);
  expect(foreign.body.code).toBe('invalid_cursor');
  for (const query of ['limit=501', 'limit=0', 'sort=name']) expect((await t.api('GET', withQuery(url, query))).status, query).toBe(400);
  return whole.body.map(ids);
}

const newIssue = async (title = 'I') => (await ok('POST', `/api/companies/${company}/issues`, { title })).id as string;

describe('company lists page with a cursor', () => {
  it('companies: oldest first, archived ones only with includeArchived, across pages', async () => {
    const ids = [company];
    for (let i = 0; i < 5; i++) ids.push(await createCompany(t, `Co ${i}`));
    await ok('POST', `/api/companies/${ids[2]}/archive`);
    expect(await expectPaged('/api/companies', 2)).toEqual(ids.filter((id) => id !== ids[2]));
    expect(await expectPaged('/api/companies?includeArchived=true', 2)).toEqual(ids);
    const link = (await t.api('GET', '/api/companies?includeArchived=true&limit=2')).headers.get('link');
    expect(link).toContain('includeArchived=true');
  });

  it('companies: an agent key sees its own company only, whatever the cursor', async () => {
    const others: string[] = [];
    for (let i = 0; i < 4; i++) others.push(await createCompany(t, `Co ${i}`));
    const key = await createAgentKey(t, (await createAgent(t, others[1]!)).id);
    const { items } = await allArrayPages(t, '/api/companies', 1, key);
    expect(items.map((c) => c.id)).toEqual([others[1]]);
    // A cursor from the board's pages moves through the list but never past the agent's scope.
    const { pages } = await allArrayPages(t, '/api/companies', 1);
    for (const page of pages) {
      const after = page.headers.get('x-next-cursor');
      if (!after) continue;
      const res = await t.api('GET', `/api/companies?limit=1&after=${after}`, { token: key });
      expect(res.status, res.text).toBe(200);
      expect(res.body.every((c: any) => c.id === others[1])).toBe(true);
    }
  });

  it('goals and projects: oldest first', async () => {
    const goals: string[] = [];
    const projects: string[] = [];
    for (let i = 0; i < 6; i++) {
      goals.push((await ok('POST', `/api/companies/${company}/goals`, { title: `Goal ${5 - i}` })).id);
      projects.push((await ok('POST', `/api/companies/${company}/projects`, { name: `Project ${5 - i}` })).id);
    }
    expect(await expectPaged(`/api/companies/${company}/goals`, 2)).toEqual(goals);
    expect(await expectPaged(`/api/companies/${company}/projects`, 4)).toEqual(projects);
  });

  it('labels and secrets: by name', async () => {
    const names = ['delta', 'alpha', 'echo', 'charlie', 'foxtrot', 'bravo'];
    const secretIds: string[] = [];
    for (const name of names) {
      await ok('POST', `/api/companies/${company}/labels`, { name, color: '#336699' });
      secretIds.push((await ok('POST', `/api/companies/${company}/secrets`, { name: name.toUpperCase(), value: `v-${name}` })).id);
    }
    await ok('DELETE', `/api/secrets/${secretIds[0]}`);
    const sorted = [...names].sort();
    expect(await expectPaged(`/api/companies/${company}/labels`, 2, (l) => l.name)).toEqual(sorted);
    const liveSecrets = sorted.filter((n) => n !== 'delta').map((n) => n.toUpperCase());
    expect(await expectPaged(`/api/companies/${company}/secrets`, 2, (s) => s.name)).toEqual(liveSecrets);
  });

  it('routines: by title, repeated titles in creation order, deleted ones left out', async () => {
    const agent = await createAgent(t, company);
    const made: { id: string; title: string }[] = [];
    for (const title of ['b', 'a', 'b', 'c', 'a', 'b', 'a']) {
      made.push({ id: (await ok('POST', `/api/companies/${company}/routines`, { title, assigneeAgentId: agent.id, trigger: { kind: 'api' } })).id, title });
    }
    await ok('DELETE', `/api/routines/${made[3]!.id}`);
    const live = made.filter((_, i) => i !== 3);
    const expected = ['a', 'b', 'c'].flatMap((title) => live.filter((r) => r.title === title).map((r) => r.id));
    expect(await expectPaged(`/api/companies/${company}/routines`, 2)).toEqual(expected);
  });
});

describe('issue and approval lists page with a cursor', () => {
  it('attachments: oldest first, deleted ones left out', async () => {
    const issue = await newIssue();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const file = new FormData();
      file.append('file', new Blob([`note ${i}`], { type: 'text/plain' }), `n${i}.txt`);
      const res = await t.api('POST', `/api/companies/${company}/issues/${issue}/attachments`, { raw: file });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    await ok('DELETE', `/api/attachments/${ids[4]}`);
    expect(await expectPaged(`/api/issues/${issue}/attachments`, 3)).toEqual(ids.filter((id) => id !== ids[4]));
  });

  it('documents: live ones by key, metadata only', async () => {
    const issue = await newIssue();
    const keys = ['plan', 'design', 'notes', 'api', 'risks', 'budget'];
    for (const key of keys) await ok('PUT', `/api/issues/${issue}/documents/${key}`, { title: key, format: 'markdown', body: `# ${key}` });
    await ok('DELETE', `/api/issues/${issue}/documents/notes`);
    const { items } = await allArrayPages(t, `/api/issues/${issue}/documents`, 2);
    expect(items.every((d) => !('body' in d))).toBe(true);
    expect(await expectPaged(`/api/issues/${issue}/documents`, 2, (d) => d.key)).toEqual(keys.filter((k) => k !== 'notes').sort());
  });

  it('issues linked to an approval: in the order they were linked', async () => {
    const agent = await createAgent(t, company);
    const issues: string[] = [];
    for (let i = 0; i < 7; i++) issues.push(await newIssue(`Linked ${i}`));
    const linked = [issues[3]!, issues[0]!, issues[6]!, issues[1]!, issues[5]!, issues[2]!];
    const approval = await ok('POST', `/api/companies/${company}/approvals`, { type: 'approve_ceo_strategy', requestedByAgentId: agent.id, payload: {}, issueIds: linked });
    expect(await expectPaged(`/api/approvals/${approval.id}/issues`, 4)).toEqual(linked);
  });
});
