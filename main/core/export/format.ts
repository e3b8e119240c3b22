import { closeSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';

/**
 * The company export file: one gzip-compressed tar (a single file any tool can open) holding
 *   manifest.json            what is inside, the schema it was written with, what was left out,
 *                            and which row each stored file belongs to
 *   tables/<table>.jsonl     the company's rows of each table, one JSON object per line
 *   files/<n>                attachment, logo and transcript bytes, under numbered names
 * Version 2 names files by number and maps them to their rows in the manifest: nothing in the
 * archive is a stored file name or a run id used as a path. Version 1 (files under their stored
 * names, `attachments/<storageName>` and `runs/<runId>.jsonl`) is still read, by matching those
 * names against the rows, never by writing under them.
 */
export const EXPORT_FORMAT = 'headcount-company-export';
export const EXPORT_FORMAT_VERSION = 2;

/** Names of the archive's entries, for the unpacker. */
export const ARCHIVE_FOLDERS: ReadonlySet<string> = new Set(['tables', 'files', 'attachments', 'runs']);
const TABLE_FILE = /^tables\/[a-z][a-z0-9_]{0,62}\.jsonl$/;
const DATA_FILE = /^files\/[0-9]{1,9}$/;
/** Version 1 names: a plain stored name, a run id. */
const V1_ATTACHMENT = /^attachments\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const V1_TRANSCRIPT = /^runs\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.jsonl$/;
export const acceptsArchiveFile = (name: string): boolean =>
  name === 'manifest.json' || TABLE_FILE.test(name) || DATA_FILE.test(name) || V1_ATTACHMENT.test(name) || V1_TRANSCRIPT.test(name);
export const dataFileName = (n: number): string => `files/${n}`;
export const isDataFileName = (name: string): boolean => DATA_FILE.test(name);

const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');
const Count = z.int().min(0);

const ManifestBase = {
  format: z.literal(EXPORT_FORMAT),
  exportedAt: z.iso.datetime(),
  headcountVersion: z.string().max(100),
  /** Tag of the newest migration of the exporting database (e.g. 0001_crm). */
  schema: z.string().max(200).nullable(),
  company: z.strictObject({ id: Uuid, name: z.string().max(1000), issuePrefix: z.string().max(100) }),
  /** Rows per table. */
  tables: z.record(z.string().max(100), Count),
  excludedTables: z.record(z.string().max(100), z.string().max(1000)),
  /** Secrets whose names and descriptions are exported but whose values are not. */
  secretsWithoutValues: z.array(z.string().max(1000)),
};

const FileEntry = z.string().refine(isDataFileName, 'must name a files/<n> entry');

export const ManifestV2 = z.strictObject({
  ...ManifestBase,
  formatVersion: z.literal(2),
  files: z.strictObject({
    attachments: z.array(z.strictObject({ entry: FileEntry, assetId: Uuid, bytes: Count })),
    transcripts: z.array(z.strictObject({ entry: FileEntry, runId: Uuid, bytes: Count })),
    bytes: Count,
  }),
});
export type ExportManifest = z.infer<typeof ManifestV2>;

export const ManifestV1 = z.object({
  ...ManifestBase,
  formatVersion: z.literal(1),
  files: z.object({ attachments: Count, runs: Count, bytes: Count }),
});
export type ExportManifestV1 = z.infer<typeof ManifestV1>;

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
export class LineTooLongError extends Error {}

/** The longest row an import reads: far above any row the API writes (documents are 512 KiB). */
export const MAX_ROW_BYTES = 64 * 1024 * 1024;

export function* readLines(file: string, maxLineBytes = MAX_ROW_BYTES): Generator<string> {
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
      // A crafted file could be one endless line: refuse it before it is held in memory.
      if (chunk.length > maxLineBytes) throw new LineTooLongError(`a row longer than ${maxLineBytes} bytes`);
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
