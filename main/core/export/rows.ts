import { getTableColumns, getTableName, is, type Column } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { createInsertSchema } from 'drizzle-zod';
import { z } from 'zod';
import * as schema from '../db/schema.js';
import { DocumentKey } from '../issues/documents/contract.js';
import type { ScopedTable } from './scope.js';
import { plainNameProblem } from '../kernel/confined-path.js';

/**
 * Row validation for imports: each table's row is checked against a strict zod schema derived from
 * its drizzle definition (the same column types, enums, JSON shapes and NOT NULLs the API writes
 * through), after a check that each raw value has the SQLite type of its column. Columns whose
 * values the API constrains further than their SQL type reuse the API's contract.
 */

/** Stricter rules than the column type, from the API contracts, keyed `table.column`. */
const CONTRACT_COLUMNS: Readonly<Record<string, z.ZodType>> = {
  'issue_documents.key': DocumentKey,
  // Replaced by a generated name on import; a path here is still a forged row, refused as such.
  'assets.storage_name': z.string().refine((name) => plainNameProblem(name) === null, 'must be a plain file name'),
};

const drizzleTables = new Map<string, SQLiteTable>();
for (const v of Object.values(schema)) if (is(v, SQLiteTable)) drizzleTables.set(getTableName(v), v);

export type RowCheck = (row: Record<string, unknown>) => string | null;

function rawTypeProblem(sqlType: string, v: unknown): string | null {
  if (v === null) return null;
  if (sqlType.includes('INT')) return typeof v === 'number' && Number.isSafeInteger(v) ? null : 'must be an integer';
  if (sqlType.includes('CHAR') || sqlType.includes('TEXT') || sqlType.includes('CLOB')) return typeof v === 'string' ? null : 'must be a string';
  if (sqlType.includes('REAL') || sqlType.includes('FLOA') || sqlType.includes('DOUB')) return typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number';
  if (sqlType.includes('BLOB')) return Buffer.isBuffer(v) ? null : 'must be binary';
  return typeof v === 'string' || typeof v === 'number' ? null : 'must be a string or a number';
}

const describe = (issues: z.core.$ZodIssue[]): string =>
  issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? String(i.path[0]) : 'row'}: ${i.message}`)
    .join('; ');

/** The check of one table's rows (without its rowid column), or null when this build has no definition of it. */
export function rowCheck(t: ScopedTable): RowCheck | null {
  const table = drizzleTables.get(t.name);
  if (!table) return null;
  const insert = createInsertSchema(table) as unknown as z.ZodObject;
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, col] of columns) {
    if (col.name === t.rowidColumn) continue;
    const base = insert.shape[key] as z.ZodType;
    const contract = CONTRACT_COLUMNS[`${t.name}.${col.name}`];
    shape[col.name] = contract ? base.pipe(col.notNull ? contract : contract.nullable()) : base;
  }
  const strict = z.strictObject(shape);
  const sqlTypes = new Map(t.columns.map((c) => [c.name, c.type]));
  const byName = new Map(columns.map(([, col]) => [col.name, col]));
  return (row) => {
    const app: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      const sqlType = sqlTypes.get(k);
      const col = byName.get(k);
      if (sqlType === undefined || !col) return `${k}: not a column of ${t.name} here`;
      const problem = rawTypeProblem(sqlType, v);
      if (problem) return `${k}: ${problem}`;
      try {
        // What the API would read back: JSON parsed, 0/1 as booleans.
        app[k] = v === null ? null : col.mapFromDriverValue(v);
      } catch {
        return `${k}: not a valid stored value`;
      }
    }
    const parsed = strict.safeParse(app);
    return parsed.success ? null : describe(parsed.error.issues);
  };
}
