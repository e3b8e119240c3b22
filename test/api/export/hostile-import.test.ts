import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startCore, type TestCore } from '../../helpers/core.js';
import { FIXED_LIMITS } from '../../../main/core/limits/settings.js';
import { purgeTranscripts } from '../../../main/core/retention/transcripts.js';
import { seedCompany } from './seed.js';
import { craftArchive, gzipBomb, jsonl, readArchive, rowsOfEntry, treeDigest, withEntry, type CraftEntry } from './craft.js';

/**
 * Crafted exports, as an attacker would hand them to the founder. For each: a 400 naming the cause,
 * no row written, nothing written anywhere around the data home (the home sits two folders deep in
 * a folder whose every file is hashed before and after, so a `..` that escaped would show), the
 * other company's files unchanged, and no staging left behind.
 */

const base = mkdtempSync(path.join(os.tmpdir(), 'headcount-hostile-'));
const home = path.join(base, 'homes', 'target');
const archives = mkdtempSync(path.join(os.tmpdir(), 'headcount-hostile-archives-'));
let source: TestCore;
let target: TestCore;
let legit: CraftEntry[];
let bystander: Awaited<ReturnType<typeof seedCompany>>;
let manifest: { files: { attachments: { entry: string; assetId: string }[]; transcripts: { entry: string; runId: string }[] } } & Record<string, unknown>;

beforeAll(async () => {
  source = await startCore();
  const seeded = await seedCompany(source);
  const res = await fetch(`${source.url}/api/companies/${seeded.companyId}/export`, { headers: { authorization: `Bearer ${source.boardToken}` } });
  expect(res.status).toBe(200);
  const file = path.join(archives, 'legit.tar.gz');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  legit = readArchive(file);
  manifest = JSON.parse(String(legit.find((e) => e.name === 'manifest.json')!.body));
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(base, 'victim.txt'), 'the founder\'s file outside the data home');
  target = await startCore({ home });
  bystander = await seedCompany(target, 'Bystander');
}, 90_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  rmSync(base, { recursive: true, force: true });
  rmSync(archives, { recursive: true, force: true });
});

async function postImport(bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/gzip' }), 'company.tar.gz');
  return target.api('POST', '/api/companies/import', { raw: form });
}

const isDatabase = (rel: string) => /^homes\/target\/service\.db(-wal|-shm)?$/.test(rel);
const rowCounts = () => {
  const s = target.snapshot();
  delete s.__total_changes;
  return s;
};
const bytesOf = (digest: Map<string, string>) => [...digest.values()].reduce((n, v) => n + (v === 'dir' ? 0 : Number(v.split(':')[0]) || 0), 0);

async function expectRefused(bytes: Buffer, cause: RegExp) {
  const rows = rowCounts();
  const tree = treeDigest(base, isDatabase);
  const res = await postImport(bytes);
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('invalid_export');
  expect(res.body.error).toMatch(cause);
  expect(rowCounts()).toEqual(rows);
  const after = treeDigest(base, isDatabase);
  // Every file around and inside the home (the other company's attachments and transcripts too)
  // is byte for byte what it was, nothing was added, and the home is the same size.
  expect(after).toEqual(tree);
  expect(bytesOf(after)).toBe(bytesOf(tree));
  expect(existsSync(path.join(home, 'import-staging'))).toBe(false);
  return res;
}

const edit = (name: string, fn: (rows: Record<string, unknown>[]) => void): CraftEntry[] => {
  const rows = rowsOfEntry(legit, name);
  fn(rows);
  return withEntry(legit, name, jsonl(rows));
};
const editManifest = (fn: (m: typeof manifest) => void): CraftEntry[] => {
  const m = JSON.parse(JSON.stringify(manifest)) as typeof manifest;
  fn(m);
  return withEntry(legit, 'manifest.json', JSON.stringify(m));
};
const first = <T>(rows: T[], pred: (r: T) => boolean = () => true): T => rows.find(pred)!;

describe('a crafted export', () => {
  it('imports when untouched (the baseline every case below edits)', async () => {
    const rows = rowCounts();
    const res = await postImport(craftArchive(legit));
    expect(res.status, res.text).toBe(201);
    expect(rowCounts().companies).toBe(rows.companies! + 1);
    expect(existsSync(path.join(home, 'import-staging'))).toBe(false);
  });

  describe('with a traversal in a path-bearing field', () => {
    it.each<[string, () => CraftEntry[], RegExp]>([
      ['an attachment stored name', () => edit('tables/assets.jsonl', (r) => (first(r, (a) => a.kind === 'attachment').storage_name = '../../../victim.txt')), /assets\.jsonl", line \d+: storage_name/],
      ['a logo stored name', () => edit('tables/assets.jsonl', (r) => (first(r, (a) => a.kind === 'logo').storage_name = '/etc/passwd')), /assets\.jsonl", line \d+: storage_name/],
      ['a Windows stored name', () => edit('tables/assets.jsonl', (r) => (first(r).storage_name = '..\\..\\victim.txt')), /storage_name/],
      ['an encoded stored name', () => edit('tables/assets.jsonl', (r) => (first(r).storage_name = '%2e%2e%2fvictim.txt')), /storage_name/],
      ['a run id', () => edit('tables/heartbeat_runs.jsonl', (r) => (first(r).id = '../../../victim')), /heartbeat_runs\.jsonl", line 1: id must be a UUID/],
      ['a company logo reference', () => edit('tables/companies.jsonl', (r) => (first(r).logo_asset_id = '../logo.png')), /companies\.jsonl", line 1: logo_asset_id must be a UUID/],
      ['a document key', () => edit('tables/issue_documents.jsonl', (r) => (first(r).key = '../../plan')), /issue_documents\.jsonl", line 1: key/],
      ['a manifest file entry', () => editManifest((m) => (m.files.attachments[0]!.entry = '../../victim.txt')), /manifest\.json: files\.attachments\.0\.entry/],
      ['a manifest run id', () => editManifest((m) => (m.files.transcripts[0]!.runId = '../../victim')), /manifest\.json: files\.transcripts\.0\.runId/],
    ])('%s: refused', async (_what, build, cause) => {
      await expectRefused(craftArchive(build()), cause);
    });

    it.each<[string, CraftEntry, RegExp]>([
      // Staging is base/homes/target/import-staging/<x>/entries: five levels up is victim.txt.
      ['a ".." entry', { name: '../../../../../victim.txt', body: 'overwritten' }, /"(\.\.\/){5}victim\.txt".*"\.\." segment/],
      ['a ".." inside an entry', { name: 'files/../../../../../../victim.txt', body: 'overwritten' }, /"\.\." segment/],
      ['an absolute entry', { name: path.join(base, 'victim.txt'), body: 'overwritten' }, /absolute path/],
      ['a backslash entry', { name: 'files\\..\\..\\..\\..\\..\\..\\victim.txt', body: 'overwritten' }, /backslash/],
      ['a format 1 attachment entry with ".."', { name: 'attachments/../../../../../../victim.txt', body: 'overwritten' }, /"\.\." segment/],
      ['a format 1 transcript entry with ".."', { name: 'runs/../../../../../../victim.jsonl', body: 'overwritten' }, /"\.\." segment/],
    ])('%s in the archive: refused', async (_what, entry, cause) => {
      await expectRefused(craftArchive([...legit, entry]), cause);
    });
  });

  it.each<[string, CraftEntry, RegExp]>([
    ['a symbolic link', { name: 'files/900', type: '2', linkname: path.join(base, 'victim.txt') }, /"files\/900": a SymbolicLink entry/],
    ['a hard link', { name: 'files/900', type: '1', linkname: 'manifest.json' }, /"files\/900": a Link entry/],
    ['a device', { name: 'files/900', type: '3' }, /CharacterDevice entry/],
    ['a FIFO', { name: 'files/900', type: '6' }, /FIFO entry/],
  ])('with %s: refused', async (_what, entry, cause) => {
    await expectRefused(craftArchive([...legit, entry]), cause);
  });

  it('with a duplicate name (a second body for an existing file): refused', async () => {
    const file = manifest.files.attachments[0]!.entry;
    await expectRefused(craftArchive([...legit, { name: file, body: 'a second body' }]), new RegExp(`"${file}": a second entry of the same name`));
    await expectRefused(craftArchive([...legit, { name: 'tables/issues.jsonl', body: '' }]), /"tables\/issues\.jsonl": a second entry/);
  });

  it.each<[string, CraftEntry, RegExp]>([
    ['a folder under attachments/', { name: 'attachments/planted/', type: '5' }, /"attachments\/planted\/": a folder the export format does not have/],
    ['a file in a folder under attachments/', { name: 'attachments/planted/x', body: 'x' }, /"attachments\/planted\/x": a file the export format does not have/],
    ['a folder under runs/', { name: 'runs/planted/', type: '5' }, /folder the export format does not have/],
    ['a folder under files/', { name: 'files/planted/', type: '5' }, /folder the export format does not have/],
  ])('with %s: refused', async (_what, entry, cause) => {
    await expectRefused(craftArchive([...legit, entry]), cause);
  });

  it('that is a 600:1 gzip bomb: refused while inflating', async () => {
    const bomb = await gzipBomb(128);
    expect(bomb.ratio).toBeGreaterThanOrEqual(600);
    await expectRefused(bomb.bytes, /expands more than 200 times its compressed size/);
  });

  it('with an entry over the size cap: refused from its header', async () => {
    await expectRefused(craftArchive([...legit.filter((e) => e.name !== 'files/2'), { name: 'files/2', size: 1024 ** 3 + 1 }]), /"files\/2": 1073741825 bytes, over the 1073741824-byte limit per entry/);
  });

  it.each<[string, string, RegExp]>([
    ['agent API keys (a key the sender knows)', 'tables/agent_api_keys.jsonl', /"tables\/agent_api_keys\.jsonl": rows of table "agent_api_keys", which is not a company table here/],
    ['secret values', 'tables/secret_versions.jsonl', /rows of table "secret_versions"/],
    ['instance settings', 'tables/instance_settings.jsonl', /rows of table "instance_settings"/],
    ['a table this build does not have', 'tables/backdoor.jsonl', /rows of table "backdoor"/],
  ])('with rows of %s: refused', async (_what, entry, cause) => {
    await expectRefused(craftArchive([...legit, { name: entry, body: jsonl([{ id: '11111111-1111-4111-8111-111111111111' }]) }]), cause);
  });

  describe('with rows naming another company', () => {
    it('a row whose company_id is another company here: refused', async () => {
      await expectRefused(craftArchive(edit('tables/issues.jsonl', (r) => (first(r).company_id = bystander.companyId))), /issues\.jsonl", line 1: company_id names another company/);
    });
    it('a row of a company table keyed to another company through a reference: refused at commit', async () => {
      await expectRefused(craftArchive(edit('tables/issues.jsonl', (r) => (first(r).assignee_agent_id = bystander.ceo.id))), /inconsistent/);
    });
    it('a second company row: refused', async () => {
      await expectRefused(
        craftArchive(edit('tables/companies.jsonl', (r) => r.push({ ...r[0]!, id: bystander.companyId }))),
        /companies\.jsonl", line 2: a second company row/,
      );
    });
    it('a company row that is not the manifest\'s company: refused', async () => {
      await expectRefused(craftArchive(editManifest((m) => ((m.company as { id: string }).id = bystander.companyId))), /companies\.jsonl", line 1: the company row is not the company the manifest names/);
    });
  });

  describe('with files that do not match their rows', () => {
    it('a file the manifest does not map: refused', async () => {
      await expectRefused(craftArchive([...legit, { name: 'files/77', body: 'extra' }]), /"files\/77": a file the manifest does not map/);
    });
    it('attachment bytes swapped for others: refused', async () => {
      const entry = manifest.files.attachments.find((a) => legit.some((e) => e.name === a.entry && String(e.body).startsWith('a,b')))!.entry;
      const body = Buffer.from(String(legit.find((e) => e.name === entry)!.body).replace('1,2', '6,6'));
      await expectRefused(craftArchive(withEntry(legit, entry, body)), new RegExp(`"${entry}": its bytes do not match the sha256`));
    });
    it('one file mapped to two records: refused', async () => {
      await expectRefused(craftArchive(editManifest((m) => (m.files.attachments[1]!.entry = m.files.attachments[0]!.entry))), /maps "files\/\d+" to two records/);
    });
    it('a row that is not JSON: refused', async () => {
      await expectRefused(craftArchive(withEntry(legit, 'tables/issues.jsonl', '{"id": \n')), /issues\.jsonl", line 1: not a JSON row/);
    });
    it('a column of the wrong type or enum: refused', async () => {
      await expectRefused(craftArchive(edit('tables/agents.jsonl', (r) => (first(r).status = 'root'))), /agents\.jsonl", line 1: status/);
      await expectRefused(craftArchive(edit('tables/issues.jsonl', (r) => (first(r).title = 42))), /issues\.jsonl", line 1: title: must be a string/);
    });
  });

  // The agent list, the org chart and the spend per agent or project answer every row at once, so
  // a company holds at most so many of each (limits/settings.ts), an imported one too.
  it.each<[string, string, number]>([
    ['agents', 'tables/agents.jsonl', FIXED_LIMITS.agentsPerCompany],
    ['projects', 'tables/projects.jsonl', FIXED_LIMITS.projectsPerCompany],
  ])('with more %s than a company holds: refused', async (what, entry, most) => {
    const crafted = edit(entry, (rows) => {
      const model = rows[0]!;
      for (let i = rows.length; i <= most; i++) {
        rows.push({ ...model, id: randomUUID(), name: `Copy ${i}`, ...(what === 'agents' ? { url_key: `copy-${i}`, reports_to: null } : {}) });
      }
    });
    await expectRefused(craftArchive(crafted), new RegExp(`more than ${most} ${what}`));
  }, 60_000);
});

describe('a format 1 export (files under their stored names and run ids)', () => {
  /** The legit export written the way format 1 did. */
  function asVersion1(): CraftEntry[] {
    const assets = rowsOfEntry(legit, 'tables/assets.jsonl');
    const renamed = new Map<string, string>();
    for (const a of manifest.files.attachments) renamed.set(a.entry, `attachments/${String(assets.find((r) => r.id === a.assetId)!.storage_name)}`);
    for (const r of manifest.files.transcripts) renamed.set(r.entry, `runs/${r.runId}.jsonl`);
    const m = { ...manifest, formatVersion: 1, files: { attachments: manifest.files.attachments.length, runs: manifest.files.transcripts.length, bytes: 0 } };
    return legit
      .filter((e) => e.name !== 'files/' && e.name !== 'files')
      .map((e) => (e.name === 'manifest.json' ? { ...e, body: JSON.stringify(m) } : renamed.has(e.name) ? { ...e, name: renamed.get(e.name)! } : e));
  }

  it('still imports, matching its files to rows by name and storing them under new names', async () => {
    const v1 = asVersion1();
    expect(v1.some((e) => e.name.startsWith('attachments/'))).toBe(true);
    const res = await postImport(craftArchive(v1));
    expect(res.status, res.text).toBe(201);
    expect(res.body.files).toEqual({ attachments: manifest.files.attachments.length, runs: manifest.files.transcripts.length });
    const names = target.core.database.sqlite.prepare('SELECT storage_name FROM assets WHERE company_id = ?').all(res.body.companyId) as { storage_name: string }[];
    for (const { storage_name } of names) {
      expect(v1.some((e) => e.name === `attachments/${storage_name}`)).toBe(false);
      expect(existsSync(path.join(home, 'attachments', res.body.companyId, storage_name))).toBe(true);
    }
  });

  it('refuses a file no row is stored under (a planted attachment)', async () => {
    await expectRefused(craftArchive([...asVersion1(), { name: 'attachments/service.db', body: 'x' }]), /"attachments\/service\.db": no live asset of the export is stored under this name/);
  });
});

describe('a bad row already in the database', () => {
  const victim = () => readFileSync(path.join(base, 'victim.txt'), 'utf8');

  it('cannot make the attachment routes serve or delete a file outside attachments/', async () => {
    const sqlite = target.core.database.sqlite;
    const list = await target.api('GET', `/api/issues/${bystander.parent.id}/attachments`);
    const id = list.body[0].id as string;
    const real = (sqlite.prepare('SELECT storage_name FROM assets WHERE id = ?').get(id) as { storage_name: string }).storage_name;
    // The row's folder is base/homes/target/attachments/<company>: four levels up is victim.txt.
    for (const forged of ['../../../../victim.txt', '../../../victim.txt', path.join(base, 'victim.txt'), '..%2f..%2f..%2f..%2fvictim.txt', '..\\..\\..\\..\\victim.txt']) {
      sqlite.prepare('UPDATE assets SET storage_name = ? WHERE id = ?').run(forged, id);
      const res = await fetch(`${target.url}/api/attachments/${id}/content`, { headers: { authorization: `Bearer ${target.boardToken}` } });
      expect(res.status, forged).toBe(404);
      expect(await res.text()).not.toContain('founder');
    }
    // A link planted in the store under the row's name leads nowhere either.
    const folder = path.join(home, 'attachments', bystander.companyId);
    symlinkSync(path.join(base, 'victim.txt'), path.join(folder, 'planted-link'));
    sqlite.prepare('UPDATE assets SET storage_name = ? WHERE id = ?').run('planted-link', id);
    const linked = await fetch(`${target.url}/api/attachments/${id}/content`, { headers: { authorization: `Bearer ${target.boardToken}` } });
    expect(linked.status).toBe(404);
    sqlite.prepare('UPDATE assets SET storage_name = ? WHERE id = ?').run('../../../victim.txt', id);
    const del = await target.api('DELETE', `/api/attachments/${id}`);
    expect(del.status, del.text).toBe(204);
    expect(victim()).toContain('founder');
    rmSync(path.join(folder, 'planted-link'));
    rmSync(path.join(folder, real), { force: true });
  });

  it("cannot make one company's attachment serve or delete another company's file", async () => {
    const sqlite = target.core.database.sqlite;
    const theirs = sqlite.prepare("SELECT id, storage_name FROM assets WHERE company_id = ? AND kind = 'logo'").get(bystander.companyId) as { id: string; storage_name: string };
    const theirFile = path.join(home, 'attachments', bystander.companyId, theirs.storage_name);
    const bytes = readFileSync(theirFile);
    // The other company's file by its own name, and by a path into the other company's folder.
    for (const forged of [theirs.storage_name, `../${bystander.companyId}/${theirs.storage_name}`]) {
      const mine = sqlite.prepare("SELECT id FROM assets WHERE company_id <> ? AND kind = 'attachment' AND deleted_at IS NULL LIMIT 1").get(bystander.companyId) as { id: string };
      sqlite.prepare('UPDATE assets SET storage_name = ? WHERE id = ?').run(forged, mine.id);
      const read = await fetch(`${target.url}/api/attachments/${mine.id}/content`, { headers: { authorization: `Bearer ${target.boardToken}` } });
      expect(read.status, forged).toBe(404);
      expect((await target.api('DELETE', `/api/attachments/${mine.id}`)).status).toBe(204);
      expect(readFileSync(theirFile)).toEqual(bytes);
    }
    const own = await fetch(`${target.url}/api/assets/${theirs.id}/content`, { headers: { authorization: `Bearer ${target.boardToken}` } });
    expect(own.status).toBe(200);
  });

  it('cannot make the log route read, or retention delete, a file outside runs/', async () => {
    const sqlite = target.core.database.sqlite;
    const run = sqlite.prepare('SELECT * FROM heartbeat_runs WHERE company_id = ? LIMIT 1').get(bystander.companyId) as Record<string, unknown>;
    const forged = { ...run, id: '../../../victim', finished_at: '2000-01-01T00:00:00.000Z', transcript_bytes: 10, transcript_purged_at: null };
    // runs/ is base/homes/target/runs, so the forged id names base/victim.jsonl.
    writeFileSync(path.join(base, 'victim.jsonl'), 'not a transcript');
    sqlite.pragma('foreign_keys = OFF');
    const cols = Object.keys(forged);
    sqlite.prepare(`INSERT INTO heartbeat_runs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((c) => (forged as Record<string, unknown>)[c] as never));
    sqlite.pragma('foreign_keys = ON');
    const log = await target.api('GET', `/api/heartbeat-runs/${encodeURIComponent('../../../victim')}/log`);
    expect([400, 404]).toContain(log.status);
    const purged = purgeTranscripts(sqlite, path.join(home, 'runs'), new Date(), 1);
    expect(purged.runs).toBeGreaterThanOrEqual(1);
    expect(readFileSync(path.join(base, 'victim.jsonl'), 'utf8')).toBe('not a transcript');
    sqlite.prepare('DELETE FROM heartbeat_runs WHERE id = ?').run('../../../victim');
  });
});
