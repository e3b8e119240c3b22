import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { DatabaseHandle } from './connection.js';
import { PACKAGE_ROOT } from '../kernel/package-root.js';

export const MIGRATIONS_FOLDER = path.join(PACKAGE_ROOT, 'main', 'core', 'db', 'migrations');
const MIGRATIONS_TABLE = '__drizzle_migrations';

export interface SchemaStatus {
  /** Migrations shipped with this build. */
  available: number;
  /** Migrations recorded as applied in the database. */
  applied: number;
  pending: number;
  /** Tag of the newest applied migration (for example `0000_foundation`), or null on an empty db. */
  current: string | null;
  /** The database was migrated by a newer build than this one. */
  newerThanBuild: boolean;
}

function appliedTimestamps(handle: DatabaseHandle): number[] {
  const exists = handle.sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(MIGRATIONS_TABLE);
  if (!exists) return [];
  const rows = handle.sqlite.prepare(`SELECT created_at FROM ${MIGRATIONS_TABLE} ORDER BY created_at`).all() as {
    created_at: number;
  }[];
  return rows.map((r) => Number(r.created_at));
}

/** Compares the migrations shipped with the build with those recorded in the database. */
export function schemaStatus(handle: DatabaseHandle, folder = MIGRATIONS_FOLDER): SchemaStatus {
  const files = readMigrationFiles({ migrationsFolder: folder });
  const journal = readJournalTags(folder);
  const applied = appliedTimestamps(handle);
  const lastApplied = applied.length ? Math.max(...applied) : null;
  // drizzle decides what is pending by timestamp: everything newer than the last applied one.
  const pending = lastApplied === null ? files.length : files.filter((f) => f.folderMillis > lastApplied).length;
  const current = lastApplied === null ? null : (journal.get(lastApplied) ?? `unknown (${lastApplied})`);
  return {
    available: files.length,
    applied: applied.length,
    pending,
    current,
    newerThanBuild: lastApplied !== null && !journal.has(lastApplied),
  };
}

function readJournalTags(folder: string): Map<number, string> {
  // drizzle-kit writes this journal next to the SQL files; it maps timestamps to readable tags.
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}

export interface MigrationResult {
  before: SchemaStatus;
  /** Path of the copy taken before pending migrations were applied, if any were pending. */
  backupPath: string | null;
}

/**
 * Applies pending migrations. When the database already holds data and migrations are pending, a
 * consistent copy is first taken with SQLite's online backup API into `<home>/backups/`, so a
 * failed or unwanted upgrade can be undone by hand.
 */
export async function applyMigrations(
  handle: DatabaseHandle,
  backupDir: string,
  now: Date,
  folder = MIGRATIONS_FOLDER,
): Promise<MigrationResult> {
  const before = schemaStatus(handle, folder);
  if (before.newerThanBuild) {
    throw new Error(
      `The database at this home was written by a newer Headcount (schema ${before.current}); this build knows up to ${before.available} migrations. Upgrade Headcount instead of downgrading the data.`,
    );
  }
  let backupPath: string | null = null;
  if (before.pending > 0 && before.applied > 0) {
    mkdirSync(backupDir, { recursive: true, mode: 0o700 });
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    backupPath = path.join(backupDir, `service-${stamp}-before-${before.current ?? 'empty'}.db`);
    await handle.sqlite.backup(backupPath);
  }
  if (before.pending > 0) migrate(handle.db, { migrationsFolder: folder, migrationsTable: MIGRATIONS_TABLE });
  return { before, backupPath };
}
