import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { applyMigrations } from '../../../main/core/db/migrate.js';
import { insertRow } from '../../helpers/rows.js';
import { issueListRows } from '../../../main/core/issues/list-query.js';
import { hasWork } from '../../../main/core/heartbeat/eligibility.js';

// The indexes keyed by an issue's assignee, parent or project leave out the issues without one
// (issues/schema.ts). These tests hold the two halves of that bargain: such issues cost those
// indexes nothing, and every lookup the service makes on them (`column = ?`) still uses them. A
// filter for issues *without* one (`IS NULL`) could not use them: it would fail the plan checks.

let dir: string;
let h: DatabaseHandle;

const AT = '2030-01-01T00:00:00.000Z';
const REFERENCE_INDEXES = ['issues_assignee_status_idx', 'issues_parent_idx', 'issues_project_idx'];

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

  it('serve the lookups the service makes as full indexes did, with the right rows', () => {
    // The statements the service itself builds (drizzle), captured as they are prepared.
    const built: string[] = [];
    const prepare = h.sqlite.prepare.bind(h.sqlite);
    h.sqlite.prepare = ((source: string) => {
      built.push(source);
      return prepare(source);
    }) as typeof h.sqlite.prepare;
    const lookups: [string, () => boolean | { id: string }[]][] = [
      ['list by assignee and status', () => issueListRows(h.db, { companyId: 'c1', assigneeAgentId: 'a1', status: ['todo'], limit: 50 })],
      ['list by assignee and statuses', () => issueListRows(h.db, { companyId: 'c1', assigneeAgentId: 'a1', status: ['todo', 'blocked'], limit: 50 })],
      ['list by assignee', () => issueListRows(h.db, { companyId: 'c1', assigneeAgentId: 'a1', limit: 50 })],
      ['list by project', () => issueListRows(h.db, { companyId: 'c1', projectId: 'p1', limit: 50 })],
      ['list by parent', () => issueListRows(h.db, { companyId: 'c1', parentId: 'i1', limit: 50 })],
      ['list by assignee, project and parent', () => issueListRows(h.db, { companyId: 'c1', assigneeAgentId: 'a1', projectId: 'p1', parentId: 'i1', limit: 50 })],
      ['open work of an agent (heartbeat)', () => hasWork(h.db, 'a1')],
    ];
    const sources = new Map<string, string>();
    for (const [name, run] of lookups) {
      built.length = 0;
      const result = run();
      expect(result === true || (Array.isArray(result) && result.map((r) => r.id).join() === 'i31'), name).toBe(true);
      // A list of several statuses and one of any share one statement: it is built once.
      const source = built.find((s) => /from "issues"/i.test(s));
      if (source) sources.set(name, source);
    }
    h.sqlite.prepare = prepare;
    const plans = () => new Map([...sources].map(([name, source]) => [name, plan(source, ...Array<null>((source.match(/\?/g) ?? []).length).fill(null))]));
    const partial = plans();
    expect(partial.get('list by assignee and status')).toContain('issues_assignee_status_idx');
    // A list of several statuses, or of any, walks the assignee's index once per status.
    expect(partial.get('list by assignee and statuses')).toContain('issues_assignee_status_idx');
    expect(sources.has('list by assignee')).toBe(false);
    expect(partial.get('open work of an agent (heartbeat)')).toContain('issues_assignee_status_idx');
    expect(plan('SELECT id FROM issues WHERE parent_id = ?', 'i1')).toContain('issues_parent_idx');
    expect(plan('SELECT id FROM issues WHERE project_id = ?', 'p1')).toContain('issues_project_idx');
    // The same indexes without their WHERE: not one plan changes.
    for (const sql of (h.sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name IN (${REFERENCE_INDEXES.map(() => '?').join(', ')})`).all(...REFERENCE_INDEXES) as { sql: string }[]).map((r) => r.sql)) {
      const name = /INDEX `([^`]+)`/.exec(sql)![1]!;
      h.sqlite.exec(`DROP INDEX ${name}; ${sql.replace(/ WHERE .*$/, '')}`);
    }
    expect(entries('issues_project_idx')).toBe(31);
    expect(plans()).toEqual(partial);
  });

  it('follow a reference set, changed and cleared', () => {
    h.sqlite.prepare("UPDATE issues SET assignee_agent_id = 'a1', project_id = 'p1' WHERE id = 'i2'").run();
    expect(entries('issues_assignee_status_idx')).toBe(2);
    expect(entries('issues_project_idx')).toBe(2);
    h.sqlite.prepare("UPDATE issues SET assignee_agent_id = NULL, project_id = NULL WHERE id IN ('i2', 'i31')").run();
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
