import { lstatSync } from 'node:fs';
import { PathOutsideStoreError, resolveInside } from '../kernel/confined-path.js';

/**
 * Attachment and logo bytes live in one folder per company: `attachments/<companyId>/<storageName>`.
 * A row's file is looked up only in its own company's folder, so a row (forged by an old import or
 * a hand edit) can name nothing of another company's and nothing outside the store.
 */

/** The shape of a generated id; only such a value ever becomes a folder name. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isCompanyFolderName = (name: string): boolean => UUID.test(name);

/** `attachments/<companyId>`, or PathOutsideStoreError: a company id that is not a UUID, or a folder that is a link. */
export function companyFolder(attachmentsRoot: string, companyId: string): string {
  if (!isCompanyFolderName(companyId)) throw new PathOutsideStoreError(attachmentsRoot, companyId, 'the company id is not a UUID');
  const folder = resolveInside(attachmentsRoot, companyId);
  // resolveInside accepts a link to a sibling folder; a company's folder must be its own.
  if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new PathOutsideStoreError(attachmentsRoot, companyId, 'the company folder is a symbolic link');
  }
  return folder;
}

/** The stored file of a row, directly inside its company's folder (links leading out refused), or PathOutsideStoreError. */
export function companyFile(attachmentsRoot: string, row: { companyId: string; storageName: string }): string {
  return resolveInside(companyFolder(attachmentsRoot, row.companyId), row.storageName);
}

/** Like companyFile, null instead of an error. */
export function companyFileOrNull(attachmentsRoot: string, row: { companyId: string; storageName: string }): string | null {
  try {
    return companyFile(attachmentsRoot, row);
  } catch (err) {
    if (err instanceof PathOutsideStoreError) return null;
    throw err;
  }
}

