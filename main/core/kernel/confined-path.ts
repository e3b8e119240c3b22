import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Stored files (attachments, logos, transcripts, backups) are named by values read from the
 * database. A row written by an old import, or edited by hand, must still never name a file outside
 * its store: every read and delete resolves its path here first.
 */
export class PathOutsideStoreError extends Error {
  constructor(
    readonly root: string,
    readonly storedName: string,
    readonly reason: string,
  ) {
    super(`Refused the stored file name ${JSON.stringify(storedName.slice(0, 200))}: ${reason}`);
    this.name = 'PathOutsideStoreError';
  }
}

/**
 * Why `name` is not one plain file name, or null. Separators of either platform, drive letters,
 * dot segments, NUL and control characters and percent-encoding are refused outright rather than
 * decoded or normalised: generated names never contain them, so their presence means a forged row.
 */
export function plainNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'it is empty';
  if (name.length > 255) return 'it is longer than 255 characters';
  if (name === '.' || name === '..') return 'it is a dot segment';
  if (name.includes('/') || name.includes('\\')) return 'it contains a path separator';
  if (/^[A-Za-z]:/.test(name)) return 'it starts with a drive letter';
  if (name.includes('%')) return 'it contains percent-encoding';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'it contains a control character';
  return null;
}

/**
 * The absolute path of the file `name` directly inside `root`, or PathOutsideStoreError. When the
 * file (or the root) exists, symbolic links are resolved and the real path must still be directly
 * inside the real root: a link planted in the store cannot lead out of it.
 */
export function resolveInside(root: string, name: string): string {
  const problem = plainNameProblem(name);
  if (problem) throw new PathOutsideStoreError(root, String(name), problem);
  const candidate = path.join(root, name);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return candidate; // no store yet, so nothing in it to follow
  }
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // Nothing there, or a dangling link: refuse the link, or a later write would create its target.
    const st = lstatSync(candidate, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) throw new PathOutsideStoreError(root, name, 'it is a symbolic link');
    return candidate;
  }
  if (path.dirname(real) !== realRoot) throw new PathOutsideStoreError(root, name, 'it resolves outside its folder');
  return candidate;
}

/** Like resolveInside, null instead of an error (listing and sweeping skip what they may not touch). */
export function resolveInsideOrNull(root: string, name: string): string | null {
  try {
    return resolveInside(root, name);
  } catch (err) {
    if (err instanceof PathOutsideStoreError) return null;
    throw err;
  }
}
