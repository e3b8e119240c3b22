import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { applyMigrations } from '../../../main/core/db/migrate.js';
import { insertRow } from '../../helpers/rows.js';
import { encodeCursor, issueListRows, type IssueListQuery } from '../../../main/core/issues/list-query.js';
import { ISSUE_STATUSES, type IssueRow } from '../../../main/core/issues/schema.js';

// The issue list is read in its order (priority, then most recent activity, then id) from the
// indexes keyed by status; a list of several statuses or none merges one walk per status
// (issues/list-query.ts). These tests page through every filter shape on a real migrated file and
// hold each page to the same rows sorted in JavaScript, and each walk to its index.

let dir: string;
let h: DatabaseHandle;

const AT = '2030-01-01T00:00:00.000Z';
const STATUSES = ISSUE_STATUSES;

interface Seeded {
  id: string;
  company: string;
  status: string;
  rank: number;
  activity: string;
  assignee: string | null;
  project: string | null;
  parent: string | null;
  label: boolean;
  deleted: boolean;
}
const seeded: Seeded[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'headcount-listorder-'));
  h = openDatabase(path.join(dir, 'service.db'));
  await applyMigrations(h, path.join(dir, 'backups'), new Date(AT));
  const s = h.sqlite;
  for (const c of ['c1', 'c2']) insertRow(s, 'companies', { id: c, name: c, issue_prefix: c.toUpperCase(), created_at: AT, updated_at: AT });
  for (const a of ['a1', 'a2']) insertRow(s, 'agents', { id: a, company_id: 'c1', name: a, url_key: a, created_at: AT, updated_at: AT });
  insertRow(s, 'agents', { id: 'b1', company_id: 'c2', name: 'b1', created_at: AT, updated_at: AT });
  insertRow(s, 'projects', { id: 'p1', company_id: 'c1', name: 'Launch', created_at: AT, updated_at: AT });
  insertRow(s, 'labels', { id: 'l1', company_id: 'c1', name: 'bug', color: '#ff0000', created_at: AT, updated_at: AT });
  const insert = s.prepare(`INSERT INTO issues (id, company_id, number, identifier, title, status, priority, priority_rank, assignee_agent_id, parent_id, project_id,
    deleted_at, created_by_type, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, 'T', ?, 'high', ?, ?, ?, ?, ?, 'board', ?, ?, ?)`);
  const label = s.prepare(`INSERT INTO issue_labels (company_id, issue_id, label_id, created_at) VALUES ('c1', ?, 'l1', '${AT}')`);
  // A fixed pseudo-random spread: every status, priority and reference, runs of one status longer
  // than a page, and only a few activity times, so the id decides many ties.
  let x = 7;
  const rand = (n: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % n);
  s.transaction(() => {
    for (let n = 1; n <= 420; n++) {
      const company = n % 20 === 0 ? 'c2' : 'c1';
      const row: Seeded = {
        id: `i${String(rand(1e6)).padStart(6, '0')}-${n}`,
        company,
        // The first status holds half the issues: its run is longer than any page.
        status: rand(2) === 0 ? STATUSES[0] : STATUSES[rand(STATUSES.length)]!,
        rank: rand(4),
        activity: new Date(Date.UTC(2030, 0, 1 + rand(5))).toISOString(),
        assignee: company === 'c2' ? 'b1' : [null, 'a1', 'a2'][rand(3)]!,
        project: company === 'c1' && rand(3) === 0 ? 'p1' : null,
        parent: company === 'c1' && n > 1 && rand(4) === 0 ? seeded[0]!.id : null,
        label: company === 'c1' && rand(3) === 0,
        deleted: rand(10) === 0,
      };
      insert.run(row.id, company, n, `${company.toUpperCase()}-${n}`, row.status, row.rank, row.assignee, row.parent, row.project, row.deleted ? AT : null, AT, AT, row.activity);
      if (row.label) label.run(row.id);
      seeded.push(row);
    }
    // An issue of the second company whose assignee is an agent of the first: no list of the
    // first company may show it, even filtered by that agent.
    const odd: Seeded = { id: 'i999999-odd', company: 'c2', status: 'todo', rank: 1, activity: AT, assignee: 'a1', project: null, parent: null, label: false, deleted: false };
    insert.run(odd.id, 'c2', 421, 'C2-421', odd.status, odd.rank, odd.assignee, null, null, null, AT, AT, odd.activity);
    seeded.push(odd);
  })();
});

afterAll(() => {
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The list as the spec and README describe it, worked out in JavaScript. */
function expected(q: Omit<IssueListQuery, 'limit' | 'cursor'>): string[] {
  return seeded
    .filter(
      (r) =>
        r.company === q.companyId &&
        !r.deleted &&
        (!q.status?.length || q.status.includes(r.status as IssueRow['status'])) &&
        (q.assigneeAgentId === undefined || r.assignee === q.assigneeAgentId) &&
        (q.projectId === undefined || r.project === q.projectId) &&
        (q.parentId === undefined || r.parent === q.parentId) &&
        (q.labelId === undefined || r.label),
    )
    .sort((a, b) => a.rank - b.rank || (a.activity < b.activity ? 1 : a.activity > b.activity ? -1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => r.id);
}

/** Every page, as the service pages: one row more than asked tells whether another page follows. */
function walk(q: Omit<IssueListQuery, 'limit' | 'cursor'>, limit: number): string[][] {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const rows = issueListRows(h.db, { ...q, limit, cursor });
    const page = rows.slice(0, limit);
    pages.push(page.map((r) => r.id));
    if (rows.length <= limit) return pages;
    cursor = encodeCursor(page[page.length - 1]!);
  }
}

const shapes: [string, Omit<IssueListQuery, 'limit' | 'cursor'>][] = [
  ['every status', { companyId: 'c1' }],
  ['one status', { companyId: 'c1', status: ['backlog'] }],
  ['several statuses', { companyId: 'c1', status: ['todo', 'blocked', 'done'] }],
  ['several statuses, one repeated', { companyId: 'c1', status: ['in_review', 'in_review', 'backlog'] }],
  ['an assignee', { companyId: 'c1', assigneeAgentId: 'a1' }],
  ['an assignee and statuses', { companyId: 'c1', assigneeAgentId: 'a2', status: ['backlog', 'in_progress'] }],
  ['a project', { companyId: 'c1', projectId: 'p1' }],
  ['a parent', { companyId: 'c1', parentId: 'PARENT' }],
  ['a label', { companyId: 'c1', labelId: 'l1' }],
  ['everything at once', { companyId: 'c1', assigneeAgentId: 'a1', projectId: 'p1', labelId: 'l1', status: ['backlog', 'todo', 'done'] }],
  ['the other company', { companyId: 'c2' }],
  ["an agent of the first company, in the second", { companyId: 'c2', assigneeAgentId: 'a1' }],
  ["an agent of the second company, in the first (none)", { companyId: 'c1', assigneeAgentId: 'b1' }],
  ["an agent of the second company and statuses, in the first (none)", { companyId: 'c1', assigneeAgentId: 'b1', status: ['todo', 'done'] }],
];

describe('the issue list order', () => {
  it.each(shapes)('%s: every page holds the rows sorted by priority, activity and id, none twice or left out', (name, shape) => {
    const q = shape.parentId === 'PARENT' ? { ...shape, parentId: seeded[0]!.id } : shape;
    const want = expected(q);
    expect(want.length > 0).toBe(!name.endsWith('(none)'));
    for (const limit of [1, 7, 50, 500]) {
      const pages = walk(q, limit);
      expect(pages.flat(), `limit ${limit}`).toEqual(want);
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
  });

  it('reads each status by its index and sorts at most one page per status', () => {
    // A connection of its own, so the statements are built (and captured) afresh.
    const fresh = openDatabase(path.join(dir, 'service.db'));
    const built: string[] = [];
    const prepare = fresh.sqlite.prepare.bind(fresh.sqlite);
    fresh.sqlite.prepare = ((source: string) => {
      built.push(source);
      return prepare(source);
    }) as typeof fresh.sqlite.prepare;
    try {
      issueListRows(fresh.db, { companyId: 'c1', limit: 3, cursor: encodeCursor({ priorityRank: 1, lastActivityAt: AT, id: 'i' } as IssueRow) });
      issueListRows(fresh.db, { companyId: 'c1', assigneeAgentId: 'a1', status: ['todo', 'done'], limit: 3 });
    } finally {
      fresh.close();
    }
    const sources = built.filter((s) => /from "issues"/i.test(s));
    expect(sources).toHaveLength(2);
    const [company, assignee] = sources.map((source) =>
      (h.sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...Array<null>((source.match(/\?/g) ?? []).length).fill(null)) as { detail: string }[]).map((r) => r.detail),
    );
    // Seven walks, each on the index in the list's order; the company's reads the index alone.
    expect(company!.filter((d) => d.includes('USING COVERING INDEX issues_company_status_idx (company_id=? AND status=?'))).toHaveLength(STATUSES.length);
    expect(assignee!.filter((d) => d.includes('issues_assignee_status_idx (assignee_agent_id=? AND status=?)'))).toHaveLength(STATUSES.length);
    for (const plan of [company!, assignee!]) {
      // No scan of the table: the page's rows are fetched by rowid.
      expect(plan.filter((d) => /^SCAN issues\b/.test(d))).toEqual([]);
      expect(plan).toContain('SEARCH issues USING INTEGER PRIMARY KEY (rowid=?)');
      // The sorts are of the walks' rows and of the page; inside a walk the index gives the order.
      expect(plan.filter((d) => d.includes('TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR ORDER BY', 'USE TEMP B-TREE FOR ORDER BY']);
    }
  });

  it('keeps the activity time out of every index but the two in the list\'s order and the blocked issues\' own', () => {
    // Every index holding it rewrites the issue's entry on each bump of its activity (checkout,
    // release, a comment, an edit). The inbox's index holds the blocked issues only (migration
    // 0023): a bump rewrites it for an issue that is blocked, never for the work in progress.
    const indexes = h.sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'issues'").all() as { name: string; sql: string | null }[];
    const columns = (name: string) => (h.sqlite.prepare(`PRAGMA index_info(${name})`).all() as { name: string }[]).map((c) => c.name);
    const withActivity = indexes.filter((i) => columns(i.name).includes('last_activity_at'));
    expect(withActivity.map((i) => i.name).sort()).toEqual(['issues_assignee_status_idx', 'issues_blocked_idx', 'issues_company_status_idx']);
    for (const { name, sql } of withActivity) {
      if (name === 'issues_blocked_idx') expect(sql).toMatch(/WHERE "issues"\."status" = 'blocked'/);
      else expect(columns(name)).toContain('status');
    }
  });
});
