import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, unlinkSync, writeFileSync, createReadStream, type ReadStream } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { assets, type AssetRow } from './schema.js';
import { newId } from '../ids.js';
import type { Actor } from '../http/actor.js';
import { actorRef } from '../http/actor.js';
import { assertRecordAccess } from '../access.js';
import { notFound } from '../errors.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Tx } from '../context.js';

/** Uploads (logos and attachments) are limited to 10 MiB each; documented in the README. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export interface NewAsset {
  companyId: string;
  kind: AssetRow['kind'];
  contentType: string;
  originalName: string;
  bytes: Buffer;
}

/** Keeps only characters that are safe in a Content-Disposition filename. */
export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/'));
  const cleaned = base.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 200).trim();
  return cleaned || 'file';
}

export function createAssetsService(ctx: CoreContext) {
  mkdirSync(ctx.paths.attachments, { recursive: true, mode: 0o700 });
  const fileOf = (row: Pick<AssetRow, 'storageName'>) => path.join(ctx.paths.attachments, row.storageName);

  return {
    /**
     * Writes the bytes under a generated name, then records the row (and activity) in `tx` via
     * `afterInsert`. If the transaction fails the file is removed again, so nothing is half-written.
     */
    store(actor: Actor, input: NewAsset, afterInsert?: (tx: Tx, row: AssetRow) => void): AssetRow {
      const id = newId();
      const storageName = id;
      const target = fileOf({ storageName });
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
            })
            .returning()
            .get();
          recordActivity(tx, at, actor, {
            companyId: input.companyId,
            action: 'asset.uploaded',
            entityType: 'asset',
            entityId: id,
            summary: `Uploaded ${input.kind} "${row.originalName}" (${input.contentType}, ${input.bytes.length} bytes)`,
          });
          afterInsert?.(tx, row);
          return row;
        });
      } catch (err) {
        unlinkSync(target);
        throw err;
      }
    },

    get(actor: Actor, assetId: string): AssetRow {
      const row = ctx.db.select().from(assets).where(eq(assets.id, assetId)).get();
      if (!row) throw notFound('Asset');
      assertRecordAccess(actor, row.companyId, 'Asset');
      return row;
    },

    open(row: AssetRow): ReadStream {
      return createReadStream(fileOf(row));
    },
  };
}

export type AssetsService = ReturnType<typeof createAssetsService>;
