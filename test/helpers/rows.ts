import type Database from 'better-sqlite3';

/**
 * Inserts a row, filling every other NOT NULL column without a default with a placeholder, so the
 * test keeps working while the foundation schema grows.
 */
export function insertRow(sqlite: Database.Database, table: string, values: Record<string, unknown>): void {
  const row: Record<string, unknown> = { ...values };
  const info = sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: unknown }[];
  for (const c of info) {
    if (c.name in row || !c.notnull || c.dflt_value !== null) continue;
    row[c.name] = /INT|REAL|NUM/i.test(c.type) ? 0 : `${table}-${c.name}`;
  }
  const names = Object.keys(row);
  sqlite.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...names.map((n) => row[n]));
}
