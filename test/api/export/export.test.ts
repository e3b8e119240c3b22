import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { discoverScope, EXCLUDED_TABLES, GLOBAL_TABLES, listTables, selectRows, type ScopedTable } from '../../../main/core/export/scope.js';
import { exportFromHome, importIntoHome } from '../../../main/cli/export.js';
import { seedCompany, SECRET_VALUE } from './seed.js';

let source: TestCore;
let target: TestCore;
let seeded: Awaited<ReturnType<typeof seedCompany>>;
let archive: Buffer;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'headcount-export-test-'));

beforeAll(async () => {
  source = await startCore();
  target = await startCore();
  seeded = await seedCompany(source);
  await createCompany(source, 'Bystander'); // must not leak into the export
  const res = await fetch(`${source.url}/api/companies/${seeded.companyId}/export`, { headers: { authorization: `Bearer ${source.boardToken}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.tar\.gz"$/);
  archive = Buffer.from(await res.arrayBuffer());
}, 60_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A table's rows of one company as comparable objects: no rowid, sorted by their JSON. */
function rowsOf(t: TestCore, table: ScopedTable, companyId: string): string[] {
  return orderedRows(t, table, companyId).map((r) => JSON.stringify(r)).sort();
}

/** A table's rows of one company in insertion order (the order an import writes them), no rowid. */
function orderedRows(t: TestCore, table: ScopedTable, companyId: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const row of selectRows(t.core.database.sqlite, table, companyId)) {
    if (table.rowidColumn) delete row[table.rowidColumn];
    if (table.name === 'activity' && row.action === 'company.imported') continue;
    for (const [k, v] of Object.entries(row)) if (Buffer.isBuffer(v)) row[k] = `blob:${v.toString('hex')}`;
    out.push(row);
  }
  return out;
}

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Compares an imported company with its original although every id changed: rows pair up by
 * insertion order, the ids found in a pair's values give the old → new mapping (which must be one
 * to one), and the original rows with their ids mapped must equal the imported ones, apart from what
 * an import changes on purpose (stored names, agents paused, schedules off).
 */
function compareImported(from: TestCore, fromId: string, to: TestCore, toId: string): { compared: number; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  const back = new Map<string, string>();
  const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [];
  for (const table of discoverScope(from.core.database.sqlite).tables) {
    const a = orderedRows(from, table, fromId);
    const b = orderedRows(to, table, toId);
    expect(b.length, table.name).toBe(a.length);
    a.forEach((row, i) => pairs.push([table.name, row, b[i]!]));
  }
  for (const [table, a, b] of pairs) {
    for (const k of Object.keys(a)) {
      if (typeof a[k] !== 'string' || typeof b[k] !== 'string' || k === 'storage_name') continue;
      const x = (a[k] as string).match(UUIDS) ?? [];
      const y = (b[k] as string).match(UUIDS) ?? [];
      expect(y.length, `${table}.${k}`).toBe(x.length);
      x.forEach((id, i) => {
        expect(ids.get(id) ?? y[i], `${table}.${k}`).toBe(y[i]);
        expect(back.get(y[i]!) ?? id, `${table}.${k}`).toBe(id);
        expect(y[i], `${table}.${k}: an id was kept`).not.toBe(id);
        ids.set(id, y[i]!);
        back.set(y[i]!, id);
      });
    }
  }
  for (const [table, a, b] of pairs) {
    const expected = JSON.parse(JSON.stringify(a).replace(UUIDS, (m) => ids.get(m) ?? m)) as Record<string, unknown>;
    if (table === 'assets') expected.storage_name = b.storage_name;
    if (table === 'agents' && ['idle', 'running', 'error'].includes(String(a.status))) Object.assign(expected, { status: 'paused', pause_reason: 'manual' });
    if (table === 'agent_heartbeat_settings') expected.enabled = 0;
    // Process lists name processes of the exporting machine (export/arrival.ts).
    if (table === 'heartbeat_runs') expected.processes = null;
    if (table === 'companies') expected.issue_prefix = b.issue_prefix;
    if (table === 'issues') expected.identifier = b.identifier;
    expect(b, table).toEqual(expected);
  }
  return { compared: pairs.length, ids };
}

async function postImport(t: TestCore, bytes: Buffer, token?: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/gzip' }), 'company.tar.gz');
  return t.api('POST', '/api/companies/import', { raw: form, ...(token ? { token } : {}) });
}

describe('which tables an export covers', () => {
  it('covers every table of a company: each table is exported, deliberately excluded, or instance-wide', () => {
    const sqlite = source.core.database.sqlite;
    const scope = discoverScope(sqlite);
    expect(scope.unclassified, 'a new table is neither company-scoped nor in GLOBAL_TABLES: decide').toEqual([]);
    const scoped = new Set([...scope.tables.map((t) => t.name), ...scope.excluded]);
    for (const name of listTables(sqlite)) {
      const cols = (sqlite.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name);
      if (cols.includes('company_id')) expect(scoped.has(name), name).toBe(true);
      expect(scoped.has(name) || name in GLOBAL_TABLES, name).toBe(true);
    }
    // Children found through foreign keys, not by name.
    for (const child of ['issue_document_revisions', 'issue_mentions', 'approval_events', 'approval_issues', 'approval_comments', 'agent_sessions', 'agent_heartbeat_settings', 'agent_config_revisions']) {
      expect(scope.tables.map((t) => t.name), child).toContain(child);
    }
    expect(scope.excluded.sort()).toEqual(Object.keys(EXCLUDED_TABLES).sort());
  });
});

describe('export and import of a company', () => {
  it('round-trips every row, document, attachment byte and transcript byte into another instance, every record under a fresh id', async () => {
    const res = await postImport(target, archive);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ idsPreserved: false, secretsWithoutValues: ['API_TOKEN'] });
    expect(res.body.companyId).not.toBe(seeded.companyId);
    const { compared, ids } = compareImported(source, seeded.companyId, target, res.body.companyId);
    expect(compared).toBeGreaterThan(50);
    expect(ids.get(seeded.companyId)).toBe(res.body.companyId);
    // Nothing of the excluded tables, nothing of the other company.
    expect(target.core.database.sqlite.prepare('SELECT count(*) AS n FROM secret_versions').get()).toEqual({ n: 0 });
    expect(target.core.database.sqlite.prepare('SELECT count(*) AS n FROM agent_api_keys').get()).toEqual({ n: 0 });
    expect(target.core.database.sqlite.prepare('SELECT count(*) AS n FROM companies').get()).toEqual({ n: 1 });
    // Derived, not exported: the count of blocked issues is the triggers' own, as in the original.
    const blockedCount = (t: TestCore, companyId: string) => t.core.database.sqlite.prepare('SELECT blocked FROM issue_blocked_counts WHERE company_id = ?').pluck().get(companyId);
    expect(blockedCount(source, seeded.companyId)).toBe(1);
    expect(blockedCount(target, res.body.companyId)).toBe(1);

    // Files, byte for byte: attachments (and the logo) under names this server chose, and every transcript.
    const assets = source.core.database.sqlite.prepare('SELECT id, storage_name FROM assets WHERE company_id = ?').all(seeded.companyId) as { id: string; storage_name: string }[];
    expect(assets.length).toBe(2);
    for (const a of assets) {
      const copy = target.core.database.sqlite.prepare('SELECT storage_name FROM assets WHERE id = ?').get(ids.get(a.id)) as { storage_name: string };
      expect(copy.storage_name).not.toBe(a.storage_name);
      expect(readFileSync(path.join(target.home, 'attachments', res.body.companyId, copy.storage_name))).toEqual(readFileSync(path.join(source.home, 'attachments', seeded.companyId, a.storage_name)));
    }
    const runs = source.core.database.sqlite.prepare('SELECT id, transcript_bytes FROM heartbeat_runs WHERE company_id = ?').all(seeded.companyId) as { id: string; transcript_bytes: number }[];
    expect(runs.some((r) => r.transcript_bytes > 0)).toBe(true);
    for (const r of runs) {
      if (!existsSync(path.join(source.home, 'runs', `${r.id}.jsonl`))) continue;
      expect(readFileSync(path.join(target.home, 'runs', `${ids.get(r.id)}.jsonl`))).toEqual(readFileSync(path.join(source.home, 'runs', `${r.id}.jsonl`)));
    }
    // And through the API: the attachment, the document, the transcript.
    const parent = await target.api('GET', `/api/issues/${ids.get(seeded.parent.id)}`);
    expect(parent.body.planDocument.body).toBe('# v2 ünïcode');
    const list = await target.api('GET', `/api/issues/${ids.get(seeded.parent.id)}/attachments`);
    const content = await fetch(`${target.url}/api/attachments/${list.body[0].id}/content`, { headers: { authorization: `Bearer ${target.boardToken}` } });
    expect(Buffer.from(await content.arrayBuffer())).toEqual(seeded.attachmentBytes);
    const run = runs.find((x) => x.transcript_bytes > 0)!;
    const log = await target.api('GET', `/api/heartbeat-runs/${ids.get(run.id)}/log`);
    expect(log.body.records.map((x: { data: string }) => x.data).join('')).toContain('out line');
    // The imported secret has no value until the board sets one again.
    const secret = await target.api('GET', `/api/secrets/${ids.get(seeded.secret.id)}`);
    expect(secret.status, secret.text).toBe(200);
    expect(secret.body).toMatchObject({ name: 'API_TOKEN', versions: [] });
    const set = await target.api('PATCH', `/api/secrets/${ids.get(seeded.secret.id)}`, { body: { value: 'a new value' } });
    expect(set.status, set.text).toBe(200);
  });

  it('never puts a secret value into the file', async () => {
    const tarBytes = gunzipSync(archive);
    expect(tarBytes.includes(Buffer.from(SECRET_VALUE))).toBe(false);
    const dir = mkdtempSync(path.join(scratch, 'x-'));
    await tar.extract({ file: await writeTemp(archive), cwd: dir });
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.excludedTables).toHaveProperty('secret_versions');
    expect(readdirSync(path.join(dir, 'tables'))).not.toContain('secret_versions.jsonl');
  });

  it('imports a copy beside its original with fresh ids and a new issue prefix, leaving the original untouched', async () => {
    const before = rowsOf(source, discoverScope(source.core.database.sqlite).tables.find((t) => t.name === 'issues')!, seeded.companyId);
    const res = await postImport(source, archive);
    expect(res.status, res.text).toBe(201);
    expect(res.body.idsPreserved).toBe(false);
    expect(res.body.companyId).not.toBe(seeded.companyId);
    const original = await source.api('GET', `/api/companies/${seeded.companyId}`);
    const copy = await source.api('GET', `/api/companies/${res.body.companyId}`);
    expect(copy.body.issuePrefix).not.toBe(original.body.issuePrefix);
    const issues = await source.api('GET', `/api/companies/${res.body.companyId}/issues`);
    expect(issues.body.items.map((i: { title: string }) => i.title).sort()).toEqual(['Child', 'Parent', 'Stuck']);
    for (const i of issues.body.items) expect(i.identifier.startsWith(`${copy.body.issuePrefix}-`)).toBe(true);
    // The copy's parent link points at the copy's parent, and its attachment is its own file.
    const child = issues.body.items.find((i: { title: string }) => i.title === 'Child');
    const parent = issues.body.items.find((i: { title: string }) => i.title === 'Parent');
    expect(child.parentId).toBe(parent.id);
    const atts = await source.api('GET', `/api/issues/${parent.id}/attachments`);
    const bytes = await fetch(`${source.url}/api/attachments/${atts.body[0].id}/content`, { headers: { authorization: `Bearer ${source.boardToken}` } });
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(seeded.attachmentBytes);
    // The agent's secret reference follows the copied secret.
    const agents = await source.api('GET', `/api/companies/${res.body.companyId}/agents`);
    const ceo = agents.body.find((a: { name: string }) => a.name === 'Ceo');
    const secrets = await source.api('GET', `/api/companies/${res.body.companyId}/secrets`);
    expect(ceo.adapterConfig.env.TOKEN.secretId).toBe(secrets.body[0].id);
    expect(secrets.body[0].id).not.toBe(seeded.secret.id);
    expect(rowsOf(source, discoverScope(source.core.database.sqlite).tables.find((t) => t.name === 'issues')!, seeded.companyId)).toEqual(before);
  });

  it('refuses agents and damaged files, and a failed import leaves no row and no file behind', async () => {
    const other = await createCompany(target, 'Other');
    const agent = await createAgent(target, other);
    const key = await createAgentKey(target, agent.id);
    expect((await postImport(target, archive, key)).status).toBe(403);
    const exported = await target.api('GET', `/api/companies/${other}/export`, { token: key });
    expect(exported.status).toBe(403);
    expect((await target.api('GET', '/api/companies/00000000-0000-4000-8000-000000000000/export')).status).toBe(404);

    const garbage = await postImport(target, Buffer.from('not a tarball'));
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('invalid_export');

    // A row pointing at an issue the file does not have: the foreign key check at commit fails.
    const dir = mkdtempSync(path.join(scratch, 'broken-'));
    await tar.extract({ file: await writeTemp(archive), cwd: dir });
    const comments = path.join(dir, 'tables', 'issue_comments.jsonl');
    const lines = readFileSync(comments, 'utf8').trim().split('\n');
    const bad = JSON.parse(lines[0]!);
    bad.issue_id = '11111111-1111-4111-8111-111111111111';
    writeFileSync(comments, [JSON.stringify(bad), ...lines.slice(1)].join('\n') + '\n');
    const brokenFile = path.join(scratch, 'broken.tar.gz');
    await tar.create({ gzip: true, file: brokenFile, cwd: dir }, readdirSync(dir));
    const before = target.snapshot();
    const filesBefore = [...readdirSync(path.join(target.home, 'attachments'), { recursive: true }), ...readdirSync(path.join(target.home, 'runs'))].sort();
    const broken = await postImport(target, readFileSync(brokenFile));
    expect(broken.status, broken.text).toBe(400);
    expect(broken.body.code).toBe('invalid_export');
    const after = target.snapshot();
    delete before.__total_changes;
    delete after.__total_changes;
    expect(after).toEqual(before);
    expect([...readdirSync(path.join(target.home, 'attachments'), { recursive: true }), ...readdirSync(path.join(target.home, 'runs'))].sort()).toEqual(filesBefore);
    expect(readdirSync(target.home).filter((n) => n.startsWith('.') || n === 'import-staging')).toEqual([]);
  });

  it('brings in regular files only: an archive with a link is refused, and no link lands in the store', async () => {
    const dir = mkdtempSync(path.join(scratch, 'links-'));
    await tar.extract({ file: await writeTemp(archive), cwd: dir });
    const name = readdirSync(path.join(dir, 'files'))[0]!;
    rmSync(path.join(dir, 'files', name));
    symlinkSync('/etc/hostname', path.join(dir, 'files', name));
    const crafted = path.join(scratch, 'links.tar.gz');
    await tar.create({ gzip: true, file: crafted, cwd: dir }, readdirSync(dir));
    const res = await postImport(target, readFileSync(crafted));
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toContain(`files/${name}`);
    expect(res.body.error).toContain('SymbolicLink');
    for (const f of readdirSync(path.join(target.home, 'attachments'), { recursive: true, encoding: 'utf8' })) expect(lstatSync(path.join(target.home, 'attachments', f)).isSymbolicLink(), f).toBe(false);
  });

  it('exports and imports from the command line too (headcount export / import)', async () => {
    const file = path.join(scratch, 'cli.tar.gz');
    const m = await exportFromHome(source.home, seeded.companyId, file);
    expect(m.tables.issues).toBe(3);
    const third = await startCore();
    try {
      const r = await importIntoHome(third.home, file);
      expect(r).toMatchObject({ idsPreserved: false, files: { attachments: 2 } });
      const issues = await third.api('GET', `/api/companies/${r.companyId}/issues`);
      expect(issues.body.items).toHaveLength(3);
    } finally {
      await third.close();
    }
  });
});

let tempN = 0;
async function writeTemp(bytes: Buffer): Promise<string> {
  const file = path.join(scratch, `archive-${++tempN}.tar.gz`);
  writeFileSync(file, bytes);
  return file;
}
