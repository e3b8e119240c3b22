import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../main/core/context.js';
import { EventBus } from '../../../main/core/events/bus.js';
import { systemClock } from '../../../main/core/kernel/clock.js';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';

// Writes made close together commit together (context.ts, `groupCommits`); every
// answer waits for the group open when it is ready (http/server.ts). These drive the real server.
let t: TestCore;
let companyId: string;
let issueId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
  const res = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Before' } });
  issueId = res.body.id;
});
afterEach(async () => {
  await t.close();
});

/** What another connection (another process) finds in the database file: committed rows only. */
function committedTitle(): string {
  const reader = new Database(t.core.database.sqlite.name, { readonly: true });
  try {
    return (reader.prepare('SELECT title FROM issues WHERE id = ?').get(issueId) as { title: string }).title;
  } finally {
    reader.close();
  }
}

describe('group commit over HTTP', () => {
  it('a write is committed by the time its answer arrives, for many clients at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.api('POST', `/api/issues/${issueId}/comments`, { body: { body: `comment ${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const reader = new Database(t.core.database.sqlite.name, { readonly: true });
    try {
      expect(reader.prepare('SELECT count(*) AS n FROM issue_comments WHERE issue_id = ?').get(issueId)).toEqual({ n: 20 });
    } finally {
      reader.close();
    }
    const patched = await t.api('PATCH', `/api/issues/${issueId}`, { body: { title: 'After' } });
    expect(patched.status).toBe(200);
    expect(committedTitle()).toBe('After');
  });

  it('the serving connection keeps its savepoint journals in memory (a new issue passed the 64 KiB spill size)', () => {
    expect(t.core.database.sqlite.pragma('temp_store', { simple: true })).toBe(2);
  });

  it('when the group fails to commit, its answers are 503 commit_failed and nothing of it is saved', async () => {
    const issues = t.core.services.issues;
    const patch = issues.patch.bind(issues);
    // Another member of the same turn's group defers its foreign keys and breaks one: the group's
    // COMMIT fails (the reason such transactions never join a group in the product).
    issues.patch = ((...args: Parameters<typeof patch>) => {
      const out = patch(...args);
      const sqlite = t.core.database.sqlite;
      inTransaction(
        { db: t.core.database.db, events: new EventBus(), clock: systemClock },
        () => {
          sqlite.pragma('defer_foreign_keys = ON');
          sqlite.prepare('INSERT INTO issue_labels (company_id, issue_id, label_id, created_at) VALUES (?, ?, ?, ?)').run(companyId, issueId, 'no-such-label', new Date().toISOString());
        },
        { group: true },
      );
      return out;
    }) as typeof issues.patch;
    const before = await t.api('GET', `/api/companies/${companyId}/activity?limit=50`);

    const failed = await t.api('PATCH', `/api/issues/${issueId}`, { body: { title: 'Never saved' } });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 'commit_failed' });
    expect(committedTitle()).toBe('Before');
    expect((await t.api('GET', `/api/issues/${issueId}`)).body.title).toBe('Before');
    expect((await t.api('GET', `/api/companies/${companyId}/activity?limit=50`)).body).toEqual(before.body);

    // The server goes on: the next write commits.
    issues.patch = patch;
    const ok = await t.api('PATCH', `/api/issues/${issueId}`, { body: { title: 'After' } });
    expect(ok.status).toBe(200);
    expect(committedTitle()).toBe('After');
  });
});
