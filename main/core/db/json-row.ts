import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A row written as JSON by SQLite: `json_object('key', value, …)` over the API's field names, for
 * the lists that answer with JSON text (kernel/json-text.ts). Each list keeps its field map next to
 * the presenter its single reads use, and a test holds the two to the same output.
 */
export type JsonFields = Record<string, AnyColumn | SQL>;

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function jsonObject(fields: JsonFields): SQL {
  const members = Object.entries(fields).map(([key, value]) => {
    // Keys are the API's field names, written in code; never a value from a request.
    if (!KEY.test(key)) throw new Error(`not a JSON field name: ${key}`);
    return sql`${sql.raw(`'${key}'`)}, ${value}`;
  });
  return sql`json_object(${sql.join(members, sql`, `)})`;
}

/** A column holding JSON text, embedded as JSON (null stays null). */
export const embeddedJson = (column: AnyColumn | SQL): SQL => sql`json(${column})`;

/** An integer column of drizzle's boolean mode, written as `true` or `false`. */
export const jsonBoolean = (column: AnyColumn | SQL): SQL => sql`json(CASE WHEN ${column} THEN 'true' ELSE 'false' END)`;
