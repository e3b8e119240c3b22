import { Column, is, noopDecoder, NoopLogger, Param, Placeholder, SQL, Subquery } from 'drizzle-orm';
import { SQLitePreparedQuery } from 'drizzle-orm/sqlite-core';
import type Database from 'better-sqlite3';

/**
 * Runs a drizzle prepared query with its row mapping and parameter filling worked out once.
 *
 * drizzle maps every row afresh: for each column of each row it tells a column from an SQL
 * expression with three `is()` checks (prototype-chain walks), walks the field's path with an
 * iterator, and calls the column's decoder even when it returns its input; it fills each
 * placeholder with two more checks. On an issue read or update that was 6-7% of the request
 * (issue 17). Here the same decisions are taken once per query, and each row is copied with a
 * plain loop calling only the decoders that change a value (JSON, booleans, timestamps).
 *
 * Only the shape drizzle gives a select or a `returning()` of one table's columns or expressions
 * is taken over: a flat row, no join to nullify, no custom mapper, no query logging. Any other
 * query keeps drizzle's own methods. `test/unit/db/fast-rows.test.ts` checks both give the same
 * rows and parameters.
 */

interface DrizzleField {
  path: string[];
  field: unknown;
}

/** The parts of drizzle's better-sqlite3 prepared query this relies on (drizzle-orm 0.45). */
interface DrizzlePrepared {
  stmt: Database.Statement;
  query: { params: unknown[] };
  fields?: DrizzleField[];
  customResultMapper?: unknown;
  logger: unknown;
  run(values?: Record<string, unknown>): unknown;
  get(values?: Record<string, unknown>): unknown;
  all(values?: Record<string, unknown>): unknown;
  values(values?: Record<string, unknown>): unknown;
}

type Decode = ((value: unknown) => unknown) | null;

const identity = Column.prototype.mapFromDriverValue;

/** The decoder drizzle's `mapResultRow` would pick for this field, or null when it returns its input. */
function decoderOf(field: unknown): Decode {
  // `decoder` is internal to drizzle's SQL class (not in its types); mapResultRow reads it the same way.
  type Decoder = { mapFromDriverValue(value: unknown): unknown };
  const decoderOfSql = (s: unknown): Decoder => (s as { decoder: Decoder }).decoder;
  let decoder: Decoder;
  if (is(field, Column)) decoder = field;
  else if (is(field, SQL)) decoder = decoderOfSql(field);
  else if (is(field, Subquery)) decoder = decoderOfSql(field._.sql);
  else decoder = decoderOfSql((field as { sql: SQL }).sql);
  // A column's base decoder and an `sql` expression's default (no `mapWith`) both return their input.
  if (decoder.mapFromDriverValue === identity || decoder === noopDecoder) return null;
  return (value) => decoder.mapFromDriverValue(value);
}

/** Fills the statement's parameters from the placeholder values, as drizzle's `fillPlaceholders` does. */
function compileParams(params: unknown[]): (values: Record<string, unknown> | undefined) => unknown[] {
  const steps = params.map((p): ((values: Record<string, unknown>) => unknown) => {
    if (is(p, Placeholder)) {
      const name = p.name;
      return (values) => {
        if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
        return values[name];
      };
    }
    if (is(p, Param) && is(p.value, Placeholder)) {
      const name = p.value.name;
      const encoder = p.encoder;
      return (values) => {
        if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
        return encoder.mapToDriverValue(values[name]);
      };
    }
    return () => p;
  });
  if (steps.length === 0) return () => [];
  return (given) => {
    const values = given ?? {};
    const out = new Array<unknown>(steps.length);
    for (let i = 0; i < steps.length; i++) out[i] = steps[i]!(values);
    return out;
  };
}

/** Turns a raw (array) row into the keyed row drizzle would return, for flat fields only. */
function compileRow(fields: DrizzleField[]): ((row: unknown[]) => Record<string, unknown>) | null {
  if (fields.some((f) => f.path.length !== 1)) return null;
  const keys = fields.map((f) => f.path[0]!);
  const decoders = fields.map((f) => decoderOf(f.field));
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const raw = row[i];
      const decode = decoders[i];
      out[keys[i]!] = raw === null || !decode ? raw : decode(raw);
    }
    return out;
  };
}

/**
 * Gives a drizzle prepared query faster `run`, `get`, `all` and `values` with the same results; a
 * query of another shape is returned untouched.
 */
export function fastRows<T>(query: T): T {
  if (!is(query, SQLitePreparedQuery)) return query;
  const q = query as unknown as DrizzlePrepared;
  if (typeof q.stmt?.raw !== 'function' || !Array.isArray(q.query?.params)) return query;
  if (!is(q.logger, NoopLogger) || q.customResultMapper) return query;
  const fill = compileParams(q.query.params);
  const stmt = q.stmt;
  q.run = (values) => stmt.run(...fill(values));
  if (!q.fields) {
    // No fields: drizzle hands back better-sqlite3's own (keyed) rows. Like drizzle, `values()`
    // leaves such a statement in raw mode; no query of this app reads through both.
    q.get = (values) => stmt.get(...fill(values));
    q.all = (values) => stmt.all(...fill(values));
    q.values = (values) => stmt.raw().all(...fill(values));
    return query;
  }
  // A join nests each table's columns (paths of two) and may null a side: left to drizzle. For a
  // flat row its join map has nothing to act on.
  const toRow = compileRow(q.fields);
  if (!toRow) return query;
  q.values = (values) => stmt.raw().all(...fill(values));
  q.get = (values) => {
    const row = stmt.raw().get(...fill(values)) as unknown[] | undefined;
    return row ? toRow(row) : undefined;
  };
  q.all = (values) => (stmt.raw().all(...fill(values)) as unknown[][]).map(toRow);
  return query;
}
