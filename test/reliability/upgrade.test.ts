import { cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, tempHome, type TestCore } from '../helpers/core.js';
import { memoryKeyProvider } from '../../main/core/secrets/master-key.js';
import { listBackups, DatabaseInUseError } from '../../main/core/retention/backups.js';
import { restoreBackupInHome } from '../../main/cli/doctor.js';
import { journalTags } from '../../main/core/export/import.js';

/**
 * Data homes written by released schemas, upgraded by this build. Each fixture is made by
 * test/fixtures/db/make-fixture.mjs against a checkout of the released commit.
 */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'db');
const FIXTURE_KEY = Buffer.from('66697874757265206d6173746572206b6579206f662076302e312e3020212121', 'hex');

/** Row counts per table, read from a copy (opening a WAL-mode file leaves -wal/-shm files beside it). */
function tableCounts(file: string): Record<string, number> {
  const copy = `${tempHome('headcount-counts-')}/copy.db`;
  cpSync(file, copy);
  if (existsSync(`${file}-wal`)) cpSync(`${file}-wal`, `${copy}-wal`);
  const db = new Database(copy, { readonly: true });
  try {
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
    return Object.fromEntries(names.map((n) => [n, (db.prepare(`SELECT count(*) AS n FROM "${n}"`).get() as { n: number }).n]));
  } finally {
    db.close();
    rmSync(path.dirname(copy), { recursive: true, force: true });
  }
}

describe('upgrading a v0.1.0 (0000_foundation) data home', () => {
  let home: string;
  let t: TestCore | undefined;
  let fixtureCounts: Record<string, number>;
  const boot = () => startCore({ home, keyProvider: memoryKeyProvider(FIXTURE_KEY) });

  beforeAll(async () => {
    home = tempHome('headcount-upgrade-');
    cpSync(path.join(FIXTURES, 'v0.1.0-foundation'), home, { recursive: true });
    rmSync(path.join(home, 'README.md'));
    fixtureCounts = tableCounts(path.join(home, 'service.db'));
    t = await boot();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('applies every later migration after taking a backup, and keeps every row', async () => {
    const m = t!.core.migration;
    const tags = [...journalTags().values()];
    expect(m.before).toMatchObject({ current: '0000_foundation', applied: 1, pending: tags.length - 1 });
    expect(tags.length, 'this build has migrations after the released one').toBeGreaterThan(1);
    expect(m.backupPath).toMatch(/service-.*-before-0000_foundation\.db$/);
    expect(existsSync(m.backupPath!)).toBe(true);
    const now = tableCounts(path.join(home, 'service.db'));
    for (const [table, n] of Object.entries(fixtureCounts)) {
      // The upgrade adds rows only where this build records its own start (migrations).
      if (table === '__drizzle_migrations') expect(now[table]).toBe(tags.length);
      else if (table === 'activity') expect(now[table]!).toBeGreaterThanOrEqual(n);
      else expect(now[table], table).toBe(n);
    }
    // The backup is the database as the released code left it.
    expect(tableCounts(m.backupPath!)).toEqual(fixtureCounts);
  });

  it('reads the released data through the current API: issues, documents, attachments, transcripts, secrets', async () => {
    const api = t!.api;
    const companies = await api('GET', '/api/companies');
    const co = companies.body.find((c: { name: string }) => c.name === 'Fixture Foundation Co');
    expect(co).toBeDefined();
    const issues = await api('GET', `/api/companies/${co.id}/issues`);
    expect(issues.status).toBe(200);
    expect(issues.body.items.map((i: { title: string }) => i.title).sort()).toEqual(['Child issue', 'Parent issue']);
    const parent = issues.body.items.find((i: { title: string }) => i.title === 'Parent issue');
    const detail = await api('GET', `/api/issues/${parent.identifier}`);
    expect(detail.body.planDocument).toMatchObject({ body: '# Plan\n\nSecond version.', revisionNumber: 2 });
    const comments = await api('GET', `/api/issues/${parent.id}/comments`);
    expect(comments.body.items ?? comments.body).toEqual(expect.arrayContaining([expect.objectContaining({ body: 'A board comment' })]));
    const attachments = await api('GET', `/api/issues/${parent.id}/attachments`);
    expect(attachments.body).toHaveLength(1);
    const content = await fetch(`${t!.url}/api/attachments/${attachments.body[0].id}/content`, { headers: { authorization: `Bearer ${t!.boardToken}` } });
    expect(await content.text()).toBe('col a,col b\n1,2\n');
    const runs = await api('GET', `/api/companies/${co.id}/heartbeat-runs`);
    expect(runs.status, runs.text).toBe(200);
    const withOutput = runs.body.items.filter((r: { transcriptBytes: number }) => r.transcriptBytes > 0);
    expect(withOutput.length).toBeGreaterThan(0);
    for (const r of runs.body.items) expect(['succeeded', 'failed']).toContain(r.status);
    const logs = await Promise.all(withOutput.map((r: { id: string }) => api('GET', `/api/heartbeat-runs/${r.id}/log`)));
    expect(logs.flatMap((l) => l.body.records.map((x: { data: string }) => x.data)).join('')).toContain('hello from the fixture run');
    // The secret sealed by the released code opens with the same master key.
    const secrets = await api('GET', `/api/companies/${co.id}/secrets`);
    const resolved = await t!.core.services.secrets.resolveEnv(co.id, { K: { type: 'secret_ref', secretId: secrets.body[0].id, version: 'latest' } });
    expect(resolved.env.K).toBe('fixture-secret-value-0001');
    // And the upgraded database takes new writes.
    const created = await api('POST', `/api/companies/${co.id}/issues`, { body: { title: 'After the upgrade' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.identifier).toBe(`${co.issuePrefix}-3`);
  });

  it('restores the pre-migration backup with doctor --restore-backup, refusing while a server holds the database', async () => {
    const backup = t!.core.migration.backupPath!;
    expect(() => restoreBackupInHome(home, undefined)).toThrow(DatabaseInUseError);
    await t!.close();
    t = undefined;
    const upgraded = tableCounts(path.join(home, 'service.db'));
    const r = restoreBackupInHome(home, undefined);
    expect(r.restored.path).toBe(backup);
    expect(r.replacedCopy).toMatch(/replaced-by-restore\.db$/);
    // The live database is the released one again; the replaced one is kept whole.
    expect(tableCounts(path.join(home, 'service.db'))).toEqual(fixtureCounts);
    expect(tableCounts(r.replacedCopy!)).toEqual(upgraded);
    expect(existsSync(path.join(home, 'service.db-wal')) && readFileSync(path.join(home, 'service.db-wal')).length > 0).toBe(false);
    // Named restore of the replaced copy puts the upgraded database back.
    const again = restoreBackupInHome(home, path.basename(r.replacedCopy!));
    expect(again.restored.name).toBe(path.basename(r.replacedCopy!));
    expect(tableCounts(path.join(home, 'service.db'))).toEqual(upgraded);
    expect(listBackups(path.join(home, 'backups')).length).toBe(3);
    // A missing name is an error, not the newest.
    expect(() => restoreBackupInHome(home, 'no-such-backup.db')).toThrow(/No backup at/);
    // The restored home boots (no migration pending now).
    t = await boot();
    expect(t.core.migration.before.pending).toBe(0);
    expect(readdirSync(path.join(home, 'backups')).length).toBe(3);
  });
});
