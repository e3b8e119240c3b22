import { createHash } from 'node:crypto';
import { mkdirSync, openSync, renameSync, unlinkSync, writeFileSync, createReadStream, type ReadStream } from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { assets, type AssetRow } from './schema.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import { assertRecordAccess } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';
import { recordActivity, type ActivityEntry } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Tx } from '../context.js';
import { companyFile, companyFileOrNull } from './company-files.js';
import { sweepStoredFiles, moveFlatFiles } from './layout.js';

/** Uploads (logos and attachments) are limited to 10 MiB each; documented in the README. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export interface NewAsset {
  companyId: string;
  kind: AssetRow['kind'];
  contentType: string;
  originalName: string;
  bytes: Buffer;
  issueId?: string | null;
}

export interface StoreHooks {
  /** The activity record written with the row; logos default to `asset.uploaded`. */
  activity?: (row: AssetRow) => ActivityEntry;
  /** More writes in the same transaction (touching the issue, linking the logo). */
  afterInsert?: (tx: Tx, row: AssetRow, at: string) => void;
}

const MAX_NAME_CHARS = 200;

/**
 * The client's file name reduced to metadata we can show and put in a Content-Disposition header:
 * no directories, no control, quote, slash or bidi characters. Letters of any script stay (the
 * header encodes them per RFC 5987), so a name is still recognisable to the founder.
 */
export function safeFileName(name: string): string {
  const base = path.posix.basename(name.normalize('NFC').replace(/\\/g, '/'));
  const cleaned = Array.from(base.replace(/[^\p{L}\p{M}\p{N}._ ()-]/gu, '_'))
    .slice(0, MAX_NAME_CHARS)
    .join('')
    .trim();
  return /^[. ]*$/.test(cleaned) ? 'file' : cleaned;
}

export function createAssetsService(ctx: CoreContext) {
  mkdirSync(ctx.paths.attachments, { recursive: true, mode: 0o700 });
  // Storage names are generated UUIDs; nothing the client sends ever reaches a path. A row is still
  // not trusted to hold one (an old import, a hand edit): its file is looked up only directly
  // inside its own company's folder (company-files.ts).
  /**
   * The stored file of a row that is read or deleted, or null: a name leading out of its company's
   * folder (or a company id that is no folder name) is never followed.
   */
  const storedFileOf = (row: Pick<AssetRow, 'id' | 'companyId' | 'storageName'>): string | null => {
    const file = companyFileOrNull(ctx.paths.attachments, row);
    if (!file) ctx.logger.error("refused an asset whose stored name leads outside its company's folder", { assetId: row.id });
    return file;
  };

  const defaultActivity = (row: AssetRow): ActivityEntry => ({
    companyId: row.companyId,
    action: 'asset.uploaded',
    entityType: 'asset',
    entityId: row.id,
    summary: `Uploaded ${row.kind} "${row.originalName}" (${row.contentType}, ${row.byteSize} bytes)`,
  });

  return {
    /**
     * Writes the bytes under a generated name, then records the row and its activity in one
     * transaction. If the transaction fails the file is removed again, so nothing is half-written.
     */
    store(actor: Actor, input: NewAsset, hooks: StoreHooks = {}): AssetRow {
      const id = newId();
      const storageName = id;
      const target = companyFile(ctx.paths.attachments, { companyId: input.companyId, storageName });
      mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      const temp = `${target}.partial`;
      writeFileSync(temp, input.bytes, { mode: 0o600 });
      renameSync(temp, target);
      try {
        return inTransaction(ctx, (tx) => {
          const at = isoNow(ctx);
          const ref = actorRef(actor);
          const row = tx
            .insert(assets)
            .values({
              id,
              companyId: input.companyId,
              kind: input.kind,
              contentType: input.contentType,
              byteSize: input.bytes.length,
              sha256: createHash('sha256').update(input.bytes).digest('hex'),
              originalName: safeFileName(input.originalName),
              storageName,
              createdByType: ref.actorType,
              createdById: ref.actorId,
              createdAt: at,
              issueId: input.issueId ?? null,
            })
            .returning()
            .get();
          recordActivity(tx, at, actor, (hooks.activity ?? defaultActivity)(row));
          hooks.afterInsert?.(tx, row, at);
          return row;
        });
      } catch (err) {
        unlinkSync(target);
        throw err;
      }
    },

    /** A live (not deleted) asset of that kind the actor may see; anything else is the same 404. */
    get(actor: Actor, assetId: string, kind: AssetRow['kind'], entity = 'Asset'): AssetRow {
      const row = ctx.db
        .select()
        .from(assets)
        .where(and(eq(assets.id, assetId), eq(assets.kind, kind), isNull(assets.deletedAt)))
        .get();
      if (!row) throw notFound(entity);
      assertRecordAccess(actor, row.companyId, entity);
      return row;
    },

    /**
     * Soft-deletes the row (it stays for the activity log) with `during` in the same transaction,
     * then removes the bytes. The file goes only after the commit, so a failed delete loses nothing;
     * a crash in between leaves an orphan file, never a live row without bytes.
     */
    remove(row: AssetRow, during: (tx: Tx, at: string) => void, entity = 'Asset'): void {
      inTransaction(ctx, (tx) => {
        const at = isoNow(ctx);
        const gone = tx
          .update(assets)
          .set({ deletedAt: at })
          .where(and(eq(assets.id, row.id), isNull(assets.deletedAt)))
          .run();
        // A concurrent delete won the race: answer as if it had already happened.
        if (gone.changes === 0) throw notFound(entity);
        during(tx, at);
      });
      const file = storedFileOf(row);
      if (!file) return;
      try {
        unlinkSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          ctx.logger.error('could not remove a deleted asset file', { assetId: row.id, message: (err as Error).message });
        }
      }
    },

    /**
     * Moves files of the old flat layout (`attachments/<storageName>`) into the folder of the
     * company whose row recorded them first. Run at start, before sweepOrphans.
     */
    moveFlatFiles(): number {
      return moveFlatFiles(ctx);
    },

    /**
     * Removes files no live row of their company owns: left by a crash between a delete's commit
     * and its unlink, or between writing an upload and recording it. Run at start, before requests
     * are served.
     */
    sweepOrphans(): number {
      return sweepStoredFiles(ctx);
    },

    open(row: AssetRow): ReadStream {
      const file = storedFileOf(row);
      if (!file) throw notFound('Stored file');
      // Opened here, so a row without its file (a forged row in another company's name, bytes
      // lost to a crash) is the same 404 rather than a stream that fails mid-reply.
      let fd: number;
      try {
        fd = openSync(file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('Stored file');
        throw err;
      }
      return createReadStream(file, { fd });
    },
  };
}

export type AssetsService = ReturnType<typeof createAssetsService>;
