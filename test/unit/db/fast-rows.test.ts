import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { alias, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fastRows } from '../../../main/core/db/fast-rows.js';

// The fast reader must give exactly what drizzle gives: each query here is run both ways, the
// second time through drizzle's own methods (its class's prototype), on a real database file.
const things = sqliteTable('things', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
  meta: text('meta', { mode: 'json' }).$type<Record<string, unknown> | null>(),
  done: integer('done', { mode: 'boolean' }).notNull(),
  at: integer('at', { mode: 'timestamp_ms' }),
  n: integer('n'),
});

let dir: string;
let sqlite: Database.Database;
let db: ReturnType<typeof drizzle>;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'fast-rows-'));
  sqlite = new Database(path.join(dir, 'x.db'));
  sqlite.exec('CREATE TABLE things (id TEXT PRIMARY KEY, title TEXT NOT NULL, tags TEXT NOT NULL, meta TEXT, done INTEGER NOT NULL, at INTEGER, n INTEGER)');
  db = drizzle(sqlite);
  db.insert(things)
    .values([
      { id: 'a', title: 'Alpha', tags: ['x', 'y'], meta: { deep: [1, { two: 2 }] }, done: true, at: new Date(1_700_000_000_123), n: 7 },
      { id: 'b', title: 'Beta "quoted" ☃', tags: [], meta: null, done: false, at: null, n: null },
    ])
    .run();
});
afterEach(() => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const p = sql.placeholder;
/** What drizzle's own method gives for the same call. */
const drizzleOwn = (query: object, method: 'get' | 'all' | 'run' | 'values', values?: Record<string, unknown>): unknown =>
  (Object.getPrototypeOf(query) as Record<string, (v?: Record<string, unknown>) => unknown>)[method]!.call(query, values);

describe('fast rows for prepared queries', () => {
  it('maps whole-table selects as drizzle does: JSON, booleans, timestamps and nulls', () => {
    const byId = fastRows(db.select().from(things).where(eq(things.id, p('id'))).prepare());
    const all = fastRows(db.select().from(things).orderBy(things.id).prepare());
    for (const id of ['a', 'b', 'missing']) expect(byId.get({ id })).toEqual(drizzleOwn(byId, 'get', { id }));
    expect(byId.get({ id: 'a' })).toEqual({ id: 'a', title: 'Alpha', tags: ['x', 'y'], meta: { deep: [1, { two: 2 }] }, done: true, at: new Date(1_700_000_000_123), n: 7 });
    expect(all.all()).toEqual(drizzleOwn(all, 'all'));
    expect(all.values()).toEqual(drizzleOwn(all, 'values'));
    // Own methods were installed (so the comparison above compared two paths, not one).
    expect(Object.hasOwn(byId, 'get')).toBe(true);
  });

  it('maps chosen fields and SQL expressions with their decoders, and returning() rows', () => {
    const picked = fastRows(
      db
        .select({ key: things.id, count: sql<number>`length(${things.title})`.mapWith(Number), flag: things.done, raw: sql<string>`upper(${things.title})` })
        .from(things)
        .orderBy(things.id)
        .prepare(),
    );
    expect(picked.all()).toEqual(drizzleOwn(picked, 'all'));
    const rename = fastRows(db.update(things).set({ title: sql`${p('title')}` }).where(eq(things.id, p('id'))).returning().prepare());
    const got = rename.get({ id: 'a', title: 'Renamed' });
    expect(got).toMatchObject({ id: 'a', title: 'Renamed', tags: ['x', 'y'], done: true });
    expect(rename.get({ id: 'a', title: 'Again' })).toEqual({ ...(got as object), title: 'Again' });
    expect(rename.get({ id: 'missing', title: 'x' })).toBeUndefined();
  });

  it('fills placeholders as drizzle does, encoding values bound to a column, and refuses a missing one the same way', () => {
    // A placeholder given as a column's value is encoded by the column (JSON, boolean, timestamp).
    const insert = fastRows(db.insert(things).values({ id: p('id'), title: p('title'), tags: p('tags'), meta: p('meta'), done: p('done'), at: p('at') }).prepare());
    insert.run({ id: 'c', title: 'Gamma', tags: ['z'], meta: { k: 'v' }, done: true, at: new Date(5) });
    drizzleOwn(insert, 'run', { id: 'd', title: 'Gamma', tags: ['z'], meta: { k: 'v' }, done: true, at: new Date(5) });
    expect(sqlite.prepare("SELECT tags, meta, done, at FROM things WHERE id IN ('c', 'd')").all()).toEqual([
      { tags: '["z"]', meta: '{"k":"v"}', done: 1, at: 5 },
      { tags: '["z"]', meta: '{"k":"v"}', done: 1, at: 5 },
    ]);
    const flagged = fastRows(db.select({ id: things.id }).from(things).where(and(eq(things.title, p('title')), eq(things.n, p('n')))).orderBy(things.id).prepare());
    expect(flagged.all({ title: 'Alpha', n: 7 })).toEqual([{ id: 'a' }]);
    expect(() => flagged.all({ title: 'Alpha' })).toThrow('No value for placeholder "n" was provided');
    expect(() => drizzleOwn(flagged, 'all', { title: 'Alpha' })).toThrow('No value for placeholder "n" was provided');
    // No values at all (null or nothing) is an empty set of values, as for drizzle.
    for (const none of [null, undefined]) {
      expect(() => flagged.all(none as never)).toThrow('No value for placeholder "title" was provided');
      expect(() => drizzleOwn(flagged, 'all', none as never)).toThrow('No value for placeholder "title" was provided');
    }
  });

  it('runs writes with the same result, and leaves queries of other shapes to drizzle', () => {
    const insert = fastRows(db.insert(things).values({ id: p('id'), title: p('title'), tags: sql`${p('tags')}`, done: sql`${p('done')}` }).prepare());
    expect(insert.run({ id: 'c', title: 'Gamma', tags: '["z"]', done: 0 })).toEqual({ changes: 1, lastInsertRowid: 3 });
    expect(drizzleOwn(insert, 'run', { id: 'd', title: 'Delta', tags: '[]', done: 1 })).toEqual({ changes: 1, lastInsertRowid: 4 });
    expect(db.select().from(things).where(eq(things.id, 'c')).get()).toMatchObject({ tags: ['z'], done: false });
    // A join: drizzle nests the row per table and may null a side; left to drizzle's own mapping.
    const other = alias(things, 'other');
    const joined = fastRows(db.select().from(things).leftJoin(other, eq(things.id, other.id)).prepare());
    expect(Object.hasOwn(joined, 'all')).toBe(false);
    expect(fastRows({ not: 'a query' })).toEqual({ not: 'a query' });
  });
});
