import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import * as tar from 'tar';
import { inTransaction, type CoreContext, type HomePaths } from '../context.js';
import { MIGRATIONS_FOLDER } from '../db/migrate.js';
import { recordActivity } from '../activity/service.js';
import { uniqueIssuePrefix } from '../companies/issue-prefix.js';
import type { Actor } from '../http/actor.js';
import { badRequest } from '../errors.js';
import { discoverScope, quoteIdent as q, rawSqlite, type ScopedTable } from './scope.js';
import { decodeRow, EXPORT_FORMAT, EXPORT_FORMAT_VERSION, isUuid, readLines, remapText, type ExportManifest } from './format.js';
import { currentSchemaTag } from './export.js';

export interface ImportResult {
  companyId: string;
  name: string;
  issuePrefix: string;
  /** True when the records kept their ids (none existed here); false when all got fresh ids. */
  idsPreserved: boolean;
  tables: Record<string, number>;
  files: { attachments: number; runs: number };
  secretsWithoutValues: string[];
}

/** Migration tags this build knows, by the timestamp drizzle records. */
export function journalTags(folder = MIGRATIONS_FOLDER): Map<number, string> {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}

const invalid = (message: string) => badRequest('invalid_export', message);

function readManifest(dir: string, known: Set<string>): ExportManifest {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) throw invalid('Not a Headcount company export: manifest.json is missing');
  let m: ExportManifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as ExportManifest;
  } catch {
    throw invalid('manifest.json is not JSON');
  }
  if (m.format !== EXPORT_FORMAT) throw invalid(`Not a Headcount company export (format ${String(m.format)})`);
  if (m.formatVersion > EXPORT_FORMAT_VERSION) throw badRequest('export_too_new', `This export has format version ${m.formatVersion}; this Headcount reads up to ${EXPORT_FORMAT_VERSION}. Upgrade Headcount to import it.`);
  if (m.schema !== null && !known.has(m.schema)) {
    throw badRequest('export_too_new', `This export was written with schema ${m.schema}, which this Headcount does not know. Upgrade Headcount to import it.`);
  }
  return m;
}

/** Columns whose values are the records' own ids: what may collide with rows already here. */
function idColumn(t: ScopedTable): string | null {
  const pk = t.columns.filter((c) => c.pk > 0);
  if (pk.length === 1 && pk[0]!.type === 'TEXT') return pk[0]!.name;
  return t.columns.some((c) => c.name === 'id') ? 'id' : null;
}

/** Constraint failures (a dangling reference, a duplicate) mean a damaged or edited export: a 400, rolled back. */
function insertAll<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) throw invalid(`The export's rows are inconsistent (${code}); nothing was imported`);
    if (typeof code === 'string' && (code === 'SQLITE_MISMATCH' || code === 'SQLITE_ERROR')) throw invalid(`The export's rows do not fit this database (${(err as Error).message}); nothing was imported`);
    throw err;
  }
}

/** What an imported row must not carry over as it was (see the README, "Export and import"). */
function adjust(table: string, row: Record<string, unknown>, exportedAt: string): void {
  if (table === 'heartbeat_runs' && (row.status === 'queued' || row.status === 'running')) {
    // Its process lived on the exporting machine; a pid here would name an unrelated process.
    Object.assign(row, { status: 'lost', pid: null, error_code: 'exported_while_active', error_message: 'The run was active when its company was exported', finished_at: row.finished_at ?? exportedAt });
  } else if (table === 'wake_requests' && row.status === 'pending') {
    // Importing a company must not start its agents by itself.
    Object.assign(row, { status: 'skipped', skip_reason: 'imported', processed_at: exportedAt });
  }
  // Secrets keep their rows but come without versions (the values stayed behind): the secret lists
  // no versions, and a run referencing it fails naming it, until the board sets a value again.
}

/**
 * Imports an export file as a new company. Everything is inserted in ONE transaction (foreign keys
 * checked at commit), so a failure leaves nothing behind; files are unpacked into a staging folder
 * inside the home first and moved into attachments/ and runs/ only after the commit.
 * Ids are kept when none of them exists here (moving a company to another machine keeps its links
 * and the ids its agents know); otherwise every id gets a fresh one (importing a copy).
 */
export async function importCompany(
  ctx: Pick<CoreContext, 'db' | 'events' | 'clock'>,
  paths: Pick<HomePaths, 'home' | 'attachments' | 'runs'>,
  file: string,
  actor: Actor | 'system',
): Promise<ImportResult> {
  const sqlite = rawSqlite(ctx.db);
  const tags = journalTags();
  const staging = mkdtempSync(path.join(paths.home, '.import-'));
  try {
    try {
      // Regular files and folders only: a link in a crafted archive could make an "attachment" of any file.
      await tar.extract({ file, cwd: staging, strict: true, filter: (_p, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory') });
    } catch (err) {
      throw invalid(`The file is not a readable .tar.gz export: ${err instanceof Error ? err.message : String(err)}`);
    }
    const manifest = readManifest(staging, new Set(tags.values()));
    const here = currentSchemaTag(sqlite, tags);
    const order = [...tags.values()];
    if (manifest.schema !== null && here !== null && order.indexOf(manifest.schema) > order.indexOf(here)) {
      throw badRequest('export_too_new', `This export has schema ${manifest.schema}; this database is at ${here}. Start this Headcount once to migrate, then import.`);
    }
    const scope = discoverScope(sqlite);
    const byName = new Map(scope.tables.map((t) => [t.name, t]));
    const tableDir = path.join(staging, 'tables');
    const files = existsSync(tableDir) ? readdirSync(tableDir).filter((f) => f.endsWith('.jsonl')) : [];
    for (const f of files) {
      const name = f.slice(0, -'.jsonl'.length);
      if (!byName.has(name)) throw invalid(`The export has rows of table "${name}", which is not a company table here`);
    }
    if (!files.includes('companies.jsonl')) throw invalid('The export has no company row');

    // Ids of the exported records, and whether any already exists here.
    const ids = new Map<string, string>();
    let conflict = false;
    for (const f of files) {
      const t = byName.get(f.slice(0, -6))!;
      const col = idColumn(t);
      const exists = col ? sqlite.prepare(`SELECT 1 FROM ${q(t.name)} WHERE ${q(col)} = ?`) : null;
      for (const line of readLines(path.join(tableDir, f))) {
        const row = decodeRow(line);
        // Every id-valued column, not only the keys: stored file names (assets.storage_name) are
        // ids too, and must change with the rows when a copy is imported beside its original.
        for (const v of Object.values(row)) if (isUuid(v)) ids.set(v.toLowerCase(), v);
        const id = col ? row[col] : undefined;
        if (!conflict && isUuid(id) && exists?.get(id)) conflict = true;
      }
    }
    const remap = new Map<string, string>();
    if (conflict) for (const id of ids.keys()) remap.set(id, randomUUID());
    const newCompanyId = remap.get(manifest.company.id.toLowerCase()) ?? manifest.company.id;
    const oldPrefix = manifest.company.issuePrefix;

    const counts: Record<string, number> = {};
    const result = insertAll(() => inTransaction(ctx, (tx) => {
      sqlite.pragma('defer_foreign_keys = ON');
      const taken = sqlite.prepare('SELECT 1 FROM companies WHERE issue_prefix = ?').get(oldPrefix);
      const prefix = taken ? uniqueIssuePrefix(tx, manifest.company.name) : oldPrefix;
      // Parents first where it is cheap to tell (companies), the rest in file order: keys are checked at commit.
      const ordered = ['companies.jsonl', ...files.filter((f) => f !== 'companies.jsonl')];
      for (const f of ordered) {
        const t = byName.get(f.slice(0, -6))!;
        const here = new Set(t.columns.map((c) => c.name));
        let insert: Database.Statement | null = null;
        let columns: string[] = [];
        let n = 0;
        for (const line of readLines(path.join(tableDir, f))) {
          const row = decodeRow(line);
          for (const k of Object.keys(row)) {
            if (!here.has(k)) throw invalid(`Column ${t.name}.${k} of the export does not exist here`);
            const v = row[k];
            if (typeof v === 'string') row[k] = remapText(v, remap);
          }
          if (t.rowidColumn) delete row[t.rowidColumn]; // assigned anew, in the exported order
          adjust(t.name, row, manifest.exportedAt);
          if (t.name === 'companies') row.issue_prefix = prefix;
          if (t.name === 'issues' && prefix !== oldPrefix && typeof row.identifier === 'string') row.identifier = row.identifier.replace(`${oldPrefix}-`, `${prefix}-`);
          if (!insert) {
            columns = Object.keys(row);
            insert = sqlite.prepare(`INSERT INTO ${q(t.name)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
          }
          insert.run(...columns.map((c) => row[c] ?? null));
          n++;
        }
        counts[t.name] = n;
      }
      const company = sqlite.prepare('SELECT name FROM companies WHERE id = ?').get(newCompanyId) as { name: string } | undefined;
      if (!company) throw invalid('The company row of the export did not import');
      recordActivity(tx, ctx.clock.now().toISOString(), actor, {
        companyId: newCompanyId,
        action: 'company.imported',
        entityType: 'company',
        entityId: newCompanyId,
        summary: `Company "${company.name}" imported from an export of ${manifest.exportedAt}`,
        details: { exportedAt: manifest.exportedAt, fromCompanyId: manifest.company.id, idsPreserved: !conflict, schema: manifest.schema },
      });
      return { name: company.name, prefix };
    }));

    // Committed: now the files. A crash here leaves rows whose files are missing, never the reverse.
    const moved = { attachments: 0, runs: 0 };
    for (const [dir, target] of [
      ['attachments', paths.attachments],
      ['runs', paths.runs],
    ] as const) {
      const from = path.join(staging, dir);
      if (!existsSync(from)) continue;
      mkdirSync(target, { recursive: true, mode: 0o700 });
      for (const name of readdirSync(from)) {
        renameSync(path.join(from, name), path.join(target, remapText(name, remap)));
        moved[dir]++;
      }
    }
    return {
      companyId: newCompanyId,
      name: result.name,
      issuePrefix: result.prefix,
      idsPreserved: !conflict,
      tables: counts,
      files: moved,
      secretsWithoutValues: manifest.secretsWithoutValues ?? [],
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
