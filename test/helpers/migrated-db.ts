import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../main/core/db/connection.js';
import { applyMigrations } from '../../main/core/db/migrate.js';

export interface MigratedDatabase {
  /** The temporary folder holding `service.db` (and the migration's backups). */
  dir: string;
  h: DatabaseHandle;
  /** Closes the connection and removes the folder. */
  close(): void;
}

/** A real database file in a temporary folder, migrated to this build's schema as the server does. */
export async function migratedDatabase(prefix: string, at = new Date()): Promise<MigratedDatabase> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const h = openDatabase(path.join(dir, 'service.db'));
  await applyMigrations(h, path.join(dir, 'backups'), at);
  return {
    dir,
    h,
    close: () => {
      h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
