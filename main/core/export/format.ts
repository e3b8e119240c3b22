import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The company export file: one gzip-compressed tar (a single file any tool can open) holding
 *   manifest.json            what is inside, the schema it was written with, what was left out
 *   tables/<table>.jsonl     the company's rows of each table, one JSON object per line
 *   attachments/<name>       attachment and logo bytes, under their stored names
 *   runs/<runId>.jsonl       run transcripts, byte for byte
 */
export const EXPORT_FORMAT = 'headcount-company-export';
export const EXPORT_FORMAT_VERSION = 1;

export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  exportedAt: string;
  headcountVersion: string;
  /** Tag of the newest migration of the exporting database (e.g. 0001_crm). */
  schema: string | null;
  company: { id: string; name: string; issuePrefix: string };
  /** Rows per table. */
  tables: Record<string, number>;
  excludedTables: Record<string, string>;
  files: { attachments: number; runs: number; bytes: number };
  /** Secrets whose names and descriptions are exported but whose values are not. */
  secretsWithoutValues: string[];
}

/** A row value as JSON: BLOBs become `{"$base64": ...}`; everything else SQLite returns is JSON already. */
export function encodeRow(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_k, v: unknown) => {
    if (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
      return { $base64: Buffer.from((v as { data: number[] }).data).toString('base64') };
    }
    return typeof v === 'bigint' ? Number(v) : v;
  });
}

export function decodeRow(line: string): Record<string, unknown> {
  const row = JSON.parse(line) as Record<string, unknown>;
  for (const [k, v] of Object.entries(row)) {
    if (v && typeof v === 'object' && typeof (v as { $base64?: unknown }).$base64 === 'string') row[k] = Buffer.from((v as { $base64: string }).$base64, 'base64');
  }
  return row;
}

/**
 * Lines of a file, read synchronously in 1 MiB chunks: the import runs inside one SQLite
 * transaction (synchronous in better-sqlite3) and must not hold a whole table file in memory.
 */
export function* readLines(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1024 * 1024);
  let rest = Buffer.alloc(0);
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      let chunk = Buffer.concat([rest, buf.subarray(0, n)]);
      let nl: number;
      while ((nl = chunk.indexOf(10)) !== -1) {
        const line = chunk.subarray(0, nl).toString('utf8');
        chunk = chunk.subarray(nl + 1);
        if (line) yield line;
      }
      rest = Buffer.from(chunk);
    }
    if (rest.length) yield rest.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Replaces every id of the export found inside a string with its new id. Ids are random UUIDs, so
 * one appearing anywhere — a foreign key, a JSON payload (wake reasons, secret references in an
 * adapter config, activity details), a stored file name — names that record.
 */
export function remapText(value: string, ids: ReadonlyMap<string, string>): string {
  if (ids.size === 0) return value;
  return value.replace(UUID, (m) => ids.get(m.toLowerCase()) ?? m);
}

export const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
