import { createReadStream, statSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { badRequest } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { discoverScope, quoteIdent as q, type ScopedTable } from './scope.js';
import { decodeRow, isDataFileName, isUuid, LineTooLongError, readLines, type ExportManifest, type ExportManifestV1 } from './format.js';
import { shown, type Unpacked } from './unpack.js';
import { rowCheck, type RowCheck } from './rows.js';

/** A refused import: 400 with the entry (and line) to blame in the message and in `details`. */
export const invalidExport = (message: string, details?: unknown) => badRequest('invalid_export', message, details);
const invalid = invalidExport;

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

interface StagedFile {
  staged: string;
  bytes: number;
}

/** Everything the first pass learned: rows are checked, ids found, files matched to rows. */
export interface ImportPlan {
  tables: { table: ScopedTable; entry: string; file: string }[];
  /** Every UUID anywhere in the rows → its fresh id. */
  remap: Map<string, string>;
  /** Old asset id → the server-generated stored name its row gets. */
  storageNames: Map<string, string>;
  attachments: Map<string, StagedFile>;
  transcripts: Map<string, StagedFile>;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * First pass over the unpacked archive: every row parsed and validated, every row of a
 * company-scoped table checked to belong to the exported company, every UUID collected, every file
 * matched to its row by the archive's manifest (or, for format 1, by the row's own values, which
 * are only compared, never used as paths) and checked against the row's size and hash.
 */
export async function planImport(sqlite: Database.Database, unpacked: Unpacked, manifest: ExportManifest | ExportManifestV1): Promise<ImportPlan> {
  const scope = discoverScope(sqlite);
  const byName = new Map(scope.tables.map((t) => [t.name, t]));
  const companyId = manifest.company.id;
  const tables: ImportPlan['tables'] = [];
  for (const [entry, file] of unpacked.files) {
    if (!entry.startsWith('tables/')) continue;
    const name = entry.slice('tables/'.length, -'.jsonl'.length);
    const table = byName.get(name);
    if (!table) throw invalid(`Entry ${shown(entry)}: rows of table "${name}", which is not a company table here`, { entry });
    tables.push({ table, entry, file });
  }
  if (!tables.some((t) => t.table.name === 'companies')) throw invalid('The export has no company row', { entry: 'tables/companies.jsonl' });
  // The company row first: it must be the manifest's company before any row is compared with it.
  tables.sort((a, b) => Number(b.table.name === 'companies') - Number(a.table.name === 'companies'));

  const ids = new Set<string>();
  const assets = new Map<string, { sha256: unknown; byteSize: unknown; live: boolean; storageName: unknown }>();
  const runs = new Set<string>();
  for (const { table, entry, file } of tables) {
    const check: RowCheck | null = rowCheck(table);
    if (!check) throw invalid(`Entry ${shown(entry)}: this Headcount has no definition of table "${table.name}"`, { entry });
    const hasCompany = table.columns.some((c) => c.name === 'company_id');
    // Record ids and references are UUIDs: only those get fresh values, so anything else there
    // would keep an id (or a path-like value) from the archive.
    const idColumns = new Set((sqlite.prepare(`PRAGMA foreign_key_list(${q(table.name)})`).all() as { from: string }[]).map((f) => f.from));
    if (table.columns.some((c) => c.name === 'id' && c.type === 'TEXT')) idColumns.add('id');
    let line = 0;
    const lines = readLines(file);
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = lines.next();
      } catch (err) {
        if (err instanceof LineTooLongError) throw invalid(`Entry ${shown(entry)}, line ${line + 1}: ${err.message}`, { entry, line: line + 1 });
        throw err;
      }
      if (next.done) break;
      const text = next.value;
      line++;
      const where = `Entry ${shown(entry)}, line ${line}`;
      let row: Record<string, unknown>;
      try {
        row = decodeRow(text);
      } catch {
        throw invalid(`${where}: not a JSON row`, { entry, line });
      }
      if (!row || typeof row !== 'object' || Array.isArray(row)) throw invalid(`${where}: not a JSON object`, { entry, line });
      if (table.name === 'companies') {
        if (line > 1) throw invalid(`${where}: a second company row; an export holds one company`, { entry, line });
        if (row.id !== companyId) throw invalid(`${where}: the company row is not the company the manifest names`, { entry, line });
      }
      if (hasCompany && row.company_id !== companyId) {
        throw invalid(`${where}: company_id names another company (${JSON.stringify(String(row.company_id).slice(0, 64))}); every row must belong to the imported company`, { entry, line });
      }
      if (table.rowidColumn) delete row[table.rowidColumn]; // assigned anew, in the exported order
      for (const c of idColumns) {
        const v = row[c];
        if (v !== null && v !== undefined && !isUuid(v)) throw invalid(`${where}: ${c} must be a UUID`, { entry, line });
      }
      const problem = check(row);
      if (problem) throw invalid(`${where}: ${problem}`, { entry, line });
      for (const v of Object.values(row)) if (typeof v === 'string') for (const m of v.match(UUIDS) ?? []) ids.add(m.toLowerCase());
      if (table.name === 'assets') assets.set(String(row.id), { sha256: row.sha256, byteSize: row.byte_size, live: row.deleted_at === null, storageName: row.storage_name });
      if (table.name === 'heartbeat_runs') runs.add(String(row.id));
    }
  }

  const remap = new Map<string, string>();
  // New record ids as the product makes them (UUIDv7, kernel/ids.ts), in the order the export
  // names them, so imported rows append to each id index as new rows do.
  for (const id of ids) remap.set(id, newId());
  const storageNames = new Map<string, string>();
  for (const id of assets.keys()) storageNames.set(id, randomUUID());

  // Which staged file belongs to which row.
  const attachmentEntries = new Map<string, string>();
  const transcriptEntries = new Map<string, string>();
  const used = new Set<string>();
  const use = (entry: string) => {
    if (!unpacked.files.has(entry)) throw invalid(`manifest.json maps ${shown(entry)}, which is not in the archive`, { entry });
    if (used.has(entry)) throw invalid(`manifest.json maps ${shown(entry)} to two records`, { entry });
    used.add(entry);
  };
  if (manifest.formatVersion === 2) {
    for (const a of manifest.files.attachments) {
      use(a.entry);
      if (!assets.get(a.assetId)?.live) throw invalid(`manifest.json maps ${shown(a.entry)} to asset ${a.assetId}, which is not a live asset of the export`, { entry: a.entry });
      if (attachmentEntries.has(a.assetId)) throw invalid(`manifest.json maps two files to asset ${a.assetId}`, { entry: a.entry });
      attachmentEntries.set(a.assetId, a.entry);
    }
    for (const t of manifest.files.transcripts) {
      use(t.entry);
      if (!runs.has(t.runId)) throw invalid(`manifest.json maps ${shown(t.entry)} to run ${t.runId}, which is not in the export`, { entry: t.entry });
      if (transcriptEntries.has(t.runId)) throw invalid(`manifest.json maps two files to run ${t.runId}`, { entry: t.entry });
      transcriptEntries.set(t.runId, t.entry);
    }
  } else {
    const byStorage = new Map([...assets].filter(([, a]) => a.live).map(([id, a]) => [`attachments/${String(a.storageName)}`, id]));
    for (const entry of unpacked.files.keys()) {
      if (entry.startsWith('attachments/')) {
        const id = byStorage.get(entry);
        if (!id) throw invalid(`Entry ${shown(entry)}: no live asset of the export is stored under this name`, { entry });
        use(entry);
        attachmentEntries.set(id, entry);
      } else if (entry.startsWith('runs/')) {
        const id = entry.slice('runs/'.length, -'.jsonl'.length);
        if (!runs.has(id)) throw invalid(`Entry ${shown(entry)}: no run of the export has this id`, { entry });
        use(entry);
        transcriptEntries.set(id, entry);
      }
    }
  }
  for (const entry of unpacked.files.keys()) {
    const isFile = manifest.formatVersion === 2 ? isDataFileName(entry) : entry.startsWith('attachments/') || entry.startsWith('runs/');
    if (!isFile && !entry.startsWith('tables/') && entry !== 'manifest.json') throw invalid(`Entry ${shown(entry)}: not part of a format ${manifest.formatVersion} export`, { entry });
    if (isFile && !used.has(entry)) throw invalid(`Entry ${shown(entry)}: a file the manifest does not map to any record`, { entry });
  }

  const attachments = new Map<string, StagedFile>();
  for (const [assetId, entry] of attachmentEntries) {
    const staged = unpacked.files.get(entry)!;
    const bytes = statSync(staged).size;
    const row = assets.get(assetId)!;
    if (bytes !== row.byteSize) throw invalid(`Entry ${shown(entry)}: ${bytes} bytes, but its asset row says ${String(row.byteSize)}`, { entry });
    if ((await sha256Of(staged)) !== row.sha256) throw invalid(`Entry ${shown(entry)}: its bytes do not match the sha256 of its asset row`, { entry });
    attachments.set(assetId, { staged, bytes });
  }
  const transcripts = new Map<string, StagedFile>();
  for (const [runId, entry] of transcriptEntries) {
    const staged = unpacked.files.get(entry)!;
    transcripts.set(runId, { staged, bytes: statSync(staged).size });
  }
  return { tables, remap, storageNames, attachments, transcripts };
}
