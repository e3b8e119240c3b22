import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Queryable } from '../context.js';
import { fastRows } from './fast-rows.js';

const perSession = new WeakMap<object, Map<string, unknown>>();

/**
 * A drizzle query built once per connection and run with placeholders (`sql.placeholder`).
 * Building a query's SQL text cost more than running it on the hottest lookups (issue 17). A
 * transaction shares its database's session (one better-sqlite3 connection), so a query prepared
 * on either runs inside whatever transaction is open, exactly as the built-per-call query did. Its
 * rows are mapped by a reader worked out once (fast-rows.ts), not column by column by drizzle.
 */
export function prepared<T>(db: Queryable, name: string, build: (db: Queryable) => T): T {
  const session = (db as unknown as { session: object }).session;
  let cache = perSession.get(session);
  if (!cache) perSession.set(session, (cache = new Map()));
  let query = cache.get(name) as T | undefined;
  if (query === undefined) cache.set(name, (query = fastRows(build(db))));
  return query;
}

/**
 * `column IN (the ids)` for a prepared query: the ids are bound as one JSON array (`JSON.stringify`
 * of the list) under the placeholder `name`, so a page of any length runs the same statement.
 */
export const inJsonList = (column: Column, name = 'ids'): SQL => sql`${column} IN (SELECT value FROM json_each(${sql.placeholder(name)}))`;
