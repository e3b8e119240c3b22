import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { applyMigrations } from '../../../main/core/db/migrate.js';
import { insertRow } from '../../helpers/rows.js';

// The indexes keyed by an issue's assignee, parent or project leave out the issues without one
// (issues/schema.ts). These tests hold the two halves of that bargain: such issues cost those
// indexes nothing, and every lookup the service makes on them (`column = ?`) still uses them.

let dir: string;
let h: DatabaseHandle;

const AT = '2030-01-01T00:00:00.000Z';
const REFERENCE_INDEXES = ['issues_assignee_status_idx', 'issues_assignee_sort_idx', 'issues_parent_idx', 'issues_project_idx'];

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'headcount-refidx-'));
  h = openDatabase(path.join(dir, 'service.db'));
  await applyMigrations(h, path.join(dir, 'backups'), new Date(AT));
  const s = h.sqlite;
  insertRow(s, 'companies', { id: 'c1', name: 'Acme', issue_prefix: 'AC', created_at: AT, updated_at: AT });
  insertRow(s, 'agents', { id: 'a1', company_id: 'c1', name: 'Ada', created_at: AT, updated_at: AT });
  insertRow(s, 'projects', { id: 'p1', company_id: 'c1', name: 'Launch', created_at: AT, updated_at: AT });
  const insert = s.prepare(`INSERT INTO issues (id, company_id, number, identifier, title, status, priority, priority_rank, assignee_agent_id, parent_id, project_id,
    created_by_type, created_at, updated_at, last_activity_at) VALUES (?, 'c1', ?, ?, 'T', 'todo', 'high', 1, ?, ?, ?, 'board', ?, ?, ?)`);
  // 30 issues with no reference at all, then one with each.
  for (let n = 1; n <= 30; n++) insert.run(`i${n}`, n, `AC-${n}`, null, null, null, AT, AT, AT);
  insert.run('i31', 31, 'AC-31', 'a1', 'i1', 'p1', AT, AT, AT);
});

afterEach(() => {
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

const entries = (index: string): number =>
  (h.sqlite.prepare("SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ? AND pagetype = 'leaf'").get(index) as { n: number }).n;

const plan = (query: string, ...params: unknown[]): string =>
  (h.sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');

describe('issue indexes keyed by a reference', () => {
  it('hold only the issues that have the reference', () => {
    for (const index of REFERENCE_INDEXES) expect(entries(index), index).toBe(1);
    // The company's own indexes still hold every issue.
    expect(entries('issues_company_status_idx')).toBe(31);
  });

  it('serve every lookup by assignee, parent and project, with the right rows', () => {
    const list = 'SELECT id FROM issues WHERE company_id = ? AND assignee_agent_id = ? AND status = ? AND deleted_at IS NULL ORDER BY priority_rank, last_activity_at DESC, id LIMIT 51';
    expect(plan(list, 'c1', 'a1', 'todo')).toContain('USING INDEX issues_assignee_status_idx');
    expect(h.sqlite.prepare(list).all('c1', 'a1', 'todo')).toEqual([{ id: 'i31' }]);

    const byAssignee = 'SELECT id FROM issues WHERE company_id = ? AND assignee_agent_id = ? AND deleted_at IS NULL ORDER BY priority_rank, last_activity_at DESC, id LIMIT 51';
    expect(plan(byAssignee, 'c1', 'a1')).toContain('USING INDEX issues_assignee_sort_idx');

    const open = "SELECT id FROM issues WHERE assignee_agent_id = ? AND status IN ('todo', 'in_progress')";
    expect(plan(open, 'a1')).toContain('issues_assignee_status_idx');

    expect(plan('SELECT id FROM issues WHERE parent_id = ?', 'i1')).toContain('issues_parent_idx');
    expect(h.sqlite.prepare('SELECT id FROM issues WHERE parent_id = ?').all('i1')).toEqual([{ id: 'i31' }]);
    expect(plan('SELECT id FROM issues WHERE project_id = ? AND company_id = ?', 'p1', 'c1')).toContain('issues_project_idx');
    expect(h.sqlite.prepare('SELECT id FROM issues WHERE project_id = ?').all('p1')).toEqual([{ id: 'i31' }]);
  });

  it('follow a reference set, changed and cleared', () => {
    h.sqlite.prepare("UPDATE issues SET assignee_agent_id = 'a1', project_id = 'p1' WHERE id = 'i2'").run();
    expect(entries('issues_assignee_sort_idx')).toBe(2);
    expect(entries('issues_project_idx')).toBe(2);
    h.sqlite.prepare("UPDATE issues SET assignee_agent_id = NULL, project_id = NULL WHERE id IN ('i2', 'i31')").run();
    expect(entries('issues_assignee_sort_idx')).toBe(0);
    expect(entries('issues_assignee_status_idx')).toBe(0);
    expect(entries('issues_project_idx')).toBe(0);
    expect(h.sqlite.prepare("SELECT id FROM issues WHERE assignee_agent_id = 'a1'").all()).toEqual([]);
  });

  it('still guard the foreign keys: a referenced project cannot be deleted, an unreferenced one can', () => {
    const remove = h.sqlite.prepare("DELETE FROM projects WHERE id = 'p1'");
    expect(() => remove.run()).toThrow(/FOREIGN KEY/);
    h.sqlite.prepare("UPDATE issues SET project_id = NULL WHERE id = 'i31'").run();
    expect(remove.run().changes).toBe(1);
    expect(h.sqlite.pragma('foreign_key_check')).toEqual([]);
  });
});
