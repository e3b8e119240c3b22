import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../main/core/db/connection.js';
import { migratedDatabase, type MigratedDatabase } from '../../helpers/migrated-db.js';
import { insertRow } from '../../helpers/rows.js';
import { issueComments, issues } from '../../../main/core/issues/schema.js';
import { COMMENT_JSON, toComment } from '../../../main/core/issues/comments.js';
import { ISSUE_JSON } from '../../../main/core/issues/issue-json.js';
import { toIssue } from '../../../main/core/issues/present.js';
import { Comment, Issue } from '../../../main/core/issues/contract.js';
import { issueListJson, issueListRows } from '../../../main/core/issues/list-query.js';

// The issue list has SQLite write each issue as JSON (ISSUE_JSON); a single issue is shaped by
// `toIssue`. Each issue here, with every kind of value its columns hold, must come out the same.

let db: MigratedDatabase;
let h: DatabaseHandle;
const AT = '2030-01-01T00:00:00.000Z';
const C1 = randomUUID();
const A1 = randomUUID();
const P1 = randomUUID();
const G1 = randomUUID();
const ids = new Map<string, string>();
const idOf = (name: string) => ids.get(name) ?? (ids.set(name, randomUUID()), ids.get(name)!);

const rows: Record<string, unknown>[] = [
  { name: 'bare', status: 'backlog', priority: 'low', priority_rank: 3 },
  {
    name: 'full',
    title: 'Quote " backslash \\ tab \t newline \n ☃ 𝄞 </script>',
    description: '# Heading\n\n- [ ] a task\u0001\u001f with control characters',
    status: 'in_progress',
    priority: 'critical',
    priority_rank: 0,
    assignee_agent_id: A1,
    project_id: P1,
    goal_id: G1,
    billing_code: 'ACME-7',
    checkout_agent_id: A1,
    checkout_run_id: 'run:42.a-b',
    checked_out_at: AT,
    started_at: AT,
    created_by_type: 'agent',
    created_by_id: A1,
  },
  { name: 'done', status: 'done', priority: 'high', priority_rank: 1, completed_at: AT },
  { name: 'cancelled', status: 'cancelled', priority: 'medium', priority_rank: 2, cancelled_at: AT, number: 9_999_999_999 },
];

beforeAll(async () => {
  db = await migratedDatabase('headcount-issuejson-', new Date(AT));
  h = db.h;
  insertRow(h.sqlite, 'companies', { id: C1, name: 'c1', issue_prefix: 'C', created_at: AT, updated_at: AT });
  insertRow(h.sqlite, 'agents', { id: A1, company_id: C1, name: 'a1', url_key: 'a1', created_at: AT, updated_at: AT });
  insertRow(h.sqlite, 'projects', { id: P1, company_id: C1, name: 'p', created_at: AT, updated_at: AT });
  insertRow(h.sqlite, 'goals', { id: G1, company_id: C1, title: 'g', created_at: AT, updated_at: AT });
  rows.forEach(({ name, ...row }, n) =>
    insertRow(h.sqlite, 'issues', {
      title: 'T',
      description: '',
      created_by_type: 'board',
      number: n + 1,
      identifier: `C-${n + 1}`,
      created_at: AT,
      updated_at: AT,
      last_activity_at: `2030-01-0${n + 1}T00:00:00.000Z`,
      ...row,
      id: idOf(name as string),
      company_id: C1,
    }),
  );
});
const comments: Record<string, unknown>[] = [
  { name: 'by the board', author_type: 'board', author_agent_id: null, body: 'Plain' },
  { name: 'by an agent', author_type: 'agent', author_agent_id: A1, body: 'Quote " \\ \u0000\u0007 ☃ 𝄞\n@a1 </script>' },
  { name: 'empty body', author_type: 'system', author_agent_id: null, body: '' },
];

beforeAll(() => {
  for (const { name, ...c } of comments) {
    insertRow(h.sqlite, 'issue_comments', { ...c, id: idOf(name as string), company_id: C1, issue_id: idOf('full'), created_at: AT });
  }
});

afterAll(() => db.close());

describe('an issue written as JSON by SQLite', () => {
  it.each(rows.map((r) => [r.name as string]))('%s is what toIssue answers', (name) => {
    const id = idOf(name);
    const row = h.db.select().from(issues).where(eq(issues.id, id)).get()!;
    const written = h.db.select({ json: ISSUE_JSON }).from(issues).where(eq(issues.id, id)).get()!.json;
    const parsed = JSON.parse(written) as Record<string, unknown>;
    expect(parsed).toStrictEqual(JSON.parse(JSON.stringify(Issue.parse(toIssue(row)))));
    // Every field of the schema and nothing else.
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(Issue.shape).sort());
  });

  it('a page as JSON holds the same issues, in the same order, as the page of rows', () => {
    for (const q of [{ companyId: C1, limit: 2 }, { companyId: C1, limit: 10 }, { companyId: C1, limit: 10, status: ['done' as const] }]) {
      const asRows = issueListRows(h.db, q);
      const asJson = issueListJson(h.db, q);
      expect(asJson.map((r) => r.id)).toEqual(asRows.map((r) => r.id));
      expect(asJson.map((r) => r.priorityRank)).toEqual(asRows.map((r) => r.priorityRank));
      expect(asJson.map((r) => JSON.parse(r.json) as unknown)).toEqual(asRows.map((r) => JSON.parse(JSON.stringify(toIssue(r))) as unknown));
    }
  });

  it.each(comments.map((c) => [c.name as string]))('a comment %s is what toComment answers', (name) => {
    const id = idOf(name);
    const row = h.db.select().from(issueComments).where(eq(issueComments.id, id)).get()!;
    const written = h.db.select({ json: COMMENT_JSON }).from(issueComments).where(eq(issueComments.id, id)).get()!.json;
    const parsed = JSON.parse(written) as Record<string, unknown>;
    // Mentions are appended by the list, not written by SQLite.
    const { mentionedAgentIds, ...expected } = JSON.parse(JSON.stringify(Comment.parse(toComment(row, [])))) as Record<string, unknown>;
    expect(mentionedAgentIds).toEqual([]);
    expect(parsed).toStrictEqual(expected);
  });
});
