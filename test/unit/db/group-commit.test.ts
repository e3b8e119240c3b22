import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { afterCommit, commitSettled, emitOnCommit, flushCommits, groupCommits, inTransaction, observeCommits, stopGroupCommits, unlessCommitted } from '../../../main/core/context.js';
import { EventBus } from '../../../main/core/events/bus.js';
import { systemClock } from '../../../main/core/kernel/clock.js';

// Group commit (context.ts): the top-level transactions of one turn of the event loop share one
// COMMIT. These run it on a real database file, read back through a second connection, which sees
// only what was committed.
let dir: string;
let h: DatabaseHandle;
let reader: Database.Database;
let events: EventBus;
let published: string[];
let afterErrors: unknown[];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'group-'));
  const file = path.join(dir, 'service.db');
  h = openDatabase(file);
  h.sqlite.exec('CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE t (v TEXT NOT NULL UNIQUE, parent TEXT REFERENCES parent(id))');
  reader = new Database(file, { readonly: true });
  events = new EventBus();
  published = [];
  events.subscribe('c1', (e) => published.push((e.data as { v: string }).v));
  afterErrors = [];
});
afterEach(() => {
  // Group commit needs its connection to be the only grouping one of the process (context.ts).
  stopGroupCommits(h.db);
  reader.close();
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({ db: h.db, events, clock: systemClock });
/** A write that may join the turn's group, as the hot paths' writes do. */
const insert = (v: string, parent: string | null = null) =>
  inTransaction(
    ctx(),
    (tx) => {
      h.sqlite.prepare('INSERT INTO t (v, parent) VALUES (?, ?)').run(v, parent);
      emitOnCommit(tx, { companyId: 'c1', type: 'issue.created', data: { v } } as never);
      return v;
    },
    { group: true },
  );
const committed = () => (reader.prepare('SELECT v FROM t ORDER BY v').all() as { v: string }[]).map((r) => r.v);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('is off unless asked for: each transaction commits before inTransaction returns', () => {
    insert('a');
    expect(committed()).toEqual(['a']);
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    // On for the connection, but a transaction that does not ask to join a group commits at once.
    inTransaction(ctx(), () => h.sqlite.prepare("INSERT INTO t (v) VALUES ('b')").run());
    expect(committed()).toEqual(['a', 'b']);
    stopGroupCommits(h.db);
    insert('c');
    expect(committed()).toEqual(['a', 'b', 'c']);
    expect(published).toEqual(['a', 'c']);
    expect(commitSettled(h.db)).toBeNull();
  });

  it('commits the transactions of one turn together once the turn ends, then announces them in order', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    let commits = 0;
    const unobserve = observeCommits(h.db, () => commits++);
    expect(insert('a')).toBe('a');
    insert('b');
    // Written, visible on the connection itself, but neither committed nor announced yet.
    expect(h.sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    expect(committed()).toEqual([]);
    expect(published).toEqual([]);
    const settled = commitSettled(h.db);
    expect(settled).not.toBeNull();
    await settled;
    expect(committed()).toEqual(['a', 'b']);
    expect(published).toEqual(['a', 'b']);
    expect(commits).toBe(1);
    expect(commitSettled(h.db)).toBeNull();
    // A later write opens a group of its own. The last group had two writers, so this one waits
    // one more turn for others (none come).
    insert('c');
    await nextTurn();
    await nextTurn();
    expect(committed()).toEqual(['a', 'b', 'c']);
    expect(commits).toBe(2);
    unobserve();
    expect(afterErrors).toEqual([]);
  });

  it('a lone writer commits at the end of its own turn', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    for (const v of ['a', 'b', 'c']) {
      insert(v);
      await nextTurn();
      expect(committed().at(-1)).toBe(v);
    }
  });

  /** Writes `perTurn` values in each of `turns` consecutive turns, as requests arriving on a busy server. */
  const stream = (turns: number, perTurn: number) =>
    new Promise<void>((resolve) => {
      let turn = 0;
      const next = () => {
        for (let k = 0; k < perTurn; k++) insert(`t${String(turn).padStart(3, '0')}-${k}`);
        if (++turn < turns) setImmediate(next);
        else resolve();
      };
      next();
    });
  /** How many rows each commit brought, read from the other connection as each group commits. */
  const commitSizes = () => {
    const sizes: number[] = [];
    let seen = 0;
    const unobserve = observeCommits(h.db, () => {
      const n = committed().length;
      sizes.push(n - seen);
      seen = n;
    });
    return { sizes, unobserve };
  };

  it('while writers arrive together, gathers the writes of the turns that follow, then commits them once', async () => {
    // No time bound here: only a turn that brings nothing ends the group.
    groupCommits(h.db, (_what, err) => afterErrors.push(err), { maxMs: 60_000 });
    const { sizes, unobserve } = commitSizes();
    // Two writes in the first turn (writers arriving together), then one in each of three turns.
    await new Promise<void>((resolve) => {
      insert('a1');
      insert('a2');
      const writes = ['b', 'c', 'd'];
      const next = () => {
        insert(writes.shift()!);
        if (writes.length) setImmediate(next);
        else void commitSettled(h.db)!.then(resolve);
      };
      setImmediate(next);
    });
    expect(committed()).toEqual(['a1', 'a2', 'b', 'c', 'd']);
    expect(published).toEqual(['a1', 'a2', 'b', 'c', 'd']);
    expect(sizes).toEqual([5]);
    unobserve();
  });

  it('a steady stream still commits: a group takes at most its member bound', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err), { maxMs: 60_000, maxMembers: 64 });
    const { sizes, unobserve } = commitSizes();
    // Two writes every turn for 100 turns: never a quiet turn, so only the bound ends a group.
    await stream(100, 2);
    await commitSettled(h.db);
    expect(committed()).toHaveLength(200);
    expect(sizes.slice(0, 3)).toEqual([64, 64, 64]);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(200);
    unobserve();
  });

  it('a group waits no longer than its time bound', async () => {
    // A bound of 0 ms: the group commits at the end of its own turn, however busy the writers.
    groupCommits(h.db, (_what, err) => afterErrors.push(err), { maxMs: 0 });
    const { sizes, unobserve } = commitSizes();
    await stream(5, 2);
    await commitSettled(h.db);
    expect(sizes).toEqual([2, 2, 2, 2, 2]);
    unobserve();
  });

  it('a member that fails leaves nothing and is not announced; the others commit', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    insert('a');
    expect(() => insert('a')).toThrow(/UNIQUE/);
    expect(() =>
      inTransaction(
        ctx(),
        () => {
          h.sqlite.prepare('INSERT INTO t (v) VALUES (?)').run('half');
          throw new Error('refused after writing');
        },
        { group: true },
      ),
    ).toThrow('refused after writing');
    insert('b');
    await commitSettled(h.db);
    expect(committed()).toEqual(['a', 'b']);
    expect(published).toEqual(['a', 'b']);
  });

  it('a nested transaction is part of its caller, inside the group', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    inTransaction(
      ctx(),
      (tx) => {
        insert('outer');
        expect(() => inTransaction(ctx(), () => insert('outer'))).toThrow(/UNIQUE/);
        afterCommit(tx, () => published.push('after outer'));
      },
      { group: true },
    );
    expect(committed()).toEqual([]);
    expect(published).toEqual([]);
    await commitSettled(h.db);
    expect(committed()).toEqual(['outer']);
    // The nested write's event is announced with its caller's work, once the group committed.
    expect(published).toEqual(['outer', 'after outer']);
  });

  it('a group whose commit fails saves none of its members, announces none, and tells those waiting', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    insert('a');
    // A member that defers its foreign keys to the commit and breaks one fails the whole group:
    // why such a transaction must run alone (next test).
    let after = false;
    inTransaction(
      ctx(),
      (tx) => {
        h.sqlite.pragma('defer_foreign_keys = ON');
        h.sqlite.prepare('INSERT INTO t (v, parent) VALUES (?, ?)').run('orphan', 'no such parent');
        afterCommit(tx, () => (after = true));
      },
      { group: true },
    );
    const settled = commitSettled(h.db);
    await expect(settled).rejects.toThrow(/FOREIGN KEY/);
    expect(committed()).toEqual([]);
    expect(published).toEqual([]);
    expect(after).toBe(false);
    // Logged once by the group: a write outside any request has no one else to tell.
    expect(afterErrors).toHaveLength(1);
    expect(h.sqlite.inTransaction).toBe(false);
    // The connection goes on: the next turn's group commits.
    insert('b');
    await commitSettled(h.db);
    expect(committed()).toEqual(['b']);
    expect(published).toEqual(['b']);
  });

  it('unlessCommitted undoes what was counted for a write only if its group fails', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    const undone: string[] = [];
    // No group open: the write has committed, there is nothing to undo later.
    unlessCommitted(h.db, () => undone.push('outside'));
    insert('a');
    unlessCommitted(h.db, () => undone.push('a'));
    await commitSettled(h.db);
    expect(committed()).toEqual(['a']);
    insert('b');
    unlessCommitted(h.db, () => undone.push('b'));
    inTransaction(
      ctx(),
      () => {
        h.sqlite.pragma('defer_foreign_keys = ON');
        h.sqlite.prepare('INSERT INTO t (v, parent) VALUES (?, ?)').run('orphan', 'no such parent');
      },
      { group: true },
    );
    await expect(commitSettled(h.db)).rejects.toThrow(/FOREIGN KEY/);
    expect(committed()).toEqual(['a']);
    expect(undone).toEqual(['b']);
  });

  it('a transaction that does not join commits the open group first, then itself, before returning', () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    insert('a');
    expect(committed()).toEqual([]);
    expect(() =>
      inTransaction(ctx(), () => {
        h.sqlite.pragma('defer_foreign_keys = ON');
        h.sqlite.prepare('INSERT INTO t (v, parent) VALUES (?, ?)').run('orphan', 'no such parent');
      }),
    ).toThrow(/FOREIGN KEY/);
    // The group before it was committed and announced; the failed one alone left nothing.
    expect(committed()).toEqual(['a']);
    expect(published).toEqual(['a']);
    inTransaction(ctx(), () => h.sqlite.prepare("INSERT INTO parent (id) VALUES ('p')").run());
    insert('child', 'p');
    expect(committed()).toEqual(['a']);
    flushCommits(h.db);
    expect(committed()).toEqual(['a', 'child']);
  });

  it('flushCommits commits at once (before a close)', () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    insert('a');
    flushCommits(h.db);
    expect(committed()).toEqual(['a']);
    expect(published).toEqual(['a']);
    expect(commitSettled(h.db)).toBeNull();
  });

  it('a second grouping connection in the process turns grouping off for both, committing the open group first', () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    insert('a');
    expect(committed()).toEqual([]);
    const other = openDatabase(path.join(dir, 'other.db'));
    try {
      groupCommits(other.db, (_what, err) => afterErrors.push(err));
      // Committed as the second one arrived: a write on it would otherwise wait on this thread for
      // a lock only this thread can release.
      expect(committed()).toEqual(['a']);
      insert('b');
      expect(committed()).toEqual(['a', 'b']);
    } finally {
      stopGroupCommits(other.db);
      other.close();
    }
    insert('c');
    expect(committed()).toEqual(['a', 'b']);
    flushCommits(h.db);
    expect(committed()).toEqual(['a', 'b', 'c']);
  });

  it('what an announcement throws is reported, and the commit and the other announcements stand', async () => {
    groupCommits(h.db, (_what, err) => afterErrors.push(err));
    const unsubscribe = events.subscribe('c1', (e) => {
      if ((e.data as { v: string }).v === 'a') throw new Error('a listener broke');
    });
    let afterA = false;
    inTransaction(
      ctx(),
      (tx) => {
        insert('a');
        afterCommit(tx, () => (afterA = true));
      },
      { group: true },
    );
    insert('b');
    await commitSettled(h.db);
    expect(committed()).toEqual(['a', 'b']);
    expect(published).toEqual(['a', 'b']);
    // The listener's throw skipped nothing else of that member's work after commit.
    expect(afterA).toBe(true);
    expect(afterErrors).toHaveLength(1);
    unsubscribe();
  });
});
