import { mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { rebuildRollups } from '../costs/rollups.js';
import { inTransaction, type CoreContext, type HomePaths } from '../context.js';
import { MIGRATIONS_FOLDER } from '../db/migrate.js';
import { recordActivity } from '../activity/service.js';
import { uniqueIssuePrefix } from '../companies/issue-prefix.js';
import type { Actor } from '../kernel/actor.js';
import { badRequest } from '../kernel/errors.js';
import { FIXED_LIMITS } from '../limits/settings.js';
import { quoteIdent as q, rawSqlite } from './scope.js';
import { acceptsArchiveFile, ARCHIVE_FOLDERS, decodeRow, EXPORT_FORMAT, EXPORT_FORMAT_VERSION, ManifestV1, ManifestV2, readLines, remapText, type ExportManifest, type ExportManifestV1 } from './format.js';
import { currentSchemaTag } from './export.js';
import { ArchiveRefusedError, DEFAULT_UNPACK_LIMITS, unpackArchive, type Unpacked, type UnpackLimits } from './unpack.js';
import { invalidExport, planImport } from './import-plan.js';
import { quietOnArrival } from './arrival.js';
import { makeStaging, removeStaging } from './staging.js';
import { companyFile, companyFolder } from '../assets/company-files.js';
import { storedTranscriptPath } from '../heartbeat/transcript-file.js';

export interface ImportResult {
  companyId: string;
  name: string;
  issuePrefix: string;
  /** Always false: every imported record gets a fresh id (format 2 and later). */
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

const invalid = invalidExport;

/**
 * Tables of which one company holds only so many rows (limits/settings.ts): an import makes a new
 * company, so its rows of these tables are counted as they arrive.
 */
const ROWS_PER_COMPANY: Readonly<Record<string, number>> = { agents: FIXED_LIMITS.agentsPerCompany, projects: FIXED_LIMITS.projectsPerCompany };

/** A manifest lists one line per stored file: 64 MiB is hundreds of thousands of them. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** The manifest, checked; a version this build cannot read is refused. */
function readManifest(unpacked: Unpacked, known: Set<string>): ExportManifest | ExportManifestV1 {
  const file = unpacked.files.get('manifest.json');
  if (!file) throw invalid('Not a Headcount company export: manifest.json is missing', { entry: 'manifest.json' });
  if (statSync(file).size > MAX_MANIFEST_BYTES) throw invalid(`manifest.json is larger than ${MAX_MANIFEST_BYTES} bytes`, { entry: 'manifest.json' });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw invalid('manifest.json is not JSON', { entry: 'manifest.json' });
  }
  const head = raw as { format?: unknown; formatVersion?: unknown };
  if (head?.format !== EXPORT_FORMAT) throw invalid(`Not a Headcount company export (format ${JSON.stringify(head?.format ?? null)})`, { entry: 'manifest.json' });
  if (typeof head.formatVersion === 'number' && head.formatVersion > EXPORT_FORMAT_VERSION) {
    throw badRequest('export_too_new', `This export has format version ${head.formatVersion}; this Headcount reads up to ${EXPORT_FORMAT_VERSION}. Upgrade Headcount to import it.`);
  }
  const parsed = head.formatVersion === 1 ? ManifestV1.safeParse(raw) : ManifestV2.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw invalid(`manifest.json: ${i.path.join('.') || 'manifest'}: ${i.message}`, { entry: 'manifest.json' });
  }
  const m = parsed.data;
  if (m.schema !== null && !known.has(m.schema)) {
    throw badRequest('export_too_new', `This export was written with schema ${m.schema}, which this Headcount does not know. Upgrade Headcount to import it.`);
  }
  return m;
}

/** Constraint failures (a dangling reference, a duplicate) mean a damaged or edited export: a 400, rolled back. */
function insertAll<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) throw invalid(`The export's rows are inconsistent (${code}: a reference to a record that is not in the export, or a duplicate); nothing was imported`);
    if (typeof code === 'string' && (code === 'SQLITE_MISMATCH' || code === 'SQLITE_ERROR')) throw invalid(`The export's rows do not fit this database (${(err as Error).message}); nothing was imported`);
    throw err;
  }
}

/**
 * Imports an export file as a new company. The archive is untrusted: it is unpacked with limits
 * into a staging folder outside the live data (unpack.ts), every row is validated and must belong
 * to the exported company, every record gets a fresh id (references rewritten wherever an id
 * appears, JSON included), and every stored file a name the server generates. All rows are inserted
 * in ONE transaction (foreign keys checked at commit, so a reference to anything outside the export
 * fails it); files are moved into attachments/ and runs/ only after the commit. Any violation is a
 * 400 naming the entry, and nothing of the import remains.
 */
export async function importCompany(
  ctx: Pick<CoreContext, 'db' | 'events' | 'clock'>,
  paths: Pick<HomePaths, 'home' | 'attachments' | 'runs'>,
  file: string,
  actor: Actor | 'system',
  limits: UnpackLimits = DEFAULT_UNPACK_LIMITS,
): Promise<ImportResult> {
  const sqlite = rawSqlite(ctx.db);
  const tags = journalTags();
  const staging = makeStaging(paths.home, 'import-');
  try {
    let unpacked: Unpacked;
    try {
      unpacked = await unpackArchive(file, path.join(staging, 'entries'), { folders: ARCHIVE_FOLDERS, acceptsFile: acceptsArchiveFile }, limits);
    } catch (err) {
      if (err instanceof ArchiveRefusedError) throw invalid(`The export was refused: ${err.message}`, err.entry === null ? undefined : { entry: err.entry });
      throw err;
    }
    const manifest = readManifest(unpacked, new Set(tags.values()));
    const here = currentSchemaTag(sqlite, tags);
    const order = [...tags.values()];
    if (manifest.schema !== null && here !== null && order.indexOf(manifest.schema) > order.indexOf(here)) {
      throw badRequest('export_too_new', `This export has schema ${manifest.schema}; this database is at ${here}. Start this Headcount once to migrate, then import.`);
    }
    const plan = await planImport(sqlite, unpacked, manifest);
    const { remap } = plan;
    const newCompanyId = remap.get(manifest.company.id.toLowerCase())!;
    const oldPrefix = manifest.company.issuePrefix;

    const counts: Record<string, number> = {};
    const result = insertAll(() => inTransaction(ctx, (tx) => {
      sqlite.pragma('defer_foreign_keys = ON');
      const taken = sqlite.prepare('SELECT 1 FROM companies WHERE issue_prefix = ?').get(oldPrefix);
      const prefix = taken ? uniqueIssuePrefix(tx, manifest.company.name) : oldPrefix;
      // Companies first (the plan's order), the rest in file order: keys are checked at commit.
      for (const { table: t, file: f } of plan.tables) {
        let insert: Database.Statement | null = null;
        let columns: string[] = [];
        let n = 0;
        for (const line of readLines(f)) {
          const row = decodeRow(line);
          if (t.rowidColumn) delete row[t.rowidColumn];
          const oldAssetId = t.name === 'assets' ? String(row.id) : null;
          for (const k of Object.keys(row)) {
            const v = row[k];
            if (typeof v === 'string') row[k] = remapText(v, remap);
          }
          quietOnArrival(t.name, row, manifest.exportedAt);
          if (oldAssetId !== null) row.storage_name = plan.storageNames.get(oldAssetId)!;
          if (t.name === 'companies') row.issue_prefix = prefix;
          if (t.name === 'issues' && prefix !== oldPrefix && typeof row.identifier === 'string') row.identifier = row.identifier.replace(`${oldPrefix}-`, `${prefix}-`);
          const keys = Object.keys(row);
          if (!insert || keys.length !== columns.length || keys.some((k, i) => k !== columns[i])) {
            columns = keys;
            insert = sqlite.prepare(`INSERT INTO ${q(t.name)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
          }
          const most = ROWS_PER_COMPANY[t.name];
          if (most !== undefined && n >= most) throw invalid(`The export holds more than ${most} ${t.name}; a company holds at most ${most}`);
          insert.run(...columns.map((c) => row[c] ?? null));
          n++;
        }
        counts[t.name] = n;
      }
      const company = sqlite.prepare('SELECT name FROM companies WHERE id = ?').get(newCompanyId) as { name: string } | undefined;
      if (!company) throw invalid('The company row of the export did not import');
      rebuildRollups(tx, newCompanyId);
      recordActivity(tx, ctx.clock.now().toISOString(), actor, {
        companyId: newCompanyId,
        action: 'company.imported',
        entityType: 'company',
        entityId: newCompanyId,
        summary: `Company "${company.name}" imported from an export of ${manifest.exportedAt}; its agents arrive paused with schedules off`,
        details: { exportedAt: manifest.exportedAt, fromCompanyId: manifest.company.id, schema: manifest.schema, formatVersion: manifest.formatVersion },
      });
      return { name: company.name, prefix };
    }));

    // Committed: now the files, under names this server chose. A crash here leaves rows whose
    // files are missing, never a file in the store that no row owns.
    mkdirSync(paths.attachments, { recursive: true, mode: 0o700 });
    mkdirSync(paths.runs, { recursive: true, mode: 0o700 });
    if (plan.attachments.size > 0) mkdirSync(companyFolder(paths.attachments, newCompanyId), { recursive: true, mode: 0o700 });
    for (const [assetId, f] of plan.attachments) renameSync(f.staged, companyFile(paths.attachments, { companyId: newCompanyId, storageName: plan.storageNames.get(assetId)! }));
    for (const [runId, f] of plan.transcripts) renameSync(f.staged, storedTranscriptPath(paths.runs, remap.get(runId.toLowerCase())!));
    return {
      companyId: newCompanyId,
      name: result.name,
      issuePrefix: result.prefix,
      idsPreserved: false,
      tables: counts,
      files: { attachments: plan.attachments.size, runs: plan.transcripts.size },
      secretsWithoutValues: manifest.secretsWithoutValues,
    };
  } finally {
    removeStaging(staging);
  }
}
