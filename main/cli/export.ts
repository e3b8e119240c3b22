import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { openDatabase, type DatabaseHandle } from '../core/db/connection.js';
import { schemaStatus } from '../core/db/migrate.js';
import { homePaths } from '../core/context.js';
import { systemClock } from '../core/kernel/clock.js';
import { EventBus } from '../core/events/bus.js';
import { ServiceError } from '../core/kernel/errors.js';
import { CompanyNotFoundError, currentSchemaTag, exportCompany } from '../core/export/export.js';
import { importCompany, journalTags, type ImportResult } from '../core/export/import.js';
import type { ExportManifest } from '../core/export/format.js';

/**
 * Opens the home's database for export/import from the CLI. Safe beside a running server (WAL:
 * the export reads a snapshot; the import is one write transaction like any request's).
 */
function openHome(home: string): DatabaseHandle {
  const { database } = homePaths(home);
  if (!existsSync(database)) throw new Error(`No database at ${database}`);
  const handle = openDatabase(database);
  const schema = schemaStatus(handle);
  if (schema.pending > 0 || schema.newerThanBuild) {
    handle.close();
    throw new Error('The database schema does not match this Headcount version; start and stop this version of the server once, then retry.');
  }
  return handle;
}

export async function exportFromHome(home: string, companyId: string, out: string): Promise<ExportManifest> {
  const handle = openHome(home);
  try {
    return await exportCompany(handle.sqlite, homePaths(home), companyId, path.resolve(out), { schemaTag: currentSchemaTag(handle.sqlite, journalTags()), now: new Date() });
  } catch (err) {
    if (err instanceof CompanyNotFoundError) throw new Error(`No company ${companyId} in ${home}`);
    throw err;
  } finally {
    handle.close();
  }
}

export async function importIntoHome(home: string, file: string): Promise<ImportResult> {
  if (!existsSync(file)) throw new Error(`No file ${file}`);
  const handle = openHome(home);
  try {
    return await importCompany({ db: handle.db, events: new EventBus(), clock: systemClock }, homePaths(home), path.resolve(file), 'system');
  } catch (err) {
    // The service's errors are written for HTTP clients; the message alone reads fine here.
    if (err instanceof ServiceError) throw new Error(err.message);
    throw err;
  } finally {
    handle.close();
  }
}

export function registerExportCommands(program: Command, home: () => string): void {
  program
    .command('export')
    .description('write a company (records, documents, attachments, run transcripts; no secret values) to one .tar.gz file')
    .argument('<companyId>', 'the company to export')
    .requiredOption('-o, --out <file>', 'where to write the .tar.gz')
    .action(async (companyId: string, opts: { out: string }) => {
      const m = await exportFromHome(home(), companyId, opts.out);
      const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
      process.stdout.write(`exported "${m.company.name}" to ${path.resolve(opts.out)}: ${rows} rows in ${Object.keys(m.tables).length} tables, ${m.files.attachments.length} attachments, ${m.files.transcripts.length} transcripts\n`);
      if (m.secretsWithoutValues.length) process.stdout.write(`secrets exported by name only (set their values after import): ${m.secretsWithoutValues.join(', ')}\n`);
    });

  program
    .command('import')
    .description('import a company export file as a new company')
    .argument('<file>', 'a .tar.gz written by `headcount export` or the export route')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const r = await importIntoHome(home(), file);
      if (opts.json) {
        process.stdout.write(JSON.stringify(r, null, 2) + '\n');
        return;
      }
      process.stdout.write(`imported "${r.name}" as company ${r.companyId} (issues ${r.issuePrefix}-*, fresh ids; agents paused, schedules off)\n`);
      if (r.secretsWithoutValues.length) process.stdout.write(`set the values of these secrets again: ${r.secretsWithoutValues.join(', ')}\n`);
    });
}
