import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, withStatementCache, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { tempHome } from '../../helpers/core.js';

// drizzle's client gets compiled statements from a cache keyed by SQL text (issue 17).

let home: string;
let handle: DatabaseHandle;
afterEach(() => {
  handle?.close();
  rmSync(home, { recursive: true, force: true });
});

function open() {
  home = tempHome();
  handle = openDatabase(path.join(home, 't.db'));
  handle.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
  handle.sqlite.prepare("INSERT INTO t (id, name) VALUES (1, 'one'), (2, 'two')").run();
  return handle;
}

describe('statement cache', () => {
  it('hands out one compiled statement per SQL text', () => {
    const { sqlite } = open();
    const client = withStatementCache(sqlite);
    expect(client.prepare('SELECT * FROM t WHERE id = ?')).toBe(client.prepare('SELECT * FROM t WHERE id = ?'));
    expect(client.prepare('SELECT * FROM t WHERE id = ?')).not.toBe(client.prepare('SELECT name FROM t WHERE id = ?'));
  });

  it('returns object rows after drizzle left the statement in raw (array) mode', () => {
    const { sqlite } = open();
    const client = withStatementCache(sqlite);
    client.prepare('SELECT * FROM t WHERE id = ?').raw(true);
    expect(client.prepare('SELECT * FROM t WHERE id = ?').get(1)).toEqual({ id: 1, name: 'one' });
  });

  it('keeps at most its bound of statements, dropping the least recently used', () => {
    const { sqlite } = open();
    const client = withStatementCache(sqlite, 2);
    const a = client.prepare('SELECT 1');
    client.prepare('SELECT 2');
    expect(client.prepare('SELECT 1')).toBe(a); // used again: now the most recent
    client.prepare('SELECT 3'); // drops SELECT 2
    expect(client.prepare('SELECT 1')).toBe(a);
  });

  it('mapped and raw drizzle queries of the same text return the right shapes, in and out of transactions', () => {
    const { db } = open();
    for (let i = 0; i < 3; i++) {
      const name = i === 0 ? 'two' : `two-${i - 1}`;
      expect(db.get(sql`SELECT id, name FROM t WHERE id = ${2}`)).toEqual({ id: 2, name });
      expect(db.values(sql`SELECT id, name FROM t WHERE id = ${2}`)).toEqual([[2, name]]);
      db.transaction((tx) => {
        tx.run(sql`UPDATE t SET name = ${`two-${i}`} WHERE id = 2`);
        expect(tx.all(sql`SELECT name FROM t WHERE id = ${2}`)).toEqual([{ name: `two-${i}` }]);
      });
    }
  });
});
