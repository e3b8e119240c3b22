import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface DatabaseHandle {
  sqlite: Database.Database;
  db: Db;
  close(): void;
}

export interface OpenOptions {
  /** Path to an Electron-ABI better_sqlite3.node; unset under plain Node (DESIGN.md). */
  nativeBinding?: string;
  readonly?: boolean;
}

/** Distinct SQL texts kept prepared; the app has a few hundred, so this only bounds odd growth. */
export const STATEMENT_CACHE_SIZE = 2000;

/**
 * drizzle asks SQLite to compile every query anew (sqlite3_prepare on each call): on a one-row read
 * that compile cost more than the read itself (issue 17's profile). Its queries bind values as
 * parameters, so one SQL text is one reusable statement; this hands drizzle the already compiled
 * statement. The cache is private to drizzle's client: direct users of `sqlite.prepare` (the
 * export's `iterate`) keep their own statements, so a cached statement is never mid-iteration.
 */
export function withStatementCache(sqlite: Database.Database, max = STATEMENT_CACHE_SIZE): Database.Database {
  const cache = new Map<string, Database.Statement>();
  const client = Object.create(sqlite) as Database.Database;
  const prepare = (source: string): Database.Statement => {
    let stmt = cache.get(source);
    if (stmt) {
      // Least recently used goes first: re-inserting keeps Map order as recency order.
      cache.delete(source);
      cache.set(source, stmt);
      // drizzle switches statements to raw (array) rows for mapped selects and back never.
      if (stmt.reader) stmt.raw(false);
      return stmt;
    }
    stmt = sqlite.prepare(source);
    cache.set(source, stmt);
    if (cache.size > max) cache.delete(cache.keys().next().value as string);
    return stmt;
  };
  client.prepare = prepare as Database.Database['prepare'];
  return client;
}

/**
 * For the serving connection, once migrated: its savepoint and statement journals (and temporary
 * sorts) stay in memory. Every grouped write runs in a savepoint (context.ts), and a statement that
 * fires a trigger gets a statement journal: both copy the pages they change into a sub-journal,
 * which SQLite moves to a new temporary file past 64 KiB. A new issue (nine indexes and its search
 * document) passed that size on every write: a file created, written page by page and deleted each
 * time (issue 17). SQLite decides where a transaction's sub-journal goes when the transaction
 * begins.
 */
export function keepTempInMemory(sqlite: Database.Database): void {
  sqlite.pragma('temp_store = MEMORY');
}

/**
 * Runs `fn` with the connection's temporary storage on disk again, for a write as large as a whole
 * company (deleting one): in memory its statement journals would hold a copy of every page the
 * company's rows fill. Call it before `fn`'s transaction begins.
 */
export function withTempOnDisk<T>(sqlite: Database.Database, fn: () => T): T {
  const before = sqlite.pragma('temp_store', { simple: true }) as number;
  if (before !== 2) return fn();
  sqlite.pragma('temp_store = FILE');
  try {
    return fn();
  } finally {
    sqlite.pragma('temp_store = MEMORY');
  }
}

/** Opens the database with the pragmas every connection must have. */
export function openDatabase(file: string, options: OpenOptions = {}): DatabaseHandle {
  const sqlite = new Database(file, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  // WAL: readers never block the writer. synchronous=NORMAL is durable across process crashes
  // in WAL mode (only an OS crash may lose the last commits), which is the trade the app wants.
  if (!options.readonly) sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Agent CLIs, the CLI and the server may touch the file at once; wait instead of SQLITE_BUSY.
  sqlite.pragma('busy_timeout = 5000');
  // 64 MiB of page cache instead of SQLite's 2 MiB default: with a large company the indexes the
  // board reads no longer fit 2 MiB, and every request re-read its pages through the OS. The cache
  // is filled lazily, so a small database uses no more memory than before.
  sqlite.pragma('cache_size = -65536');
  const db = drizzle(withStatementCache(sqlite), { schema });
  return {
    sqlite,
    db,
    close() {
      if (!sqlite.open) return;
      if (!options.readonly) {
        // Fold the WAL back so the file on disk is complete on its own after a clean close.
        sqlite.pragma('wal_checkpoint(TRUNCATE)');
      }
      sqlite.close();
    },
  };
}
