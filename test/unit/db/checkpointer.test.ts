import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { BACKSTOP_PAGES, startCheckpointer, walSizeLimit, type Checkpointer } from '../../../main/core/db/checkpointer.js';
import { inTransaction, observeCommits } from '../../../main/core/context.js';
import { EventBus } from '../../../main/core/events/bus.js';
import { systemClock } from '../../../main/core/kernel/clock.js';
import type { Logger } from '../../../main/core/kernel/logger.js';

// The WAL is folded back by a worker thread with its own connection (db/checkpointer.ts); these
// run the real worker on a real database file.
let dir: string;
let file: string;
let h: DatabaseHandle;
let warnings: string[];
let checkpointer: Checkpointer | undefined;
const logger: Logger = { info: () => {}, warn: (m) => warnings.push(m), error: () => {} };

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ckpt-'));
  file = path.join(dir, 'service.db');
  h = openDatabase(file);
  h.sqlite.exec('CREATE TABLE t (v TEXT NOT NULL)');
  h.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  warnings = [];
});
let unobserve: () => void = () => {};
afterEach(async () => {
  unobserve();
  await checkpointer?.stop();
  checkpointer = undefined;
  h.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = () => ({ db: h.db, events: new EventBus(), clock: systemClock });
const autocheckpoint = () => h.sqlite.pragma('wal_autocheckpoint', { simple: true });
const tick = () => new Promise((resolve) => setImmediate(resolve));
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}
/** `n` commits of about 2 KiB each, letting the event loop turn (and the worker report) between batches. */
async function write(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    inTransaction(ctx(), (tx) => tx.run(sql`INSERT INTO t (v) VALUES (${'x'.repeat(2000)})`));
    if (i % 20 === 19) await tick();
  }
}

/**
 * Rows of `t` in the database file itself, the WAL ignored: what checkpoints have copied back. The
 * copy is taken while the worker may be writing pages into the file, so a copy caught halfway
 * through a checkpoint can be torn ("malformed"): it is taken again, a few times at most, and a file
 * that still reads malformed fails the test.
 */
const rowsInFile = (): number => {
  const copy = path.join(dir, 'file-only.db');
  for (let attempt = 1; ; attempt++) {
    copyFileSync(file, copy);
    const reader = new Database(copy, { readonly: true });
    try {
      return (reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_CORRUPT' || attempt >= 20) throw err;
    } finally {
      reader.close();
    }
  }
};

describe('background checkpointer', () => {
  it('folds the WAL back from its own thread, every so many commits', async () => {
    checkpointer = startCheckpointer(file, { logger });
    unobserve = observeCommits(h.db, checkpointer.noteCommit);
    // Fewer pages than SQLite's own threshold (1,000), so any checkpoint here is the worker's.
    h.sqlite.pragma('wal_autocheckpoint = 0');
    await write(250);
    const report = await checkpointer.flush();
    expect(report).toBeDefined();
    expect(report!.log).toBeGreaterThan(0);
    expect(report!.checkpointed).toBe(report!.log);
    expect(warnings).toEqual([]);
  });

  it('checkpoints what a burst left once the writes pause', async () => {
    checkpointer = startCheckpointer(file, { logger });
    unobserve = observeCommits(h.db, checkpointer.noteCommit);
    h.sqlite.pragma('wal_autocheckpoint = 0');
    await write(10);
    expect(rowsInFile()).toBe(0);
    // No flush and fewer commits than a checkpoint's worth: only the quiet timer can fold these back.
    await until(() => rowsInFile() === 10);
  });

  it("keeps the serving connection's own checkpoints as a backstop while it runs, and gives them back when it stops", async () => {
    expect(autocheckpoint()).toBe(1000);
    checkpointer = startCheckpointer(file, { logger, serving: h.sqlite });
    unobserve = observeCommits(h.db, checkpointer.noteCommit);
    expect(autocheckpoint()).toBe(BACKSTOP_PAGES);
    // Twice the backstop's own WAL, so its restarts never shrink the file (66 MB at 4 KiB pages).
    expect(h.sqlite.pragma('journal_size_limit', { simple: true })).toBe(walSizeLimit(4096));
    expect(walSizeLimit(4096)).toBe(65_920_000);
    // Past SQLite's own threshold (1,000 pages) with no checkpoint on this thread: the worker's
    // fold everything back, and once one finds nothing newer the next write starts the WAL over.
    await write(1200);
    const report = await checkpointer.flush();
    expect(report!.checkpointed).toBe(report!.log);
    expect(rowsInFile()).toBe(1200);
    await checkpointer.stop();
    // The connection's own settings are back as they were: SQLite's threshold, no size limit.
    expect(autocheckpoint()).toBe(1000);
    expect(h.sqlite.pragma('journal_size_limit', { simple: true })).toBe(-1);
  });

  it('leaves the checkpoints to SQLite when the worker cannot start', async () => {
    checkpointer = startCheckpointer(file, { logger, serving: h.sqlite, nativeBinding: path.join(dir, 'missing.node') });
    await until(() => warnings.length === 1);
    expect(warnings[0]).toMatch(/checkpointer stopped/);
    expect(await checkpointer.flush()).toBeUndefined();
    // Commits still work, and SQLite checkpoints inside them as it always did.
    unobserve = observeCommits(h.db, checkpointer.noteCommit);
    await write(30);
    expect(h.sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 30 });
    expect(autocheckpoint()).toBe(1000);
  });

  it('stops without a warning, and commits go on after it', async () => {
    checkpointer = startCheckpointer(file, { logger });
    unobserve = observeCommits(h.db, checkpointer.noteCommit);
    await write(5);
    await checkpointer.stop();
    await write(5);
    expect(await checkpointer.flush()).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(h.sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 10 });
  });
});
