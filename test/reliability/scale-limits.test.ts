import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type ApiResponse, type TestCore } from '../helpers/core.js';

// Limits found by the scale benchmark (bench/scale.mjs) that a small test database never reaches.
let t: TestCore;
beforeAll(async () => {
  t = await startCore({ heartbeats: false });
});
afterAll(async () => t?.close());

describe('limits at scale', () => {
  it('lists the comments of an issue with more comments than SQLite has bound variables (32,766)', async () => {
    const companyId = await createCompany(t);
    const agent = await createAgent(t, companyId, { name: 'Talker' });
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Busy thread' } })).body;
    const mentioned = await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: '@Talker first' } });
    expect(mentioned.status).toBe(201);
    const sqlite = t.core.database.sqlite;
    const insert = sqlite.prepare("INSERT INTO issue_comments (id, company_id, issue_id, author_type, author_agent_id, body, created_at) VALUES (?, ?, ?, 'agent', ?, 'x', ?)");
    sqlite.transaction(() => {
      for (let i = 0; i < 33_000; i++) insert.run(randomUUID(), companyId, issue.id, agent.id, new Date(Date.UTC(2030, 0, 1) + i).toISOString());
    })();
    // The thread is paged (at most 500 a page); following the cursors reads all of it once, in order.
    const all: any[] = [];
    for (let after: string | null = null, pages = 0; pages < 100; pages++) {
      const res: ApiResponse<any[]> = await t.api('GET', `/api/issues/${issue.id}/comments?limit=500${after ? `&after=${after}` : ''}`);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      all.push(...res.body);
      after = res.headers.get('x-next-cursor');
      if (!after) break;
    }
    expect(all).toHaveLength(33_001);
    expect(new Set(all.map((c) => c.id)).size).toBe(33_001);
    expect(all[0]).toMatchObject({ body: '@Talker first', mentionedAgentIds: [agent.id] });
  }, 60_000);
});
