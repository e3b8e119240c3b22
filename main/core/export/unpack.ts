import { createReadStream, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';

/**
 * Streaming unpacker for untrusted .tar.gz files. Every entry is judged on its header before any of
 * its bytes are written: its type (regular files and folders only), its name (no absolute or `..`
 * names, no backslashes, no duplicates, only names the caller accepts), its size and the running
 * totals. Bytes go to files the unpacker names itself (`e<n>` in the staging folder), so no name
 * from the archive ever becomes a path. tar's own decompression-ratio guard stops a gzip bomb while
 * it is being inflated.
 */

export interface UnpackLimits {
  /** Sum of the sizes of all entries. */
  maxExpandedBytes: number;
  maxEntries: number;
  maxEntryBytes: number;
  /** Decompressed bytes per compressed byte read so far. */
  maxCompressionRatio: number;
}

export const DEFAULT_UNPACK_LIMITS: Readonly<UnpackLimits> = {
  maxExpandedBytes: 8 * 1024 ** 3,
  maxEntries: 200_000,
  maxEntryBytes: 1024 ** 3,
  maxCompressionRatio: 200,
};

/** Why an archive was refused; `entry` names the entry when one is to blame. */
export class ArchiveRefusedError extends Error {
  constructor(
    readonly entry: string | null,
    readonly reason: string,
  ) {
    super(entry === null ? reason : `Entry ${shown(entry)}: ${reason}`);
    this.name = 'ArchiveRefusedError';
  }
}

/** An archive name as it may be shown in a message: quoted, escaped, at most 200 characters. */
export const shown = (name: string): string => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);

export interface UnpackRules {
  /** Folder entries that may appear (e.g. `tables`); any other folder is refused. */
  folders: ReadonlySet<string>;
  /** Whether a file of this (normalised) name belongs in the archive. */
  acceptsFile(name: string): boolean;
}

export interface Unpacked {
  /** Archive name of each file → where its bytes are now. */
  files: Map<string, string>;
  bytes: number;
}

/** The entry's name without a leading `./` or trailing `/`, or why the name is refused. */
export function normaliseEntryName(raw: string): { name: string } | { problem: string } {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { problem: 'its name contains a control character' };
  if (raw.includes('\\')) return { problem: 'its name contains a backslash' };
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return { problem: 'its name is an absolute path' };
  const parts = raw.split('/');
  if (parts.includes('..')) return { problem: 'its name has a ".." segment' };
  while (parts[0] === '.') parts.shift();
  while (parts.length && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.some((p) => p === '' || p === '.')) return { problem: 'its name is empty or has empty segments' };
  return { name: parts.join('/') };
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Unpacks `file` into `stagingDir` (which must exist and be empty). Rejects with
 * ArchiveRefusedError on the first violation; the caller removes the staging folder either way.
 */
export function unpackArchive(file: string, stagingDir: string, rules: UnpackRules, limits: UnpackLimits = DEFAULT_UNPACK_LIMITS): Promise<Unpacked> {
  const files = new Map<string, string>();
  const seen = new Set<string>();
  const writes: Promise<void>[] = [];
  let entries = 0;
  let declared = 0;
  let failure: Error | null = null;
  mkdirSync(stagingDir, { recursive: true, mode: 0o700 });

  return new Promise<Unpacked>((resolve, reject) => {
    const source = createReadStream(file);
    const outs: WriteStream[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      source.destroy();
      // An aborted entry never ends its pipe: close its file, and let every write settle before
      // answering, so nothing lands in the staging folder after the caller removed it.
      if (failure) for (const out of outs) out.destroy();
      void Promise.allSettled(writes).then((results) => {
        const failedWrite = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failure) reject(failure);
        else if (failedWrite) reject(failedWrite.reason as Error);
        else resolve({ files, bytes: declared });
      });
    };
    const refuse = (entry: string | null, reason: string) => {
      failure ??= new ArchiveRefusedError(entry, reason);
      parser.abort(failure);
      finish();
    };
    const parser = new tar.Parser({
      strict: true,
      maxDecompressionRatio: limits.maxCompressionRatio,
      onReadEntry: (entry) => {
        if (failure) return entry.resume();
        const raw = entry.path;
        entries++;
        if (entries > limits.maxEntries) return (entry.resume(), refuse(raw, `the archive has more than ${limits.maxEntries} entries`));
        const n = normaliseEntryName(raw);
        if ('problem' in n) return (entry.resume(), refuse(raw, n.problem));
        const name = n.name;
        if (seen.has(name)) return (entry.resume(), refuse(raw, 'a second entry of the same name'));
        seen.add(name);
        if (entry.type === 'Directory') {
          entry.resume();
          if (!rules.folders.has(name)) refuse(raw, 'a folder the export format does not have');
          return;
        }
        if (!FILE_TYPES.has(entry.type)) return (entry.resume(), refuse(raw, `a ${entry.type} entry; only regular files and folders are accepted`));
        if (!rules.acceptsFile(name)) return (entry.resume(), refuse(raw, 'a file the export format does not have'));
        const size = entry.size ?? 0;
        if (size > limits.maxEntryBytes) return (entry.resume(), refuse(raw, `${size} bytes, over the ${limits.maxEntryBytes}-byte limit per entry`));
        declared += size;
        if (declared > limits.maxExpandedBytes) return (entry.resume(), refuse(raw, `the archive expands to more than ${limits.maxExpandedBytes} bytes`));
        const target = path.join(stagingDir, `e${files.size}`);
        files.set(name, target);
        const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
        outs.push(out);
        writes.push(
          new Promise<void>((ok, fail) => {
            out.once('close', ok);
            out.once('error', fail);
          }),
        );
        // A failed write (a full disk) is this server's problem, not the archive's: it ends the
        // unpack with that error rather than leave the parser waiting on an entry nobody reads.
        out.once('error', (err) => {
          failure ??= err;
          parser.abort(err);
          finish();
        });
        entry.pipe(out);
      },
    });
    parser.on('error', (err: Error) => {
      if (!failure) {
        failure = /decompression ratio/i.test(err.message)
          ? new ArchiveRefusedError(null, `the archive expands more than ${limits.maxCompressionRatio} times its compressed size (a compression bomb?)`)
          : new ArchiveRefusedError(null, `not a readable .tar.gz file (${err.message})`);
      }
      finish();
    });
    parser.on('end', finish);
    source.on('error', (err) => {
      failure ??= new ArchiveRefusedError(null, `the file could not be read (${err.message})`);
      parser.abort(failure);
      finish();
    });
    source.pipe(parser);
  });
}
