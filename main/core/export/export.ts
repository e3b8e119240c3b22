import { copyFileSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import * as tar from 'tar';
import type { HomePaths } from '../context.js';
import { VERSION } from '../kernel/package-root.js';
import { discoverScope, EXCLUDED_TABLES, selectRows } from './scope.js';
import { dataFileName, encodeRow, EXPORT_FORMAT, EXPORT_FORMAT_VERSION, type ExportManifest } from './format.js';
import { storedTranscriptPathOrNull } from '../heartbeat/transcript-file.js';
import { companyFileOrNull } from '../assets/company-files.js';

export class CompanyNotFoundError extends Error {}

/** Tag of the newest applied migration, read the way drizzle records it. */
export function currentSchemaTag(sqlite: Database.Database, journal: ReadonlyMap<number, string>): string | null {
  const row = sqlite.prepare('SELECT max(created_at) AS at FROM __drizzle_migrations').get() as { at: number | null } | undefined;
  return row?.at ? (journal.get(Number(row.at)) ?? null) : null;
}

/**
 * Writes the company's export file to `outFile`. The rows are read in one read transaction (a
 * consistent snapshot even while the server writes), the files copied after; a transcript still
 * being written is copied as far as it got.
 */
export async function exportCompany(
  sqlite: Database.Database,
  paths: Pick<HomePaths, 'home' | 'attachments' | 'runs'>,
  companyId: string,
  outFile: string,
  options: { schemaTag: string | null; now: Date },
): Promise<ExportManifest> {
  const company = sqlite.prepare('SELECT id, name, issue_prefix FROM companies WHERE id = ?').get(companyId) as { id: string; name: string; issue_prefix: string } | undefined;
  if (!company) throw new CompanyNotFoundError(`Company ${companyId} not found`);
  const scope = discoverScope(sqlite);
  const staging = mkdtempSync(path.join(paths.home, '.export-'));
  try {
    mkdirSync(path.join(staging, 'tables'));
    const counts: Record<string, number> = {};
    const attachments: { assetId: string; companyId: string; storageName: string }[] = [];
    const runs: string[] = [];
    const secretNames: string[] = [];
    sqlite.transaction(() => {
      for (const t of scope.tables) {
        const fd = openSync(path.join(staging, 'tables', `${t.name}.jsonl`), 'w', 0o600);
        let n = 0;
        let batch: string[] = [];
        try {
          for (const row of selectRows(sqlite, t, companyId)) {
            batch.push(encodeRow(row));
            n++;
            if (t.name === 'assets' && row.deleted_at === null) attachments.push({ assetId: String(row.id), companyId: String(row.company_id), storageName: String(row.storage_name) });
            if (t.name === 'heartbeat_runs') runs.push(String(row.id));
            if (t.name === 'secrets' && row.deleted_at === null) secretNames.push(String(row.name));
            if (batch.length >= 1000) {
              writeSync(fd, batch.join('\n') + '\n');
              batch = [];
            }
          }
          if (batch.length) writeSync(fd, batch.join('\n') + '\n');
        } finally {
          closeSync(fd);
        }
        counts[t.name] = n;
      }
    })();
    // Files go under numbered names, mapped to their rows in the manifest: the importer never
    // has to take a name from the archive as a path. A row naming a file outside its store (an
    // old forged import) exports without its file, like a file lost earlier.
    let bytes = 0;
    let n = 0;
    const files: ExportManifest['files'] = { attachments: [], transcripts: [], bytes: 0 };
    const copyIn = (from: string | null): { entry: string; bytes: number } | null => {
      if (!from || !existsSync(from)) return null;
      const entry = dataFileName(++n);
      copyFileSync(from, path.join(staging, entry));
      const size = statSync(path.join(staging, entry)).size;
      bytes += size;
      return { entry, bytes: size };
    };
    mkdirSync(path.join(staging, 'files'));
    for (const a of attachments) {
      const copied = copyIn(companyFileOrNull(paths.attachments, a));
      if (copied) files.attachments.push({ ...copied, assetId: a.assetId });
    }
    for (const id of runs) {
      // No file: no output, or purged by retention.
      const copied = copyIn(storedTranscriptPathOrNull(paths.runs, id));
      if (copied) files.transcripts.push({ ...copied, runId: id });
    }
    files.bytes = bytes;
    const manifest: ExportManifest = {
      format: EXPORT_FORMAT,
      formatVersion: EXPORT_FORMAT_VERSION,
      exportedAt: options.now.toISOString(),
      headcountVersion: VERSION,
      schema: options.schemaTag,
      company: { id: company.id, name: company.name, issuePrefix: company.issue_prefix },
      tables: counts,
      excludedTables: Object.fromEntries(scope.excluded.map((t) => [t, EXCLUDED_TABLES[t]!])),
      files,
      secretsWithoutValues: secretNames,
    };
    writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
    const entries = ['manifest.json', 'tables', 'files'];
    // Written beside the target, then renamed: a reader never sees half a file under the final name.
    const partial = `${outFile}.partial`;
    try {
      await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
      renameSync(partial, outFile);
    } finally {
      rmSync(partial, { force: true });
    }
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
