import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { applyMigrations, MIGRATIONS_FOLDER } from '../../../main/core/db/migrate.js';
import { ISSUE_STATUSES } from '../../../main/core/issues/schema.js';
import { insertRow } from '../../helpers/rows.js';

// The inbox counts a company's long-blocked issues from `issue_blocked_counts`, which triggers on
// `issues` keep (migration 0024). A count that drifts from the rows shows a wrong "Needs you" for
// good, so these tests hold it to a count of the rows after every kind of write, and after the
// migration's backfill of a database from before it.

const AT = '2030-01-01T00:00:00.000Z';
const COMPANIES = ['c1', 'c2', 'c3'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'headcount-blocked-counts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const counted = (h: DatabaseHandle) =>
  Object.fromEntries((h.sqlite.prepare('SELECT company_id, blocked FROM issue_blocked_counts WHERE blocked <> 0 ORDER BY company_id').all() as { company_id: string; blocked: number }[]).map((r) => [r.company_id, r.blocked]));
const actual = (h: DatabaseHandle) =>
  Object.fromEntries(
    (h.sqlite.prepare("SELECT company_id, count(*) AS n FROM issues WHERE status = 'blocked' AND deleted_at IS NULL GROUP BY company_id ORDER BY company_id").all() as { company_id: string; n: number }[]).map((r) => [
      r.company_id,
      r.n,
    ]),
  );

function seedCompanies(h: DatabaseHandle): void {
  for (const c of COMPANIES) insertRow(h.sqlite, 'companies', { id: c, name: c, issue_prefix: c.toUpperCase(), created_at: AT, updated_at: AT });
}
let number = 0;
function insertIssue(h: DatabaseHandle, company: string, status: string, deleted: boolean): string {
  const id = `issue-${++number}`;
  insertRow(h.sqlite, 'issues', {
    id,
    company_id: company,
    number,
    identifier: `${company.toUpperCase()}-${number}`,
    title: 'T',
    status,
    priority: 'medium',
    deleted_at: deleted ? AT : null,
    created_by_type: 'board',
    created_at: AT,
    updated_at: AT,
    last_activity_at: AT,
  });
  return id;
}

describe('issue_blocked_counts', () => {
  it("backfills each company's count when a database from before it is migrated", async () => {
    // The shipped migrations up to 0023, with the journal cut to match: a database of the last build.
    const before = path.join(dir, 'migrations-0023');
    mkdirSync(path.join(before, 'meta'), { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.idx <= 23);
    expect(journal.entries.at(-1)!.tag).toBe('0023_inbox_blocked_index');
    for (const e of journal.entries) cpSync(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
    writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify(journal));

    const h = openDatabase(path.join(dir, 'backfill.db'));
    try {
      await applyMigrations(h, path.join(dir, 'backups'), new Date(AT), before);
      seedCompanies(h);
      for (let i = 0; i < 5; i++) insertIssue(h, 'c1', 'blocked', false);
      insertIssue(h, 'c1', 'blocked', true);
      insertIssue(h, 'c1', 'todo', false);
      for (let i = 0; i < 2; i++) insertIssue(h, 'c2', 'blocked', false);
      insertIssue(h, 'c3', 'done', false);

      await applyMigrations(h, path.join(dir, 'backups'), new Date(AT));
      expect(counted(h)).toEqual({ c1: 5, c2: 2 });
      expect(counted(h)).toEqual(actual(h));
    } finally {
      h.close();
    }
  });

  it('equals the count of the rows after any sequence of inserts, status changes, deletions, restores, moves, purges and updates of several rows or columns', async () => {
    const h = openDatabase(path.join(dir, 'writes.db'));
    try {
      await applyMigrations(h, path.join(dir, 'backups'), new Date(AT));
      seedCompanies(h);
      const s = h.sqlite;
      const status = fc.constantFrom(...ISSUE_STATUSES, 'blocked', 'blocked');
      const company = fc.constantFrom(...COMPANIES);
      const op = fc.oneof(
        fc.record({ kind: fc.constant('insert' as const), company, status, deleted: fc.boolean() }),
        fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status }),
        fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), company }),
        fc.record({ kind: fc.constant('purge' as const), pick: fc.nat() }),
        // Several rows in one statement, as a bulk update would.
        fc.record({ kind: fc.constant('bulk' as const), company, from: status, to: status }),
        // Several columns in one statement, as the issue's removal (status and deletion) does.
        fc.record({ kind: fc.constant('all' as const), pick: fc.nat(), status, deleted: fc.boolean(), company }),
      );
      fc.assert(
        fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
          // Each run starts from the same rows: its writes are rolled back after it.
          s.exec('SAVEPOINT run');
          try {
            const ids: string[] = [];
            const pickId = (n: number) => (ids.length ? ids[n % ids.length]! : null);
            for (const o of ops) {
              if (o.kind === 'insert') ids.push(insertIssue(h, o.company, o.status, o.deleted));
              else if (o.kind === 'bulk') s.prepare('UPDATE issues SET status = ? WHERE company_id = ? AND status = ?').run(o.to, o.company, o.from);
              else {
                const id = pickId(o.pick);
                if (!id) continue;
                if (o.kind === 'status') s.prepare('UPDATE issues SET status = ? WHERE id = ?').run(o.status, id);
                else if (o.kind === 'delete') s.prepare('UPDATE issues SET deleted_at = ? WHERE id = ?').run(AT, id);
                else if (o.kind === 'restore') s.prepare('UPDATE issues SET deleted_at = NULL WHERE id = ?').run(id);
                else if (o.kind === 'move') s.prepare('UPDATE issues SET company_id = ? WHERE id = ?').run(o.company, id);
                else if (o.kind === 'all') s.prepare('UPDATE issues SET status = ?, deleted_at = ?, company_id = ? WHERE id = ?').run(o.status, o.deleted ? AT : null, o.company, id);
                else {
                  s.prepare('DELETE FROM issues WHERE id = ?').run(id);
                  ids.splice(ids.indexOf(id), 1);
                }
              }
              expect(counted(h)).toEqual(actual(h));
            }
          } finally {
            s.exec('ROLLBACK TO run; RELEASE run');
          }
        }),
        { numRuns: 150 },
      );
      // Every run was rolled back, its counts with it.
      expect(counted(h)).toEqual({});
    } finally {
      h.close();
    }
  });
});
