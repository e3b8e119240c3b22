import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepTempInMemory, openDatabase, withTempOnDisk, type DatabaseHandle } from '../../../main/core/db/connection.js';
import { applyMigrations, MIGRATIONS_FOLDER, schemaStatus } from '../../../main/core/db/migrate.js';
import { insertRow } from '../../helpers/rows.js';

const NOW = new Date('2030-01-02T03:04:05.678Z');

interface Journal {
  entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
}

// What this build ships (0000_foundation today); derived so a new real migration does not break these tests.
const SHIPPED = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as Journal;
const SHIPPED_COUNT = SHIPPED.entries.length;
const FOUNDATION = SHIPPED.entries[SHIPPED_COUNT - 1]!.tag;

let dir: string;
let next: string; // the shipped migrations plus 0001_test
let backups: string;
const handles: DatabaseHandle[] = [];

function open(name = 'service.db'): DatabaseHandle {
  const h = openDatabase(path.join(dir, name));
  handles.push(h);
  return h;
}

const columns = (sqlite: Database.Database, table: string): string[] =>
  (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

function insertCompanyAndProject(h: DatabaseHandle): void {
  const at = '2030-01-01T00:00:00.000Z';
  insertRow(h.sqlite, 'companies', { id: 'c1', name: 'Acme', created_at: at, updated_at: at });
  insertRow(h.sqlite, 'projects', { id: 'p1', company_id: 'c1', name: 'Launch', created_at: at, updated_at: at });
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'headcount-migrate-'));
  backups = path.join(dir, 'backups');
  next = path.join(dir, 'migrations-next');
  cpSync(MIGRATIONS_FOLDER, next, { recursive: true });
  writeFileSync(path.join(next, '0001_test.sql'), 'ALTER TABLE `projects` ADD COLUMN `test_col` text;\n');
  const journalFile = path.join(next, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  const last = journal.entries[journal.entries.length - 1]!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 60_000, tag: '0001_test' });
  writeFileSync(journalFile, JSON.stringify(journal, null, 2));
});

afterEach(() => {
  for (const h of handles.splice(0)) h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('sets WAL, foreign keys, busy timeout and synchronous=NORMAL on every connection', () => {
    const h = open();
    expect(h.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(h.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(h.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(h.sqlite.pragma('synchronous', { simple: true })).toBe(1);
    // SQLite's default (temporary files past 64 KiB) until the server keeps them in memory.
    expect(h.sqlite.pragma('temp_store', { simple: true })).toBe(0);
  });

  it('keeps temporary storage in memory once asked, and on disk again for the length of withTempOnDisk', () => {
    const h = open();
    const tempStore = () => h.sqlite.pragma('temp_store', { simple: true });
    // Not in memory: nothing to switch.
    expect(withTempOnDisk(h.sqlite, () => tempStore())).toBe(0);
    keepTempInMemory(h.sqlite);
    expect(tempStore()).toBe(2);
    expect(withTempOnDisk(h.sqlite, () => tempStore())).toBe(1);
    expect(tempStore()).toBe(2);
    expect(() =>
      withTempOnDisk(h.sqlite, () => {
        throw new Error('failed inside');
      }),
    ).toThrow('failed inside');
    expect(tempStore()).toBe(2);
  });

  it('enforces foreign keys', async () => {
    const h = open();
    await applyMigrations(h, backups, NOW);
    const at = NOW.toISOString();
    expect(() => insertRow(h.sqlite, 'projects', { id: 'p', company_id: 'nope', name: 'x', created_at: at, updated_at: at })).toThrow(/FOREIGN KEY/);
  });

  it('a read-only connection keeps the pragmas and sees the WAL mode stored in the file', async () => {
    const w = open();
    await applyMigrations(w, backups, NOW);
    const r = openDatabase(path.join(dir, 'service.db'), { readonly: true });
    handles.push(r);
    expect(r.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(r.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(r.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(() => insertRow(r.sqlite, 'companies', { id: 'c', name: 'n', created_at: 'a', updated_at: 'b' })).toThrow(/readonly/);
  });

  it('close() checkpoints and truncates the WAL', async () => {
    const h = open();
    await applyMigrations(h, backups, NOW);
    insertCompanyAndProject(h);
    h.close();
    const file = path.join(dir, 'service.db');
    if (existsSync(`${file}-wal`)) expect(readFileSync(`${file}-wal`).length).toBe(0);
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.prepare('SELECT name FROM projects').all()).toEqual([{ name: 'Launch' }]);
    } finally {
      raw.close();
    }
  });
});

describe('applyMigrations', () => {
  it('migrates a fresh database without taking a backup', async () => {
    const h = open();
    expect(schemaStatus(h, next)).toEqual({ available: SHIPPED_COUNT + 1, applied: 0, pending: SHIPPED_COUNT + 1, current: null, newerThanBuild: false });
    const result = await applyMigrations(h, backups, NOW, next);
    expect(result.backupPath).toBeNull();
    expect(result.before).toMatchObject({ applied: 0, pending: SHIPPED_COUNT + 1, current: null });
    expect(existsSync(backups)).toBe(false);
    expect(columns(h.sqlite, 'projects')).toContain('test_col');
    expect(schemaStatus(h, next)).toEqual({ available: SHIPPED_COUNT + 1, applied: SHIPPED_COUNT + 1, pending: 0, current: '0001_test', newerThanBuild: false });
    // Running again is a no-op.
    const again = await applyMigrations(h, backups, NOW, next);
    expect(again).toEqual({ before: schemaStatus(h, next), backupPath: null });
  });

  it('backs up a database with data before applying a pending migration', async () => {
    const h = open();
    await applyMigrations(h, backups, NOW); // the shipped build: migration 0 only
    insertCompanyAndProject(h);
    expect(schemaStatus(h)).toEqual({ available: SHIPPED_COUNT, applied: SHIPPED_COUNT, pending: 0, current: FOUNDATION, newerThanBuild: false });
    expect(schemaStatus(h, next)).toEqual({ available: SHIPPED_COUNT + 1, applied: SHIPPED_COUNT, pending: 1, current: FOUNDATION, newerThanBuild: false });

    const result = await applyMigrations(h, backups, NOW, next);
    expect(result.before).toMatchObject({ applied: SHIPPED_COUNT, pending: 1, current: FOUNDATION });
    expect(result.backupPath).not.toBeNull();
    const backupPath = result.backupPath!;
    expect(path.dirname(backupPath)).toBe(backups);
    expect(path.basename(backupPath)).toBe(`service-2030-01-02T03-04-05-678Z-before-${FOUNDATION}.db`);
    expect(readdirSync(backups)).toEqual([path.basename(backupPath)]);

    // The main database moved on.
    expect(columns(h.sqlite, 'projects')).toContain('test_col');
    expect(h.sqlite.prepare('SELECT id, name, test_col FROM projects').all()).toEqual([{ id: 'p1', name: 'Launch', test_col: null }]);
    expect(schemaStatus(h, next)).toMatchObject({ applied: SHIPPED_COUNT + 1, pending: 0, current: '0001_test' });

    // The backup is one self-contained file (no WAL beside it) holding a consistent copy of the old state.
    expect(existsSync(`${backupPath}-wal`)).toBe(false);
    const copy = new Database(backupPath, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(columns(copy, 'projects')).not.toContain('test_col');
      expect(copy.prepare('SELECT id, name FROM projects').all()).toEqual([{ id: 'p1', name: 'Launch' }]);
      expect(copy.prepare('SELECT id, name FROM companies').all()).toEqual([{ id: 'c1', name: 'Acme' }]);
      expect((copy.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n).toBe(SHIPPED_COUNT);
    } finally {
      copy.close();
    }
  });

  it('refuses a database written by a newer build, and leaves it untouched', async () => {
    const h = open();
    await applyMigrations(h, backups, NOW, next); // migrated by the "newer" build
    insertCompanyAndProject(h);
    const status = schemaStatus(h); // seen by the shipped build
    expect(status).toMatchObject({ available: SHIPPED_COUNT, applied: SHIPPED_COUNT + 1, newerThanBuild: true, pending: 0 });
    expect(status.current).toMatch(/^unknown \(\d+\)$/);
    await expect(applyMigrations(h, backups, NOW)).rejects.toThrow(/newer Headcount/);
    expect(existsSync(backups)).toBe(false);
    expect(columns(h.sqlite, 'projects')).toContain('test_col');
    expect(h.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get()).toEqual({ n: SHIPPED_COUNT + 1 });
  });

  it('refuses a database whose migrations table holds a timestamp later than any known migration', async () => {
    const h = open();
    await applyMigrations(h, backups, NOW);
    const newest = Math.max(...SHIPPED.entries.map((e) => e.when));
    h.sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('from-the-future', newest + 1);
    expect(schemaStatus(h).newerThanBuild).toBe(true);
    await expect(applyMigrations(h, backups, NOW)).rejects.toThrow(/newer Headcount/);
    // Even with our own extra migration: its timestamp is still older than the recorded one.
    await expect(applyMigrations(h, backups, NOW, next)).rejects.toThrow(/newer Headcount/);
    expect(columns(h.sqlite, 'projects')).not.toContain('test_col');
  });
});
