import { and, sql, type AnyColumn, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { badRequest } from '../kernel/errors.js';
import type { Queryable } from '../context.js';

/** One page of a list kept in (sort column, rowid) order: no list answers with all its rows. */
export interface KeysetQuery {
  limit: number;
  /** The cursor of the previous page (`X-Next-Cursor`). */
  after?: string | undefined;
}

export interface KeysetPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Keyset paging over a sort column with the rowid as tie-break (issue 17): each page is an index
 * range, however far into the list it is. The cursor is opaque: the last row's key and rowid.
 * `tieBreak` orders rows of one key by insertion the other way round from the key when a list
 * needs it (a sequence's enrollments: newest call first, the contacts of one call in their order).
 */
export function keyset<TTable extends SQLiteTable>(table: TTable, column: AnyColumn, direction: 'asc' | 'desc', tieBreak: 'asc' | 'desc' = direction) {
  const rowid = sql<number>`${table}.rowid`;
  const way = (dir: 'asc' | 'desc') => ({ order: sql.raw(dir === 'asc' ? 'ASC' : 'DESC'), after: sql.raw(dir === 'asc' ? '>' : '<') });
  const byKey = way(direction);
  const byRowid = way(tieBreak);
  return {
    rowid,
    orderBy: [sql`${column} ${byKey.order}`, sql`${table}.rowid ${byRowid.order}`],
    /** The condition "after the cursor", or undefined on the first page; 400 on a foreign cursor. */
    after(cursor: string | undefined): SQL | undefined {
      if (cursor === undefined) return undefined;
      let key: unknown;
      let id: unknown;
      try {
        [key, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
      } catch {
        key = undefined;
      }
      if ((typeof key !== 'string' && typeof key !== 'number') || !Number.isSafeInteger(id)) {
        throw badRequest('invalid_cursor', 'query.after: not a cursor from this list');
      }
      return sql`(${column} ${byKey.after} ${key} OR (${column} = ${key} AND ${table}.rowid ${byRowid.after} ${id}))`;
    },
    /** Cuts the `limit + 1` rows fetched into the page and the cursor of the next one. */
    page<R extends { rowid: number }, T>(rows: R[], limit: number, key: (row: R) => string | number, shape: (row: R) => T): KeysetPage<T> {
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      const nextCursor = rows.length > limit && last ? Buffer.from(JSON.stringify([key(last), last.rowid]), 'utf8').toString('base64url') : null;
      return { items: items.map(shape), nextCursor };
    },
    /** One page of the table's rows that `where` keeps, in this order, each shaped by `shape`. */
    pageOf<T>(db: Queryable, where: SQL | undefined, page: KeysetQuery, shape: (row: InferSelectModel<TTable>) => T): KeysetPage<T> {
      const rows = db
        .select({ row: table as SQLiteTable, rowid, key: sql<string | number>`${column}` })
        .from(table as SQLiteTable)
        .where(and(where, this.after(page.after)))
        .orderBy(...this.orderBy)
        .limit(page.limit + 1)
        .all() as unknown as { row: InferSelectModel<TTable>; rowid: number; key: string | number }[];
      return this.page(rows, page.limit, (r) => r.key, (r) => shape(r.row));
    },
  };
}
