import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { emitOnCommit, inTransaction, wakeOnCommit, type Queryable } from '../../../main/core/context.js';
import { EventBus } from '../../../main/core/events/bus.js';
import { Signal } from '../../../main/core/kernel/signal.js';
import { systemClock } from '../../../main/core/kernel/clock.js';

// inTransaction shares one drizzle handle and one better-sqlite3 transaction function across
// top-level transactions (context.ts): what each transaction queues must stay its own.
let dir: string;
let h: DatabaseHandle;
let events: EventBus;
let wakes: Signal;
let published: string[];
let woken: number;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tx-'));
  h = openDatabase(path.join(dir, 'service.db'));
  h.sqlite.exec('CREATE TABLE t (v TEXT NOT NULL)');
  events = new EventBus();
  wakes = new Signal();
  published = [];
  woken = 0;
  events.subscribe('c1', (e) => published.push((e.data as { summary: string }).summary));
  wakes.subscribe(() => woken++);
});
afterEach(() => {
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({ db: h.db, events, clock: systemClock, wakes });
const insert = (tx: Queryable, v: string) => tx.run(sql`INSERT INTO t (v) VALUES (${v})`);
const emit = (tx: Queryable, summary: string) =>
  emitOnCommit(tx, { companyId: 'c1', type: 'issue.created', data: { activityId: summary, entityType: 'issue', entityId: 'i', summary, actorType: 'board', actorId: null } });
const values = () => (h.sqlite.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: string }[]).map((r) => r.v);

describe('inTransaction', () => {
  it('publishes a transaction\'s events once, after it commits, and never those of a rolled-back one', () => {
    inTransaction(ctx(), (tx) => {
      insert(tx, 'a');
      emit(tx, 'first');
      expect(published).toEqual([]);
    });
    expect(published).toEqual(['first']);
    expect(() =>
      inTransaction(ctx(), (tx) => {
        insert(tx, 'b');
        emit(tx, 'lost');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    inTransaction(ctx(), (tx) => {
      insert(tx, 'c');
      emit(tx, 'third');
    });
    expect(published).toEqual(['first', 'third']);
    expect(values()).toEqual(['a', 'c']);
  });

  it('takes the write lock up front and leaves no transaction open after a commit or a rollback', () => {
    inTransaction(ctx(), (tx) => {
      expect(h.sqlite.inTransaction).toBe(true);
      insert(tx, 'a');
    });
    expect(h.sqlite.inTransaction).toBe(false);
    expect(() => inTransaction(ctx(), () => {
      throw new Error('no');
    })).toThrow('no');
    expect(h.sqlite.inTransaction).toBe(false);
  });

  it('refuses an event queued outside a transaction, also on a handle an earlier transaction used', () => {
    let kept: Queryable | undefined;
    inTransaction(ctx(), (tx) => {
      kept = tx;
    });
    expect(() => emit(kept!, 'late')).toThrow(/inside inTransaction/);
    expect(() => emit(h.db, 'outside')).toThrow(/inside inTransaction/);
  });

  it('tells the engine of a wake only for the transaction that stored one', () => {
    inTransaction(ctx(), (tx) => wakeOnCommit(tx));
    expect(woken).toBe(1);
    inTransaction(ctx(), (tx) => insert(tx, 'quiet'));
    expect(woken).toBe(1);
    expect(() =>
      inTransaction(ctx(), (tx) => {
        wakeOnCommit(tx);
        throw new Error('rolled back');
      }),
    ).toThrow();
    expect(woken).toBe(1);
    inTransaction(ctx(), (tx) => insert(tx, 'still quiet'));
    expect(woken).toBe(1);
  });

  it('runs a nested transaction as a savepoint: its failure undoes only its own writes', () => {
    inTransaction(ctx(), (outer) => {
      insert(outer, 'outer');
      emit(outer, 'outer event');
      expect(() =>
        inTransaction(ctx(), (inner) => {
          insert(inner, 'inner');
          throw new Error('inner fails');
        }),
      ).toThrow('inner fails');
      inTransaction(ctx(), (inner) => insert(inner, 'inner kept'));
      insert(outer, 'outer again');
    });
    expect(values()).toEqual(['outer', 'inner kept', 'outer again']);
    expect(published).toEqual(['outer event']);
  });
});
