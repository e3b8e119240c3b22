import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../core/db/connection.js';
import { schemaStatus, type SchemaStatus } from '../core/db/migrate.js';
import { homePaths } from '../core/context.js';
import { VERSION } from '../core/kernel/package-root.js';
import { defaultKeyProvider } from '../core/secrets/master-key.js';
import { BOARD_TOKEN_FILE } from '../core/auth/board-token.js';
import { diskUsage, type DiskUsage } from '../core/retention/disk.js';
import { listBackups, restoreBackup, type BackupFile, type RestoreResult } from '../core/retention/backups.js';
import { sandboxStatus, type SandboxStatus } from '@service/adapter-utils';

export interface DoctorReport {
  version: string;
  home: string;
  database: { path: string; exists: boolean; integrity: string | null; schema: SchemaStatus | null; sizeBytes: number | null };
  keyProvider: { kind: string; description: string; warning: string | null };
  boardTokenFile: { path: string; exists: boolean; mode: string | null; ok: boolean };
  /** Bytes used in the home, by kind. */
  disk: Omit<DiskUsage, 'home'>;
  /** Pre-migration backups (and copies kept by restores), newest first. */
  backups: BackupFile[];
  /** Whether agents run inside the OS sandbox here (bubblewrap, Seatbelt), and if not, how to get it. */
  sandbox: SandboxStatus;
  ok: boolean;
}

/** Checks a data home without starting the server; safe while the server runs (WAL readers). */
export async function doctor(home: string): Promise<DoctorReport> {
  const paths = homePaths(home);
  const exists = existsSync(paths.database);
  let integrity: string | null = null;
  let schema: SchemaStatus | null = null;
  if (exists) {
    // A badly damaged file may fail to open or to answer at all: report that, never crash.
    try {
      const handle = openDatabase(paths.database, { readonly: true });
      try {
        const rows = handle.sqlite.pragma('integrity_check') as { integrity_check: string }[];
        integrity = rows.map((r) => r.integrity_check).join('; ');
        schema = schemaStatus(handle);
      } finally {
        handle.close();
      }
    } catch (err) {
      integrity = `failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  // The same choice `serve` makes, so doctor reports the store the server really uses.
  const provider = await defaultKeyProvider(home);
  const tokenPath = path.join(home, BOARD_TOKEN_FILE);
  const tokenExists = existsSync(tokenPath);
  const mode = tokenExists ? (statSync(tokenPath).mode & 0o777).toString(8).padStart(4, '0') : null;
  const tokenOk = !tokenExists || process.platform === 'win32' || mode === '0600';
  return {
    version: VERSION,
    home,
    database: { path: paths.database, exists, integrity, schema, sizeBytes: exists ? statSync(paths.database).size : null },
    keyProvider: {
      kind: provider.kind,
      description: provider.describe(),
      warning: provider.warning,
    },
    boardTokenFile: { path: tokenPath, exists: tokenExists, mode, ok: tokenOk },
    disk: (({ home: _h, ...d }) => d)(diskUsage(home)),
    backups: listBackups(paths.backups),
    sandbox: sandboxStatus(),
    ok: (integrity === null || integrity === 'ok') && tokenOk && !(schema?.newerThanBuild ?? false),
  };
}

export function formatDoctor(r: DoctorReport): string {
  const lines = [
    `Headcount ${r.version}`,
    `home:            ${r.home}`,
    `database:        ${r.database.exists ? `${r.database.path} (${r.database.sizeBytes} bytes)` : `${r.database.path} (not created yet)`}`,
  ];
  if (r.database.schema) {
    const s = r.database.schema;
    lines.push(`schema version:  ${s.current ?? 'empty'} (${s.applied}/${s.available} migrations applied${s.pending ? `, ${s.pending} pending: applied at next start` : ''})`);
    if (s.newerThanBuild) lines.push('                 ! written by a newer Headcount than this one');
  }
  if (r.database.integrity !== null) lines.push(`integrity_check: ${r.database.integrity}`);
  lines.push(`key provider:    ${r.keyProvider.kind}: ${r.keyProvider.description}`);
  if (r.keyProvider.warning) lines.push(`  WARNING: ${r.keyProvider.warning}`);
  lines.push(`board token:     ${r.boardTokenFile.exists ? `${r.boardTokenFile.path} (mode ${r.boardTokenFile.mode}${r.boardTokenFile.ok ? '' : ', should be 0600'})` : 'not created yet'}`);
  const d = r.disk;
  lines.push(`disk use:        ${mib(d.total)} (database ${mib(d.database)}, transcripts ${mib(d.runs)}, attachments ${mib(d.attachments)}, backups ${mib(d.backups)}, plugins ${mib(d.plugins)})`);
  lines.push(`backups:         ${r.backups.length ? `${r.backups.length}, newest ${r.backups[0]!.name}` : 'none'}`);
  const sb = r.sandbox;
  lines.push(`agent sandbox:   ${sb.available ? `${sb.kind} (agents are confined)` : `NOT AVAILABLE: ${sb.reason ?? 'unknown'}`}`);
  if (!sb.available && sb.installHint) lines.push(`  install: ${sb.installHint}`);
  lines.push(r.ok ? 'status:          ok' : 'status:          PROBLEMS FOUND');
  return lines.join('\n');
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

export function formatBackups(backups: BackupFile[]): string {
  if (backups.length === 0) return 'no backups';
  return backups.map((b) => `${b.name}  ${mib(b.bytes)}  ${b.createdAt}${b.schema ? `  (schema ${b.schema})` : ''}`).join('\n');
}

/** `headcount doctor --restore-backup [file]`: the newest backup, or the one named. */
export function restoreBackupInHome(home: string, file: string | undefined): RestoreResult {
  return restoreBackup(home, file, new Date());
}

export function formatRestore(r: RestoreResult): string {
  return [
    `restored ${r.restored.path}${r.restored.schema ? ` (schema ${r.restored.schema})` : ''}`,
    r.replacedCopy ? `the database it replaced is kept at ${r.replacedCopy}` : 'there was no database to replace',
    'A newer Headcount migrates this copy again when it starts (taking a new backup first); run the Headcount version it came from to stay on it.',
  ].join('\n');
}
