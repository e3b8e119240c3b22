import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { openDatabase, type DatabaseHandle } from '../core/db/connection.js';
import { schemaStatus } from '../core/db/migrate.js';
import { homePaths } from '../core/context.js';
import { stderrLogger, type Logger } from '../core/kernel/logger.js';
import { defaultKeyProvider, type MasterKeyProvider } from '../core/secrets/master-key.js';
import { rotateMasterKey, type RotationResult, type RotationStep } from '../core/secrets/rotation.js';

export interface RotateInHomeOptions {
  /** Default: the same choice `serve` makes (OS keychain, else the key file). */
  keyProvider?: MasterKeyProvider;
  logger?: Logger;
  now?: Date;
  afterStep?: (step: RotationStep) => void | Promise<void>;
}

/**
 * Takes the database for this process alone. In SQLite's exclusive locking mode the first write
 * fails while any other connection has the file open (a running server keeps a shared lock in WAL
 * mode, even when idle), and once it succeeds the lock is held until close, so a server started
 * during the rotation waits and then fails instead of loading a key that is being replaced.
 */
function lockExclusively(handle: DatabaseHandle, file: string): void {
  handle.sqlite.pragma('busy_timeout = 1000');
  handle.sqlite.pragma('locking_mode = EXCLUSIVE');
  try {
    handle.sqlite.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new Error(`${file} is in use by another process (is the Headcount server running?). Stop it, then run the rotation again.`);
    }
    throw err;
  }
}

/** `headcount secrets rotate-master-key`, callable in-process for tests. */
export async function rotateMasterKeyInHome(home: string, options: RotateInHomeOptions = {}): Promise<RotationResult & { store: string }> {
  const { database } = homePaths(home);
  if (!existsSync(database)) throw new Error(`No database at ${database}: nothing to rotate`);
  const handle = openDatabase(database);
  try {
    lockExclusively(handle, database);
    const schema = schemaStatus(handle);
    if (schema.pending > 0 || schema.newerThanBuild) {
      throw new Error('The database schema does not match this Headcount version; start and stop this version of the server once, then rotate.');
    }
    const provider = options.keyProvider ?? (await defaultKeyProvider(home));
    const logger = options.logger ?? stderrLogger;
    if (provider.warning) logger.warn(provider.warning);
    const result = await rotateMasterKey(handle.db, provider, {
      logger,
      now: options.now ?? new Date(),
      ...(options.afterStep ? { afterStep: options.afterStep } : {}),
    });
    return { ...result, store: provider.describe() };
  } finally {
    handle.close();
  }
}

export function formatRotation(r: RotationResult & { store: string }): string {
  if (!r.rotated) return r.reason;
  return `Re-encrypted ${r.versions} secret version(s) under a new master key (generation ${r.fromGeneration} -> ${r.toGeneration}), stored in ${r.store}.`;
}

/** Adds `headcount secrets ...` to the program; `home` reads the global --home option at run time. */
export function registerSecretsCommands(program: Command, home: () => string): void {
  const secrets = program.command('secrets').description('manage the secrets of a data home');
  secrets
    .command('rotate-master-key')
    .description('re-encrypt every secret version under a new master key (stop the server first)')
    .action(async () => {
      process.stdout.write(formatRotation(await rotateMasterKeyInHome(home())) + '\n');
    });
}
