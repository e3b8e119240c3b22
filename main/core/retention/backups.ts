import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { homePaths } from '../context.js';
import { resolveInsideOrNull } from '../kernel/confined-path.js';

export interface BackupFile {
  name: string;
  path: string;
  bytes: number;
  createdAt: string;
  /** The schema the copy holds, read from its name (`...-before-0001_crm.db`), when it says. */
  schema: string | null;
}

/** Backups in `<home>/backups`, newest first. */
export function listBackups(backupsDir: string): BackupFile[] {
  if (!existsSync(backupsDir)) return [];
  return readdirSync(backupsDir)
    .filter((n) => n.endsWith('.db'))
    .flatMap((name) => {
      // Regular files directly inside backups/ only: pruning deletes what is listed here.
      const file = resolveInsideOrNull(backupsDir, name);
      const st = file ? lstatSync(file) : null;
      if (!file || !st?.isFile()) return [];
      return [{ name, path: file, bytes: st.size, createdAt: st.mtime.toISOString(), schema: /-before-(.+)\.db$/.exec(name)?.[1] ?? null, mtimeMs: st.mtimeMs }];
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name))
    .map(({ mtimeMs: _m, ...b }) => b);
}

/** Deletes all but the `keep` newest backups (0 keeps all). Returns what was deleted. */
export function pruneBackups(backupsDir: string, keep: number): BackupFile[] {
  if (keep <= 0) return [];
  const old = listBackups(backupsDir).slice(keep);
  for (const b of old) removeWithSidecars(b.path);
  return old;
}

function removeWithSidecars(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

export class DatabaseInUseError extends Error {}

export interface RestoreResult {
  restored: BackupFile;
  /** Where the database it replaced was kept (null when there was none). */
  replacedCopy: string | null;
}

/**
 * Puts a backup back as the live database. Refuses while another process (a running server) has
 * the database open: in SQLite's exclusive locking mode the first write fails while any other
 * connection holds the file, even an idle WAL reader. The replaced database is first copied (with
 * the backup API, so its WAL is included) into backups/ as `service-<time>-replaced-by-restore.db`.
 * The restored file is checked (integrity_check) before anything is replaced.
 */
export function restoreBackup(home: string, which: string | undefined, now: Date): RestoreResult {
  const paths = homePaths(home);
  const backups = listBackups(paths.backups);
  let chosen: BackupFile | undefined;
  if (which === undefined) {
    chosen = backups[0];
    if (!chosen) throw new Error(`No backups in ${paths.backups}`);
  } else {
    const file = path.isAbsolute(which) || which.includes(path.sep) ? path.resolve(which) : path.join(paths.backups, which);
    if (!existsSync(file)) throw new Error(`No backup at ${file}`);
    const st = statSync(file);
    chosen = backups.find((b) => b.path === file) ?? { name: path.basename(file), path: file, bytes: st.size, createdAt: st.mtime.toISOString(), schema: null };
  }
  // The copy is checked, not the backup: opening a WAL-mode file leaves -wal/-shm files beside it.
  const staged = `${paths.database}.restoring`;
  copyFileSync(chosen.path, staged);
  try {
    const check = new Database(staged, { readonly: true, fileMustExist: true });
    try {
      const result = (check.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
      if (result !== 'ok') throw new Error(`${chosen.path} fails integrity_check (${result}); not restored`);
      if (!check.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'companies'").get()) throw new Error(`${chosen.path} is not a Headcount database`);
    } finally {
      check.close();
    }
  } catch (err) {
    removeWithSidecars(staged);
    throw err;
  }

  let replacedCopy: string | null = null;
  if (existsSync(paths.database)) {
    const live = new Database(paths.database);
    try {
      live.pragma('busy_timeout = 1000');
      live.pragma('locking_mode = EXCLUSIVE');
      try {
        live.exec('BEGIN EXCLUSIVE; COMMIT');
      } catch (err) {
        if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
          throw new DatabaseInUseError(`${paths.database} is in use by another process (is the Headcount server running?). Stop it, then restore.`);
        }
        throw err;
      }
      mkdirSync(paths.backups, { recursive: true, mode: 0o700 });
      replacedCopy = path.join(paths.backups, `service-${now.toISOString().replace(/[:.]/g, '-')}-replaced-by-restore.db`);
      // Not awaited through the async backup API: a plain file copy after a full checkpoint is
      // consistent while we hold the exclusive lock.
      live.pragma('wal_checkpoint(TRUNCATE)');
      copyFileSync(paths.database, replacedCopy);
    } finally {
      live.close();
    }
  }
  // The old WAL and shared-memory files belong to the replaced database: SQLite would replay that
  // WAL onto the restored file. They are empty after the checkpoint; removed all the same.
  for (const suffix of ['-wal', '-shm']) rmSync(staged + suffix, { force: true });
  for (const suffix of ['-wal', '-shm']) rmSync(paths.database + suffix, { force: true });
  renameSync(staged, paths.database);
  return { restored: chosen, replacedCopy };
}
