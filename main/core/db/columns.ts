import { text } from 'drizzle-orm/sqlite-core';

/** ISO-8601 UTC timestamps as TEXT: sortable, readable in the sqlite3 shell, same in JSON. */
export const timestamp = (name: string) => text(name);

/** JSON documents stored as TEXT; drizzle parses and serializes them. */
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();
