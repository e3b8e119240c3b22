import { lstatSync, mkdirSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { isNull, sql } from 'drizzle-orm';
import { assets } from './schema.js';
import type { CoreContext } from '../context.js';
import { companyFile, isCompanyFolderName } from './company-files.js';

type Ctx = Pick<CoreContext, 'db' | 'paths' | 'logger'>;

/**
 * Data homes from before per-company folders keep their bytes flat in `attachments/<storageName>`.
 * Each such file moves into the folder of the company whose row recorded it first (the owner the
 * flat layout already enforced). A rename within one folder tree is atomic, so a crash leaves every
 * file either flat or moved, and the next start carries on where this one stopped.
 */
export function moveFlatFiles(ctx: Ctx): number {
  const root = ctx.paths.attachments;
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const flat = readdirSync(root).filter((name) => lstatSync(path.join(root, name)).isFile());
  if (flat.length === 0) return 0;
  // One read of every row (oldest first) rather than a scan per file: the first row to name a file owns it.
  const owners = new Map<string, string>();
  for (const r of ctx.db.select({ companyId: assets.companyId, name: assets.storageName }).from(assets).orderBy(sql`rowid`).all()) {
    if (!owners.has(r.name)) owners.set(r.name, r.companyId);
  }
  let moved = 0;
  for (const name of flat) {
    // Only regular files: folders are companies' (or planted, left alone); a link is never moved.
    const from = path.join(root, name);
    const companyId = owners.get(name);
    if (!companyId) continue; // the orphan sweep removes it
    try {
      const to = companyFile(root, { companyId, storageName: name });
      mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
      renameSync(from, to);
      moved++;
    } catch (err) {
      // A forged row (a company id or name that is no plain folder or file name): its file stays
      // flat, where no read looks, and the sweep removes it.
      ctx.logger.error('could not move a stored file into its company folder', { storageName: name.slice(0, 200), message: (err as Error).message });
    }
  }
  return moved;
}

/**
 * Removes files no live row of their company owns, and anything flat outside the company folders
 * that no row names. Folders that are no company's are left alone (the store never writes one),
 * and logged.
 */
export function sweepStoredFiles(ctx: Ctx): number {
  const root = ctx.paths.attachments;
  const live = new Map<string, Set<string>>();
  const named = new Set<string>();
  for (const r of ctx.db.select({ companyId: assets.companyId, name: assets.storageName }).from(assets).where(isNull(assets.deletedAt)).all()) {
    let names = live.get(r.companyId);
    if (!names) live.set(r.companyId, (names = new Set()));
    names.add(r.name);
    named.add(r.name);
  }
  let removed = 0;
  for (const name of readdirSync(root)) {
    const entry = path.join(root, name);
    if (!lstatSync(entry).isDirectory()) {
      // Still flat only if moveFlatFiles could not place it; never remove what a live row names.
      if (named.has(name)) continue;
      unlinkSync(entry);
      removed++;
      continue;
    }
    if (!isCompanyFolderName(name)) {
      ctx.logger.warn('left a folder in attachments/ that is no company folder', { folder: name.slice(0, 200) });
      continue;
    }
    const keep = live.get(name);
    for (const file of readdirSync(entry)) {
      if (keep?.has(file)) continue;
      // Only files (and links, removed as links): a folder here was never written by the store.
      if (lstatSync(path.join(entry, file)).isDirectory()) continue;
      unlinkSync(path.join(entry, file));
      removed++;
    }
  }
  return removed;
}
